package chess

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/retro-solver/retro/internal/testsize"
)

// randomPosition returns a legal position of m, drawn at random.
func randomPosition(rng *rand.Rand, m Material) Position {
	for {
		p := Position{Turn: Color(rng.IntN(2))}
		for c := range m.Pieces {
			for _, k := range m.Pieces[c] {
				p.add(Piece{k, Color(c), Square(rng.IntN(64))})
			}
		}
		p.Sort()
		if p.Legal() {
			return p
		}
	}
}

// randomMaterial returns a material of 2 to MaxPieces pieces, pawns and
// all kinds among them.
func randomMaterial(rng *rand.Rand) Material {
	var m Material
	m.Pieces[0], m.Pieces[1] = []Kind{King}, []Kind{King}
	for range rng.IntN(MaxPieces - 1) {
		c := rng.IntN(2)
		m.Pieces[c] = append(m.Pieces[c], Kind(1+rng.IntN(5)))
	}
	for c := range m.Pieces {
		slices.Sort(m.Pieces[c])
	}
	return m
}

// TestMovesNaive compares the legal moves of random positions with those
// of the naive generator (naive_test.go), move for move.
func TestMovesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testsize.Long() {
		n = 20000
	}
	loneChecked := 0
	for range n {
		m := randomMaterial(rng)
		p := randomPosition(rng, m)
		got := moveNames(p.Moves(nil))
		want := toNaive(p).naiveMoves()
		if !slices.Equal(got, want) {
			t.Fatalf("%s (%v): moves %s; the naive generator: %s", p.FEN(), m, joined(got), joined(want))
		}
		if len(m.Pieces[p.Turn.Other()]) > 1 {
			continue
		}
		// Against a lone king: the pawns' moves alone (lonePawnMoves).
		var pawns []string
		for _, name := range want {
			mv, _ := ParseMove(name)
			if slices.Contains(p.List(), Piece{Pawn, p.Turn, mv.From}) {
				pawns = append(pawns, name)
			}
		}
		lone := moveNames(p.lonePawnMoves(nil))
		slices.Sort(lone)
		slices.Sort(pawns)
		if !slices.Equal(lone, pawns) {
			t.Fatalf("%s (%v): pawn moves against a lone king %s; the naive generator: %s", p.FEN(), m, joined(lone), joined(pawns))
		}
		loneChecked++
	}
	if loneChecked == 0 {
		t.Fatal("no position against a lone king")
	}
}

// TestUnmoves checks that un-moves and moves agree on random positions:
// every un-move's position has a move back, without a capture or a
// promotion, and every such move of a position has it among the un-moves
// of the position it reaches.
func TestUnmoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 1000
	if testsize.Long() {
		n = 5000
	}
	for range n {
		m := randomMaterial(rng)
		p := randomPosition(rng, m)
		for _, q := range p.Unmoves(nil) {
			if !q.Legal() {
				t.Fatalf("%s: un-move to %s, an illegal position", p.FEN(), q.FEN())
			}
			found := false
			for _, mv := range q.Moves(nil) {
				r := q.Play(mv)
				found = found || r.FEN() == p.FEN()
			}
			if !found {
				t.Fatalf("%s: un-move to %s, which has no move back", p.FEN(), q.FEN())
			}
		}
		for _, mv := range p.Moves(nil) {
			r := p.Play(mv)
			if mv.Promotion != King || r.N != p.N {
				continue // into another material
			}
			found := false
			for _, q := range r.Unmoves(nil) {
				found = found || q.FEN() == p.FEN()
			}
			if !found {
				t.Fatalf("%s: %v reaches %s, whose un-moves miss it", p.FEN(), mv, r.FEN())
			}
		}
	}
}

// TestKingPairs checks the number of pairs of kings of representatives:
// 462 without pawns and 1806 with, as every tablebase numbers them.
func TestKingPairs(t *testing.T) {
	for sig, want := range map[string]int{"KvK": 462, "KQvKR": 462, "KPvK": 1806, "KRvKP": 1806} {
		e, _ := testEndgame(t, sig)
		if e.KingPairs() != want {
			t.Errorf("%s: %d pairs of kings, want %d", sig, e.KingPairs(), want)
		}
	}
}

