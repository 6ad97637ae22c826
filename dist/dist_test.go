package dist_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/retro-solver/retro/dist"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/engine/enginetest"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/internal/testsize"
)

// solveLocal runs the distributed engine on ranks goroutines of this
// process and returns rank 0's result and the levels' record.
func solveLocal(t *testing.T, g implicit.Game, ranks, workers int) (*engine.Result, *engine.DistRecord) {
	t.Helper()
	comms := make([]engine.Comm, ranks)
	for r, c := range dist.Local(ranks) {
		comms[r] = c
	}
	results, stats, errs := runLocal(g, comms, func(int) engine.Options { return engine.Options{Workers: workers} })
	for _, err := range errs {
		if err != nil {
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

// runLocal runs the distributed engine on the comms, one goroutine each,
// with each rank's options, and returns what each rank returned.
func runLocal(g implicit.Game, comms []engine.Comm, opt func(rank int) engine.Options) ([]*engine.Result, []*engine.DistRecord, []error) {
	results := make([]*engine.Result, len(comms))
	stats := make([]*engine.DistRecord, len(comms))
	errs := make([]error, len(comms))
	var wg sync.WaitGroup
	for r, c := range comms {
		wg.Go(func() {
			results[r], stats[r], errs[r] = engine.Distributed(context.Background(), g, c, opt(r))
		})
	}
	wg.Wait()
	return results, stats, errs
}

// stopAt is a rank's comm that fails its n-th collective call, as every
// rank's does: the ranks stop together, as a run that dies does.
type stopAt struct {
	engine.Comm
	n, calls int
}

var errStopped = errors.New("stopped")

func (c *stopAt) stop() bool { c.calls++; return c.calls == c.n }

func (c *stopAt) Exchange(send [][]uint64) ([][]uint64, error) {
	if c.stop() {
		return nil, errStopped
	}
	return c.Comm.Exchange(send)
}

func (c *stopAt) Sum(v []uint64) ([]uint64, error) {
	if c.stop() {
		return nil, errStopped
	}
	return c.Comm.Sum(v)
}

func (c *stopAt) Max(v []uint64) ([]uint64, error) {
	if c.stop() {
		return nil, errStopped
	}
	return c.Comm.Max(v)
}

// TestCheckpointResume stops distributed solves that save a checkpoint at
// every level at a random collective call, then solves again from the
// checkpoint; the result must be the sequential engine's, edges walked
// included, whether it went on from a level or started over (a damaged
// rank file).
func TestCheckpointResume(t *testing.T) {
	resumedSome := false
	for seed := range uint64(40) {
		var g implicit.Game = enginetest.RandomGraph(seed + 1000)
		if seed%2 == 1 {
			g = graph.Random(1000+seed*50, 2500+seed*100, seed) // deeper: more levels
		}
		want, err := engine.Sequential(context.Background(), g, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ranks := 1 + int(seed%4)
		path := filepath.Join(t.TempDir(), "levels.ckpt")
		var resumedAt []uint64
		opt := func(int) engine.Options {
			return engine.Options{Workers: 2, Checkpoint: &engine.Checkpoint{Path: path, Fingerprint: "test", Every: time.Nanosecond,
				Resumed: func(l uint64) { resumedAt = append(resumedAt, l) }}}
		}
		stop := make([]engine.Comm, ranks)
		n := 1 + int(seed*7%41)
		for r, c := range dist.Local(ranks) {
			stop[r] = &stopAt{Comm: c, n: n}
		}
		_, _, errs := runLocal(g, stop, opt)
		if errs[0] == nil {
			continue // the solve ended before the n-th call
		}
		damaged := seed%5 == 4
		if damaged {
			files, _ := filepath.Glob(path + ".rank-0-*")
			for _, f := range files {
				os.WriteFile(f, []byte("damaged"), 0o644)
			}
		}
		comms := make([]engine.Comm, ranks)
		for r, c := range dist.Local(ranks) {
			comms[r] = c
		}
		results, _, errs := runLocal(g, comms, opt)
		for r, err := range errs {
			if err != nil {
				t.Fatalf("seed %d, rank %d: %v", seed, r, err)
			}
		}
		got := results[0]
		if i, differ := engine.Diff(want, got); differ {
			t.Fatalf("seed %d, %d ranks, stopped at call %d: vertex %d is %v %d; want %v %d", seed, ranks, n, i, got.Value(i), got.Depth(i), want.Value(i), want.Depth(i))
		}
		if got.Edges() != want.Edges() {
			t.Fatalf("seed %d: %d edges walked in all, want %d", seed, got.Edges(), want.Edges())
		}
		if damaged && len(resumedAt) != 0 {
			t.Fatalf("seed %d: went on from level %d with a damaged rank file", seed, resumedAt[0])
		}
		resumedSome = resumedSome || len(resumedAt) > 0
	}
	if !resumedSome {
		t.Fatal("no solve went on from a checkpoint")
	}
}

// TestRandomGraphs checks the distributed engine against the sequential
// reference on random graphs, value and depth of every vertex, for 1 to 5
// ranks (more ranks than vertices included) and 1 or 3 workers each.
func TestRandomGraphs(t *testing.T) {
	seeds := uint64(150)
	if !testsize.Long() {
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
