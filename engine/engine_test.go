package engine_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/engine/enginetest"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/police"
	"github.com/retro-solver/retro/internal/testsize"
)

var ctx = context.Background()

func seq(t testing.TB, g implicit.Game) *engine.Result {
	t.Helper()
	r, err := engine.Sequential(ctx, g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func par(t testing.TB, g implicit.Game, workers int) *engine.Result {
	t.Helper()
	r, err := engine.Parallel(ctx, g, engine.Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// edges and randomGraph are the shared oracle inputs.
var (
	edges       = enginetest.Edges
	randomGraph = enginetest.RandomGraph
)

// markedGame is a random game with all four kinds of index: some vertices
// are illegal or terminal (win or loss), and moves run only from inner
// vertices to legal ones.
type markedGame struct {
	*graph.Graph
	kinds []implicit.Kind
	// CountMoves, a field, hides the graph's method of that name
	// (implicit.RangeCounter), which takes every vertex for inner.
	CountMoves struct{}
}

func (g *markedGame) Classify(s uint64) implicit.Kind { return g.kinds[s] }

// ClassifyCount replaces the graph's, which takes every vertex for inner.
func (g *markedGame) ClassifyCount(s uint64) (implicit.Kind, uint64) {
	if g.kinds[s] != implicit.Inner {
		return g.kinds[s], 0
	}
	return implicit.Inner, g.NumMoves(s)
}

func randomMarkedGame(seed uint64) *markedGame {
	r := rand.New(rand.NewPCG(seed, 7))
	n := 1 + r.Uint64N(30)
	kinds := make([]implicit.Kind, n)
	for i := range kinds {
		if r.IntN(5) == 0 {
			kinds[i] = implicit.Kind(1 + r.IntN(3))
		}
	}
	var src, dst []uint32
	for range r.Uint64N(4*n + 1) {
		u, v := r.Uint64N(n), r.Uint64N(n)
		if kinds[u] == implicit.Inner && kinds[v] != implicit.Illegal {
			src, dst = append(src, uint32(u)), append(dst, uint32(v))
		}
	}
	return &markedGame{Graph: graph.FromEdges(n, src, dst), kinds: kinds}
}

func checkAgainstOracle(t *testing.T, g implicit.Game, r *engine.Result, label string) {
	t.Helper()
	vals, depths := oracle(g)
	for i := range g.Size() {
		if r.Value(i) != vals[i] || r.Depth(i) != depths[i] {
			t.Fatalf("%s: index %d is %v %d, oracle says %v %d", label, i, r.Value(i), r.Depth(i), vals[i], depths[i])
		}
	}
	var counts [4]uint64
	var maxDepth uint64
	for i, v := range vals {
		counts[v]++
		if v == engine.Win || v == engine.Loss {
			maxDepth = max(maxDepth, depths[i])
		}
	}
	for v := range engine.Value(4) {
		if r.Count(v) != counts[v] {
			t.Fatalf("%s: Count(%v) = %d, want %d", label, v, r.Count(v), counts[v])
		}
	}
	if r.MaxDepth() != maxDepth {
		t.Fatalf("%s: MaxDepth = %d, want %d", label, r.MaxDepth(), maxDepth)
	}
}

func TestSequentialMatchesOracle(t *testing.T) {
	for seed := range uint64(2500) {
		g := randomGraph(seed)
		checkAgainstOracle(t, g, seq(t, g), fmt.Sprintf("random graph seed %d", seed))
	}
	for seed := range uint64(500) {
		g := randomMarkedGame(seed)
		checkAgainstOracle(t, g, seq(t, g), fmt.Sprintf("marked game seed %d", seed))
	}
}

func TestParallelMatchesSequential(t *testing.T) {
	games := 1200
	switch {
	case testsize.Race:
		games = 48 // the same paths on other graphs, which the detector needs once
	case !testsize.Long():
		games = 200
	}
	for seed := range uint64(games) {
		var g implicit.Game = randomGraph(seed)
		if seed%4 == 3 {
			g = randomMarkedGame(seed)
		}
		if err := enginetest.CrossCheck(ctx, g, 1, 2, 3, 4, 8); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

// TestCountersOnly is TestParallelMatchesSequential, and
// TestLargeRandomGraph for dense frontiers, with blocked levels reading
// and writing the lanes through bitset.Counters, as a big-endian machine
// does.
func TestCountersOnly(t *testing.T) {
	*engine.CountersOnly = true
	defer func() { *engine.CountersOnly = false }()
	for seed := range raceShare(100, 5) {
		var g implicit.Game = randomGraph(seed)
		if seed%4 == 3 {
			g = randomMarkedGame(seed)
		}
		if err := enginetest.CrossCheck(ctx, g, 1, 3); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	if err := enginetest.CrossCheck(ctx, graph.Random(20000, 40000, 2), 1, 2); err != nil {
		t.Fatal(err)
	}
}

func TestParallelMatchesOracle(t *testing.T) {
	for seed := range uint64(300) {
		g := randomMarkedGame(seed + 10000)
		checkAgainstOracle(t, g, par(t, g, 3), fmt.Sprintf("marked game seed %d", seed+10000))
	}
}

// TestRangeCountWidths solves graphs whose classification reads their
// counts a run at a time (implicit.RangeCounter: 4096 a run, so these
// graphs take several runs and a short last one) into lanes of 16 and 32
// bits (one vertex with 5,000 or 20,000 moves, repeats among them), and
// compares them with the sequential engine, which counts each vertex's
// moves apart.
func TestRangeCountWidths(t *testing.T) {
	for _, hub := range []uint32{5000, 20000} {
		r := rand.New(rand.NewPCG(uint64(hub), 3))
		n := uint32(3*4096 + 17)
		var src, dst []uint32
		for range 2 * n {
			src, dst = append(src, r.Uint32N(n)), append(dst, r.Uint32N(n))
		}
		for range hub {
			src, dst = append(src, 4100), append(dst, r.Uint32N(n))
		}
		g := graph.FromEdges(uint64(n), src, dst)
		if _, ok := implicit.Game(g).(implicit.RangeCounter); !ok {
			t.Fatal("a graph is no RangeCounter: this test checks nothing")
		}
		if err := enginetest.CrossCheck(ctx, g, 1, 3); err != nil {
			t.Fatalf("a vertex of %d moves: %v", hub, err)
		}
	}
}

// repeating is a game over a graph's distinct edges that lists each
// vertex's moves with repeats where asked (implicit.RepeatMover): every
// third move twice, the list reversed, as a symmetric game lists a class
// reached by two moves.
type repeating struct{ g *graph.Graph }

func (r repeating) Size() uint64                    { return r.g.Size() }
func (r repeating) MaxMoves() uint64                { return 2 * r.g.MaxMoves() }
func (r repeating) Classify(s uint64) implicit.Kind { return r.g.Classify(s) }
func (r repeating) Moves(s uint64, dst []uint64) []uint64 {
	start := len(dst)
	dst = r.g.Moves(s, dst)
	return append(dst[:start], implicit.SortedSet(dst[start:])...)
}
func (r repeating) Unmoves(t uint64, dst []uint64) []uint64 {
	start := len(dst)
	dst = r.g.Unmoves(t, dst)
	return append(dst[:start], implicit.Distinct(dst[start:])...)
}
func (r repeating) MovesWithRepeats(s uint64, dst []uint64) []uint64 {
	start := len(dst)
	dst = r.Moves(s, dst)
	for i := start; i < len(dst); i += 3 {
		dst = append(dst, dst[i])
	}
	slices.Reverse(dst[start:])
	return dst
}

// TestPullWithRepeats solves games whose pull levels list moves with
// repeats, each of which must still count once, and compares every value
// and depth with the sequential engine's, which never sees a repeat.
func TestPullWithRepeats(t *testing.T) {
	for seed := range uint64(100) {
		g := repeating{randomGraph(seed)}
		if _, ok := implicit.Game(g).(implicit.RepeatMover); !ok {
			t.Fatal("repeating is no RepeatMover")
		}
		if err := enginetest.CrossCheck(ctx, g, 1, 3); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

// probing is a game that probes its positions for a move
// (implicit.MoveProber), so that the parallel engine counts each
// position's moves only when one of them first reaches a win; the count
// comes from the graph's NumMoves, as the classification's would.
type probing struct{ implicit.Game }

func (p probing) NumMoves(s uint64) uint64 {
	n, _ := implicit.MoveCounterOf(p.Game)(s, nil)
	return n
}

func (p probing) ProbeMoves(s uint64) (implicit.Kind, bool) {
	k := p.Classify(s)
	return k, k == implicit.Inner && p.NumMoves(s) > 0
}

// TestLazyCounts solves games whose counts are taken when a move first
// reaches a win (implicit.MoveProber), in every direction, blocked and not,
// on 1 and 3 workers, against the sequential engine, which counts every
// position at the start: marked games (illegal and terminal positions,
// inner ones without moves), random graphs, and a chain deep enough to
// widen the lanes while a lazy marker waits for its first win.
func TestLazyCounts(t *testing.T) {
	var games []implicit.Game
	for seed := range raceShare(60, 5) {
		games = append(games, probing{randomMarkedGame(seed + 20000)}, probing{randomGraph(seed)})
	}
	for k, g := range games {
		if _, _, ok := implicit.MoveProberOf(g); !ok {
			t.Fatal("probing is no MoveProber")
		}
		if err := enginetest.CrossCheck(ctx, g, 1, 3); err != nil {
			t.Fatalf("game %d: %v", k, err)
		}
	}
	g := probing{chainWithCycle(17000)} // 17,000 levels: one solve
	if i, differ := engine.Diff(seq(t, g), par(t, g, 2)); differ {
		t.Fatalf("the deep chain: index %d differs from the sequential engine's", i)
	}
}

// TestSmallPools is TestLazyCounts with the blocked levels' shared pool
// at 3 segments and 2 deferred counts a worker: rounds end within a
// position's predecessors, which the workers' reserves finish, and the
// applies take the counts past the second at once. A star, whose loss
// has 1000 predecessors (more than a reserve's segments), grows the
// reserves between two rounds.
func TestSmallPools(t *testing.T) {
	*engine.SharedSegments, *engine.LazyDefers = 3, 2
	defer func() { *engine.SharedSegments, *engine.LazyDefers = 0, 0 }()
	src, dst := make([]uint32, 1000), make([]uint32, 1000)
	for i := range src {
		src[i] = uint32(i + 1)
	}
	games := []implicit.Game{graph.FromEdges(1001, src, dst), probing{graph.FromEdges(1001, src, dst)}}
	for seed := range raceShare(20, 3) {
		games = append(games, probing{randomMarkedGame(seed + 30000)}, probing{randomGraph(seed + 100)}, randomGraph(seed+200))
	}
	for k, g := range games {
		if err := enginetest.CrossCheck(ctx, g, 1, 3); err != nil {
			t.Fatalf("game %d: %v", k, err)
		}
	}
}

// chainWithCycle is deepChain(n) and three vertices more: n, which moves
// to the chain's wins 16385 and 16387 only (a loss, first reached after
// the lanes widen past depth 16383), and a two-vertex cycle whose vertices
// also move to vertex 1, a win (draws, counted at level 1).
func chainWithCycle(n uint32) *graph.Graph {
	src, dst := make([]uint32, 0, n+4), make([]uint32, 0, n+4)
	for i := range n - 1 {
		src, dst = append(src, i+1), append(dst, i)
	}
	src, dst = append(src, n, n, n+1, n+2, n+1, n+2), append(dst, 16385, 16387, n+2, n+1, 1, 1)
	return graph.FromEdges(uint64(n+3), src, dst)
}

// TestLargeRandomGraph runs both engines, the parallel one in each
// direction, on a graph big enough for dense frontiers and many chunks.
func TestLargeRandomGraph(t *testing.T) {
	n := uint64(200000)
	if !testsize.Long() {
		n = 20000
	}
	g := graph.Random(n, 2*n, 1)
	if err := enginetest.CrossCheck(ctx, g, 1, 2, 4); err != nil {
		t.Fatal(err)
	}
	want := seq(t, g)
	if want.Count(engine.Win)+want.Count(engine.Loss)+want.Count(engine.Draw) != n {
		t.Fatal("counts do not add up to the number of vertices")
	}
}

type want struct {
	v engine.Value
	d uint64
}

func TestExactSmallGames(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *graph.Graph
		want []want
	}{
		{"single vertex", edges(1), []want{{engine.Loss, 0}}},
		{"cycle is all draws", edges(3, 0, 1, 1, 2, 2, 0), []want{{engine.Draw, 0}, {engine.Draw, 0}, {engine.Draw, 0}}},
		{"chain alternates", edges(5, 1, 0, 2, 1, 3, 2, 4, 3),
			[]want{{engine.Loss, 0}, {engine.Win, 1}, {engine.Loss, 2}, {engine.Win, 3}, {engine.Loss, 4}}},
		{"self-loop and an exit to a win is a draw", edges(3, 0, 0, 0, 1, 1, 2),
			[]want{{engine.Draw, 0}, {engine.Win, 1}, {engine.Loss, 0}}},
		{"self-loop and an exit to a loss is a win", edges(2, 0, 0, 0, 1),
			[]want{{engine.Win, 1}, {engine.Loss, 0}}},
		{"winner hurries", edges(4, 0, 1, 0, 3, 1, 2, 2, 3),
			// 0 can move to 3 (a loss now) or 1 (a win): win in 1.
			[]want{{engine.Win, 1}, {engine.Loss, 2}, {engine.Win, 1}, {engine.Loss, 0}}},
		{"loser delays", edges(6, 0, 1, 0, 2, 1, 5, 2, 3, 3, 4, 4, 5),
			// 0's moves reach 1 (win in 1) and 2 (win in 3): loss in 4.
			[]want{{engine.Loss, 4}, {engine.Win, 1}, {engine.Win, 3}, {engine.Loss, 2}, {engine.Win, 1}, {engine.Loss, 0}}},
		{"repeated edges count", edges(3, 0, 1, 0, 1, 1, 2),
			[]want{{engine.Loss, 2}, {engine.Win, 1}, {engine.Loss, 0}}},
	} {
		for _, e := range []struct {
			name string
			r    *engine.Result
		}{{"seq", seq(t, tc.g)}, {"par", par(t, tc.g, 2)}} {
			for i, w := range tc.want {
				if v, d := e.r.Value(uint64(i)), e.r.Depth(uint64(i)); v != w.v || d != w.d {
					t.Errorf("%s, %s: vertex %d is %v %d, want %v %d", tc.name, e.name, i, v, d, w.v, w.d)
				}
			}
		}
	}
}

// TestDeepChain needs depths past 16 bits (sequential) and 14 bits (parallel):
// both widen their lanes instead of wrapping.
func TestDeepChain(t *testing.T) {
	const n = 70000
	g := deepChain(n)
	for _, r := range []*engine.Result{seq(t, g), par(t, g, 2)} {
		for _, i := range []uint64{0, 1, 16383, 16384, 65535, 65536, n - 1} {
			want := engine.Win
			if i%2 == 0 {
				want = engine.Loss
			}
			if r.Value(i) != want || r.Depth(i) != i {
				t.Fatalf("vertex %d is %v %d, want %v %d", i, r.Value(i), r.Depth(i), want, i)
			}
		}
		if r.MaxDepth() != n-1 {
			t.Fatalf("MaxDepth = %d, want %d", r.MaxDepth(), n-1)
		}
	}
}

// TestHighDegree has a vertex with more moves than a 16-bit lane counts.
func TestHighDegree(t *testing.T) {
	const k = 70000
	src := make([]uint32, k)
	dst := make([]uint32, k)
	for i := range dst {
		dst[i] = 1 + uint32(i%3) // vertex 0 -> 1, 2, 3, many times over
	}
	// 1 -> 4, 2 -> 4, 3 -> 4: 1..3 are wins, so 0 is a loss in 2.
	src = append(src, 1, 2, 3)
	dst = append(dst, 4, 4, 4)
	g := graph.FromEdges(5, src, dst)
	for _, r := range []*engine.Result{seq(t, g), par(t, g, 2)} {
		if r.Value(0) != engine.Loss || r.Depth(0) != 2 {
			t.Fatalf("vertex 0 is %v %d, want loss 2", r.Value(0), r.Depth(0))
		}
	}
}

func TestMemoryLimit(t *testing.T) {
	g := graph.Random(1000, 1000, 1)
	for _, solve := range []func(context.Context, implicit.Game, engine.Options) (*engine.Result, error){engine.Sequential, engine.Parallel} {
		if _, err := solve(ctx, g, engine.Options{MaxMemory: 100}); err == nil {
			t.Fatal("a 100-byte memory limit was not refused")
		}
	}
}

func TestCancel(t *testing.T) {
	c, cancel := context.WithCancel(ctx)
	cancel()
	g := graph.Random(100000, 100000, 1)
	if _, err := engine.Parallel(c, g, engine.Options{}); err == nil {
		t.Fatal("Parallel ignored a cancelled context")
	}
	if _, err := engine.Sequential(c, g, engine.Options{}); err == nil {
		t.Fatal("Sequential ignored a cancelled context")
	}
}

func TestCheckLocal(t *testing.T) {
	for seed := range uint64(200) {
		g := randomMarkedGame(seed)
		r := seq(t, g)
		all := make([]uint64, g.Size())
		for i := range all {
			all[i] = uint64(i)
		}
		id := func(s uint64) uint64 { return s }
		if err := enginetest.CheckLocal(g, r, id, all); err != nil {
			t.Fatalf("seed %d: a correct solve fails: %v", seed, err)
		}
	}
	// A wrong value is caught: a chain 2 -> 1 -> 0 solved as if 1 had no move.
	g := edges(3, 2, 1, 1, 0)
	wrong := seq(t, edges(3, 2, 1))
	if err := enginetest.CheckLocal(g, wrong, func(s uint64) uint64 { return s }, []uint64{0, 1, 2}); err == nil {
		t.Fatal("a wrong solve passed")
	}
}

func TestReachable(t *testing.T) {
	// 0 -> 1 -> 2 -> 0, 3 -> 0, 4 alone: from 0, three positions.
	g := edges(5, 0, 1, 1, 2, 2, 0, 3, 0)
	for _, tc := range []struct{ start, want uint64 }{{0, 3}, {3, 4}, {4, 1}} {
		got, err := engine.Reachable(ctx, g, tc.start, engine.Options{Workers: 2})
		if err != nil || got != tc.want {
			t.Errorf("Reachable from %d = %d, %v; want %d", tc.start, got, err, tc.want)
		}
	}
	// Against a plain breadth-first search on random graphs.
	for seed := range uint64(100) {
		g := randomGraph(seed)
		seen := map[uint64]bool{0: true}
		queue := []uint64{0}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, v := range g.Moves(u, nil) {
				if !seen[v] {
					seen[v] = true
					queue = append(queue, v)
				}
			}
		}
		if got, _ := engine.Reachable(ctx, g, 0, engine.Options{Workers: 3}); got != uint64(len(seen)) {
			t.Fatalf("seed %d: Reachable = %d, breadth-first search finds %d", seed, got, len(seen))
		}
	}
}

// TestWorkspace solves games of varying sizes in a row with one Workspace:
// each result must equal a fresh sequential solve, while it is current.
func TestWorkspace(t *testing.T) {
	var ws engine.Workspace
	for seed := range raceShare(60, 5) {
		var g implicit.Game = randomGraph(seed)
		switch seed % 3 {
		case 1:
			g = randomMarkedGame(seed)
		case 2:
			g = graph.Random(20000+seed*1000, 50000, seed) // large enough for dense frontiers
		}
		got, err := engine.Parallel(ctx, g, engine.Options{Workers: 1 + int(seed%3), Workspace: &ws})
		if err != nil {
			t.Fatal(err)
		}
		if i, differ := engine.Diff(seq(t, g), got); differ {
			t.Fatalf("seed %d: with a reused workspace, index %d differs", seed, i)
		}
	}
	// A chain deep enough to widen the lanes, then a small game again.
	for _, g := range []implicit.Game{edges(3, 1, 0, 2, 1), deepChain(20000), edges(2, 0, 1)} {
		got, err := engine.Parallel(ctx, g, engine.Options{Workers: 2, Workspace: &ws})
		if err != nil {
			t.Fatal(err)
		}
		if i, differ := engine.Diff(seq(t, g), got); differ {
			t.Fatalf("%d positions: index %d differs", g.Size(), i)
		}
	}
}

func deepChain(n uint32) *graph.Graph {
	src := make([]uint32, n-1)
	dst := make([]uint32, n-1)
	for i := range src {
		src[i], dst[i] = uint32(i+1), uint32(i)
	}
	return graph.FromEdges(uint64(n), src, dst)
}

// TestLeanDepthsOnDisk checks a lean solve that keeps every depth on disk
// against the sequential engine on a graph of several segments of the
// depths' file: every value and depth through Diff (runs of indices), a
// sample through Lookup (one index), and runs that straddle segments.
func TestLeanDepthsOnDisk(t *testing.T) {
	n := uint64(600_000)
	if !testsize.Long() {
		n = 300_000
	}
	g := graph.Random(n, 5*n/2, 7)
	want := seq(t, g)
	workers := []int{1, 3}
	if testsize.Race {
		workers = workers[1:] // one worker's depths have nothing to race
	}
	for _, w := range workers {
		got, err := engine.Lean(ctx, g, engine.Options{Workers: w, DepthsOnDisk: true, DepthDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if i, differ := engine.Diff(want, got); differ {
			t.Fatalf("%d workers: index %d is %v %d, want %v %d", w, i, got.Value(i), got.Depth(i), want.Value(i), want.Depth(i))
		}
		r := rand.New(rand.NewPCG(uint64(w), 1))
		for range 200 {
			i := r.Uint64N(n)
			v, d, err := got.Lookup(i)
			if err != nil || v != want.Value(i) || d != want.Depth(i) {
				t.Fatalf("%d workers: Lookup(%d) = %v %d %v, want %v %d", w, i, v, d, err, want.Value(i), want.Depth(i))
			}
		}
		for _, lo := range []uint64{1<<18 - 5, n - 500, 0, 12345} {
			hi := min(lo+1000, n)
			vals, depths := make([]engine.Value, hi-lo), make([]uint64, hi-lo)
			if err := got.LookupRange(lo, hi, vals, depths); err != nil {
				t.Fatal(err)
			}
			for i := lo; i < hi; i++ {
				if vals[i-lo] != want.Value(i) || depths[i-lo] != want.Depth(i) {
					t.Fatalf("%d workers: LookupRange: index %d is %v %d, want %v %d", w, i, vals[i-lo], depths[i-lo], want.Value(i), want.Depth(i))
				}
			}
		}
	}
	if _, err := engine.Lean(ctx, g, engine.Options{DepthsOnDisk: true, DepthDir: t.TempDir() + "/missing"}); err == nil {
		t.Fatal("a missing folder for the depths: no error")
	}
}

// TestLeanScans checks the lean engine with lists of a position or two a
// worker, so that on small games most levels, and most levels'
// candidate losses, overflow them and are found by a scan of the
// nibbles, where the other tests' games fit in the lists; its candidate
// losses tested where they are reached and tested once a level, whatever
// the game's moves cost: against the sequential engine, as every game's
// tests check it (enginetest).
func TestLeanScans(t *testing.T) {
	defer func(m uint64, c float64) { *engine.LeanListMin, *engine.LeanCheapList = m, c }(*engine.LeanListMin, *engine.LeanCheapList)
	*engine.LeanListMin = 1
	for _, cheap := range []float64{0, math.Inf(1)} {
		*engine.LeanCheapList = cheap
		games := map[string]implicit.Game{
			"police 12x12":    police.New(police.Random(12, 12, 0.1, 0.02, 3)),
			"graph 30000x3e4": graph.Random(30000, 30000, 5),
			"graph 20000x6e4": graph.Random(20000, 60000, 6),
		}
		if testsize.Race {
			delete(games, "graph 20000x6e4") // the other graph takes the same paths
		}
		for name, g := range games {
			if err := enginetest.CrossCheck(ctx, g, 1, 3); err != nil {
				t.Errorf("%s, lists cheaper than %v steps: %v", name, cheap, err)
			}
		}
	}
}
