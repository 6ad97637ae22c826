package tier_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/internal/text"
	"github.com/retro-solver/retro/tier"
)

// tieredGraph is an explicit graph cut into tiers: vertex v lies in tier
// v / per, and its edges reach its own tier (cycles included) or later
// ones, all of which are its children.
type tieredGraph struct {
	*graph.Graph
	tiers []implicit.Tier
}

func (g tieredGraph) Tiers() []implicit.Tier { return g.tiers }

// randomTiered returns a graph of n vertices in t tiers with about m edges,
// a third of them into later tiers; for an odd seed, its odd tiers have
// edges into later tiers only (implicit.Tier.NoMovesInside).
func randomTiered(n, m uint64, t int, seed uint64) tieredGraph {
	r := rand.New(rand.NewPCG(seed, 7))
	per := (n + uint64(t) - 1) / uint64(t)
	flat := func(k uint64) bool { return seed%2 == 1 && k%2 == 1 }
	var src, dst []uint32
	for range m {
		u := r.Uint64N(n)
		lo, hi := u/per*per, min(u/per*per+per, n)
		v := lo + r.Uint64N(hi-lo)
		switch {
		case flat(u/per) && hi == n:
			continue // the last tier: nowhere to go
		case flat(u / per):
			v = hi + r.Uint64N(n-hi)
		case r.IntN(3) == 0:
			v = lo + r.Uint64N(n-lo)
		}
		src, dst = append(src, uint32(u)), append(dst, uint32(v))
	}
	g := tieredGraph{Graph: graph.FromEdges(n, src, dst)}
	for k := range t {
		lo, hi := uint64(k)*per, min(uint64(k+1)*per, n)
		if lo >= hi {
			break
		}
		tr := implicit.Tier{Name: fmt.Sprintf("vertices %d-%d", lo, hi-1), Start: lo, End: hi, NoMovesInside: flat(uint64(k))}
		for c := k + 1; uint64(c)*per < n; c++ {
			tr.Children = append(tr.Children, c)
		}
		g.tiers = append(g.tiers, tr)
	}
	return g
}

// tierUnmover is a tieredGraph that lists the un-moves inside a tier apart
// (implicit.TierUnmover), as Quixo and Teeko do.
type tierUnmover struct{ tieredGraph }

func (g tierUnmover) TierUnmoves(t uint64, _ bool, dst []uint64) []uint64 {
	k := implicit.TierOf(g.tiers, t)
	start := len(dst)
	dst = g.Unmoves(t, dst)
	out := dst[:start]
	for _, p := range dst[start:] {
		if p >= g.tiers[k].Start && p < g.tiers[k].End {
			out = append(out, p)
		}
	}
	return out
}

// tierMover is a tierUnmover that also counts the moves inside a tier
// apart (implicit.TierMover), as Morris does.
type tierMover struct{ tierUnmover }

func (g tierMover) TierMoves(s uint64, dst []uint64) (uint64, []uint64) {
	k := implicit.TierOf(g.tiers, s)
	var inside uint64
	for _, m := range g.Moves(s, nil) {
		if m >= g.tiers[k].Start && m < g.tiers[k].End {
			inside++
		} else {
			dst = append(dst, m)
		}
	}
	return inside, dst
}

// tierOrderer is a tierMover that lists its tiers' vertices in parts
// (implicit.TierOrderer), as Morris does: three to a part, from the last.
type tierOrderer struct{ tierMover }

// listing returns g as it lists a tier's moves to the solver: kind 0 with
// Moves and Unmoves alone, 1 with TierUnmover too, 2 with TierMover too,
// 3 with TierOrderer too.
func listing(g tieredGraph, kind uint64) implicit.Tiered {
	switch kind {
	case 1:
		return tierUnmover{g}
	case 2:
		return tierMover{tierUnmover{g}}
	case 3:
		return tierOrderer{tierMover{tierUnmover{g}}}
	}
	return g
}

func (g tierOrderer) TierParts(k int) uint64 { return (g.tiers[k].Size() + 2) / 3 }

func (g tierOrderer) TierPart(k int, j uint64, dst []uint64) []uint64 {
	t := g.tiers[k]
	for i := 3 * j; i < min(3*j+3, t.Size()); i++ {
		dst = append(dst, t.End-1-i)
	}
	return dst
}

