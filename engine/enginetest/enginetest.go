// Package enginetest checks solvers and solved games, as net/http/httptest
// helps test HTTP code: CrossCheck compares the parallel engine with the
// sequential reference, and CheckLocal checks solved values against a
// game's rules. Every game's tests call them.
package enginetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
)

// CrossCheck solves g with the sequential engine and with the parallel
// engine on each of the given worker counts, choosing each level's
// direction, on the first and last counts also pushing every level and
// pulling every level, and on the last also alternating the two, with the
// pushes direct and blocked (in blocks of 64 lanes, so that small games
// take the path of large ones). It returns an error naming the first index where a
// parallel result differs in value or depth, or a difference in the edges
// walked back. Every game's tests call it: the parallel engine must match
// the reference whatever the number of workers and the directions.
func CrossCheck(ctx context.Context, g implicit.Game, workers ...int) error {
	want, err := engine.Sequential(ctx, g, engine.Options{})
	if err != nil {
		return err
	}
	for j, w := range workers {
		runs := []engine.Options{{Workers: w}}
		if j == 0 || j == len(workers)-1 {
			runs = append(runs,
				engine.Options{Workers: w, Direction: engine.PullOnly},
				engine.Options{Workers: w, Direction: engine.PushOnly})
		}
		if j == len(workers)-1 {
			runs = append(runs,
				engine.Options{Workers: w, Direction: engine.Alternate},
				engine.Options{Workers: w, Direction: engine.Alternate, BlockBytes: 1})
		}
		for _, opt := range runs {
			got, err := engine.Parallel(ctx, g, opt)
			if err != nil {
				return err
			}
			how := opt.Direction.String()
			if opt.BlockBytes != 0 {
				how += ", blocked"
			}
			if i, differ := engine.Diff(want, got); differ {
				return fmt.Errorf("enginetest: with %d workers (%s), index %d is %v %d; the sequential engine says %v %d",
					w, how, i, got.Value(i), got.Depth(i), want.Value(i), want.Depth(i))
			}
			if got.Edges() != want.Edges() || got.MaxDepth() != want.MaxDepth() {
				return fmt.Errorf("enginetest: with %d workers (%s), %d edges walked back and max depth %d; the sequential engine says %d and %d",
					w, how, got.Edges(), got.MaxDepth(), want.Edges(), want.MaxDepth())
			}
		}
	}
	return checkLean(ctx, g, want, workers)
}

// checkLean solves g with the lean engine on the first and last worker
// counts and compares it with want, the sequential solve: every value, the
// counts, the depth histogram, the longest win and loss, the edges, and the
// depths of up to 1000 positions kept; and, with its depths on disk, every
// depth on the last count.
func checkLean(ctx context.Context, g implicit.Game, want *engine.Result, workers []int) error {
	n := g.Size()
	var keep []uint64
	for i := uint64(0); i < n; i += max(1, n/1000) {
		keep = append(keep, i)
	}
	wantStats := engine.ComputeDepthStats(want)
	for j, w := range workers {
		if j != 0 && j != len(workers)-1 {
			continue
		}
		got, err := engine.Lean(ctx, g, engine.Options{Workers: w, Keep: keep})
		if err != nil {
			return err
		}
		for i := range n {
			if got.Value(i) != want.Value(i) {
				return fmt.Errorf("enginetest: lean, %d workers: index %d is %v; the sequential engine says %v", w, i, got.Value(i), want.Value(i))
			}
		}
		for _, i := range keep {
			if got.Depth(i) != want.Depth(i) {
				return fmt.Errorf("enginetest: lean, %d workers: index %d has depth %d; the sequential engine says %d", w, i, got.Depth(i), want.Depth(i))
			}
		}
		if got.Edges() != want.Edges() || got.MaxDepth() != want.MaxDepth() {
			return fmt.Errorf("enginetest: lean, %d workers: %d edges walked back and max depth %d; the sequential engine says %d and %d",
				w, got.Edges(), got.MaxDepth(), want.Edges(), want.MaxDepth())
		}
		st := engine.ComputeDepthStats(got)
		if !slices.Equal(st.Wins, wantStats.Wins) || !slices.Equal(st.Losses, wantStats.Losses) {
			return fmt.Errorf("enginetest: lean, %d workers: depth histogram %v %v differs from the sequential engine's %v %v", w, st.Wins, st.Losses, wantStats.Wins, wantStats.Losses)
		}
		if st.HasLongestWin != wantStats.HasLongestWin || st.LongestWin != wantStats.LongestWin ||
			st.HasLongestLoss != wantStats.HasLongestLoss || st.LongestLoss != wantStats.LongestLoss {
			return fmt.Errorf("enginetest: lean, %d workers: longest win and loss %d, %d; the sequential engine says %d, %d",
				w, st.LongestWin, st.LongestLoss, wantStats.LongestWin, wantStats.LongestLoss)
		}
		for _, i := range []uint64{st.LongestWin, st.LongestLoss} {
			if i < n && got.Depth(i) != want.Depth(i) {
				return fmt.Errorf("enginetest: lean, %d workers: longest position %d has depth %d, want %d", w, i, got.Depth(i), want.Depth(i))
			}
		}
	}
	if len(workers) == 0 {
		return nil
	}
	// With its depths on disk, a lean solve has every depth.
	w := workers[len(workers)-1]
	got, err := engine.Lean(ctx, g, engine.Options{Workers: w, DepthsOnDisk: true})
	if err != nil {
		return err
	}
	if i, differ := engine.Diff(want, got); differ {
		return fmt.Errorf("enginetest: lean with depths on disk, %d workers: index %d is %v %d; the sequential engine says %v %d",
			w, i, got.Value(i), got.Depth(i), want.Value(i), want.Depth(i))
	}
	return nil
}

