package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The lookahead walks every position of [lo, hi) once, in order, and none
// outside; switched off, none.
func TestLookahead(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, density := range []uint64{0, 1, 8, 64} {
		words := make([]uint64, 40)
		for i := range words {
			for range density {
				words[i] |= 1 << r.Uint64N(64)
			}
		}
		lo, hi := uint64(3), uint64(37)
		var want []uint64
		for wi := lo; wi < hi; wi++ {
			for b := range uint64(64) {
				if words[wi]>>b&1 != 0 {
					want = append(want, wi<<6|b)
				}
			}
		}
		a := newLookahead(words, lo, hi, true)
		var got []uint64
		for {
			p, ok := a.next()
			if !ok {
				break
			}
			got = append(got, p)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("density %d: walked %v, want %v", density, got, want)
		}
		if _, ok := a.next(); ok {
			t.Fatalf("density %d: a position past the end", density)
		}
		off := newLookahead(words, lo, hi, false)
		if p, ok := off.next(); ok {
			t.Fatalf("density %d: switched off, it walked %d", density, p)
		}
	}
}
