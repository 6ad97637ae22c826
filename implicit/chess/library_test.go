package chess

import (
	"math/rand/v2"
	"slices"
	"testing"

	ref "github.com/corentings/chess/v2"
)

// TestMovesLibrary compares the legal moves of random positions with
// those of a well-known chess library (github.com/corentings/chess, the
// maintained fork of notnil/chess), named as UCI names them: positions of
// 3 to 5 pieces with either side to move, and positions after a double
// step that opens an en-passant capture. Where there is no move, both must
// say checkmate or both stalemate.
func TestMovesLibrary(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	sigs := []string{"KQvK", "KRvKB", "KNvKP", "KPvKP", "KQRvKR", "KBNvKN", "KRPvKR", "KPPvKP", "KQvKPP", "KNNvKP"}
	positions := 20000
	if testing.Short() {
		positions = 2000
	}
	compared, ep := 0, 0
	for compared < positions {
		m, _ := ParseMaterial(sigs[r.IntN(len(sigs))])
		var pieces []Piece
		for c := range m.Pieces {
			for _, k := range m.Pieces[c] {
				pieces = append(pieces, Piece{k, Color(c), Square(r.IntN(64))})
			}
		}
		turn := Color(r.IntN(2))
		// Half the time, a pawn on its first step's rank beside which the
		// other side's pawn may take it en passant.
		if slices.Contains(m.Pieces[White], Pawn) && slices.Contains(m.Pieces[Black], Pawn) && r.IntN(2) == 0 {
			f := r.IntN(8)
			g := f + 1
			if f == 7 || f > 0 && r.IntN(2) == 0 {
				g = f - 1
			}
			start, fourth := 1, 3
			if turn == Black {
				start, fourth = 6, 4
			}
			ours, theirs := false, false
			for i, pc := range pieces {
				switch {
				case pc.Kind != Pawn:
				case pc.Color == turn && !ours:
					pieces[i].Square, ours = At(f, start), true
				case pc.Color != turn && !theirs:
					pieces[i].Square, theirs = At(g, fourth), true
				}
			}
		}
		p := NewPosition(turn, pieces...)
		if !p.Legal() {
			continue
		}
		compareWithLibrary(t, &p)
		compared++
		// A double step after which the capture en passant is open.
		for _, mv := range p.Moves(nil) {
			if q := p.Play(mv); q.EP != 0 {
				compareWithLibrary(t, &q)
				ep++
				break
			}
		}
	}
	t.Logf("%d positions, %d after a double step", compared, ep)
	if ep == 0 {
		t.Errorf("no position with an en-passant capture among %d", compared)
	}
}

// compareWithLibrary fails t if p's moves, or its end, differ from the
// library's.
func compareWithLibrary(t *testing.T, p *Position) {
	t.Helper()
	fen := p.FEN() + " 0 1"
	option, err := ref.FEN(fen)
	if err != nil {
		t.Fatalf("%s: the library refuses it: %v", fen, err)
	}
	g := ref.NewGame(option)
	var theirs, ours []string
	for _, m := range g.ValidMoves() {
		theirs = append(theirs, m.String())
	}
	for _, m := range p.Moves(nil) {
		ours = append(ours, m.String())
	}
	slices.Sort(theirs)
	slices.Sort(ours)
	if !slices.Equal(ours, theirs) {
		t.Errorf("%s: moves %v, the library's %v", fen, ours, theirs)
		return
	}
	if len(ours) == 0 {
		mate := g.Method() == ref.Checkmate
		if mate != (p.Status() == Checkmate) {
			t.Errorf("%s: %v, the library's %v", fen, p.Status(), g.Method())
		}
	}
}