// CheckLocal tests r, the solved values of g, against the rules at the given
// positions of the game s, whose positions map into g's indices through
// index (the identity, or a symmetric game's Canonical): a win has a move
// to a loss one ply shallower and none shallower still, a loss has only
// moves to wins, the deepest one ply shallower, a draw has no move to a
// loss and some move to a draw, and terminal positions keep their values.
// It checks a solve against the game on positions it never stored, such as
// the symmetric images of canonical ones.
func CheckLocal(s implicit.Game, r engine.Values, index func(uint64) uint64, positions []uint64) error {
	var buf []uint64
	for _, p := range positions {
		kind := s.Classify(p)
		if kind == implicit.Illegal {
			continue
		}
		v, d, err := r.Lookup(index(p))
		if err != nil {
			return err
		}
		if kind != implicit.Inner {
			if v != engine.Value(kind) || d != 0 {
				return fmt.Errorf("enginetest: terminal position %d (%v) is %v %d", p, kind, v, d)
			}
			continue
		}
		buf = s.Moves(p, buf[:0])
		var minLoss, maxWin uint64 = 1 << 62, 0
		anyLoss, anyDraw, allWins := false, false, true
		for _, c := range buf {
			cv, cd, err := r.Lookup(index(c))
			if err != nil {
				return err
			}
			switch cv {
			case engine.Loss:
				anyLoss, minLoss = true, min(minLoss, cd)
				allWins = false
			case engine.Win:
				maxWin = max(maxWin, cd)
			default:
				anyDraw, allWins = true, false
			}
		}
		switch {
		case v == engine.Win && (!anyLoss || d != minLoss+1),
			v == engine.Loss && (!allWins || d != maxWin+1 && len(buf) > 0 || len(buf) == 0 && d != 0),
			v == engine.Draw && (anyLoss || !anyDraw),
			v == engine.Illegal:
			return fmt.Errorf("enginetest: position %d is %v %d, against the values of its %d moves", p, v, d, len(buf))
		}
	}
	return nil
}

// Edges returns the graph on n vertices with the moves given as pairs
// u, v, u, v, ...: Edges(3, 0, 1, 1, 2) is the chain 0 -> 1 -> 2.
func Edges(n uint64, pairs ...uint32) *graph.Graph {
	var src, dst []uint32
	for i := 0; i+1 < len(pairs); i += 2 {
		src = append(src, pairs[i])
		dst = append(dst, pairs[i+1])
	}
	return graph.FromEdges(n, src, dst)
}

// RandomGraph draws a small graph (1 to 40 vertices) of varied density from
// seed, sparse or dense, with self-loops, repeated edges and isolated
// vertices: the oracle suites' inputs.
func RandomGraph(seed uint64) *graph.Graph {
	r := rand.New(rand.NewPCG(seed, 99))
	n := 1 + r.Uint64N(40)
	m := r.Uint64N(3*n + 1)
	if r.IntN(4) == 0 {
		m = r.Uint64N(n*n/2 + 1) // dense
	}
	return graph.Random(n, m, seed)
}
