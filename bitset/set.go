package bitset

import (
	"math/bits"
	"sync/atomic"
)

// Set is a packed set of non-negative integers, one bit each.
// The zero value is an empty set of capacity 0; NewSet makes one of a given capacity.
type Set struct {
	words []uint64
	mem   *mapping // keeps mapped words alive
}

// NewSet returns an empty set that can hold the integers [0, n).
func NewSet(n uint64) Set {
	w, m := allocWords((n + 63) / 64)
	return Set{words: w, mem: m}
}

// Resized returns an empty set for [0, n) that shares s's storage, and
// whether s had room for it; s must no longer be used.
func (s Set) Resized(n uint64) (Set, bool) {
	need := (n + 63) / 64
	if need > uint64(cap(s.words)) {
		return s, false
	}
	w := s.words[:need]
	clear(w)
	return Set{words: w, mem: s.mem}, true
}

// Release empties s and gives the whole pages of its words back to the
// system where it maps them apart from the Go heap: they take no memory
// until the set is written again. A solve that is done with a large set
// but keeps it for the next (a Workspace's) frees its memory at once,
// where dropping it would wait for a collection.
func (s Set) Release() { zeroRelease(s.words, s.mem) }

// Words returns the set's backing words; bit i of the set is bit i%64 of word
// i/64. They stay valid while s (or a copy) is reachable.
func (s Set) Words() []uint64 { return s.words }

// Len returns the capacity of the set in bits (a multiple of 64).
func (s Set) Len() uint64 { return uint64(len(s.words)) * 64 }

// Test reports whether i is in the set.
func (s Set) Test(i uint64) bool { return s.words[i>>6]&(1<<(i&63)) != 0 }

// Add puts i in the set. It is not safe for concurrent use on the same word.
func (s Set) Add(i uint64) { s.words[i>>6] |= 1 << (i & 63) }

// AtomicAdd puts i in the set; safe for concurrent use.
func (s Set) AtomicAdd(i uint64) { atomic.OrUint64(&s.words[i>>6], 1<<(i&63)) }

// AtomicAddWord adds the indices 64k + j for each bit j set in x, with one
// atomic OR into word k.
func (s Set) AtomicAddWord(k, x uint64) { atomic.OrUint64(&s.words[k], x) }

// TestAndAdd puts i in the set and reports whether this call added it
// (false if it was already there). It reads before it writes, so a bit that
// is already set costs no read-modify-write; safe for concurrent use.
func (s Set) TestAndAdd(i uint64) bool {
	p, m := &s.words[i>>6], uint64(1)<<(i&63)
	if atomic.LoadUint64(p)&m != 0 {
		return false
	}
	return atomic.OrUint64(p, m)&m == 0
}

// Count returns the number of integers in the set.
func (s Set) Count() uint64 {
	var n int
	for _, w := range s.words {
		n += bits.OnesCount64(w)
	}
	return uint64(n)
}

// Clear empties the set.
func (s Set) Clear() { clear(s.words) }
