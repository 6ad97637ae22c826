package yardstick_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/retro-solver/retro/bench/yardstick"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit/police"
)

var ctx = context.Background()

// TestPoliceMatchesEngine checks the yardstick against the sequential
// engine, index by index, on random boards with walls and exits.
func TestPoliceMatchesEngine(t *testing.T) {
	for seed := range uint64(40) {
		rows, cols := 1+int(seed%7), 2+int(seed*5%9)
		b := police.Random(rows, cols, 0.15, 0.1, seed)
		want, err := engine.Sequential(ctx, police.New(b), engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 3} {
			got, err := yardstick.SolvePolice(b, workers)
			if err != nil {
				t.Fatal(err)
			}
			if got.Size() != want.Size() {
				t.Fatalf("seed %d: %d positions, the engine has %d", seed, got.Size(), want.Size())
			}
			for i := range want.Size() {
				if engine.Value(got.Value(i)) != want.Value(i) || got.Depth(i) != want.Depth(i) {
					t.Fatalf("seed %d, %d workers: index %d is %v %d, the engine says %v %d",
						seed, workers, i, engine.Value(got.Value(i)), got.Depth(i), want.Value(i), want.Depth(i))
				}
			}
		}
	}
}

// BenchmarkPolice solves the engine benchmarks' police board (64 x 64, 10%
// walls) with the yardstick and with the parallel engine, side by side:
// `benchstat -col /solver` compares them.
func BenchmarkPolice(b *testing.B) {
	board := police.Random(64, 64, 0.1, 0.005, 1)
	g := police.New(board)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("solver=yardstick/workers=%d", w), func(b *testing.B) {
			for range b.N {
				if _, err := yardstick.SolvePolice(board, w); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("solver=engine/workers=%d", w), func(b *testing.B) {
			for range b.N {
				if _, err := engine.Parallel(ctx, g, engine.Options{Workers: w}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
