package engine

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
)

// TestScanChunks checks exitEvents.scan against a plain reading of every
// lane: each level's scan calls act for exactly the lanes that hold an
// action of that level, with its kind, for lanes of each width and both
// codings (an Alternating game's, whose kind is its level's parity),
// levels past the 256 that the chunks' masks tell apart, and lanes that a
// depth overwrote after the masks were made.
func TestScanChunks(t *testing.T) {
	for _, c := range []struct {
		width     uint
		alternate bool
	}{{8, false}, {16, false}, {32, false}, {8, true}, {16, true}} {
		width := c.width
		rng := rand.New(rand.NewPCG(uint64(width), 1))
		n := uint64(5*eventChunk + 123)
		ev := &exitEvents{alternate: c.alternate}
		maxLevel := uint64(600)
		if width == 8 {
			maxLevel = 254 // its code, 255, is the widest 8 bits hold
			if !c.alternate {
				maxLevel = 126
			}
		}
		if got := ev.width(maxLevel); got != width && width < 32 {
			t.Fatalf("alternate %v: width(%d) = %d, want %d", c.alternate, maxLevel, got, width)
		}
		ev.setLanes(bitset.NewCounters(n, width))
		for i := range n {
			// clustered: one chunk in three has no action at all
			if (i/eventChunk)%3 == 1 || rng.IntN(4) != 0 {
				continue
			}
			d := rng.Uint64N(maxLevel + 1)
			e := ev.code(d, rng.IntN(2) == 1)
			if c.alternate {
				e = ev.code(d, d&1 == 1)
			}
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
				switch e := ev.lanes.Get(i); {
				case c.alternate && e == depth+1:
					want = append(want, i<<1|depth&1)
				case !c.alternate && e>>1 == depth+1:
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
				t.Fatalf("width %d, alternate %v, level %d: scan found %d actions, want %d", width, c.alternate, depth, len(got), len(want))
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

// parityExits is exitGraph with its exits' depths kept to an Alternating
// game's parity: a loss reached at an even depth, the deepest of the wins
// at an odd one, up to 199 (16-bit lanes in the other coding); alternates
// says whether it reports it.
type parityExits struct {
	exitGraph
	alternates bool
}

func (g parityExits) ClassifyExits(s uint64, buf []uint64) (implicit.Kind, uint64, Exit, []uint64) {
	kind, k, exit, buf := g.exitGraph.ClassifyExits(s, buf)
	switch exit.Kind {
	case ExitToLoss:
		exit.Depth = 2 * (s % 100)
	case ExitToWins:
		exit.Depth = 2*(s%100) + 1
	}
	return kind, k, exit, buf
}

func (g parityExits) MaxExitDepth() uint64 { return 199 }
func (g parityExits) Alternates() bool     { return g.alternates }

// An Alternating game's exits take lanes of 8 bits where the other coding
// needs 16, and solve each random graph as it does, every value and depth;
// a solve stopped at a checkpoint in the other coding goes on from it in
// that coding; an exit of the wrong parity panics.
func TestAlternatingExits(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(4) {
		g := graph.Random(3000, 5000+seed*500, seed)
		plain, alt := parityExits{exitGraph{Graph: g}, false}, parityExits{exitGraph{Graph: g}, true}
		for _, c := range []struct {
			g     parityExits
			width uint
		}{{plain, 16}, {alt, 8}} {
			if w := newParSolver(c.g, 16, Options{}).exits.lanes.Width(); w != c.width {
				t.Fatalf("alternates %v: exits' lanes of %d bits, want %d", c.g.alternates, w, c.width)
			}
		}
		want, err := Parallel(ctx, plain, Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range []Options{{Workers: 1}, {Workers: 3}, {Workers: 3, Direction: PullOnly}, {Workers: 2, BlockBytes: 1}} {
			got, err := Parallel(ctx, alt, opt)
			if err != nil {
				t.Fatal(err)
			}
			if i, differ := Diff(want, got); differ {
				t.Fatalf("graph %d, %+v: index %d is %v %d alternating, %v %d not", seed, opt, i, got.Value(i), got.Depth(i), want.Value(i), want.Depth(i))
			}
		}
		k := want.MaxDepth() / 2
		path := filepath.Join(t.TempDir(), "ckpt")
		stopped, stop := context.WithCancel(ctx)
		_, err = Parallel(stopped, plain, Options{Workers: 2, Checkpoint: &Checkpoint{Path: path, Fingerprint: "g", Every: 1, Saved: func(level uint64) {
			if level == k {
				stop()
			}
		}}})
		stop()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("graph %d: the solve to stop at level %d ended with %v", seed, k, err)
		}
		got, err := Parallel(ctx, alt, Options{Workers: 2, Checkpoint: &Checkpoint{Path: path, Fingerprint: "g", Every: 1 << 62}})
		if err != nil {
			t.Fatalf("graph %d, resumed at level %d: %v", seed, k, err)
		}
		if i, differ := Diff(want, got); differ {
			t.Fatalf("graph %d, resumed alternating at level %d: index %d differs", seed, k, i)
		}
	}
	for _, e := range []Exit{{ExitToLoss, 3}, {ExitToWins, 4}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("an alternating game's %v was coded", e)
				}
			}()
			(&exitEvents{alternate: true}).event(e)
		}()
	}
}
