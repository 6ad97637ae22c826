package query_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/engine/enginetest"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/morris"
	"github.com/retro-solver/retro/internal/testsize"
	"github.com/retro-solver/retro/query"
)

// altered is values with one index's entry replaced.
type altered struct {
	engine.Values
	at  uint64
	val engine.Value
	d   uint64
}

func (a altered) Lookup(i uint64) (engine.Value, uint64, error) {
	if i == a.at {
		return a.val, a.d, nil
	}
	return a.Values.Lookup(i)
}

// caught reports whether rep finds a rule broken at index at, or so many
// elsewhere that its first failures may not show it.
func caught(rep query.Report, at uint64) bool {
	for _, f := range rep.First {
		if f.Index == at {
			return true
		}
	}
	return rep.Failures > 0 && len(rep.First) >= 5
}

// TestVerify checks that Verify passes the engine's values on random graphs
// and catches every single altered entry, at the altered index.
func TestVerify(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(40) {
		g := enginetest.RandomGraph(seed)
		r, err := engine.Sequential(ctx, g, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := query.Verify(ctx, g, r, 2, nil)
		if err != nil || rep.Failures != 0 {
			t.Fatalf("seed %d: %v %+v", seed, err, rep)
		}
		for v := range engine.Value(3) {
			if rep.Counts[v] != r.Count(v) {
				t.Fatalf("seed %d: %v counted %d, solved %d", seed, v, rep.Counts[v], r.Count(v))
			}
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		for range 20 {
			at := rng.Uint64N(g.Size())
			val, d := engine.Value(rng.IntN(3)), uint64(rng.IntN(4))
			if val == engine.Draw {
				d = 0
			}
			if val == r.Value(at) && d == r.Depth(at) {
				continue
			}
			rep, err := query.Verify(ctx, g, altered{r, at, val, d}, 2, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !caught(rep, at) {
				t.Fatalf("seed %d: index %d altered from %v %d to %v %d: %+v", seed, at, r.Value(at), r.Depth(at), val, d, rep)
			}
		}
	}
}

var (
	morris3Once   sync.Once
	morris3Game   *morris.Game
	morris3Values *engine.Result
	morris3Whole  query.Report
	morris3Err    error
)

// morris3 returns Morris with three stones each, its values, and Verify's
// report on them (no failures), solved and verified once for the tests
// that verify them again another way.
func morris3(t *testing.T) (*morris.Game, *engine.Result, query.Report) {
	morris3Once.Do(func() {
		v := morris.Standard
		v.Stones = 3
		if morris3Game, morris3Err = morris.New(v, 0); morris3Err != nil {
			return
		}
		ctx := context.Background()
		if morris3Values, morris3Err = engine.Parallel(ctx, morris3Game, engine.Options{}); morris3Err != nil {
			return
		}
		if morris3Whole, morris3Err = query.Verify(ctx, morris3Game, morris3Values, 2, nil); morris3Err == nil && morris3Whole.Failures != 0 {
			morris3Err = fmt.Errorf("Verify: %+v", morris3Whole)
		}
	})
	if morris3Err != nil {
		t.Fatal(morris3Err)
	}
	return morris3Game, morris3Values, morris3Whole
}

// verifyByTier returns the reports of VerifyTier over every tier of g,
// merged.
func verifyByTier(t *testing.T, g *morris.Game, values engine.Values) query.Report {
	t.Helper()
	var rep query.Report
	for k := range g.Tiers() {
		r, err := query.VerifyTier(context.Background(), g, values, k, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		rep.Merge(r)
	}
	return rep
}

// TestVerifyTier checks that VerifyTier over each tier of a tiered game
// (Morris with three stones each, whose tiers it checks in parts) adds up
// to Verify's report, and catches altered entries of placement and of
// moving tiers at their index.
func TestVerifyTier(t *testing.T) {
	g, r, whole := morris3(t)
	byTier := func(values engine.Values) query.Report { return verifyByTier(t, g, values) }
	if tiers := byTier(r); tiers.Counts != whole.Counts || tiers.Edges != whole.Edges || tiers.MaxDepth != whole.MaxDepth || tiers.Failures != 0 {
		t.Fatalf("VerifyTier over every tier: %+v; Verify: %+v", tiers, whole)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	alter := 20
	switch {
	case testsize.Race:
		alter = 0 // each try verifies the whole game again, on the paths above
	case testing.Short():
		alter = 1
	}
	for tries := 0; tries < alter; {
		at := rng.Uint64N(g.Size())
		if r.Value(at) != engine.Win && r.Value(at) != engine.Loss {
			continue
		}
		tries++
		rep := byTier(altered{r, at, r.Value(at), r.Depth(at) + 2})
		if rep.Failures == 0 || rep.First[0].Index > at {
			t.Fatalf("%s altered to depth %d: %+v", g.Describe(at), r.Depth(at)+2, rep)
		}
	}
}

// dropping is a Morris game whose parts leave out the first position of
// each part of tier k.
type dropping struct {
	*morris.Game
	k int
}

func (g dropping) TierPart(k int, j uint64, dst []uint64) []uint64 {
	start := len(dst)
	dst = g.Game.TierPart(k, j, dst)
	if k == g.k && len(dst) > start {
		dst = append(dst[:start], dst[start+1:]...)
	}
	return dst
}

// TestVerifyTierParts checks that VerifyTier fails a tier whose parts
// leave positions out: they would go unchecked.
func TestVerifyTierParts(t *testing.T) {
	ctx := context.Background()
	g, r, _ := morris3(t)
	k := len(g.Tiers()) / 2
	rep, err := query.VerifyTier(ctx, dropping{g, k}, r, k, 2, nil)
	if err != nil || rep.Failures != 1 || !strings.Contains(rep.First[0].Rule, "parts") {
		t.Fatalf("parts that leave positions out: %v %+v", err, rep)
	}
}

func TestMovesBestFirst(t *testing.T) {
	// 0 -> 1 (win 1), 2 (loss 2), 3 (loss 0), 4 (draw), 5 (win 3);
	// 1 -> 3; 2 -> 1 -> ...; 4 <-> 6 (draws); 5 -> 2.
	g := enginetest.Edges(7, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 1, 3, 2, 1, 4, 6, 6, 4, 5, 2)
	r, err := engine.Sequential(context.Background(), g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := query.Solved{Game: g, Values: r}
	moves, err := s.Moves(0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range moves {
		got = append(got, m.Entry.String())
	}
	if want := "loss 0,loss 2,draw,win 3,win 1"; strings.Join(got, ",") != want {
		t.Fatalf("moves of 0: %s, want %s", strings.Join(got, ","), want)
	}
	if best, ok, _ := s.Best(0); !ok || best.To != 3 {
		t.Fatalf("best move %v %v, want to 3", best, ok)
	}
	if _, err := s.Lookup(7); err == nil {
		t.Fatal("position 7 of 7 answered")
	}
}

// lossDepths is r as a database that keeps the depths of losses only
// reads it (db.LossDepths): wins without their depth.
type lossDepths struct{ *engine.Result }

func (l lossDepths) Lookup(i uint64) (engine.Value, uint64, error) {
	v, d, err := l.Result.Lookup(i)
	if v == engine.Win {
		d = engine.NoDepth
	}
	return v, d, err
}

// losses is r as a database that keeps the losses alone reads it
// (db.Losses): wins and draws as draws at engine.NoDepth.
type losses struct{ *engine.Result }

func (l losses) Lookup(i uint64) (engine.Value, uint64, error) {
	v, d, err := l.Result.Lookup(i)
	if v == engine.Win || v == engine.Draw {
		return engine.Draw, engine.NoDepth, err
	}
	return v, d, err
}

// TestWinDepths checks that what values leave for moves to tell, found
// from them, is the solver's, through WinDepths and through Solved, on
// random graphs: the depths of wins (lossDepths), and whether a position
// that is not a loss is a win or a draw (losses); that Verify passes such
// values with the solver's counts and max depth; and that it catches
// altered entries (values, and depths of losses).
func TestWinDepths(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(40) {
		g := enginetest.RandomGraph(seed)
		r, err := engine.Sequential(ctx, g, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, stored := range []engine.Values{lossDepths{r}, losses{r}} {
			winDepths(t, g, r, seed, stored)
		}
	}
}

// TestWinDepthsTableWorkers verifies a graph of many chunks (60,000
// vertices, 2,000 draws among them) on two workers with WinDepthsTable:
// the workers set the table's bytes while others read them, the draws'
// checks reading their moves' (the race detector's run watches it), and
// the report is the one without a table.
func TestWinDepthsTableWorkers(t *testing.T) {
	ctx := context.Background()
	g := graph.Random(60000, 150000, 7)
	r, err := engine.Sequential(ctx, g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Count(engine.Draw) < 100 {
		t.Fatalf("%d draws: too few to check the draws' reads", r.Count(engine.Draw))
	}
	for _, stored := range []engine.Values{lossDepths{r}, losses{r}} {
		want, err := query.Verify(ctx, g, query.WinDepths(g, stored), 1, nil)
		if err != nil || want.Failures != 0 {
			t.Fatalf("%T: %v %+v", stored, err, want)
		}
		got, err := query.Verify(ctx, g, query.WinDepthsTable(g, stored, g.Size(), 1<<10), 2, nil)
		if err != nil || got.Failures != 0 || got.Counts != want.Counts || got.MaxDepth != want.MaxDepth || got.Edges != want.Edges {
			t.Fatalf("%T, with a table on 2 workers: %v %+v, want %+v", stored, err, got, want)
		}
	}
}

// winDepths is TestWinDepths on graph g of seed, solved as r, over stored,
// r as a database reads it.
func winDepths(t *testing.T, g implicit.Game, r *engine.Result, seed uint64, stored engine.Values) {
	ctx := context.Background()
	_, keepsLosses := stored.(losses)
	vals := query.WinDepths(g, stored)
	p := query.Solved{Game: g, Values: stored}
	for s := range g.Size() {
		v, d, err := vals.Lookup(s)
		e, perr := p.Lookup(s)
		if err != nil || perr != nil || v != r.Value(s) || d != r.Depth(s) || e != (query.Entry{Value: v, Depth: d}) {
			t.Fatalf("seed %d, index %d: %v %d (%v), Solved %v (%v); solved %v %d", seed, s, v, d, err, e, perr, r.Value(s), r.Depth(s))
		}
	}
	// With a memo of the depths found, from one entry (every index
	// taking another's) to more than the indices: twice over each, the
	// second time from the memo where it kept them.
	for _, memo := range []uint64{8, 24, 64, 1000, 1 << 12} {
		mv := query.WinDepthsMemo(g, stored, memo)
		for range 2 {
			for s := range g.Size() {
				if v, d, err := mv.Lookup(s); err != nil || v != r.Value(s) || d != r.Depth(s) {
					t.Fatalf("seed %d, memo of %d bytes, index %d: %v %d (%v); solved %v %d", seed, memo, s, v, d, err, r.Value(s), r.Depth(s))
				}
			}
		}
	}
	rep, err := query.Verify(ctx, g, vals, 2, nil)
	if err != nil || rep.Failures != 0 || rep.MaxDepth != r.MaxDepth() {
		t.Fatalf("seed %d: %v %+v, max depth %d", seed, err, rep, r.MaxDepth())
	}
	for v := range engine.Value(4) {
		if rep.Counts[v] != r.Count(v) {
			t.Fatalf("seed %d: Verify counts %d of %v, the solve %d", seed, rep.Counts[v], v, r.Count(v))
		}
	}
	// With a table of the wins' depths, over every index or the first
	// half (the others found from their moves): the wins are checked
	// first, and the report is the same.
	for _, n := range []uint64{g.Size(), g.Size() / 2} {
		tr, err := query.Verify(ctx, g, query.WinDepthsTable(g, stored, n, 64), 2, nil)
		if err != nil || tr.Failures != 0 || tr.Counts != rep.Counts || tr.MaxDepth != rep.MaxDepth || tr.Edges != rep.Edges {
			t.Fatalf("seed %d, table of %d: %v %+v, want %+v", seed, n, err, tr, rep)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	for try := range 20 {
		at := rng.Uint64N(g.Size())
		val, d := engine.Value(rng.IntN(3)), uint64(rng.IntN(4))
		switch {
		case keepsLosses && val != engine.Loss:
			val, d = engine.Draw, engine.NoDepth
		case val == engine.Draw:
			d = 0
		case val == engine.Win:
			d = engine.NoDepth
		}
		if v, sd, _ := stored.Lookup(at); val == v && d == sd {
			continue
		}
		bad := query.WinDepths(g, altered{stored, at, val, d})
		switch try % 3 {
		case 1:
			bad = query.WinDepthsMemo(g, altered{stored, at, val, d}, 1<<10)
		case 2:
			bad = query.WinDepthsTable(g, altered{stored, at, val, d}, g.Size(), 1<<10)
		}
		rep, err := query.Verify(ctx, g, bad, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !caught(rep, at) {
			t.Fatalf("seed %d: index %d altered from %v %d to %v %d: %+v", seed, at, r.Value(at), r.Depth(at), val, d, rep)
		}
	}
}

// TestWinDepthsTiers checks VerifyTier, tier by tier in parts, over the
// values of Morris with three stones each without the depths of wins, and
// with the losses alone: found from their moves each time, or under
// -short (the race detector's run, where that took a minute) kept in a
// memo, with the losses alone only.
func TestWinDepthsTiers(t *testing.T) {
	g, r, whole := morris3(t)
	for _, stored := range []engine.Values{lossDepths{r}, losses{r}} {
		vals := query.WinDepths(g, stored)
		if testing.Short() {
			if _, ok := stored.(losses); !ok {
				continue
			}
			vals = query.WinDepthsMemo(g, stored, 8<<20)
		}
		rep := verifyByTier(t, g, vals)
		if rep.Failures != 0 || rep.Counts != whole.Counts || rep.MaxDepth != whole.MaxDepth || rep.Edges != whole.Edges {
			t.Fatalf("%T: by tier %+v, whole %+v", stored, rep, whole)
		}
	}
}
