package engine

import (
	"context"
	"testing"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/morris"
	"github.com/retro-solver/retro/implicit/pawns"
	"github.com/retro-solver/retro/implicit/police"
	"github.com/retro-solver/retro/internal/testsize"
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

// exitGraph is a graph whose vertices have exits by their number: a fifth
// reach a loss (their count takes one more move), a fifth reach only wins,
// and a tenth are illegal; as parted, its positions come in parts of 7, in
// reverse order, the illegal ones in none.
type exitGraph struct {
	*graph.Graph
	parted bool
}

func (g exitGraph) ClassifyExits(s uint64, buf []uint64) (implicit.Kind, uint64, Exit, []uint64) {
	if s%10 == 3 {
		return implicit.Illegal, 0, Exit{}, buf
	}
	kind, k := g.Graph.ClassifyCount(s)
	switch s % 5 {
	case 1:
		return kind, k, Exit{Kind: ExitToLoss, Depth: s % 4}, buf
	case 2:
		return kind, k, Exit{Kind: ExitToWins, Depth: s % 6}, buf
	}
	return kind, k, Exit{}, buf
}

func (g exitGraph) MaxExitDepth() uint64 { return 6 }

// partedGraph is exitGraph as a Parted game.
type partedGraph struct{ exitGraph }

func (g partedGraph) Parts() uint64 { return (g.Size() + 6) / 7 }

func (g partedGraph) Part(j uint64, dst []uint64) []uint64 {
	for i := min((j+1)*7, g.Size()); i > j*7; i-- {
		if (i-1)%10 != 3 {
			dst = append(dst, i-1)
		}
	}
	return dst
}

// probedGraph is a graph that probes its vertices for a move
// (implicit.MoveProber): its counts are taken lazily.
type probedGraph struct{ *graph.Graph }

func (g probedGraph) ProbeMoves(s uint64) (implicit.Kind, bool) {
	return g.Classify(s), g.NumMoves(s) > 0
}

// The census that each way of classifying counts as it goes equals the
// pass over the lanes that a resumed solve makes, whatever the number of
// workers: the unresolved positions, their moves (an exit's one more; none
// where the counts are lazy), and the illegal indices (Lasker morris's placements, the exit games' tenth,
// and a parted game's positions in no part).
func TestClassifyCounts(t *testing.T) {
	g := graph.Random(5000, 12000, 3)
	games := map[string]implicit.Game{
		"graph":        g,
		"pawns":        pawns.New(pawns.Random(5, 6, 0.1, 2)),
		"police":       police.New(police.Random(12, 12, 0.1, 0.02, 4)),
		"exits":        exitGraph{Graph: g},
		"parted exits": partedGraph{exitGraph{Graph: g}},
		"lazy counts":  probedGraph{g},
	}
	if m, err := morris.New(morris.Lasker, 3); err == nil {
		games["morris"] = m
	} else {
		t.Fatal(err)
	}
	workers := []int{1, 3}
	if testsize.Race {
		workers = workers[1:] // one worker's classification has nothing to race
	}
	for name, g := range games {
		for _, w := range workers {
			width, err := parLaneWidth(g)
			if err != nil {
				t.Fatal(err)
			}
			s, err := newParSolver(g, width, Options{Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			defer s.close()
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
			lazy := name == "lazy counts" // its census counts no moves
			if u == 0 || m < u && !lazy || (name != "graph" && name != "pawns" && name != "police" && !lazy && i == 0) {
				t.Errorf("%s: %d unresolved with %d moves, %d illegal: no test", name, u, m, i)
			}
			s.prog.Stop()
		}
	}
}
