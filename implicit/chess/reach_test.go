package chess

import (
	"math/rand/v2"
	"testing"

	"github.com/retro-solver/retro/implicit"
)

// TestChildReach checks ChildReach, the memory plan's bound on the part of
// a child tier that a tier's moves reach: every move of random positions
// that leaves its tier lands in a part ChildReach counts (the half with
// the side to move it names, or the en-passant nodes), and a promotion's
// child is counted half (a bound of the whole child's size would pass the
// first check alone).
func TestChildReach(t *testing.T) {
	for _, sig := range []string{"KQvKR", "KRvKP", "KPvKP", "KRPvKR", "KPPvKP"} {
		g, _ := testGame(t, sig)
		tiers := g.Tiers()
		r := rand.New(rand.NewPCG(3, uint64(len(tiers))))
		checked := 0
		for k, tier := range tiers {
			for c := range tier.Children {
				if got := g.ChildReach(k, tier.Children[c]); got > tiers[tier.Children[c]].Size() {
					t.Errorf("%s: ChildReach(%s, %s) = %d, more than the child's %d indices",
						sig, tier.Name, tiers[tier.Children[c]].Name, got, tiers[tier.Children[c]].Size())
				}
			}
			var buf []uint64
			for range 300 {
				s := tier.Start + r.Uint64N(tier.Size())
				if g.Classify(s) != implicit.Inner {
					continue
				}
				buf = g.Moves(s, buf[:0])
				for _, m := range buf {
					c := implicit.TierOf(tiers, m)
					if c == k {
						continue
					}
					checked++
					if !g.inReach(k, c, m) {
						p, _ := g.Position(s)
						q, _ := g.Position(m)
						t.Fatalf("%s: %s (tier %s) moves to %s (tier %s), in a part of it ChildReach leaves out",
							sig, p.FEN(), tier.Name, q.FEN(), tiers[c].Name)
					}
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: no move out of a tier checked", sig)
		}
	}
	g, _ := testGame(t, "KRPvKR")
	tiers := g.Tiers()
	for k, tier := range tiers {
		for _, c := range tier.Children {
			if tiers[c].Name == "KQRvKR" {
				if got, want := g.ChildReach(k, c), tiers[c].Size()/2; got != want {
					t.Errorf("KRPvKR: ChildReach(%s, KQRvKR) = %d, want half of it, %d", tier.Name, got, want)
				}
			}
		}
	}
}

// inReach reports whether index s of child tier c lies in a part that
// ChildReach(k, c) counts.
func (g *Game) inReach(k, c int, s uint64) bool {
	bits, ok := g.reach[[2]int{k, c}]
	if !ok {
		return false
	}
	j, i := g.locate(s)
	e := g.mats[j].e
	region := i / e.half
	if e.blocks != nil {
		b := &e.blocks[e.blockAt(i)]
		region = (i - b.start) / b.half
	}
	switch region {
	case 0:
		return bits&(1<<White) != 0
	case 1:
		return bits&(1<<Black) != 0
	}
	return bits&reachEP != 0
}
