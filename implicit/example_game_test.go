package implicit_test

import (
	"context"
	"fmt"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
)

// Subtraction is a game a user writes in their own module: a heap of up to
// N counters, each move takes 1, 2 or 3 of them, and the player who cannot
// move loses. Position s is a heap of s counters.
type Subtraction struct{ N uint64 }

func (g Subtraction) Size() uint64                  { return g.N + 1 }
func (g Subtraction) MaxMoves() uint64              { return 3 }
func (g Subtraction) Classify(uint64) implicit.Kind { return implicit.Inner }

// Moves appends s-1, s-2 and s-3, where they are heaps.
func (g Subtraction) Moves(s uint64, dst []uint64) []uint64 {
	for k := uint64(1); k <= 3 && k <= s; k++ {
		dst = append(dst, s-k)
	}
	return dst
}

// Unmoves appends t+1, t+2 and t+3, where they fit in the index.
func (g Subtraction) Unmoves(t uint64, dst []uint64) []uint64 {
	for k := uint64(1); k <= 3 && t+k <= g.N; k++ {
		dst = append(dst, t+k)
	}
	return dst
}

// A game written outside retro, against the implicit.Game interface alone,
// solved by the parallel engine: heaps that are multiples of 4 are lost.
func Example_userGame() {
	g := Subtraction{N: 9}
	r, err := engine.Parallel(context.Background(), g, engine.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for s := range g.Size() {
		fmt.Printf("heap %d: %v in %d\n", s, r.Value(s), r.Depth(s))
	}
	// Output:
	// heap 0: loss in 0
	// heap 1: win in 1
	// heap 2: win in 1
	// heap 3: win in 1
	// heap 4: loss in 2
	// heap 5: win in 3
	// heap 6: win in 3
	// heap 7: win in 3
	// heap 8: loss in 4
	// heap 9: win in 5
}
