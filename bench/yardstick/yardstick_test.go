package yardstick_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/retro-solver/retro/bench"
	"github.com/retro-solver/retro/bench/yardstick"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/pawns"
	"github.com/retro-solver/retro/implicit/police"
)

var ctx = context.Background()

// sameAsEngine checks a yardstick's solution against the sequential
// engine's solve of g, index by index.
func sameAsEngine(t *testing.T, label string, g implicit.Game, got *yardstick.Solution) {
	t.Helper()
	want, err := engine.Sequential(ctx, g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Size() != want.Size() {
		t.Fatalf("%s: %d positions, the engine has %d", label, got.Size(), want.Size())
	}
	for i := range want.Size() {
		if engine.Value(got.Value(i)) != want.Value(i) || got.Depth(i) != want.Depth(i) {
			t.Fatalf("%s: index %d is %v %d, the engine says %v %d",
				label, i, engine.Value(got.Value(i)), got.Depth(i), want.Value(i), want.Depth(i))
		}
	}
}

// TestPoliceMatchesEngine checks the police yardstick against the
// sequential engine on random boards with walls and exits.
func TestPoliceMatchesEngine(t *testing.T) {
	for seed := range uint64(40) {
		rows, cols := 1+int(seed%7), 2+int(seed*5%9)
		b := police.Random(rows, cols, 0.15, 0.1, seed)
		for _, workers := range []int{1, 3} {
			got, err := yardstick.SolvePolice(b, workers)
			if err != nil {
				t.Fatal(err)
			}
			sameAsEngine(t, fmt.Sprintf("police seed %d, %d workers", seed, workers), police.New(b), got)
		}
	}
}

// TestPawnsMatchesEngine checks the pawns yardstick against the sequential
// engine on random boards with walls.
func TestPawnsMatchesEngine(t *testing.T) {
	for seed := range uint64(40) {
		rows, cols := 2+int(seed%6), 2+int(seed*5%7)
		b := pawns.Random(rows, cols, 0.15, seed)
		for _, workers := range []int{1, 3} {
			got, err := yardstick.SolvePawns(b, workers)
			if err != nil {
				t.Fatal(err)
			}
			sameAsEngine(t, fmt.Sprintf("pawns seed %d, %d workers", seed, workers), pawns.New(b), got)
		}
	}
}

// TestGraphMatchesEngine checks the graph yardstick against the sequential
// engine on random graphs: sparse and dense, with self-loops, repeated
// edges and isolated vertices as they fall.
func TestGraphMatchesEngine(t *testing.T) {
	for seed := range uint64(40) {
		n := 1 + seed*7%60
		g := graph.Random(n, n*(seed%4)+seed%5, seed)
		y, err := yardstick.NewGraph(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 3} {
			sameAsEngine(t, fmt.Sprintf("graph seed %d, %d workers", seed, workers), g, y.Solve(workers))
		}
	}
}

// BenchmarkPolice solves the engine benchmarks' police board (64 x 64, 10%
// walls) with the yardstick and with the engines, side by side:
// `benchstat -col /solver` compares them.
func BenchmarkPolice(b *testing.B) {
	board := police.Random(64, 64, 0.1, 0.005, 1)
	compare(b, police.New(board), 0, func(w int) error {
		_, err := yardstick.SolvePolice(board, w)
		return err
	})
}

// BenchmarkPawns is BenchmarkPolice on the pawns board of retro bench's
// pawns-16x16 workload (16 x 16, no walls: 8.4 million positions).
func BenchmarkPawns(b *testing.B) {
	board := pawns.Random(16, 16, 0, 3)
	compare(b, pawns.New(board), 0, func(w int) error {
		_, err := yardstick.SolvePawns(board, w)
		return err
	})
}

// BenchmarkGraph is BenchmarkPolice on the engine benchmarks' random graph
// (10^7 vertices, 2*10^7 edges), with the predecessor edges walked per
// second; solver=roof is the machine's random atomic read-modify-writes
// per second over 2 bytes per vertex (the par engine's lanes), the roof
// that retro bench reports beside it.
func BenchmarkGraph(b *testing.B) {
	g := graph.Random(10_000_000, 20_000_000, 1)
	y, err := yardstick.NewGraph(g)
	if err != nil {
		b.Fatal(err)
	}
	r, err := engine.Parallel(ctx, g, engine.Options{})
	if err != nil {
		b.Fatal(err)
	}
	compare(b, g, r.Edges(), func(w int) error {
		y.Solve(w)
		return nil
	})
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("solver=roof/workers=%d", w), func(b *testing.B) {
			var rate float64
			for range b.N {
				rate += bench.AtomicRate(2*g.Size(), w, 1<<24)
			}
			b.ReportMetric(rate/float64(b.N), "ops/s")
		})
	}
}

// compare runs the yardstick (solve) and the parallel and lean engines on
// g with 1 and 2 workers; where edges, the predecessor edges a solve of g
// walks, is not 0, it reports them per second.
func compare(b *testing.B, g implicit.Game, edges uint64, solve func(workers int) error) {
	for _, w := range []int{1, 2} {
		for _, solver := range []string{"yardstick", "par", "lean"} {
			b.Run(fmt.Sprintf("solver=%s/workers=%d", solver, w), func(b *testing.B) {
				for range b.N {
					var err error
					switch solver {
					case "yardstick":
						err = solve(w)
					case "par":
						_, err = engine.Parallel(ctx, g, engine.Options{Workers: w})
					case "lean":
						_, err = engine.Lean(ctx, g, engine.Options{Workers: w})
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				if edges != 0 {
					b.ReportMetric(float64(edges)*float64(b.N)/b.Elapsed().Seconds(), "edges/s")
				}
			})
		}
	}
}
