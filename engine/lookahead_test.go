package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
)

// recorder is an UnmovePrefetcher that records the positions asked for.
type recorder struct {
	*graph.Graph
	asked []uint64
}

func (r *recorder) PrefetchUnmoves(t uint64) { r.asked = append(r.asked, t) }

// The lookahead asks for every position of [lo, hi) once, in order,
// lookaheadDistance ahead of the one scattered, and for none outside.
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
		rec := &recorder{}
		a := newLookahead(rec, words, lo, hi)
		if n := min(len(want), lookaheadDistance); len(rec.asked) != n {
			t.Fatalf("density %d: %d asked for at the start, want %d", density, len(rec.asked), n)
		}
		for i := range want {
			a.next()
			if n := min(len(want), i+1+lookaheadDistance); len(rec.asked) != n {
				t.Fatalf("density %d: %d asked for after %d positions, want %d", density, len(rec.asked), i+1, n)
			}
		}
		if !slices.Equal(rec.asked, want) {
			t.Fatalf("density %d: asked for %v, want %v", density, rec.asked, want)
		}
	}
	// A game that does not prefetch gets a lookahead that does nothing.
	hidden := struct{ implicit.Game }{graph.Random(10, 20, 1)}
	if a := newLookahead(hidden, []uint64{1, 1}, 0, 2); a.g != nil {
		t.Fatal("a game that is no UnmovePrefetcher is asked to prefetch")
	}
}