// TestRandomGraphs solves random tiered graphs tier by tier, pushing every
// level, pulling every level, or both by turns (pushing blocked), and compares every vertex's value and depth with the sequential engine's solve of the
// whole graph.
func TestRandomGraphs(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(40) {
		n := 20 + seed*37%500
		g := randomTiered(n, n*(1+seed%4), 1+int(seed%7), seed)
		want, err := engine.Sequential(ctx, g, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 3} {
			// The tiers' exits (moves into solved tiers) act at their
			// levels whichever way the levels are expanded: pushed,
			// pulled, or both by turns, pushed in blocks of 64 positions.
			eng := []engine.Options{
				{Workers: workers, Direction: engine.PushOnly},
				{Workers: workers, Direction: engine.PullOnly},
				{Workers: workers, Direction: engine.Alternate, BlockBytes: 1},
			}[seed%3]
			// Seed 3 (odd: with tiers of no moves inside) uses the parts.
			game := listing(g, [4]uint64{1, 2, 0, 3}[seed%4])
			sol, err := tier.Solve(ctx, game, tier.Options{Dir: t.TempDir(), Fingerprint: "test", Engine: eng})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if sol.Size() != n {
				t.Fatalf("seed %d: %d entries, want %d", seed, sol.Size(), n)
			}
			sameValues(t, fmt.Sprintf("seed %d, %d workers", seed, workers), sol, want, n)
			if sol.MaxDepth() != want.MaxDepth() || sol.Count(engine.Win) != want.Count(engine.Win) {
				t.Fatalf("seed %d: max depth %d, %d wins; want %d, %d", seed, sol.MaxDepth(), sol.Count(engine.Win), want.MaxDepth(), want.Count(engine.Win))
			}
			sol.Close()
		}
	}
}

