package morris

import (
	"context"
	"flag"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/engine/enginetest"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/gametest"
	"github.com/retro-solver/retro/internal/testsize"
	"github.com/retro-solver/retro/tier"
)

// TestContract checks the Game, Tiered and Notation contracts on random
// positions of each variant, whole and its endings: moves and un-moves
// agree, the tiers hold, the notation reads back. Under -short (the race
// detector's run, where the three variants took 45 s) the standard game
// alone.
func TestContract(t *testing.T) {
	testsize.SkipUnderRace(t, "one goroutine's checks; morris under parallel workers is raced in TestSymmetricIndex")
	variants := []Variant{Standard, Lasker, Morabaraba}
	if testing.Short() {
		variants = variants[:1]
	}
	for _, v := range variants {
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
	testsize.SkipUnderRace(t, "one goroutine's round trips; morris under parallel workers is raced in TestSymmetricIndex")
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
		if g.Classify(s) == implicit.Illegal {
			continue // an image of its class's representative
		}
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
// engine, over the symmetric index, and every position of the plain index
// on the sequential engine: each position's value and depth are its
// class's.
func TestTieredEqualsSequential(t *testing.T) {
	testsize.SkipUnlessLong(t)
	g, plain := symmetricAndPlain(t, Morabaraba, 3)
	ctx := context.Background()
	want, err := engine.Sequential(ctx, plain, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sol, err := tier.Solve(ctx, g, tier.Options{Dir: t.TempDir(), Fingerprint: "test", Engine: engine.Options{Workers: 3}})
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	for s := range plain.Size() {
		v, d, err := sol.Lookup(g.Class(s))
		if err != nil || v != want.Value(s) || d != want.Depth(s) {
			t.Fatalf("%s: tiered %v %d (%v), sequential %v %d", plain.Describe(s), v, d, err, want.Value(s), want.Depth(s))
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
			if bits.OnesCount32(set) != k || set>>24 != 0 || rank(set) != j || sumRank(set) != j {
				t.Fatalf("k %d: unrank(%d) = %b, ranked back %d (the sum: %d)", k, j, set, rank(set), sumRank(set))
			}
			taken := r.Uint32() & full &^ set
			if c := compress(set, taken); c != slowCompress(set, taken) || expand(c, taken) != set {
				t.Fatalf("compress(%b, %b) = %b, want %b; expanded back %b", set, taken, c, slowCompress(set, taken), expand(c, taken))
			}
		}
	}
}

// sumRank is rank the slow way: the sum of C(p, i+1) over set's i-th point
// p.
func sumRank(set uint32) uint64 {
	var r uint64
	for i := 1; set != 0; i++ {
		r += choose[bits.TrailingZeros32(set)][i]
		set &= set - 1
	}
	return r
}

// slowCompress is compress a point at a time.
func slowCompress(set, taken uint32) uint32 {
	var c uint32
	for s := set; s != 0; s &= s - 1 {
		p := bits.TrailingZeros32(s)
		c |= 1 << (p - bits.OnesCount32(taken&(1<<p-1)))
	}
	return c
}

// TestSymmetries checks that each of the 16 symmetries is a permutation of
// the points that maps the lines onto lines and the mills onto mills, on
// both boards, and that the 16 are distinct.
func TestSymmetries(t *testing.T) {
	seen := map[[24]int]bool{}
	for k, perm := range symmetries {
		if seen[perm] {
			t.Fatalf("symmetry %d repeats another", k)
		}
		seen[perm] = true
		var onto uint32
		for _, q := range perm {
			onto |= 1 << q
		}
		if onto != full {
			t.Fatalf("symmetry %d is not a permutation: %v", k, perm)
		}
		for _, diagonals := range []bool{false, true} {
			b := newBoard(diagonals)
			for p := range 24 {
				if image(k, b.adj[p]) != b.adj[perm[p]] {
					t.Errorf("symmetry %d (diagonals %v): the neighbours of %s go to %b, not %s's", k, diagonals, pointNames[p], image(k, b.adj[p]), pointNames[perm[p]])
				}
			}
			for _, m := range b.mills {
				if !slices.Contains(b.mills, image(k, m)) {
					t.Errorf("symmetry %d (diagonals %v): mill %b goes to %b, no mill", k, diagonals, m, image(k, m))
				}
			}
		}
	}
}

// TestSymmetricIndex solves the ending with at most three stones a side
// over the symmetric index and over the plain one (every position its own
// index): each position's value and depth are its class's, each class
// stands for as many positions as map to it (Positions), and every other
// index of the symmetric one is Illegal. Under -short (the race detector's
// run, where the plain index's solve took 2 minutes) the symmetric index's
// parallel solve is compared with the sequential engine's instead, and
// under the race detector checked by the rules at a sample of indices.
func TestSymmetricIndex(t *testing.T) {
	if testing.Short() {
		g, err := New(Standard, 3)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		par, err := engine.Parallel(ctx, g, engine.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if testsize.Race {
			// The parallel workers are what the race detector is for; the
			// sequential engine and the comparison, one goroutine, would
			// take 15 s more under it. The values are checked whole by the
			// runs without it (the symmetric index against the plain one,
			// below); here the rules at 20,000 random indices (CheckLocal).
			rng := rand.New(rand.NewPCG(9, 9))
			sample := make([]uint64, 20000)
			for i := range sample {
				sample[i] = rng.Uint64N(g.Size())
			}
			if err := enginetest.CheckLocal(g, par, func(s uint64) uint64 { return s }, sample); err != nil {
				t.Fatal(err)
			}
			return
		}
		seq, err := engine.Sequential(ctx, g, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range g.Size() {
			if par.Value(i) != seq.Value(i) || par.Depth(i) != seq.Depth(i) {
				t.Fatalf("index %d (%s): parallel %v %d, sequential %v %d", i, g.Describe(i), par.Value(i), par.Depth(i), seq.Value(i), seq.Depth(i))
			}
		}
		return
	}
	// Morabaraba's board has the same symmetries; its symmetric index is
	// compared with the plain one in TestTieredEqualsSequential.
	for _, v := range []Variant{Standard} {
		g, plain := symmetricAndPlain(t, v, 3)
		ctx := context.Background()
		all, err := engine.Parallel(ctx, plain, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		classes, err := engine.Parallel(ctx, g, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d positions, %d indices (%d illegal)", v.Name, plain.Size(), g.Size(), classes.Count(engine.Illegal))
		mapped := make([]uint64, g.Size())
		for s := range plain.Size() {
			i := g.Class(s)
			mapped[i]++
			if all.Value(s) != classes.Value(i) || all.Depth(s) != classes.Depth(i) {
				t.Fatalf("%s %s: %v %d, its class %v %d", v.Name, plain.Describe(s), all.Value(s), all.Depth(s), classes.Value(i), classes.Depth(i))
			}
		}
		for i, n := range mapped {
			if got := g.Positions(uint64(i)); got != n || (n == 0) != (g.Classify(uint64(i)) == implicit.Illegal) {
				t.Fatalf("%s index %d (%s): %d positions map to it, Positions says %d, Classify %v", v.Name, i, g.Describe(uint64(i)), n, got, g.Classify(uint64(i)))
			}
		}
	}
}

// symmetricAndPlain returns variant v's ending (or whole game) with the
// symmetric index and with the plain one (its Plain).
func symmetricAndPlain(t *testing.T, v Variant, maxStones int) (*Game, *Game) {
	t.Helper()
	g, err := New(v, maxStones)
	if err != nil {
		t.Fatal(err)
	}
	return g, g.Plain()
}

// TestTierParts checks that the parts of every tier of the whole standard
// game up to 300,000 indices list each of its positions once, over
// the symmetric index and the plain one, Lasker's and Morabaraba's too
// (but under -short).
func TestTierParts(t *testing.T) {
	testsize.SkipUnderRace(t, "one goroutine's checks; morris under parallel workers is raced in TestSymmetricIndex")
	variants := []Variant{Standard, Lasker, Morabaraba}
	if testing.Short() {
		variants = variants[:1]
	}
	for _, v := range variants {
		g, plain := symmetricAndPlain(t, v, 0)
		for _, x := range []*Game{g, plain} {
			if err := gametest.CheckTierParts(x, 3e5); err != nil {
				t.Errorf("%s (symmetric %v): %v", v.Name, x.classes != nil, err)
			}
		}
	}
}

// TestTieredPlacement solves the standard game with three stones in hand
// each tier by tier, its placement tiers in one pass over their parts,
// and whole on the parallel engine: every index has the same value and
// depth.
func TestTieredPlacement(t *testing.T) {
	testsize.SkipUnderRace(t, "tier.Solve is raced in package tier, morris under parallel workers in TestSymmetricIndex")
	v := Standard
	v.Stones = 3
	g, err := New(v, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	want, err := engine.Parallel(ctx, g, engine.Options{})
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
			t.Fatalf("%s: tiered %v %d (%v), whole %v %d", g.Describe(s), v, d, err, want.Value(s), want.Depth(s))
		}
	}
}

// TestDescriptorInterfaces checks that the games the command solves, the
// whole game and an ending, offer every optional interface a Game does:
// a wrapper that hid one would solve slower, and nothing else would tell.
func TestDescriptorInterfaces(t *testing.T) {
	for _, args := range [][]string{{"-stones", "3"}, {"-max-stones", "3"}} {
		g := commandGame(t, args)
		for name, ok := range map[string]bool{
			"Tiered":          is[implicit.Tiered](g),
			"TierUnmover":     is[implicit.TierUnmover](g),
			"TierMover":       is[implicit.TierMover](g),
			"TierOrderer":     is[implicit.TierOrderer](g),
			"PositionCounter": is[implicit.PositionCounter](g),
			"AsPlayed":        is[implicit.AsPlayed](g),
			"Notation":        is[implicit.Notation](g),
			"TurnedDescriber": is[implicit.TurnedDescriber](g),
		} {
			if !ok {
				t.Errorf("morris %v: the command's game is no %s", args, name)
			}
		}
	}
}

// commandGame returns the game `retro solve morris ARGS` solves.
func commandGame(t *testing.T, args []string) implicit.Game {
	t.Helper()
	fs := flag.NewFlagSet("morris", flag.ContinueOnError)
	load := Descriptor.Setup(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	inst, err := load(strings.NewReader(""), implicit.LoadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return inst[0].Game()
}

func is[T any](g implicit.Game) bool {
	_, ok := g.(T)
	return ok
}
