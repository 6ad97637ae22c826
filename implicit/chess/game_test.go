package chess

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/gametest"
	"github.com/retro-solver/retro/internal/testsize"
)

// testEndgame returns the index of material sig, and the material.
func testEndgame(tb testing.TB, sig string) (*Endgame, Material) {
	tb.Helper()
	m, err := ParseMaterial(sig)
	if err != nil {
		tb.Fatal(err)
	}
	e, err := NewEndgame(m)
	if err != nil {
		tb.Fatal(err)
	}
	return e, m
}

// testGame returns the game of material sig, and the material.
func testGame(tb testing.TB, sig string) (*Game, Material) {
	tb.Helper()
	m, err := ParseMaterial(sig)
	if err != nil {
		tb.Fatal(err)
	}
	g, err := NewGame(m)
	if err != nil {
		tb.Fatal(err)
	}
	return g, m
}

// TestGameContract checks the game contract (gametest.Check: moves and
// un-moves agree, counts and notation) and the tiers (gametest.CheckTiers)
// on random positions of endgames with and without pawns, whose captures
// and promotions reach other tiers in both colour orders.
func TestGameContract(t *testing.T) {
	sigs := []string{"KQvK", "KPvK", "KRvKP", "KQvKR"}
	samples := 2000
	if testing.Short() {
		sigs, samples = sigs[:2], 300
	}
	if testsize.Long() {
		sigs = append(sigs, "KPvKP", "KRPvKR", "KBNvKN", "KQRvKR", "KPPvKP")
		samples = 5000
	}
	for _, sig := range sigs {
		g, _ := testGame(t, sig)
		if err := gametest.Check(g, samples, 1); err != nil {
			t.Fatalf("%s: %v", sig, err)
		}
		if err := gametest.CheckTiers(g, samples, 2); err != nil {
			t.Fatalf("%s: %v", sig, err)
		}
		var _ implicit.Tiered = g
	}
}

// TestNaiveSolver solves endgames with retro's sequential engine over the
// game's classes, and with naiveSolve over every board in the colours it
// has (its own move generator, no symmetry, no index), and compares the
// value and depth of every legal board: all the endgames of three pieces
// (in the long run; KQvK in the quick one).
func TestNaiveSolver(t *testing.T) {
	if testing.Short() {
		t.Skip("the naive solver takes minutes under the race detector (-short)")
	}
	sigs := []string{"KQvK"}
	if testsize.Long() {
		sigs = append(sigs, "KRvK", "KBvK", "KNvK", "KPvK")
	}
	compareNaive(t, sigs)
}

// TestNaiveSolver4 is TestNaiveSolver on two endgames of four pieces,
// KNNvK (identical pieces, the few forced mates) and KBvKN (captures into
// four 3-piece endgames), every one of their 2 x 64^4 boards: minutes, so
// it runs with RETRO_CHESS_SLOW=1 only.
func TestNaiveSolver4(t *testing.T) {
	if os.Getenv("RETRO_CHESS_SLOW") != "1" {
		t.Skip("minutes: run with RETRO_CHESS_SLOW=1")
	}
	compareNaive(t, []string{"KNNvK", "KBvKN"})
}

