package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
)

// TestScanChunks checks exitEvents.scan against a plain reading of every
// lane: each level's scan calls act for exactly the lanes that hold an
// action of that level, with its kind, for lanes of each width, levels
// past the 256 that the chunks' masks tell apart, and lanes that a depth
// overwrote after the masks were made.
func TestScanChunks(t *testing.T) {
	for _, width := range []uint{8, 16, 32} {
		rng := rand.New(rand.NewPCG(uint64(width), 1))
		n := uint64(5*eventChunk + 123)
		maxLevel := uint64(1)<<(width-1) - 2
		if width > 8 {
			maxLevel = 600
		}
		ev := newExitEvents(n, width)
		for i := range n {
			// clustered: one chunk in three has no action at all
			if (i/eventChunk)%3 == 1 || rng.IntN(4) != 0 {
				continue
			}
			d := rng.Uint64N(maxLevel + 1)
			e := (d+1)<<1 | rng.Uint64N(2)
			ev.lanes.Set(i, e)
			ev.count(e, 1)
		}
		ctx := context.Background()
		for depth := range maxLevel + 1 {
			if depth == maxLevel/2 {
				// Positions resolved since: their lanes hold depths of the
				// levels before this one.
				for i := range n {
					if ev.lanes.Get(i) != 0 && rng.IntN(3) == 0 {
						ev.lanes.Set(i, rng.Uint64N(depth))
					}
				}
			}
			var want, got []uint64
			for i := range n {
				if e := ev.lanes.Get(i); e>>1 == depth+1 {
					want = append(want, i<<1|e&1)
				}
			}
			var mu sync.Mutex
			err := ev.scan(ctx, 3, depth, func(_ int, p uint64, decrement bool) {
				mu.Lock()
				defer mu.Unlock()
				k := p << 1
				if decrement {
					k |= 1
				}
				got = append(got, k)
			})
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("width %d, level %d: scan found %d actions, want %d", width, depth, len(got), len(want))
			}
		}
		if ev.chunkLevels == nil {
			t.Fatalf("width %d: no chunk masks made", width)
		}
	}
}

// drawExits is exitGraph with another fifth of its vertices' exits
// reaching a draw; with bounded, the count of a vertex whose exits make it
// never a loss (a loss or a draw reached) is the game's MaxMoves, as a
// tier's solve gives it without counting (implicit.TierExitClassifier).
type drawExits struct {
	exitGraph
	bounded bool
}

func (g drawExits) ClassifyExits(s uint64, buf []uint64) (implicit.Kind, uint64, Exit, []uint64) {
	kind, k, exit, buf := g.exitGraph.ClassifyExits(s, buf)
	if kind != implicit.Inner {
		return kind, k, exit, buf
	}
	if s%5 == 4 {
		exit = Exit{Kind: ExitToDraw}
	}
	if g.bounded && (exit.Kind == ExitToLoss || exit.Kind == ExitToDraw) {
		k = g.MaxMoves()
	}
	return kind, k, exit, buf
}

// A count that only bounds the moves of a position its exits make never
// a loss (ExitGame.ClassifyExits) solves each random graph as the exact
// counts do, in every direction, blocked or not: the same values and
// depths, and where the direction is forced the same edges walked back.
func TestBoundedExitCounts(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(20) {
		g := graph.Random(3000+seed*100, 7000, seed)
		exact, bounded := drawExits{exitGraph: exitGraph{Graph: g}}, drawExits{exitGraph{Graph: g}, true}
		for _, opt := range []Options{
			{Workers: 1}, {Workers: 3},
			{Workers: 3, Direction: PushOnly}, {Workers: 1, Direction: PullOnly}, {Workers: 3, Direction: PullOnly},
			{Workers: 3, Direction: Alternate}, {Workers: 3, Direction: Alternate, BlockBytes: 1},
		} {
			want, err := Parallel(ctx, exact, opt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Parallel(ctx, bounded, opt)
			if err != nil {
				t.Fatal(err)
			}
			if i, differ := Diff(want, got); differ {
				t.Fatalf("graph %d, %d workers, %v, blocks of %d bytes: index %d is %v %d with bounded counts, %v %d with exact ones",
					seed, opt.Workers, opt.Direction, opt.BlockBytes, i, got.Value(i), got.Depth(i), want.Value(i), want.Depth(i))
			}
			if opt.Direction != Auto && got.Edges() != want.Edges() {
				t.Fatalf("graph %d, %d workers, %v, blocks of %d bytes: %d edges walked back with bounded counts, %d with exact ones",
					seed, opt.Workers, opt.Direction, opt.BlockBytes, got.Edges(), want.Edges())
			}
		}
	}
}