// TestIndexClasses walks every placement of small materials and checks that
// the index numbers the classes one for one: each legal position's index
// is a legal index, the index of every image of the position (under the
// symmetries used) is the same, and the legal indices are exactly the
// indices reached.
func TestIndexClasses(t *testing.T) {
	sigs := []string{"KvK", "KQvK", "KPvK"}
	if testing.Short() {
		sigs = sigs[:1] // the race detector's run
	}
	if testsize.Long() {
		sigs = append(sigs, "KNvKP", "KRRvK")
	}
	for _, sig := range sigs {
		e, m := testEndgame(t, sig)
		reached := make([]bool, e.Size())
		n := m.Count()
		p := Position{N: n}
		slots := e.slots
		placements := 0
		var walk func(j int)
		walk = func(j int) {
			if j == n {
				// The images of one placement in 8, for 4 pieces (16.7
				// million placements): the index of each is checked anyway.
				placements++
				images := n < 4 || placements%8 == 0
				for turn := range Color(2) {
					q := p
					q.Turn = turn
					q.Sort()
					if !q.Legal() {
						continue
					}
					i, ok := e.Index(q)
					if !ok {
						t.Fatalf("%s: %s has no index", sig, q.FEN())
					}
					var d Position
					if !e.legalAt(i, &d) {
						t.Fatalf("%s: %s has index %d, an illegal one (%s)", sig, q.FEN(), i, d.FEN())
					}
					for s := range e.syms {
						if !images {
							break
						}
						img := Position{Turn: turn}
						for _, pc := range q.List() {
							img.add(Piece{pc.Kind, pc.Color, symSquare[s][pc.Square]})
						}
						if k, _ := e.Index(img); k != i {
							t.Fatalf("%s: %s has index %d, its image %s %d", sig, q.FEN(), i, img.FEN(), k)
						}
					}
					reached[i] = true
				}
				return
			}
			for s := Square(0); s < NoSquare; s++ {
				if slots[j].Kind == Pawn && (s.Rank() == 0 || s.Rank() == 7) {
					continue
				}
				p.Pieces[j] = Piece{slots[j].Kind, slots[j].Color, s}
				walk(j + 1)
			}
		}
		walk(0)
		legal := 0
		for i := range e.Size() {
			var d Position
			ok := e.legalAt(i, &d)
			if ok != reached[i] {
				t.Fatalf("%s: index %d (%s) legal %v, reached by a position %v", sig, i, d.FEN(), ok, reached[i])
			}
			if ok {
				legal++
			}
		}
		t.Logf("%s: %d indices, %d classes", sig, e.Size(), legal)
	}
}

// TestFEN reads and writes positions, and refuses bad ones with the field
// named.
func TestFEN(t *testing.T) {
	for _, fen := range []string{"8/8/8/8/8/8/8/K1k5 w - -", "4k3/8/8/8/8/8/4P3/4K3 b - -", "8/8/8/3q4/8/8/8/K1k5 w - - 0 1"} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.FEN(); got != strings.Join(strings.Fields(fen)[:4], " ") {
			t.Errorf("%q read and written: %q", fen, got)
		}
	}
	for fen, want := range map[string]string{
		"8/8/8/8/8/8/8/K1k5 w":           "want 4 fields",
		"8/8/8/8/8/8/8/K1k4 w - -":       "the board has",
		"8/8/8/8/8/8/8/K1k6 w - -":       "more than 8 squares",
		"8/8/8/8/8/8/8/K1x5 w - -":       "is not a piece",
		"8/8/8/8/8/8/8/K1k5 x - -":       "side to move",
		"8/8/8/8/8/8/8/K1k5 w KQ -":      "castling",
		"8/8/8/8/8/8/8/K1k5 w - e3":      "en passant e3",
		"8/8/8/8/8/8/8/K1k5 w - z9":      "not a square",
		"QQQQ4/8/8/8/8/8/8/K1k5 w - -":   "more than 5 pieces",
		"8/8/8/8/8/8/8/8/K1k5 w - -":     "rank 1 has",
		"8/8/8/8/8/8/8/K1k5/ w - -":      "rank 1 has",
		"8/8/8/8/8/8/8/K1k5 w - - 0 1 2": "want 4 fields",
		"8/8/8/8/8/8/8/K1k5 w - - -1 1":  "halfmove clock \"-1\"",
		"8/8/8/8/8/8/8/K1k5 w - - 0 x":   "fullmove number \"x\"",
	} {
		if _, err := ParseFEN(fen); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", fen, err, want)
		}
	}
}