// TestChildrenCopied solves random tiered graphs with every child's codes
// read through hugeCodes (its lines copied as lookups read them, its huge
// pages filled once lookups read them all over: the last graph's
// children, of a million codes or more, fill some), on 3 workers: the
// same values and depths as the sequential engine's.
func TestChildrenCopied(t *testing.T) {
	defer tier.SetHugeLoad(1)()
	ctx := context.Background()
	seeds := uint64(13)
	if testing.Short() {
		seeds-- // not the large one
	}
	for seed := range seeds {
		n := 3000 + seed*7919%60000
		if seed == 12 {
			n = 3_000_000
		}
		g := randomTiered(n, n*(1+seed%3), 2+int(seed%4), seed)
		want, err := engine.Sequential(ctx, g, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sol, err := tier.Solve(ctx, g, tier.Options{Dir: t.TempDir(), Fingerprint: "test", Engine: engine.Options{Workers: 3}})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		sameValues(t, fmt.Sprintf("seed %d", seed), sol, want, n)
		sol.Close()
	}
}

// sharedTiers is a tieredGraph whose tiers are shared by a family
// (implicit.SharedTiers).
type sharedTiers struct{ tieredGraph }

func (sharedTiers) TierFamily() string { return "test family" }

// TestSharedTiers solves a game of shared tiers: its files are named by
// the tiers, a second solve in the folder finds every one of them done,
// with the same values, and a solve of no family there is refused.
func TestSharedTiers(t *testing.T) {
	ctx := context.Background()
	g := sharedTiers{randomTiered(300, 900, 4, 2)}
	dir := t.TempDir()
	want, err := engine.Sequential(ctx, g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for run := range 2 {
		var progress strings.Builder
		sol, err := tier.Solve(ctx, g, tier.Options{Dir: dir, Fingerprint: fmt.Sprintf("run %d", run), Progress: &progress})
		if err != nil {
			t.Fatal(err)
		}
		sameValues(t, fmt.Sprintf("run %d", run), sol, want, g.Size())
		sol.Close()
		if done := strings.Count(progress.String(), "already done"); run == 1 && done != len(g.Tiers()) {
			t.Errorf("second run: %d of %d tiers found done:\n%s", done, len(g.Tiers()), progress.String())
		}
	}
	for _, tr := range g.Tiers() {
		if _, err := os.Stat(filepath.Join(dir, text.FileName(tr.Name)+".tier")); err != nil {
			t.Errorf("tier %s: %v", tr.Name, err)
		}
	}
	if _, err := tier.Solve(ctx, g.tieredGraph, tier.Options{Dir: dir, Fingerprint: "other"}); err == nil || !strings.Contains(err.Error(), "another solve") {
		t.Errorf("a solve of no family in the family's folder: %v", err)
	}
}

// chainTiered returns a graph of t tiers of per vertices in a chain: a
// vertex's edges (about three each) reach its own tier or the next, its
// tier's one child.
func chainTiered(per uint64, t int, seed uint64) sharedTiers {
	r := rand.New(rand.NewPCG(seed, 9))
	n := per * uint64(t)
	var src, dst []uint32
	for u := range n {
		lo := u / per * per
		for range 3 {
			v := lo + r.Uint64N(min(2*per, n-lo))
			src, dst = append(src, uint32(u)), append(dst, uint32(v))
		}
	}
	g := tieredGraph{Graph: graph.FromEdges(n, src, dst)}
	for k := range t {
		tr := implicit.Tier{Name: fmt.Sprintf("chain %d", k), Start: uint64(k) * per, End: uint64(k+1) * per}
		if k+1 < t {
			tr.Children = []int{k + 1}
		}
		g.tiers = append(g.tiers, tr)
	}
	return sharedTiers{g}
}

// TestFirstGroupOnly solves the first tier of a chain of four in a folder
// of shared tiers from which RemoveShared took some: with its child's
// file there, its grandchild's is neither read nor solved again; without
// it, the child is solved again, and the grandchild with it, from the
// great-grandchild's file. The first tier's values are the whole solve's
// each time, and the Solution reads that tier alone.
func TestFirstGroupOnly(t *testing.T) {
	ctx := context.Background()
	const per = 200
	g := chainTiered(per, 4, 3)
	tiers := g.Tiers()
	want, err := engine.Sequential(ctx, g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sol, err := tier.Solve(ctx, g, tier.Options{Dir: dir, Fingerprint: "whole"})
	if err != nil {
		t.Fatal(err)
	}
	sol.Close()
	there := func(k int) bool {
		_, err := os.Stat(filepath.Join(dir, text.FileName(tiers[k].Name)+".tier"))
		return err == nil
	}
	for _, c := range []struct {
		remove []int  // the tiers whose files go first
		solved []bool // which tiers' files are there after the solve
	}{
		{[]int{0, 2}, []bool{true, true, false, true}},
		{[]int{0, 1}, []bool{true, true, true, true}},
	} {
		var gone []implicit.Tier
		for _, k := range c.remove {
			gone = append(gone, tiers[k])
		}
		freed, err := tier.RemoveShared(dir, gone)
		if err != nil || freed == 0 || there(c.remove[0]) || there(c.remove[1]) {
			t.Fatalf("RemoveShared %v: %d bytes, %v; files still there: %v %v", c.remove, freed, err, there(c.remove[0]), there(c.remove[1]))
		}
		var progress strings.Builder
		sol, err := tier.Solve(ctx, g, tier.Options{Dir: dir, Fingerprint: "first", FirstGroupOnly: true, Progress: &progress})
		if err != nil {
			t.Fatal(err)
		}
		sameValues(t, fmt.Sprintf("without %v", c.remove), sol, want, per)
		if _, _, err := sol.Lookup(3*per + 1); err == nil {
			t.Errorf("without %v: the last tier's entry read, want an error: the Solution reads the first tier alone", c.remove)
		}
		sol.Close()
		for k, ok := range c.solved {
			if there(k) != ok {
				t.Errorf("without %v: tier %d's file there: %v, want %v; progress:\n%s", c.remove, k, there(k), ok, progress.String())
			}
		}
	}
}

// TestDeepTier solves a tier whose depths pass 255 while its exits' are
// shallow: the exits' lanes, a byte each, take the depths of the resolved
// positions and are widened as the levels pass what they hold. A chain of
// 700 vertices leads to a tier of one terminal vertex.
func TestDeepTier(t *testing.T) {
	ctx := context.Background()
	const chain = 700
	var src, dst []uint32
	for v := range uint32(chain) {
		src, dst = append(src, v), append(dst, v+1) // the last reaches the child's vertex
	}
	g := tieredGraph{Graph: graph.FromEdges(chain+1, src, dst), tiers: []implicit.Tier{
		{Name: "chain", Start: 0, End: chain, Children: []int{1}},
		{Name: "end", Start: chain, End: chain + 1},
	}}
	want, err := engine.Sequential(ctx, g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want.MaxDepth() < 600 {
		t.Fatalf("the chain's deepest position is at %d plies: the test wants more than 255", want.MaxDepth())
	}
	for _, eng := range []engine.Options{
		{Workers: 2, Direction: engine.PushOnly},
		{Workers: 2, Direction: engine.PullOnly},
		{Workers: 2, Direction: engine.Alternate, BlockBytes: 1},
	} {
		sol, err := tier.Solve(ctx, g, tier.Options{Dir: t.TempDir(), Fingerprint: "test", Engine: eng})
		if err != nil {
			t.Fatal(err)
		}
		sameValues(t, fmt.Sprintf("%+v", eng), sol, want, g.Size())
		sol.Close()
	}
}
