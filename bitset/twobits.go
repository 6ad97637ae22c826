package bitset

import "sync/atomic"

// TwoBits is a packed array of 2-bit values, 32 to a word.
// The zero value has length 0; NewTwoBits makes one of a given length.
type TwoBits struct {
	words []uint64
	mem   *mapping // keeps mapped words alive
}

// NewTwoBits returns n 2-bit values, all zero.
func NewTwoBits(n uint64) TwoBits {
	w, m := allocWords((n + 31) / 32)
	return TwoBits{words: w, mem: m}
}

// Release zeroes p and gives the whole pages of its words back to the
// system where it maps them apart from the Go heap, as Set.Release does.
func (p TwoBits) Release() { zeroRelease(p.words, p.mem) }

// Resized returns n zero values that share p's storage, and whether p had
// room for them; p must no longer be used.
func (p TwoBits) Resized(n uint64) (TwoBits, bool) {
	need := (n + 31) / 32
	if need > uint64(cap(p.words)) {
		return p, false
	}
	w := p.words[:need]
	clear(w)
	return TwoBits{words: w, mem: p.mem}, true
}

// Words returns the backing words; value i is bits 2*(i%32) and up of word
// i/32. They stay valid while p (or a copy) is reachable.
func (p TwoBits) Words() []uint64 { return p.words }

// Get returns value i.
func (p TwoBits) Get(i uint64) uint8 {
	return uint8(p.words[i>>5] >> ((i & 31) * 2) & 3)
}

// Set stores v (0..3) as value i. It is not safe for concurrent use on the same word.
func (p TwoBits) Set(i uint64, v uint8) {
	sh := (i & 31) * 2
	w := &p.words[i>>5]
	*w = *w&^(3<<sh) | uint64(v&3)<<sh
}

// AtomicGet returns value i, with an atomic load.
func (p TwoBits) AtomicGet(i uint64) uint8 {
	return uint8(atomic.LoadUint64(&p.words[i>>5]) >> ((i & 31) * 2) & 3)
}

// Count returns how many of the first n values equal v.
func (p TwoBits) Count(v uint8, n uint64) uint64 {
	// Turn each 2-bit lane into a single bit that is 1 where the lane equals v,
	// then count bits: x ^ pattern is 00 exactly where the lane matches.
	pattern := uint64(v&3) * 0x5555555555555555
	var c uint64
	for wi, w := range p.words {
		first := uint64(wi) * 32
		if first >= n {
			break
		}
		x := w ^ pattern
		match := ^(x | x>>1) & 0x5555555555555555
		if first+32 > n {
			match &= 1<<((n-first)*2) - 1
		}
		c += uint64(popcount(match))
	}
	return c
}