// TestIllegal checks that a position read from FEN but not Legal is
// refused with the reason and its square, and a legal one is not.
func TestIllegal(t *testing.T) {
	for fen, want := range map[string]string{
		"4k3/8/8/8/8/8/3Q4/4K3 w - -":   "",
		"8/8/8/8/8/8/8/8 w - -":         "0 white kings",
		"4k3/8/8/8/8/8/3Q4/3KK3 w - -":  "2 white kings",
		"8/8/8/8/8/8/3Q4/4K3 b - -":     "0 black kings",
		"3kK3/8/8/8/8/8/3Q4/8 w - -":    "the kings side by side, on e8 and d8",
		"4k3/8/8/8/8/8/4R3/3K4 w - -":   "black, not to move, in check",
		"4k3/8/8/8/8/8/3Q4/4K2r b - -":  "white, not to move, in check",
		"4k2P/8/8/8/8/8/8/4K3 w - -":    "a pawn on h8",
		"4k3/8/8/8/8/8/8/p3K3 w - -":    "a pawn on a1",
		"4k3/8/8/8/4P3/8/8/4K3 b - e3":  "an en-passant square, e3, where no pawn can take",
		"4k3/8/8/8/3pP3/8/8/4K3 b - e3": "",
	} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatalf("%q: %v", fen, err)
		}
		if got := p.Illegal(); want == "" && got != "" || !strings.Contains(got, want) || p.Legal() != (got == "") {
			t.Errorf("%q: Illegal %q (Legal %v), want %q", fen, got, p.Legal(), want)
		}
	}
	// Two pieces on one square cannot be written in FEN, nor a square
	// off the board.
	p := NewPosition(White, Piece{King, White, At(4, 0)}, Piece{King, Black, At(4, 7)}, Piece{Queen, White, At(3, 3)}, Piece{Rook, Black, At(3, 3)})
	if got := p.Illegal(); got != "two pieces on d4" {
		t.Errorf("a queen and a rook on d4: Illegal %q", got)
	}
	p.Pieces[3].Square = NoSquare
	if got := p.Illegal(); got != "a piece off the board" {
		t.Errorf("a rook off the board: Illegal %q", got)
	}
}

// TestParseMaterial reads signatures and refuses bad ones at their place.
func TestParseMaterial(t *testing.T) {
	for _, sig := range []string{"KvK", "KQvKR", "KRPvKR", "KBNvK", "KPPvKP", "KQRvKR"} {
		m, err := ParseMaterial(sig)
		if err != nil || m.String() != sig {
			t.Errorf("%s: %v, %v", sig, m, err)
		}
	}
	for sig, want := range map[string]string{
		"KQKR":    "want White's pieces",
		"QKvK":    "must start with its king",
		"KQvR":    "must start with its king",
		"KRQvK":   "out of order",
		"KXvK":    "not a piece",
		"KKvK":    "a second king",
		"KQRBvKN": "more than the 5",
		"KvKvK":   "want White's pieces",
		"vK":      "must start with its king",
	} {
		if _, err := ParseMaterial(sig); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", sig, err, want)
		}
	}
}

// FuzzParseFEN reads any text: an error or a position that writes back as
// FEN and reads again the same.
func FuzzParseFEN(f *testing.F) {
	f.Add("8/8/8/8/8/8/8/K1k5 w - -")
	f.Add("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1")
	f.Add("1b2k3/8/3n4/8/8/8/8/2B1K3 b - -")
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		q, err := ParseFEN(p.FEN())
		if err != nil || q.FEN() != p.FEN() {
			t.Fatalf("%q read as %q, read again: %q, %v", fen, p.FEN(), q.FEN(), err)
		}
		// What was accepted means what it says: the same pieces on the
		// same squares, the same side to move.
		squares := func(board string) string {
			var b strings.Builder
			for _, c := range board {
				switch {
				case c >= '1' && c <= '8':
					b.WriteString(strings.Repeat(".", int(c-'0')))
				case c != '/':
					b.WriteRune(c)
				}
			}
			return b.String()
		}
		in, out := strings.Fields(fen), strings.Fields(p.FEN())
		if squares(in[0]) != squares(out[0]) || in[1] != out[1] {
			t.Fatalf("%q read as %q", fen, p.FEN())
		}
		if why := p.Illegal(); (why == "") != p.Legal() {
			t.Fatalf("%q: Legal %v, Illegal %q", fen, p.Legal(), why)
		}
		if p.Legal() {
			p.Moves(nil)
			p.Unmoves(nil)
		}
	})
}

// FuzzParseMaterial reads any text: an error or a material that writes
// back as the same signature.
func FuzzParseMaterial(f *testing.F) {
	f.Add("KQvKR")
	f.Add("KRPvKR")
	f.Fuzz(func(t *testing.T, sig string) {
		m, err := ParseMaterial(sig)
		if err != nil {
			return
		}
		if m.String() != sig {
			t.Fatalf("%q read as %v", sig, m)
		}
		if _, err := NewEndgame(m); err != nil {
			t.Fatal(err)
		}
	})
}

