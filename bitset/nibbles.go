package bitset

import "sync/atomic"

// Nibbles is a packed array of 4-bit values, 16 to a word: nibble i is bits
// 4*(i%16) and up of word i/16. The zero value has length 0; NewNibbles
// makes one.
type Nibbles struct {
	words []uint64
	mem   *mapping // keeps mapped words alive
	n     uint64
}

// NewNibbles returns n nibbles, all zero.
func NewNibbles(n uint64) Nibbles {
	w, m := allocWords((n + 15) / 16)
	return Nibbles{words: w, mem: m, n: n}
}

// Len returns the number of nibbles.
func (p Nibbles) Len() uint64 { return p.n }

// Words returns the backing words. They stay valid while p (or a copy) is
// reachable.
func (p Nibbles) Words() []uint64 { return p.words }

// Get returns nibble i.
func (p Nibbles) Get(i uint64) uint8 { return uint8(p.words[i>>4] >> ((i & 15) * 4) & 15) }

// Set stores v (0..15) as nibble i. It is not safe for concurrent use on the
// same word.
func (p Nibbles) Set(i uint64, v uint8) {
	sh := (i & 15) * 4
	w := &p.words[i>>4]
	*w = *w&^(15<<sh) | uint64(v&15)<<sh
}

// AtomicGet returns nibble i, with an atomic load.
func (p Nibbles) AtomicGet(i uint64) uint8 {
	return uint8(atomic.LoadUint64(&p.words[i>>4]) >> ((i & 15) * 4) & 15)
}

// AtomicOr sets bits v of nibble i with an atomic OR and returns the
// nibble's old value; safe for concurrent use.
func (p Nibbles) AtomicOr(i uint64, v uint8) uint8 {
	sh := (i & 15) * 4
	return uint8(atomic.OrUint64(&p.words[i>>4], uint64(v&15)<<sh) >> sh & 15)
}

// LowPairs turns p, in place, into the 2-bit array of the low two bits of
// its nibbles, and returns it; p must no longer be used. It runs on one
// goroutine, word by word: value word j is built from nibble words 2j and
// 2j+1, which no earlier step has overwritten. The half it no longer uses
// goes back to the system where p was mapped apart from the Go heap: what
// follows a solve (a database's compressors) fits in it.
func (p Nibbles) LowPairs() TwoBits {
	need := (p.n + 31) / 32
	for j := range need {
		lo := pairs(p.words[2*j])
		var hi uint64
		if 2*j+1 < uint64(len(p.words)) {
			hi = pairs(p.words[2*j+1])
		}
		p.words[j] = lo | hi<<32
	}
	zeroRelease(p.words[need:], p.mem)
	return TwoBits{words: p.words[:need], mem: p.mem}
}

// pairs gathers the low two bits of the 16 nibbles of x into 32 bits.
func pairs(x uint64) uint64 {
	x &= 0x3333_3333_3333_3333
	x = (x | x>>2) & 0x0f0f_0f0f_0f0f_0f0f
	x = (x | x>>4) & 0x00ff_00ff_00ff_00ff
	x = (x | x>>8) & 0x0000_ffff_0000_ffff
	return (x | x>>16) & 0xffff_ffff
}
