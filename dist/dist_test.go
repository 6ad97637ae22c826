package dist_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/dist"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/engine/enginetest"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/police"
	"github.com/retro-solver/retro/internal/testsize"
)

// solver is one of the distributed engines: Distributed (4-byte states)
// or DistributedLean (nibbles).
type solver func(context.Context, implicit.Game, engine.Comm, engine.Options) (*engine.DistResult, error)

// engines are the distributed engines by name, for tests of both.
var engines = []struct {
	name  string
	solve solver
}{{"words", engine.Distributed}, {"lean", engine.DistributedLean}}

// solveLocal runs a distributed engine on ranks goroutines of this
// process and returns rank 0's result and the levels' record.
func solveLocal(t *testing.T, solve solver, g implicit.Game, ranks, workers int) (*engine.Result, *engine.DistRecord) {
	t.Helper()
	comms := make([]engine.Comm, ranks)
	for r, c := range dist.Local(ranks) {
		comms[r] = c
	}
	// Rounds of a few messages on a single worker: many exchanges a level.
	results, stats, errs := runLocal(solve, g, comms, func(int) engine.Options {
		o := engine.Options{Workers: workers}
		if workers == 1 {
			o.RoundBytes = 64
		}
		return o
	})
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
// with each rank's options, then gathers the values to rank 0, and returns
// what each rank's Gather returned and its record of the levels.
func runLocal(solve solver, g implicit.Game, comms []engine.Comm, opt func(rank int) engine.Options) ([]*engine.Result, []*engine.DistRecord, []error) {
	results := make([]*engine.Result, len(comms))
	stats := make([]*engine.DistRecord, len(comms))
	errs := make([]error, len(comms))
	var wg sync.WaitGroup
	for r, c := range comms {
		wg.Go(func() {
			var d *engine.DistResult
			if d, errs[r] = solve(context.Background(), g, c, opt(r)); errs[r] == nil {
				stats[r] = &d.Record
				results[r], errs[r] = d.Gather()
			}
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
	resumed := map[string]bool{}
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
		e := engines[seed/2%2]
		_, _, errs := runLocal(e.solve, g, stop, opt)
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
		results, _, errs := runLocal(e.solve, g, comms, opt)
		for r, err := range errs {
			if err != nil {
				t.Fatalf("seed %d, %s, rank %d: %v", seed, e.name, r, err)
			}
		}
		got := results[0]
		if i, differ := engine.Diff(want, got); differ {
			t.Fatalf("seed %d, %s, %d ranks, stopped at call %d: vertex %d is %v %d; want %v %d", seed, e.name, ranks, n, i, got.Value(i), got.Depth(i), want.Value(i), want.Depth(i))
		}
		if got.Edges() != want.Edges() {
			t.Fatalf("seed %d, %s: %d edges walked in all, want %d", seed, e.name, got.Edges(), want.Edges())
		}
		if damaged && len(resumedAt) != 0 {
			t.Fatalf("seed %d: went on from level %d with a damaged rank file", seed, resumedAt[0])
		}
		resumed[e.name] = resumed[e.name] || len(resumedAt) > 0
	}
	for _, e := range engines {
		if !resumed[e.name] {
			t.Fatalf("no %s solve went on from a checkpoint", e.name)
		}
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
		e := engines[seed/10%2]
		got, st := solveLocal(t, e.solve, g, ranks, workers)
		if i, differ := engine.Diff(want, got); differ {
			t.Fatalf("seed %d, %s, %d ranks: vertex %d is %v %d; the sequential engine says %v %d",
				seed, e.name, ranks, i, got.Value(i), got.Depth(i), want.Value(i), want.Depth(i))
		}
		if got.MaxDepth() != want.MaxDepth() {
			t.Fatalf("seed %d: max depth %d, want %d", seed, got.MaxDepth(), want.MaxDepth())
		}
		tot := st.Totals()
		lean := e.name == "lean"
		if tot.Crossing > tot.Edges || !lean && tot.Bytes != 8*tot.Crossing || lean && tot.Bytes < 8*tot.Crossing || ranks == 1 && tot.Bytes != 0 {
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
	for k, ranks := range []int{2, 4, 3, 5} {
		e := engines[k%2]
		got, st := solveLocal(t, e.solve, g, ranks, 2)
		if i, differ := engine.Diff(want, got); differ {
			t.Fatalf("%s, %d ranks: vertex %d is %v %d; want %v %d", e.name, ranks, i, got.Value(i), got.Depth(i), want.Value(i), want.Depth(i))
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

// TestRankParts checks what each rank keeps of a distributed solve against
// the sequential reference, without gathering: its own range's values and
// depths, the Summary (counts, max depth, edges, the depth histograms and
// longest positions, the kept positions' values and depths), and a
// database written a rank's blocks at a time (Share, db.WritePart) and
// joined (db.Writer.AddParts), which must be byte for byte the one
// written from the sequential result, for blocks both smaller and larger
// than a rank's range.
func TestRankParts(t *testing.T) {
	seeds := uint64(30)
	if !testsize.Long() {
		seeds = 10
	}
	for seed := range seeds {
		var g implicit.Game = enginetest.RandomGraph(seed + 500)
		if seed%3 == 2 {
			g = graph.Random(3000+seed*100, 7000+seed*200, seed)
		}
		n := g.Size()
		want, err := engine.Sequential(context.Background(), g, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		wantStats := engine.ComputeDepthStats(want)
		keep := []uint64{0, n / 2, n - 1}
		ranks := 1 + int(seed%5)
		// Blocks of 512 to 8192 indices (1-byte codes), for graphs of up
		// to 6,000 vertices: from many blocks per rank to a block over
		// several ranks.
		o := db.Options{BlockSize: 512 << (seed % 5), Workers: 2}
		dir := t.TempDir()
		wantPath := filepath.Join(dir, "want.db")
		start := n / 2
		src := db.Source{Values: want, MaxDepth: want.MaxDepth(), Start: &start}
		w, err := db.Create(wantPath, "graph", nil, nil, o)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Add(context.Background(), src); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		comms := dist.Local(ranks)
		parts := make([][]byte, ranks)
		errs := make([]error, ranks)
		summaries := make([]*engine.Result, ranks)
		var wg sync.WaitGroup
		for r, c := range comms {
			wg.Go(func() {
				errs[r] = func() error {
					d, err := engines[seed%2].solve(context.Background(), g, c, engine.Options{Workers: 2, Keep: keep, DepthDir: dir})
					if err != nil {
						return err
					}
					for i := d.Lo; i < d.Hi; i++ {
						v, depth, err := d.Lookup(i)
						if err != nil || v != want.Value(i) || depth != want.Depth(i) {
							return fmt.Errorf("index %d: %v %d (%v), want %v %d", i, v, depth, err, want.Value(i), want.Depth(i))
						}
					}
					if d.Lo > 0 {
						if _, _, err := d.Lookup(d.Lo - 1); err == nil {
							return fmt.Errorf("index %d, another rank's, was looked up", d.Lo-1)
						}
					}
					summaries[r] = d.Summary()
					bs, err := db.BlockSize(o, d.MaxDepth())
					if err != nil {
						return err
					}
					first, last, err := d.Share(bs)
					if err != nil {
						return err
					}
					in := src
					in.Values = d
					p, err := db.WritePart(context.Background(), filepath.Join(dir, fmt.Sprint("part-", r)), in, n, first, last, o)
					if err != nil {
						return err
					}
					parts[r] = p.Marshal()
					return nil
				}()
			})
		}
		wg.Wait()
		for r, err := range errs {
			if err != nil {
				t.Fatalf("seed %d, %s, %d ranks, rank %d: %v", seed, engines[seed%2].name, ranks, r, err)
			}
		}
		for r, s := range summaries {
			if s.Count(engine.Win) != want.Count(engine.Win) || s.Count(engine.Loss) != want.Count(engine.Loss) ||
				s.Count(engine.Draw) != want.Count(engine.Draw) || s.MaxDepth() != want.MaxDepth() || s.Edges() != want.Edges() {
				t.Fatalf("seed %d, rank %d's summary: counts %d %d %d, max depth %d, edges %d; want %d %d %d, %d, %d", seed, r,
					s.Count(engine.Win), s.Count(engine.Loss), s.Count(engine.Draw), s.MaxDepth(), s.Edges(),
					want.Count(engine.Win), want.Count(engine.Loss), want.Count(engine.Draw), want.MaxDepth(), want.Edges())
			}
			if got := engine.ComputeDepthStats(s); fmt.Sprint(got) != fmt.Sprint(wantStats) {
				t.Fatalf("seed %d, rank %d: stats %v, want %v", seed, r, got, wantStats)
			}
			longest := []uint64{}
			if wantStats.HasLongestWin {
				longest = append(longest, wantStats.LongestWin)
			}
			if wantStats.HasLongestLoss {
				longest = append(longest, wantStats.LongestLoss)
			}
			for _, k := range append(keep, longest...) {
				if s.Value(k) != want.Value(k) || s.Depth(k) != want.Depth(k) {
					t.Fatalf("seed %d, rank %d: kept position %d is %v %d, want %v %d", seed, r, k, s.Value(k), s.Depth(k), want.Value(k), want.Depth(k))
				}
			}
		}
		gotPath := filepath.Join(dir, "got.db")
		w, err = db.Create(gotPath, "graph", nil, nil, o)
		if err != nil {
			t.Fatal(err)
		}
		list := make([]*db.Part, ranks)
		for r := range parts {
			if list[r], err = db.UnmarshalPart(parts[r]); err != nil {
				t.Fatal(err)
			}
		}
		err = w.AddParts(src, n, list, func(k int, out io.Writer) error {
			f, err := os.Open(filepath.Join(dir, fmt.Sprint("part-", k)))
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = io.Copy(out, f)
			return err
		})
		if err != nil {
			t.Fatalf("seed %d, %d ranks: %v", seed, ranks, err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(wantPath)
		b, _ := os.ReadFile(gotPath)
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d, %d ranks, blocks of %d: the database written in parts differs from the sequential one", seed, ranks, o.BlockSize)
		}
	}
}

// TestPoliceBoards checks both distributed engines against the sequential
// reference on small police boards, which have terminal wins: a win of a
// level's own making and a win of an earlier one then meet among a
// position's moves, which random graphs (whose wins all lie at odd depths)
// never show. Rounds of a few messages make many exchanges a level.
func TestPoliceBoards(t *testing.T) {
	for seed := range uint64(8) {
		g := police.New(police.Random(4+int(seed%3), 5+int(seed%2), 0.1, 0.05, seed))
		want, err := engine.Sequential(context.Background(), g, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for k, e := range engines {
			ranks := 2 + int(seed+uint64(k))%3
			comms := make([]engine.Comm, ranks)
			for r, c := range dist.Local(ranks) {
				comms[r] = c
			}
			results, _, errs := runLocal(e.solve, g, comms, func(int) engine.Options {
				return engine.Options{Workers: 2, RoundBytes: 8 << (seed % 8)}
			})
			for r, err := range errs {
				if err != nil {
					t.Fatalf("seed %d, %s, rank %d: %v", seed, e.name, r, err)
				}
			}
			if i, differ := engine.Diff(want, results[0]); differ {
				t.Fatalf("seed %d, %s, %d ranks: position %d is %v %d; the sequential engine says %v %d",
					seed, e.name, ranks, i, results[0].Value(i), results[0].Depth(i), want.Value(i), want.Depth(i))
			}
		}
	}
}

// newWin is a game of six positions on two ranks ([0, 3) and [3, 6)) in
// which position 0's moves reach a terminal win (1) on its own rank and a
// position (4) on the other rank that becomes a win at the same level: 0
// is a loss of depth 2, not 1, which the lean engine's question to the
// other rank must get right (a win of the level being built is not an
// old win).
type newWin struct{}

var newWinMoves = [6][]uint64{0: {1, 4}, 4: {5}}

func (newWin) Size() uint64     { return 6 }
func (newWin) MaxMoves() uint64 { return 2 }
func (newWin) Classify(i uint64) implicit.Kind {
	switch i {
	case 1:
		return implicit.TerminalWin
	case 5:
		return implicit.TerminalLoss
	}
	return implicit.Inner
}
func (newWin) Moves(i uint64, dst []uint64) []uint64 { return append(dst, newWinMoves[i]...) }
func (newWin) Unmoves(i uint64, dst []uint64) []uint64 {
	for p, ms := range newWinMoves {
		for _, m := range ms {
			if m == i {
				dst = append(dst, uint64(p))
			}
		}
	}
	return dst
}

func TestNewWinAcrossRanks(t *testing.T) {
	g := newWin{}
	want, err := engine.Sequential(context.Background(), g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want.Value(0) != engine.Loss || want.Depth(0) != 2 {
		t.Fatalf("the sequential engine says %v %d for position 0, want a loss of depth 2", want.Value(0), want.Depth(0))
	}
	for _, e := range engines {
		got, _ := solveLocal(t, e.solve, g, 2, 1)
		if i, differ := engine.Diff(want, got); differ {
			t.Fatalf("%s: position %d is %v %d, want %v %d", e.name, i, got.Value(i), got.Depth(i), want.Value(i), want.Depth(i))
		}
	}
}