// TestPublishedClassCount counts the legal positions of KQvKR with White
// to move, one per class: the published statistics (GAMES.md, chess:
// 1108111 wins, 8963 draws, 2142 losses) add up to 1119216.
func TestPublishedClassCount(t *testing.T) {
	e, _ := testEndgame(t, "KQvKR")
	var p Position
	n := 0
	for i := range e.Size() / 2 {
		if e.legalAt(i, &p) {
			n++
		}
	}
	if want := 1108111 + 8963 + 2142; n != want {
		t.Fatalf("KQvKR, White to move: %d classes, published %d", n, want)
	}
}

// TestLabelledClasses checks the weights of Sections against Burnside's
// lemma over labelled positions: with the two queens of KQQvK told apart,
// the number of classes is the sum over every legal labelled placement of
// |Stab(x)|/8, Stab(x) the board symmetries keeping each piece in place.
// The published total with White to move (707175 wins, no draws or
// losses) is the same number seen from outside.
func TestLabelledClasses(t *testing.T) {
	if testing.Short() {
		t.Skip("16.7 million placements")
	}
	g, m := testGame(t, "KQQvK")
	e := g.mats[0].e
	if got := e.labellings(); got != 2 {
		t.Fatalf("KQQvK: %d labellings, want 2", got)
	}
	sections := g.Sections()
	for turn, sec := range sections {
		var p Position
		var weighted uint64
		for i := sec.Start; i < sec.End; i++ {
			if e.legalAt(i, &p) {
				weighted += sec.Weight(i)
			}
		}
		// Burnside: 8 × classes = Σ_x (1 + #{t ≠ 0: t keeps x's pieces}).
		var eightfold uint64
		var sq [4]Square
		for code := range 1 << 24 {
			for j := range sq {
				sq[j] = Square(code >> (6 * j) & 63)
			}
			q := Position{N: 4, Turn: Color(turn)}
			q.Pieces[0] = Piece{King, White, sq[0]}
			q.Pieces[1] = Piece{Queen, White, sq[1]}
			q.Pieces[2] = Piece{Queen, White, sq[2]}
			q.Pieces[3] = Piece{King, Black, sq[3]}
			if sq[0] == sq[1] || sq[0] == sq[2] || sq[0] == sq[3] || sq[1] == sq[2] || sq[1] == sq[3] || sq[2] == sq[3] || !q.Legal() {
				continue
			}
			eightfold++
			for s := 1; s < 8; s++ {
				if symSquare[s][sq[0]] == sq[0] && symSquare[s][sq[1]] == sq[1] && symSquare[s][sq[2]] == sq[2] && symSquare[s][sq[3]] == sq[3] {
					eightfold++
				}
			}
		}
		if eightfold%8 != 0 || weighted != eightfold/8 {
			t.Errorf("%v, %s: weights add up to %d, Burnside's lemma %d/8", m, sec.Name, weighted, eightfold)
		}
		if turn == 0 && weighted != 707175 {
			t.Errorf("%v, White to move: %d labelled classes, published 707175", m, weighted)
		}
	}
}

// TestHits compares hits with attacks on random boards, for every kind,
// colour and pair of squares: for the sliders, the squares between two
// (rays walked square by square) against the byte-swap and rank-table
// attacks.
func TestHits(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 7))
	for range 200 {
		occupied := Bitboard(r.Uint64() & r.Uint64() & r.Uint64())
		for k := King; k <= Pawn; k++ {
			for c := White; c <= Black; c++ {
				for from := Square(0); from < NoSquare; from++ {
					a := attacks(k, c, from, occupied)
					for to := Square(0); to < NoSquare; to++ {
						if to != from && hits(k, c, from, to, occupied) != a.Has(to) {
							t.Fatalf("%c of %v on %v, %v, occupied %x: hits %v, attacks %v", k.Letter(), c, from, to, uint64(occupied), !a.Has(to), a.Has(to))
						}
					}
				}
			}
		}
	}
}

// TestBlockAt finds the block of each block's first and last index, and of
// indices in between, by the buckets of blockAt and by a search of every
// block's range; both agree, for endgames of one to three pawns.
func TestBlockAt(t *testing.T) {
	for _, sig := range []string{"KRPvKR", "KPPvKP", "KPPPvK"} {
		e, _ := testEndgame(t, sig)
		check := func(i uint64) {
			want := sort.Search(len(e.blocks), func(k int) bool { return e.blocks[k].start+e.blocks[k].size() > i })
			if got := e.blockAt(i); got != want {
				t.Fatalf("%s: index %d is in block %d, blockAt says %d", sig, i, want, got)
			}
		}
		for k := range e.blocks {
			b := &e.blocks[k]
			check(b.start)
			check(b.start + b.size() - 1)
			check(b.start + b.size()/3)
		}
	}
}
