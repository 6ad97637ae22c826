package engine

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/internal/tempfile"
	"github.com/retro-solver/retro/internal/testsize"
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
			var want []uint64
			for i := range n {
				switch e := ev.lanes.Get(i); {
				case c.alternate && e == depth+1:
					want = append(want, i<<1|depth&1)
				case !c.alternate && e>>1 == depth+1:
					want = append(want, i<<1|e&1)
				}
			}
			got := scanned(t, func(act func(int, uint64, bool)) error { return ev.scan(ctx, 3, depth, act) })
			if !slices.Equal(got, want) {
				t.Fatalf("width %d, alternate %v, level %d: scan found %d actions, want %d", width, c.alternate, depth, len(got), len(want))
			}
		}
		if ev.chunkLevels == nil {
			t.Fatalf("width %d: no chunk masks made", width)
		}
	}
}

// exitOracle solves exit game g with the sequential engine as an explicit
// graph: g's moves, each exit a move to the vertex of its depth in a chain
// (the chain's vertex k, with one move to vertex k-1, is a loss at depth k
// where k is even, a win where it is odd: as the exits of an Alternating
// game reach them), and each illegal vertex a draw (its one move to
// itself). Its first g.Size() vertices are g's.
func exitOracle(t *testing.T, g ExitGame) *Result {
	n, maxD := g.Size(), g.MaxExitDepth()
	var src, dst []uint32
	edge := func(u, v uint64) { src, dst = append(src, uint32(u)), append(dst, uint32(v)) }
	for k := uint64(1); k <= maxD; k++ {
		edge(n+k, n+k-1)
	}
	var buf []uint64
	for s := range n {
		kind, _, exit, _ := g.ClassifyExits(s, nil)
		if kind == implicit.Illegal {
			edge(s, s)
			continue
		}
		buf = g.Moves(s, buf[:0])
		for _, m := range buf {
			edge(s, m)
		}
		if exit.Kind == ExitToLoss || exit.Kind == ExitToWins {
			edge(s, n+exit.Depth)
		}
	}
	r, err := Sequential(context.Background(), graph.FromEdges(n+maxD+1, src, dst), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// scanned returns the actions that scan calls its act with, on any
// number of workers, each as its position shifted left by one and its
// kind (1 for a decrement), sorted.
func scanned(t *testing.T, scan func(act func(w int, p uint64, decrement bool)) error) []uint64 {
	var got []uint64
	var mu sync.Mutex
	err := scan(func(_ int, p uint64, decrement bool) {
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
	return got
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

// An Alternating game's exits, its depths kept halved in its lanes, solve
// each random graph as the other coding does, every value and depth, with
// depths past what a lane holds (126 plies in lanes of 8 bits, halved; 62
// in the other coding) in the deep lane; a solve stopped at a checkpoint
// goes on from it, and the other coding's checkpoint is refused; an exit
// of the wrong parity panics.
func TestAlternatingExits(t *testing.T) {
	for _, share := range []uint64{16, 1, 1 << 62} {
		t.Run(fmt.Sprintf("deep list share %d", share), func(t *testing.T) {
			defer func(old uint64) { deepListShare = old }(deepListShare)
			deepListShare = share
			seeds := uint64(4)
			switch {
			case testsize.Race:
				seeds = 1 // a graph of 130 levels and more, each a barrier of every worker, the paths the detector needs once
			case share != 16:
				seeds = 2
			}
			testAlternatingExits(t, seeds)
		})
	}
}

// testAlternatingExits is TestAlternatingExits on the given number of
// graphs. The deep depths are a list first (deepListShare 1: a list until
// the end), a lane from the first deep level on (1<<62), or a list that
// becomes a lane (16).
func testAlternatingExits(t *testing.T, seeds uint64) {
	ctx := context.Background()
	for seed := range seeds {
		g := graph.Random(3000, 5000+seed*500, seed)
		plain, alt := parityExits{exitGraph{Graph: g}, false}, parityExits{exitGraph{Graph: g}, true}
		if w, err := parLaneWidth(alt); err != nil || w != 8 {
			t.Fatalf("graph %d: lanes of %d bits (%v), want 8: the deep lane untested", seed, w, err)
		}
		want, err := Parallel(ctx, plain, Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		oracle := exitOracle(t, plain)
		for i := range g.Size() {
			if want.Value(i) != Illegal && (want.Value(i) != oracle.Value(i) || want.Depth(i) != oracle.Depth(i)) {
				t.Fatalf("graph %d: index %d is %v %d, the sequential engine's explicit graph says %v %d",
					seed, i, want.Value(i), want.Depth(i), oracle.Value(i), oracle.Depth(i))
			}
		}
		if d := want.deep; d == nil || deepListShare == 1 && (d.dense() || len(d.list) == 0) || deepListShare > g.Size() && !d.dense() {
			t.Fatalf("graph %d, deep list share %d: the deep depths not kept the way the share asks", seed, deepListShare)
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
		if want.MaxDepth() < 130 {
			t.Fatalf("graph %d: depths up to %d: the deep lane untested", seed, want.MaxDepth())
		}
		for _, k := range []uint64{want.MaxDepth() / 3, want.MaxDepth() - 2} {
			for _, game := range []parityExits{plain, alt} {
				path := filepath.Join(t.TempDir(), "ckpt")
				stopped, stop := context.WithCancel(ctx)
				_, err = Parallel(stopped, game, Options{Workers: 2, Checkpoint: &Checkpoint{Path: path, Fingerprint: "g", Every: 1, Saved: func(level uint64) {
					if level == k {
						stop()
					}
				}}})
				stop()
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("graph %d: the solve to stop at level %d ended with %v", seed, k, err)
				}
				if left, _ := os.ReadDir(filepath.Dir(path)); len(left) != 1 {
					t.Fatalf("graph %d: the stopped solve left %d files beside its checkpoint", seed, len(left)-1)
				}
				other := parityExits{game.exitGraph, !game.alternates}
				if _, err := Parallel(ctx, other, Options{Workers: 2, Checkpoint: &Checkpoint{Path: path, Fingerprint: "g"}}); err == nil {
					t.Fatalf("graph %d: a checkpoint of alternating %v resumed by a solve of alternating %v", seed, game.alternates, other.alternates)
				}
				got, err := Parallel(ctx, game, Options{Workers: 3, Checkpoint: &Checkpoint{Path: path, Fingerprint: "g", Every: 1 << 62}})
				if err != nil {
					t.Fatalf("graph %d, resumed at level %d: %v", seed, k, err)
				}
				if i, differ := Diff(want, got); differ {
					t.Fatalf("graph %d, alternating %v, resumed at level %d: index %d differs", seed, game.alternates, k, i)
				}
			}
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

// exitLists gives back, level by level, exactly the actions added to it,
// with their kinds: in both codings, from workers that add runs of
// increasing positions and others that add them in any order, with
// segments cut where they fill, and after a checkpoint's save and restore
// half way; its spool leaves no file behind.
func TestExitLists(t *testing.T) {
	ctx := context.Background()
	for _, alternate := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(7, 1))
		dir := t.TempDir()
		const workers, n, maxLevel = 3, 200000, 300
		l, err := newExitLists(dir, workers, alternate)
		if err != nil {
			t.Fatal(err)
		}
		want := map[uint64][]uint64{} // level -> position<<1 | decrement
		add := func(w int, i uint64) {
			d := rng.Uint64N(maxLevel)
			dec := rng.IntN(2) == 1
			if alternate {
				dec = d&1 == 1
			}
			e := l.codes.code(d, dec)
			l.add(w, i, e)
			k := i << 1
			if dec {
				k |= 1
			}
			want[d] = append(want[d], k)
		}
		for i := range uint64(n) {
			if rng.IntN(3) == 0 {
				add(int(i%2), i) // workers 0 and 1: increasing runs
			}
		}
		for range n / 10 {
			add(2, rng.Uint64N(1<<40)) // worker 2: anywhere
		}
		if err := l.finish(); err != nil {
			t.Fatal(err)
		}
		for d := range uint64(maxLevel) {
			if got := uint64(len(want[d])); d < uint64(len(l.atLevel)) && l.atLevel[d] != got || d >= uint64(len(l.atLevel)) && got != 0 {
				t.Fatalf("alternate %v: level %d counted wrong", alternate, d)
			}
		}
		if last, ok := l.lastLevel(); !ok || last != maxLevel-1 {
			t.Fatalf("alternate %v: last level %d %v", alternate, last, ok)
		}
		for d := range uint64(maxLevel) {
			if d == maxLevel/2 {
				var b bytes.Buffer
				w := bufio.NewWriter(&b)
				if err := l.save(w); err != nil {
					t.Fatal(err)
				}
				w.Flush()
				l.close()
				if l, err = newExitLists(dir, workers, alternate); err != nil {
					t.Fatal(err)
				}
				if err := l.restore(bufio.NewReader(&b)); err != nil {
					t.Fatalf("alternate %v: restored: %v", alternate, err)
				}
			}
			got := scanned(t, func(act func(int, uint64, bool)) error { return l.scan(ctx, workers, d, act) })
			slices.Sort(want[d])
			if !slices.Equal(got, want[d]) {
				t.Fatalf("alternate %v, level %d: %d actions read, %d added", alternate, d, len(got), len(want[d]))
			}
		}
		if len(l.segments) != 0 {
			t.Fatalf("alternate %v: %d lists left after every level", alternate, len(l.segments))
		}
		l.close()
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Fatalf("alternate %v: the spool left %s", alternate, left[0].Name())
		}
	}
}

// TestSpoolLeftByKill checks that a spool left by a process killed in the
// moment between its making and its removal (or kept where the system
// cannot remove an open file) is named as a writer's temporary file: the
// next solve in its folder, whose tier folder's preparation removes the
// files of writers that no longer run (tempfile.RemoveStale), removes it,
// and keeps a running solve's.
func TestSpoolLeftByKill(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no asking whether a process runs here: a temporary file is kept")
	}
	dir := t.TempDir()
	l, err := newExitLists(dir, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	// A process that has ended, and the name its spool had.
	gone := exec.Command(os.Args[0], "-test.run=^$")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	ours := filepath.Base(l.f.Name())
	own := strconv.Itoa(os.Getpid())
	if !strings.Contains(ours, ".tmp"+own+"-") {
		t.Fatalf("the spool %s is not named after its process %s", ours, own)
	}
	left := filepath.Join(dir, strings.Replace(ours, ".tmp"+own+"-", ".tmp"+strconv.Itoa(gone.Process.Pid)+"-", 1))
	live := filepath.Join(dir, ours+"x") // a running solve's, this one's process
	for _, f := range []string{left, live} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tempfile.RemoveStale(dir, "")
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Errorf("the spool of an ended process stays: %v", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a running process's spool is removed: %v", err)
	}
}
