package chess

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/testsize"
)

// TestTierMoveClassifier checks NewTierMoveClassifier's function against
// ClassifyTierMoves on runs of consecutive indices (as a tier's
// classification visits them) and on indices out of order: the same kind,
// count and exits, in the same order. The materials have twins (KBBvK,
// three of a kind in KQQQvK, White's pair before the last piece in KRRvKR,
// Black's pair last in KNvKNN), pawns in blocks (KPvKP, KRPvKR), with
// en-passant nodes (KNPvKP; KPPvKP has no piece to run over), and every
// 3-piece material is visited whole.
func TestTierMoveClassifier(t *testing.T) {
	sigs := []string{"KQvK", "KRvK", "KPvK", "KBBvK", "KPvKP", "KQvKR", "KNvKNN", "KRRvKR", "KQQQvK", "KRPvKR", "KNPvKP", "KPPvKP", "KBNvKN"}
	runs, runLen := 40, 300
	if testing.Short() {
		runs = 10
	}
	if testsize.Long() {
		runs = 400
	}
	r := rand.New(rand.NewPCG(7, 7))
	for _, sig := range sigs {
		g, _ := testGame(t, sig)
		classify := g.NewTierMoveClassifier()
		var want, got []uint64
		kinds := map[implicit.Kind]int{}
		check := func(s uint64) {
			t.Helper()
			wk, wn, w := g.ClassifyTierMoves(s, want[:0])
			gk, gn, gl := classify(s, got[:0])
			want, got = w, gl
			if gk != wk || gn != wn || !slices.Equal(gl, w) {
				t.Fatalf("%s: index %d (%v): run classifier %v, %d, %v; ClassifyTierMoves %v, %d, %v",
					sig, s, g.mats[0].e.Decode(s-g.mats[0].start), gk, gn, gl, wk, wn, w)
			}
			kinds[wk]++
		}
		top := g.mats[0].e.Size()
		if top <= 1<<17 {
			for s := range top {
				check(s)
			}
		}
		// The runs, and one across the start of an en-passant node's
		// indices where the material has them.
		var starts []uint64
		for range 1 << 16 {
			if s := r.Uint64N(top); g.mats[0].e.Decode(s).EP != 0 {
				starts = append(starts, max(s&^63, 64)-64)
				break
			}
		}
		for range runs {
			starts = append(starts, r.Uint64N(top))
		}
		for _, from := range starts {
			for s := from; s < min(from+uint64(runLen), top); s++ {
				check(s)
			}
			check(r.Uint64N(g.Size())) // out of order, perhaps in a child material
		}
		if kinds[implicit.Illegal] == 0 || kinds[implicit.Inner] == 0 {
			t.Errorf("%s: the indices checked were %v: want illegal and inner ones", sig, kinds)
		}
	}
}
