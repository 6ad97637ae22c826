package tier_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/chess"
	"github.com/retro-solver/retro/tier"
)

// unbounded is a chess game that calls every position losable and counts
// every position's moves (TierMoves): its tiers keep every count whole and
// size their counters by all the moves, as before implicit.LossBounder.
type unbounded struct{ *chess.Game }

func (u unbounded) TierMaxLosableMoves(k int) uint64 { return u.TierMaxMoves(k) }
func (u unbounded) Losable(uint64) bool              { return true }

func (u unbounded) ClassifyTierMoves(s uint64, dst []uint64) (implicit.Kind, uint64, []uint64) {
	kind := u.Classify(s)
	if kind != implicit.Inner {
		return kind, 0, dst
	}
	n, dst := u.TierMoves(s, dst)
	return kind, n, dst
}

func (u unbounded) NewTierMoveClassifier() func(s uint64, dst []uint64) (implicit.Kind, uint64, []uint64) {
	return u.ClassifyTierMoves
}

func chessGame(t *testing.T, sig string) *chess.Game {
	t.Helper()
	m, err := chess.ParseMaterial(sig)
	if err != nil {
		t.Fatal(err)
	}
	g, err := chess.NewGame(m)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestLossBound: KPvK and the endgames it reaches, whose side against the
// lone king never loses and counts 1 for its moves (ClassifyTierMoves),
// solve to the same files, byte for byte, as with every count whole; and KQQQvK's counters are planned a byte an index, where White's
// 89 moves took two.
func TestLossBound(t *testing.T) {
	g := chessGame(t, "KPvK")
	// A position whose count the bound cuts: White's queen in the centre.
	p, err := chess.ParseFEN("k7/8/8/8/3Q4/8/8/7K w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	s, ok := g.Index(p)
	if !ok {
		t.Fatal("KQvK's position has no index in KPvK's game")
	}
	k := implicit.TierOf(g.Tiers(), s)
	if n := uint64(len(g.Moves(s, nil))); g.Losable(s) || n <= g.TierMaxLosableMoves(k) {
		t.Fatalf("%s: losable %v, %d moves, the tier's bound %d: want a position whose count is cut", p.FEN(), g.Losable(s), n, g.TierMaxLosableMoves(k))
	}

	ctx := context.Background()
	dirs := [2]string{t.TempDir(), t.TempDir()}
	for i, game := range []implicit.Tiered{g, unbounded{g}} {
		sol, err := tier.Solve(ctx, game, tier.Options{Dir: dirs[i], Fingerprint: "test", Engine: engine.Options{Workers: 2}})
		if err != nil {
			t.Fatal(err)
		}
		sol.Close()
	}
	files, _ := filepath.Glob(filepath.Join(dirs[0], "*.tier"))
	if len(files) != len(g.Tiers()) {
		t.Fatalf("%d tier files for %d tiers", len(files), len(g.Tiers()))
	}
	for _, f := range files {
		x, _ := os.ReadFile(f)
		y, err := os.ReadFile(filepath.Join(dirs[1], filepath.Base(f)))
		if err != nil || !bytes.Equal(x, y) {
			t.Fatalf("%s differs with every count whole (%v)", filepath.Base(f), err)
		}
	}

	q := chessGame(t, "KQQQvK")
	bounded, whole := tier.Estimate(q, 2), tier.Estimate(unbounded{q}, 2)
	if n := bounded.Entries[0]; whole.Tiers[0]-bounded.Tiers[0] < n/2 {
		t.Fatalf("KQQQvK's plan: %d bytes with its counts bounded, %d whole, for %d indices: want a byte an index less", bounded.Tiers[0], whole.Tiers[0], n)
	}
}
