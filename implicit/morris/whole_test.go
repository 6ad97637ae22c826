package morris

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/engine/enginetest"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/query"
)

// TestWholeDatabase checks a database of the whole standard game, written
// by `retro solve morris -db FILE` (with -compact or not), when RETRO_MORRIS_DB names it (it is
// hours of solving: no other test makes one; any morris database will do): enginetest.CheckLocal on
// RETRO_MORRIS_SAMPLES (default 10^6) random positions as played, each
// looked up through its class, the stored values against their moves'. It
// reads the values a tier at a time with its children's (db.Table.Keep):
// the whole of them does not fit in memory.
func TestWholeDatabase(t *testing.T) {
	path := os.Getenv("RETRO_MORRIS_DB")
	if path == "" {
		t.Skip("RETRO_MORRIS_DB is not set: no database of the whole game to check")
	}
	samples := 1000000
	if s := os.Getenv("RETRO_MORRIS_SAMPLES"); s != "" {
		var err error
		if samples, err = strconv.Atoi(s); err != nil || samples <= 0 {
			t.Fatalf("RETRO_MORRIS_SAMPLES=%q: want a positive number", s)
		}
	}
	f, err := db.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Game != "morris" {
		t.Fatalf("%s holds %s, not morris", path, f.Game)
	}
	// The game as the file says it was solved (any morris database will
	// do: a smaller one checks this test).
	var g *Game
	switch x := commandGame(t, f.Args).(type) {
	case whole:
		g = x.endingGame.(*Game)
	case ending:
		g = x.endingGame.(*Game)
	}
	tab := f.Table(0)
	if tab.Size() != g.Size() {
		t.Fatalf("%s holds %d indices, the game %d", path, tab.Size(), g.Size())
	}
	plain := g.Plain()
	tiers := g.Tiers()
	rng := rand.New(rand.NewPCG(uint64(samples), 32))
	byTier := make([][]uint64, len(tiers))
	for n := 0; n < samples; {
		s := rng.Uint64N(plain.Size())
		if plain.Classify(s) == implicit.Illegal {
			continue
		}
		k := implicit.TierOf(tiers, g.Class(s))
		byTier[k] = append(byTier[k], s)
		n++
	}
	ctx := context.Background()
	for k, t0 := range tiers {
		if len(byTier[k]) == 0 {
			continue
		}
		generations := 1
		if tab.Coding.FromMoves() {
			generations = 2 // the depth of a win reached, or whether it is a draw, is found from its moves
		}
		if err := tab.Keep(ctx, 0, implicit.TierRanges(tiers, k, generations)); err != nil {
			t.Fatal(err)
		}
		var vals engine.Values = tab
		if tab.Coding.FromMoves() {
			vals = query.WinDepths(g, tab)
		}
		if err := enginetest.CheckLocal(plain, vals, g.Class, byTier[k]); err != nil {
			t.Fatalf("tier %s: %v", t0.Name, err)
		}
	}
	t.Logf("%d positions as played, in %d tiers: every value agrees with its moves'", samples, len(tiers))
}
