package teeko_test

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/engine/enginetest"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/gametest"
	"github.com/retro-solver/retro/implicit/teeko"
	"github.com/retro-solver/retro/internal/testsize"
	"github.com/retro-solver/retro/tier"
)

func TestSize(t *testing.T) {
	// GamesmanOne's count: 20,981,226 drop positions and 151,420,500 in the
	// move phase.
	if got := teeko.New().Size(); got != 172_401_726 {
		t.Fatalf("Size = %d, want 172,401,726", got)
	}
}

func TestIndexRoundTrip(t *testing.T) {
	g := teeko.New()
	for s := uint64(0); s < g.Size(); s += 9973 {
		x, o, turn := g.Position(s)
		if x&o != 0 {
			t.Fatalf("index %d: X %b and O %b overlap", s, x, o)
		}
		if back := g.Index(x, o, turn); back != s {
			t.Fatalf("Index(Position(%d)) = %d", s, back)
		}
	}
}

func TestConsistency(t *testing.T) {
	testsize.SkipUnderRace(t, "one goroutine's checks; teeko shares nothing between goroutines but its tables, made once (sync.OnceValue)")
	g := teeko.New()
	if err := gametest.Check(g, 20000, 1); err != nil {
		t.Fatalf("every position: %v", err)
	}
	if err := gametest.Check(implicit.Reduce(g), 20000, 2); err != nil {
		t.Fatalf("canonical positions: %v", err)
	}
}

func TestRules(t *testing.T) {
	g := teeko.New()
	if n := len(g.Moves(g.Start(), nil)); n != 25 {
		t.Fatalf("%d drops on the empty board, want 25", n)
	}
	row := uint32(0b1111)                      // X fills four in a row
	o := uint32(1<<10 | 1<<12 | 1<<14 | 1<<20) // O fills nothing
	if k := g.Classify(g.Index(row, o, 1)); k != implicit.TerminalLoss {
		t.Fatalf("O to move against X's row: %v, want terminal loss", k)
	}
	square := uint32(1<<15 | 1<<16 | 1<<20 | 1<<21)
	if k := g.Classify(g.Index(row, square, 0)); k != implicit.Illegal {
		t.Fatalf("both sides filling a pattern: %v, want illegal", k)
	}
	// In the move phase a piece steps to an empty neighbour: X's corner
	// piece at 0 has neighbours 1, 5, 6, of which 1 is X's own.
	x := uint32(1<<0 | 1<<1 | 1<<7 | 1<<18)
	moves := g.Moves(g.Index(x, o, 0), nil)
	if len(moves) == 0 {
		t.Fatal("no moves in the move phase")
	}
	for _, m := range moves {
		nx, no, turn := g.Position(m)
		if no != o || turn != 1 || nx == x {
			t.Fatalf("a move changed O or the turn, or nothing: %b %b %d", nx, no, turn)
		}
	}
}

// TestRank checks that the byte-table ranks number the 4-sets of X one to
// one and that Position inverts Index on each.
func TestRank(t *testing.T) {
	g := teeko.New()
	seen := map[uint64]bool{}
	for a := -1; a < 25; a++ {
		for b := a + 1; b < 26; b++ {
			for c := b + 1; c < 27; c++ {
				for d := c + 1; d < 28; d++ {
					var x uint32
					for _, cell := range []int{a, b, c, d} {
						if cell >= 0 && cell < 25 {
							x |= 1 << cell
						}
					}
					if bits.OnesCount32(x) != 4 {
						continue
					}
					// With O on the four lowest cells X leaves free, in the
					// move phase, X's rank decides the index.
					var o uint32
					for cell := 0; bits.OnesCount32(o) < 4; cell++ {
						if x&(1<<cell) == 0 {
							o |= 1 << cell
						}
					}
					s := g.Index(x, o, 0)
					if seen[s] {
						t.Fatalf("two sets share index %d", s)
					}
					seen[s] = true
					if gx, gotO, _ := g.Position(s); gx != x || gotO != o {
						t.Fatalf("sets %b, %b come back as %b, %b", x, o, gx, gotO)
					}
				}
			}
		}
	}
	if len(seen) != 12650 {
		t.Fatalf("%d distinct 4-sets, want C(25,4) = 12650", len(seen))
	}
}

func TestIsCanonical(t *testing.T) {
	g := teeko.New()
	for s := uint64(0); s < g.Size(); s += 997 {
		if g.IsCanonical(s) != (g.Canonical(s) == s) {
			t.Fatalf("IsCanonical(%d) = %v, Canonical = %d", s, g.IsCanonical(s), g.Canonical(s))
		}
	}
}

// TestSolve solves Teeko over canonical positions: the start and every
// opening drop are draws (Steele; GamesmanOne agrees), and at random
// positions of the full game, canonical or not, the values obey the rules.
func TestSolve(t *testing.T) {
	testsize.SkipUnlessLong(t)
	g := teeko.New()
	cg := implicit.NewCompact(g)
	if err := gametest.Check(cg, 20000, 3); err != nil {
		t.Fatalf("canonical positions renumbered: %v", err)
	}
	r, err := engine.Parallel(context.Background(), cg, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := r.Value(cg.Index(g.Start())); v != engine.Draw {
		t.Fatalf("start is %v, want draw", v)
	}
	for _, s := range g.Moves(g.Start(), nil) {
		if v := r.Value(cg.Index(s)); v != engine.Draw {
			t.Fatalf("opening drop\n%sis %v, want draw", g.Describe(s), v)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var sample []uint64
	for range 200000 {
		sample = append(sample, rng.Uint64N(g.Size()))
	}
	if err := enginetest.CheckLocal(g, r, cg.Index, sample); err != nil {
		t.Fatal(err)
	}
	if r.Count(engine.Win) == 0 || r.Count(engine.Loss) == 0 {
		t.Fatal("no wins or no losses at all")
	}
	// Tier by tier, the same values and depths, class for class.
	if err := gametest.CheckTiers(g, 20000, 4); err != nil {
		t.Fatal(err)
	}
	sol, err := tier.Solve(context.Background(), g, tier.Options{Dir: t.TempDir(), Fingerprint: "teeko"})
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	if sol.Size() != r.Size() || !slices.Equal(sol.Directory(), cg.Counts()) {
		t.Fatalf("tiered: %d entries, want %d, or another directory", sol.Size(), r.Size())
	}
	for i := range r.Size() {
		if v, d, err := sol.Lookup(i); err != nil || v != r.Value(i) || d != r.Depth(i) {
			t.Fatalf("class %d: tiered %v %d (%v), in memory %v %d", i, v, d, err, r.Value(i), r.Depth(i))
		}
	}
}