// compareNaive solves each endgame of sigs with the sequential engine and
// with naiveSolve, and compares every legal board.
func compareNaive(t *testing.T, sigs []string) {
	t.Helper()
	solved := map[string]*naiveSolution{}
	for _, sig := range sigs {
		g, m := testGame(t, sig)
		r, err := engine.Sequential(context.Background(), g, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := naiveSolve(m, solved)
		names := [3]engine.Value{engine.Draw, engine.Win, engine.Loss}
		checked := 0
		for i := range uint64(len(s.value)) {
			if s.value[i] < 0 {
				continue
			}
			p := s.board(i)
			p.Sort()
			k, ok := g.Index(p)
			if !ok {
				t.Fatalf("%s: %s has no index", sig, p.FEN())
			}
			want, wantDepth := names[s.value[i]], uint64(s.depth[i])
			if want == engine.Draw {
				wantDepth = 0
			}
			if r.Value(k) != want || r.Depth(k) != wantDepth {
				t.Fatalf("%s: %s is %v %d; the naive solver: %v %d", sig, p.FEN(), r.Value(k), r.Depth(k), want, wantDepth)
			}
			checked++
		}
		t.Logf("%s: %d boards agree; max depth %d", sig, checked, r.MaxDepth())
	}
}

// TestPublishedKQvKR solves KQvKR with its children and compares the
// counts with White to move with the published statistics (GAMES.md,
// chess: 1108111 wins, 8963 draws, 2142 losses) and the longest mate, 35
// moves (69 plies). The game allocates at every move for now, so this
// takes long (an hour here, beside another solve): it runs with
// RETRO_CHESS_SLOW=1 only.
func TestPublishedKQvKR(t *testing.T) {
	if os.Getenv("RETRO_CHESS_SLOW") != "1" {
		t.Skip("an hour: run with RETRO_CHESS_SLOW=1")
	}
	g, _ := testGame(t, "KQvKR")
	r, err := engine.Parallel(context.Background(), g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var counts [4]uint64
	var longest uint64
	for i := range g.mats[0].e.half { // White to move in the root
		counts[r.Value(i)]++
		if r.Value(i) == engine.Win {
			longest = max(longest, r.Depth(i))
		}
	}
	if counts[engine.Win] != 1108111 || counts[engine.Draw] != 8963 || counts[engine.Loss] != 2142 || longest != 69 {
		t.Fatalf("KQvKR, White to move: %d wins, %d draws, %d losses, longest win %d plies; published 1108111, 8963, 2142, 69",
			counts[engine.Win], counts[engine.Draw], counts[engine.Loss], longest)
	}
}

// BenchmarkSolve solves whole endgames with the parallel engine: the
// game's moves, un-moves and index at the solver's pace, each level
// expanded as the engine chooses (auto), or pushed through un-moves only.
func BenchmarkSolve(b *testing.B) {
	for _, sig := range []string{"KQvK", "KQvKR"} {
		for _, dir := range []engine.Direction{engine.Auto, engine.PushOnly} {
			b.Run(sig+"/"+dir.String(), func(b *testing.B) {
				g, _ := testGame(b, sig)
				for b.Loop() {
					if _, err := engine.Parallel(context.Background(), g, engine.Options{Direction: dir}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(g.Size())*float64(b.N)/b.Elapsed().Seconds(), "indices/s")
			})
		}
	}
}

// BenchmarkTier times the game's side of a tier's solve, apart from the
// engine, on a fixed sample of legal positions of the root material: a
// position classified with its moves within the tier counted and the
// others listed (ClassifyTierMoves, once per position; and once per index
// of a run of them, as the engine classifies a tier), its moves listed
// (Moves, as verify lists them), and its un-moves within the tier
// (TierUnmoves, once per position resolved).
func BenchmarkTier(b *testing.B) {
	for _, sig := range []string{"KQRvKR", "KRPvKR", "KBBPvK"} {
		g, _ := testGame(b, sig)
		var sample []uint64
		r := rand.New(rand.NewPCG(1, 2))
		top := g.mats[0]
		for len(sample) < 1<<14 {
			s := top.start + r.Uint64N(top.e.Size())
			if g.Classify(s) != implicit.Illegal {
				sample = append(sample, s)
			}
		}
		buf := make([]uint64, 0, 256)
		b.Run(sig+"/ClassifyTierMoves", func(b *testing.B) {
			for b.Loop() {
				for _, s := range sample {
					_, _, buf = g.ClassifyTierMoves(s, buf[:0])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(sample)), "ns/position")
		})
		// The engine classifies a tier's indices in order, illegal ones
		// among them: 64 runs of 4096 spread over the material.
		const runs, run = 64, 4096
		b.Run(sig+"/ClassifyTierMovesRuns", func(b *testing.B) {
			for b.Loop() {
				for r := range uint64(runs) {
					from := top.start + r*(top.e.Size()/runs)
					for s := from; s < from+run; s++ {
						_, _, buf = g.ClassifyTierMoves(s, buf[:0])
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*runs*run), "ns/index")
		})
		// The same runs through one classifier that keeps each run's
		// pieces (NewTierMoveClassifier), as a worker of a tier's solve
		// does.
		b.Run(sig+"/TierMoveClassifierRuns", func(b *testing.B) {
			classify := g.NewTierMoveClassifier()
			for b.Loop() {
				for r := range uint64(runs) {
					from := top.start + r*(top.e.Size()/runs)
					for s := from; s < from+run; s++ {
						_, _, buf = classify(s, buf[:0])
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*runs*run), "ns/index")
		})
		// Moves lists every move's class, as retro verify does once per
		// position.
		b.Run(sig+"/Moves", func(b *testing.B) {
			for b.Loop() {
				for _, s := range sample {
					buf = g.Moves(s, buf[:0])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(sample)), "ns/position")
		})
		b.Run(sig+"/TierUnmoves", func(b *testing.B) {
			for b.Loop() {
				for _, s := range sample {
					buf = g.TierUnmoves(s, false, buf[:0])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(sample)), "ns/position")
		})
	}
}

// colourBlind returns the smaller of index i and that of its position
// turned over (flip) where i's material is its own colour swap (KRvKR):
// the two are the same game from either side, and the class game reaches
// one or the other as the colours of the position a move starts from
// fall.
func colourBlind(g *Game, i uint64) uint64 {
	p, _ := g.Position(i)
	if key := positionKey(&p); swapKey(key) != key {
		return i
	}
	q := flip(&p)
	j, _ := g.Index(q)
	return min(i, j)
}

// TestPlayed checks the game of every position as it stands (Played):
// its contract (gametest), FEN read back exactly as written, and its
// moves reaching, through Class, exactly the class game's moves (up to the
// colours of a material that is its own swap: see colourBlind).
func TestPlayed(t *testing.T) {
	for _, sig := range []string{"KRvKP", "KPvKP", "KQvKR"} {
		g, m := testGame(t, sig)
		played := g.Played()
		if err := gametest.Check(played, 300, 5); err != nil {
			t.Fatalf("%s, played: %v", sig, err)
		}
		pn := played.(implicit.Notation)
		rng := rand.New(rand.NewPCG(5, 6))
		for range 300 {
			p := randomPosition(rng, m)
			if rng.IntN(2) == 0 {
				p = flip(&p) // the colours the other way round, a material the class game turns over
			}
			s, err := pn.ParsePosition(p.FEN())
			if err != nil {
				t.Fatalf("%s: %s: %v", sig, p.FEN(), err)
			}
			if got := pn.Describe(s); got != p.FEN() {
				t.Fatalf("%s: %s reads back as %s", sig, p.FEN(), got)
			}
			c, ok := g.Index(p)
			if !ok || g.Class(s) != c {
				t.Fatalf("%s: %s: Class %d, its class's index %d", sig, p.FEN(), g.Class(s), c)
			}
			var classes, want []uint64
			for _, u := range played.Moves(s, nil) {
				classes = append(classes, colourBlind(g, g.Class(u)))
			}
			for _, u := range g.Moves(c, nil) {
				want = append(want, colourBlind(g, u))
			}
			slices.Sort(classes)
			slices.Sort(want)
			if !slices.Equal(slices.Compact(classes), want) {
				t.Fatalf("%s: %s: its moves reach the classes %v; the class game's moves are %v", sig, p.FEN(), classes, want)
			}
		}
	}
}

// TestRepeats checks the moves and un-moves that skip dropping repeats
// (mayRepeat, diagonalSymmetric) against lists made the long way, every
// move played and looked up and every repeat dropped, on positions with
// their pieces on the diagonals more often than chance would put them.
func TestRepeats(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	diagonals := []Square{}
	for s := Square(0); s < NoSquare; s++ {
		if mayRepeat(s) {
			diagonals = append(diagonals, s)
		}
	}
	for _, sig := range []string{"KQvK", "KRvKR", "KQvKB", "KBBvK", "KRvKNN", "KQRvKR", "KNvKP", "KNNvKP", "KBBBvK", "KRRPvK", "KRPvKP"} {
		g, m := testGame(t, sig)
		checked := 0
		for checked < 300 {
			var pieces []Piece
			for c := range m.Pieces {
				for _, k := range m.Pieces[c] {
					s := Square(r.IntN(64))
					if r.IntN(2) == 0 {
						s = diagonals[r.IntN(len(diagonals))]
					}
					pieces = append(pieces, Piece{k, Color(c), s})
				}
			}
			p := NewPosition(Color(r.IntN(2)), pieces...)
			s, ok := g.Index(p)
			if !ok {
				continue
			}
			checked++
			p, _ = g.Position(s)
			k := implicit.TierOf(g.itiers, s)
			var inside, exits []uint64
			for _, mv := range p.Moves(nil) {
				q := p.Play(mv)
				next, ok := g.index(&q)
				if !ok {
					t.Fatalf("%s: %v reaches no position", p.FEN(), mv)
				}
				if implicit.TierOf(g.itiers, next) == k {
					inside = append(inside, next)
				} else {
					exits = append(exits, next)
				}
			}
			if len(inside)+len(exits) == 0 && !p.InCheck(p.Turn) {
				inside = append(inside, s) // a stalemate
			}
			inside, exits = distinct(inside, 0), distinct(exits, 0)
			n, gotExits := g.TierMoves(s, nil)
			if n != uint64(len(inside)) || !slices.Equal(distinct(gotExits, 0), exits) {
				t.Errorf("%v %s: TierMoves %d inside, exits %v; the long way %d, %v", m, p.FEN(), n, gotExits, len(inside), exits)
			}
			if got := distinct(g.Moves(s, nil), 0); !slices.Equal(got, distinct(append(inside, exits...), 0)) {
				t.Errorf("%v %s: Moves %v; the long way %v", m, p.FEN(), got, append(inside, exits...))
			}
			// A stalemate's move to itself is left out (implicit.TierUnmover).
			var back []uint64
			for _, q := range p.Unmoves(nil) {
				if prev, ok := g.index(&q); ok && implicit.TierOf(g.itiers, prev) == k {
					back = append(back, prev)
				}
			}
			back = distinct(back, 0)
			if got := g.TierUnmoves(s, false, nil); len(got) != len(back) || !slices.Equal(distinct(got, 0), back) {
				t.Errorf("%v %s: TierUnmoves %v; the long way %v", m, p.FEN(), got, back)
			}
		}
	}
}

// TestLossBounder checks implicit.LossBounder's promise on every legal
// position of KQvK's game (and KPvK's and KvKP's in the long run: pawns,
// and a root whose lone king is White's), solved by the sequential
// engine: one that Losable calls never lost is no loss and none of its
// moves reaches a win; and TierMaxLosableMoves bounds the moves of the
// others.
func TestLossBounder(t *testing.T) {
	sigs := []string{"KQvK"}
	if testsize.Long() {
		sigs = append(sigs, "KPvK", "KvKP")
	}
	for _, sig := range sigs {
		g, _ := testGame(t, sig)
		r, err := engine.Sequential(context.Background(), g, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		never := 0
		var buf []uint64
		for s := range g.Size() {
			if g.Classify(s) == implicit.Illegal {
				continue
			}
			buf = g.Moves(s, buf[:0])
			if g.Losable(s) {
				if k := implicit.TierOf(g.Tiers(), s); uint64(len(buf)) > g.TierMaxLosableMoves(k) {
					t.Fatalf("%s: %s has %d moves, above its tier's bound %d", sig, g.Describe(s), len(buf), g.TierMaxLosableMoves(k))
				}
				continue
			}
			never++
			if r.Value(s) == engine.Loss {
				t.Fatalf("%s: %s is a loss, which Losable says it never is", sig, g.Describe(s))
			}
			for _, m := range buf {
				if r.Value(m) == engine.Win {
					t.Fatalf("%s: %s, never lost, moves to %s, a win", sig, g.Describe(s), g.Describe(m))
				}
			}
		}
		if never == 0 {
			t.Fatalf("%s: Losable calls every position losable", sig)
		}
	}
}
