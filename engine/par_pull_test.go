package engine

import (
	"context"
	"testing"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/morris"
	"github.com/retro-solver/retro/implicit/pawns"
	"github.com/retro-solver/retro/implicit/police"
)

// sampleRuns times the indices it visits even where they list no move,
// so that a pull over a range of few unresolved positions still costs
// its scan (directions.pull).
func TestSampleRuns(t *testing.T) {
	visited := 0
	perIndex, perMove := sampleRuns(1<<20, 16, func(uint64) uint64 { visited++; return 0 })
	if visited != 16*256 || perIndex <= 0 || perMove != 0 {
		t.Errorf("no moves: %d visited, %v ns an index, %v a move; want 4096, > 0, 0", visited, perIndex, perMove)
	}
	perIndex, perMove = sampleRuns(100, 16, func(uint64) uint64 { return 4 })
	if perIndex <= 0 || perMove*4 != perIndex {
		t.Errorf("4 moves an index: %v ns an index, %v a move", perIndex, perMove)
	}
}

// The census that classify counts as it goes equals the pass over the
// lanes that a resumed solve makes, whatever the number of workers: the
// unresolved positions, their moves, and the illegal indices (the pawns'
// boards have walls, the police boards illegal placements).
func TestClassifyCounts(t *testing.T) {
	games := map[string]implicit.Game{
		"graph":  graph.Random(5000, 12000, 3),
		"pawns":  pawns.New(pawns.Random(5, 6, 0.1, 2)),
		"police": police.New(police.Random(12, 12, 0.1, 0.02, 4)),
	}
	if m, err := morris.New(morris.Lasker, 3); err == nil {
		games["morris"] = m // its index has illegal placements
	} else {
		t.Fatal(err)
	}
	var illegal uint64
	for name, g := range games {
		for _, w := range []int{1, 3} {
			width, err := parLaneWidth(g)
			if err != nil {
				t.Fatal(err)
			}
			s := newParSolver(g, width, Options{Workers: w})
			s.prog = StartProgress(Options{}, s.n)
			if err := s.classify(context.Background()); err != nil {
				t.Fatal(err)
			}
			if s.classified == nil {
				t.Fatalf("%s, %d workers: classify counted nothing", name, w)
			}
			u, m, i, _ := s.census(context.Background())
			if s.classified != nil {
				t.Fatalf("%s: census left the counts to be taken again", name)
			}
			pu, pm, pi, _ := s.census(context.Background()) // the pass over the lanes
			if u != pu || m != pm || i != pi {
				t.Errorf("%s, %d workers: classify counted %d unresolved, %d moves, %d illegal; the lanes hold %d, %d, %d",
					name, w, u, m, i, pu, pm, pi)
			}
			if u == 0 || m < u {
				t.Errorf("%s: %d unresolved with %d moves: no test", name, u, m)
			}
			illegal += i
			s.prog.Stop()
		}
	}
	if illegal == 0 {
		t.Error("no game has an illegal index: the illegal count goes untested")
	}
}
