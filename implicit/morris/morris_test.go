package morris

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit/gametest"
	"github.com/retro-solver/retro/internal/testsize"
	"github.com/retro-solver/retro/tier"
)

// TestContract checks the Game, Tiered and Notation contracts on random
// positions of each variant, whole and its endings: moves and un-moves
// agree, the tiers hold, the notation reads back.
func TestContract(t *testing.T) {
	for _, v := range []Variant{Standard, Lasker, Morabaraba} {
		for _, maxStones := range []int{3, 4, 0} {
			g, err := New(v, maxStones)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s -max-stones %d: %d tiers, %d indices", v.Name, maxStones, len(g.Tiers()), g.Size())
			if err := gametest.Check(g, 3000, 1); err != nil {
				t.Errorf("%s -max-stones %d: %v", v.Name, maxStones, err)
			}
			if err := gametest.CheckTiers(g, 3000, 2); err != nil {
				t.Errorf("%s -max-stones %d: %v", v.Name, maxStones, err)
			}
		}
	}
}

// TestNotation reads back the start and a few positions written both ways
// (White to move, and Black to move where the hands allow it), and refuses
// positions that break the rules with an error that says why.
func TestNotation(t *testing.T) {
	g, err := New(Standard, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Describe(g.Start()); got != ".../.../.../....../.../.../... W 9 9" {
		t.Errorf("the start reads %q", got)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		s := r.Uint64N(g.Size())
		for _, text := range []string{g.Describe(s), g.DescribeTurned(s)} {
			i, err := g.ParsePosition(text)
			if strings.Contains(text, " B ") && err != nil {
				continue // Black to move with equal hands: White's turn in the placement
			}
			if err != nil || i != s {
				t.Fatalf("%q (index %d) reads back as %d, %v", text, s, i, err)
			}
		}
	}
	for _, c := range []struct{ text, want string }{
		{".../.../.../....../.../.../... W 9 8", "must be equal"},
		{".../.../.../....../.../.../... B 9 9", "one more"},
		{"WWW/.../.../....../.../.../... W 9 9", "more than 9"},
		{".../.../... W 9 9", "3 rows"},
		{".../.../.../...X../.../.../... W 9 9", "'X'"},
		{".../.../.../....../.../.../... W 10 9", "want 0 to 9"},
		{"WWW/.../.../....../.../.../..B W 0 0", "Black has fewer than three"},
	} {
		if _, err := g.ParsePosition(c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error with %q", c.text, err, c.want)
		}
	}
}

// TestTieredEqualsSequential solves Morabaraba's ending with at most three
// stones a side (its diagonals in the mills) tier by tier on the parallel
// engine and whole on the sequential one: every value and depth agree.
func TestTieredEqualsSequential(t *testing.T) {
	testsize.SkipUnlessLong(t)
	g, err := New(Morabaraba, 3)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	want, err := engine.Sequential(ctx, g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sol, err := tier.Solve(ctx, g, tier.Options{Dir: t.TempDir(), Fingerprint: "test", Engine: engine.Options{Workers: 3}})
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	for s := range g.Size() {
		v, d, err := sol.Lookup(s)
		if err != nil || v != want.Value(s) || d != want.Depth(s) {
			t.Fatalf("%s: tiered %v %d (%v), sequential %v %d", g.Describe(s), v, d, err, want.Value(s), want.Depth(s))
		}
	}
}

// TestRank ranks and unranks every set of up to 4 points, and samples of
// larger ones, both ways.
func TestRank(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for k := 0; k <= 12; k++ {
		for i := uint64(0); i < min(choose[24][k], 20000); i++ {
			j := i
			if choose[24][k] > 20000 {
				j = r.Uint64N(choose[24][k])
			}
			set := unrank(j, k, 24)
			if bits.OnesCount32(set) != k || set>>24 != 0 || rank(set) != j {
				t.Fatalf("k %d: unrank(%d) = %b, ranked back %d", k, j, set, rank(set))
			}
		}
	}
}
