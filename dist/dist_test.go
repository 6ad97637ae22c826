package dist_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/retro-solver/retro/dist"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/engine/enginetest"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
)

// solveLocal runs the distributed engine on ranks goroutines of this
// process and returns rank 0's result and the levels' record.
func solveLocal(t *testing.T, g implicit.Game, ranks, workers int) (*engine.Result, *engine.DistStats) {
	t.Helper()
	comms := dist.Local(ranks)
	results := make([]*engine.Result, ranks)
	stats := make([]*engine.DistStats, ranks)
	errs := make(chan error, ranks)
	for r, c := range comms {
		go func() {
			var err error
			results[r], stats[r], err = engine.Distributed(context.Background(), g, c, engine.Options{Workers: workers})
			errs <- err
		}()
	}
	for range ranks {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for r := 1; r < ranks; r++ {
		if results[r] != nil {
			t.Fatalf("rank %d returned a result; only rank 0 should", r)
		}
		if fmt.Sprint(stats[r]) != fmt.Sprint(stats[0]) {
			t.Fatalf("rank %d's record of the levels differs from rank 0's", r)
		}
	}
	return results[0], stats[0]
}

// TestRandomGraphs checks the distributed engine against the sequential
// reference on random graphs, value and depth of every vertex, for 1 to 5
// ranks (more ranks than vertices included) and 1 or 3 workers each.
func TestRandomGraphs(t *testing.T) {
	seeds := uint64(150)
	if testing.Short() {
		seeds = 40
	}
	for seed := range seeds {
		g := enginetest.RandomGraph(seed)
		want, err := engine.Sequential(context.Background(), g, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ranks, workers := 1+int(seed%5), 1+2*int(seed/5%2)
		got, st := solveLocal(t, g, ranks, workers)
		if i, differ := engine.Diff(want, got); differ {
			t.Fatalf("seed %d, %d ranks: vertex %d is %v %d; the sequential engine says %v %d",
				seed, ranks, i, got.Value(i), got.Depth(i), want.Value(i), want.Depth(i))
		}
		if got.MaxDepth() != want.MaxDepth() {
			t.Fatalf("seed %d: max depth %d, want %d", seed, got.MaxDepth(), want.MaxDepth())
		}
		tot := st.Totals()
		if tot.Crossing > tot.Edges || tot.Bytes != 8*tot.Crossing || ranks == 1 && tot.Crossing != 0 {
			t.Fatalf("seed %d, %d ranks: %d edges, %d crossing, %d bytes", seed, ranks, tot.Edges, tot.Crossing, tot.Bytes)
		}
		if tot.Edges != got.Edges() {
			t.Fatalf("seed %d: the levels walked %d edges, the result says %d", seed, tot.Edges, got.Edges())
		}
	}
}

// TestLargerGraph checks a graph of 20,000 vertices over 4 ranks: many
// levels, most edges crossing ranks.
func TestLargerGraph(t *testing.T) {
	g := graph.Random(20000, 50000, 7)
	want, err := engine.Sequential(context.Background(), g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ranks := range []int{2, 4} {
		got, st := solveLocal(t, g, ranks, 2)
		if i, differ := engine.Diff(want, got); differ {
			t.Fatalf("%d ranks: vertex %d is %v %d; want %v %d", ranks, i, got.Value(i), got.Depth(i), want.Value(i), want.Depth(i))
		}
		tot := st.Totals()
		if tot.Crossing == 0 || tot.Crossing == tot.Edges {
			t.Fatalf("%d ranks: %d of %d edges cross ranks; want some and not all", ranks, tot.Crossing, tot.Edges)
		}
	}
}

func TestRankRange(t *testing.T) {
	for _, n := range []uint64{0, 1, 5, 64, 1000} {
		for ranks := 1; ranks <= 7; ranks++ {
			var next uint64
			for r := range ranks {
				lo, hi := engine.RankRange(n, ranks, r)
				if lo != next || hi < lo {
					t.Fatalf("n %d, %d ranks: rank %d has [%d, %d), want it to start at %d", n, ranks, r, lo, hi, next)
				}
				next = hi
			}
			if next != n {
				t.Fatalf("n %d, %d ranks: the ranges end at %d", n, ranks, next)
			}
		}
	}
}
