package quixo_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/engine/enginetest"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/gametest"
	"github.com/retro-solver/retro/implicit/quixo"
	"github.com/retro-solver/retro/internal/testsize"
	"github.com/retro-solver/retro/tier"
)

func game(t testing.TB, n int) *quixo.Game {
	t.Helper()
	g, err := quixo.New(n)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestConsistency(t *testing.T) {
	testsize.SkipUnderRace(t, "one goroutine's checks; quixo under parallel workers is raced in TestThreeByThree and TestTieredSolve")
	for _, n := range []int{2, 3, 4} {
		g := game(t, n)
		if err := gametest.Check(g, 3000, 1); err != nil {
			t.Fatalf("%d x %d, every board: %v", n, n, err)
		}
		if err := gametest.Check(implicit.Reduce(g), 3000, 2); err != nil {
			t.Fatalf("%d x %d, canonical boards: %v", n, n, err)
		}
		if err := gametest.Check(implicit.NewCompact(g), 3000, 3); err != nil {
			t.Fatalf("%d x %d, canonical boards renumbered: %v", n, n, err)
		}
	}
}

func TestMoveCount(t *testing.T) {
	g := game(t, 4)
	if got := len(g.Moves(g.Start(), nil)); got != 32 {
		t.Fatalf("%d moves from the empty 4 x 4 board, want 32", got)
	}
	if got := game(t, 3).MaxMoves(); got != 20 {
		t.Fatalf("MaxMoves on 3 x 3 = %d, want 4(3n-4) = 20", got)
	}
}

// TestThreeByThree solves 3 x 3 twice: over every board (a brute force with
// no symmetry) and over canonical boards. The start is a win in 7, and every
// board has the value and depth of its canonical image, so the counts
// agree class by class.
func TestThreeByThree(t *testing.T) {
	g := game(t, 3)
	full, err := engine.Sequential(context.Background(), g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	red := implicit.Reduce(g)
	sym, err := engine.Parallel(context.Background(), red, engine.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if v, d := sym.Value(g.Start()), sym.Depth(g.Start()); v != engine.Win || d != 7 {
		t.Fatalf("start is %v %d, want win 7", v, d)
	}
	if v, d := full.Value(g.Start()), full.Depth(g.Start()); v != engine.Win || d != 7 {
		t.Fatalf("brute force: start is %v %d, want win 7", v, d)
	}
	var counts [4]uint64
	for s := range g.Size() {
		c := g.Canonical(s)
		if full.Value(s) != sym.Value(c) || full.Depth(s) != sym.Depth(c) {
			t.Fatalf("board %d is %v %d, its canonical image %d is %v %d\n%s", s, full.Value(s), full.Depth(s),
				c, sym.Value(c), sym.Depth(c), g.Describe(s))
		}
		counts[sym.Value(c)]++
	}
	for v := range engine.Value(3) {
		if counts[v] != full.Count(v) {
			t.Fatalf("%v: %d boards by their classes, %d by brute force", v, counts[v], full.Count(v))
		}
	}
	if err := enginetest.CrossCheck(context.Background(), red, 1, 2, 3, 4, 8); err != nil {
		t.Fatal(err)
	}
	// Over the classes numbered (the solve's own way), whose pull levels
	// list the classes of the moves with repeats.
	if err := enginetest.CrossCheck(context.Background(), implicit.NewCompact(g), 1, 3); err != nil {
		t.Fatal(err)
	}
}

// TestFourByFour is the known answer (GamesmanOne): the start is a win in
// 21, and each of the 32 first moves loses in 20.
func TestFourByFour(t *testing.T) {
	testsize.SkipUnlessLong(t)
	g := game(t, 4)
	cg := implicit.NewCompact(g)
	r, err := engine.Parallel(context.Background(), cg, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v, d := r.Value(cg.Index(g.Start())), r.Depth(cg.Index(g.Start())); v != engine.Win || d != 21 {
		t.Fatalf("start is %v %d, want win 21", v, d)
	}
	first := g.Moves(g.Start(), nil)
	if len(first) != 32 {
		t.Fatalf("%d first moves, want 32", len(first))
	}
	for _, s := range first {
		c := cg.Index(s)
		if v, d := r.Value(c), r.Depth(c); v != engine.Loss || d != 20 {
			t.Fatalf("first move to\n%sis %v %d, want loss 20", g.Describe(s), v, d)
		}
	}
	// Symmetric images, never stored, obey the rules with their classes'
	// values.
	var sample []uint64
	for s := uint64(0); s < g.Size(); s += 433 {
		sample = append(sample, s)
	}
	if err := enginetest.CheckLocal(g, r, cg.Index, sample); err != nil {
		t.Fatal(err)
	}
}

func TestIsCanonical(t *testing.T) {
	g := game(t, 3)
	for s := range g.Size() {
		if g.IsCanonical(s) != (g.Canonical(s) == s) {
			t.Fatalf("IsCanonical(%d) = %v, Canonical = %d", s, g.IsCanonical(s), g.Canonical(s))
		}
	}
}

// TestMarkCanonical checks MarkCanonical against IsCanonical on random
// runs of indices of every board size and of a game without its first
// cubes: runs that start and end on odd and even indices, inside one
// segment of boards or across several.
func TestMarkCanonical(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, nm := range [][2]int{{2, 0}, {3, 0}, {4, 0}, {4, 9}, {5, 0}, {5, 20}} {
		g, err := quixo.NewFrom(nm[0], nm[1])
		if err != nil {
			t.Fatal(err)
		}
		for range 200 {
			from := r.Uint64N(g.Size())
			to := from + r.Uint64N(min(g.Size()-from, 1+uint64(r.IntN(3))*r.Uint64N(20000)))
			words := make([]uint64, (to-from+63)/64)
			g.MarkCanonical(from, to, words)
			for s := from; s < to; s++ {
				if got := words[(s-from)/64]>>((s-from)%64)&1 != 0; got != g.IsCanonical(s) {
					t.Fatalf("quixo %d from %d cubes: MarkCanonical(%d, %d) marks %d %v, IsCanonical says %v",
						nm[0], nm[1], from, to, s, got, !got)
				}
			}
			for b := to - from; b < uint64(len(words))*64; b++ {
				if words[b/64]>>(b%64)&1 != 0 {
					t.Fatalf("MarkCanonical(%d, %d) marks bit %d, past the run", from, to, b)
				}
			}
		}
	}
}

// TestRanks checks that Ranks, from Compact's counts alone, numbers every
// board's class as Compact does, and finds every class's board back.
func TestRanks(t *testing.T) {
	g := game(t, 3)
	c := implicit.NewCompact(g)
	r := implicit.Ranks{S: g, Counts: c.Counts()}
	if r.Size() != c.Size() {
		t.Fatalf("Ranks has %d classes, Compact %d", r.Size(), c.Size())
	}
	for s := range g.Size() {
		if r.Index(s) != c.Index(s) {
			t.Fatalf("board %d: Ranks says class %d, Compact %d", s, r.Index(s), c.Index(s))
		}
	}
	for i := range c.Size() {
		if p, ok := r.Position(i); !ok || p != c.Position(i) {
			t.Fatalf("class %d: Ranks says board %d (%v), Compact %d", i, p, ok, c.Position(i))
		}
	}
	if _, ok := r.Position(c.Size()); ok {
		t.Fatalf("Ranks found a board for class %d of %d", c.Size(), c.Size())
	}
}

// TestTiers checks the tiers' contract, with and without -min-cubes, on
// every board of the small sides and samples of 4 x 4 and 5 x 5.
func TestTiers(t *testing.T) {
	testsize.SkipUnderRace(t, "one goroutine's checks; quixo under parallel workers is raced in TestThreeByThree and TestTieredSolve")
	for _, c := range []struct{ n, min, samples int }{{2, 0, 1000}, {3, 0, 50000}, {3, 5, 50000}, {4, 0, 20000}, {4, 12, 20000}, {5, 0, 5000}, {5, 23, 5000}} {
		g, err := quixo.NewFrom(c.n, c.min)
		if err != nil {
			t.Fatal(err)
		}
		if err := gametest.CheckTiers(g, c.samples, 1); err != nil {
			t.Fatalf("%d x %d, at least %d cubes: %v", c.n, c.n, c.min, err)
		}
		if err := gametest.Check(g, c.samples/10, 2); err != nil {
			t.Fatalf("%d x %d, at least %d cubes: %v", c.n, c.n, c.min, err)
		}
	}
	if g := game(t, 5); g.Size() != 2*847288609443 || len(g.Tiers()) != 182 {
		t.Fatalf("5 x 5: %d indices in %d tiers, want 2 * 3^25 in 182", g.Size(), len(g.Tiers()))
	}
}

// TestTieredSolve solves 3 x 3 tier by tier and compares each class with
// the solve of the whole game in memory; and the boards with at least 5
// cubes, a game of their own, with the same boards of the whole game.
func TestTieredSolve(t *testing.T) {
	ctx := context.Background()
	for _, min := range []int{0, 5} {
		g, err := quixo.NewFrom(3, min)
		if err != nil {
			t.Fatal(err)
		}
		whole := game(t, 3)
		cg := implicit.NewCompact(whole)
		want, err := engine.Parallel(ctx, cg, engine.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		// Every level pulled, or by turns, where the classes of a
		// position's moves come with repeats.
		dir := []engine.Direction{engine.PullOnly, engine.Alternate}[min/5]
		sol, err := tier.Solve(ctx, g, tier.Options{Dir: t.TempDir(), Fingerprint: "quixo 3", Engine: engine.Options{Workers: 2, Direction: dir}})
		if err != nil {
			t.Fatal(err)
		}
		defer sol.Close()
		for s := range g.Size() {
			if g.Classify(s) == implicit.Illegal {
				continue
			}
			x, o, turn := g.Board(s)
			w := cg.Index(whole.Index(x, o, turn))
			v, d, err := sol.Lookup(sol.Index(s))
			if err != nil || v != want.Value(w) || d != want.Depth(w) {
				t.Fatalf("min %d, board\n%s: tiered %v %d (%v), whole %v %d", min, g.Describe(s), v, d, err, want.Value(w), want.Depth(w))
			}
		}
		if min == 0 {
			// The same numbering of classes: the tiered solution is the
			// whole one, entry for entry, and so is its directory.
			if sol.Size() != want.Size() || !slices.Equal(sol.Directory(), cg.Counts()) {
				t.Fatalf("%d entries and a directory of %d, want %d and %d", sol.Size(), len(sol.Directory()), want.Size(), len(cg.Counts()))
			}
			for i := range want.Size() {
				if v, d, _ := sol.Lookup(i); v != want.Value(i) || d != want.Depth(i) {
					t.Fatalf("entry %d: %v %d, want %v %d", i, v, d, want.Value(i), want.Depth(i))
				}
			}
		}
	}
}

// TestTieredCompact checks that classes kept a tier at a time are numbered
// as NewCompact numbers them, with the same running counts.
func TestTieredCompact(t *testing.T) {
	g := game(t, 3)
	whole, tiered := implicit.NewCompact(g), implicit.NewTieredCompact(g)
	if whole.Size() != tiered.Size() || !slices.Equal(whole.Counts(), tiered.Counts()) {
		t.Fatalf("%d classes and %d counts tiered, want %d and %d", tiered.Size(), len(tiered.Counts()), whole.Size(), len(whole.Counts()))
	}
	for i := range whole.Size() {
		if whole.Position(i) != tiered.Position(i) {
			t.Fatalf("class %d: board %d tiered, %d whole", i, tiered.Position(i), whole.Position(i))
		}
	}
	for s := range g.Size() {
		if whole.Index(s) != tiered.Index(s) {
			t.Fatalf("board %d: class %d tiered, %d whole", s, tiered.Index(s), whole.Index(s))
		}
	}
	if err := gametest.Check(tiered, 3000, 5); err != nil {
		t.Fatal(err)
	}
}

// TestClassifyClasses checks the class counts against the classes of the
// moves numbered and deduplicated (Compact's general path), on every class
// of 2 x 2 and 3 x 3 and a sample of 4 x 4 and 5 x 5 boards.
func TestClassifyClasses(t *testing.T) {
	testsize.SkipUnderRace(t, "one goroutine's checks; quixo under parallel workers is raced in TestThreeByThree and TestTieredSolve")
	for n, step := range map[int]uint64{2: 1, 3: 1, 4: 307, 5: 100_000_007} {
		g, err := quixo.New(n)
		if err != nil {
			t.Fatal(err)
		}
		for s := uint64(0); s < g.Size(); s += step {
			s := g.Canonical(s)
			kind, count := g.ClassifyClasses(s)
			want := uint64(0)
			if g.Classify(s) == implicit.Inner {
				want = uint64(len(implicit.SortedSet(g.CanonicalMoves(s, nil))))
			}
			if kind != g.Classify(s) || count != want {
				t.Fatalf("%dx%d, board %d: %v with %d classes of moves, want %v with %d", n, n, s, kind, count, g.Classify(s), want)
			}
		}
	}
}
