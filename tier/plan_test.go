package tier_test

import (
	"context"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/chess"
	"github.com/retro-solver/retro/implicit/quixo"
	"github.com/retro-solver/retro/tier"
)

// Quixo 4 x 4's tiers are small by their classes, so that with 2 workers
// its plan's peak is two of them side by side; Within brings it down to
// one tier at a time where that is over a limit, and leaves a plan that
// fits as it is.
func TestPlanWithin(t *testing.T) {
	g, err := quixo.New(4)
	if err != nil {
		t.Fatal(err)
	}
	p := tier.Estimate(g, 2)
	if p.SideBySide != 2 || p.Together != 2 {
		t.Fatalf("2 workers: %d side by side, %d together at the peak; want 2 and 2", p.SideBySide, p.Together)
	}
	var alone uint64
	for _, b := range p.Tiers {
		alone = max(alone, b)
	}
	if alone >= p.Peak {
		t.Fatalf("the peak side by side, %d bytes, is not above one tier's, %d", p.Peak, alone)
	}
	q := p.Within(g, 2, p.Peak-1)
	if q.SideBySide != 1 || q.Together != 1 || q.Peak != alone {
		t.Fatalf("within %d bytes: %d side by side, %d together, peak %d; want 1, 1 and %d",
			p.Peak-1, q.SideBySide, q.Together, q.Peak, alone)
	}
	if r := p.Within(g, 2, p.Peak); r.SideBySide != 2 || r.Peak != p.Peak {
		t.Fatalf("within its own peak: %d side by side, peak %d; want 2 and %d", r.SideBySide, r.Peak, p.Peak)
	}
}

// The small tiers solved one at a time on every worker (SideBySide 1)
// give the files of the default schedule, which solves them side by side.
func TestSideBySideSameFiles(t *testing.T) {
	ctx := context.Background()
	g, err := quixo.New(3)
	if err != nil {
		t.Fatal(err)
	}
	dirs := []string{t.TempDir(), t.TempDir()}
	for i, side := range []int{0, 1} {
		o := tier.Options{Dir: dirs[i], Fingerprint: "test", SideBySide: side, Engine: engine.Options{Workers: 2}}
		sol, err := tier.Solve(ctx, g, o)
		if err != nil {
			t.Fatal(err)
		}
		sol.Close()
	}
	sameFiles(t, dirs[0], dirs[1])
}

// withoutReach is a chess game without ChildReach: its plan counts each
// child whole.
type withoutReach struct{ implicit.Tiered }

func (w withoutReach) TierMaxMoves(k int) uint64 { return w.Tiered.(*chess.Game).TierMaxMoves(k) }

// A tier's plan counts the codes of the part of a child its moves reach
// where the game says which (implicit.ChildReacher), and for a child that
// a copy in huge pages serves, that copy's bound (tier.ChildBytes): KRPvKR's
// tiers with the pawn on the seventh rank read half of each of the four
// endgames its promotions reach.
func TestPlanChildReach(t *testing.T) {
	m, err := chess.ParseMaterial("KRPvKR")
	if err != nil {
		t.Fatal(err)
	}
	g, err := chess.NewGame(m)
	if err != nil {
		t.Fatal(err)
	}
	reach, whole := tier.Estimate(g, 2), tier.Estimate(withoutReach{g}, 2)
	less := 0
	for k, tr := range g.Tiers() {
		var want uint64
		for _, c := range tr.Children {
			n := whole.Entries[c]
			want += tier.ChildBytes(n, n) - tier.ChildBytes(n, min(n, g.ChildReach(k, c)))
		}
		if got := whole.Tiers[k] - reach.Tiers[k]; got != want {
			t.Errorf("tier %s: its plan counts %d bytes less than with its children whole, want %d", tr.Name, got, want)
		}
		if want > 0 {
			less++
		}
	}
	if less == 0 {
		t.Error("no tier's plan counts less of its children than their whole")
	}
}
