package chess

import (
	"fmt"
	"strconv"
	"strings"
)

// Piece is a piece on a square.
type Piece struct {
	Kind   Kind
	Color  Color
	Square Square
}

// Position is a placement of pieces and the side to move: no castling, no
// en-passant right (GAMES.md, chess). Its first N pieces are in signature
// order (see Sort), so that a position has one form. It is a value of
// fixed size: the solver's hot paths copy positions and never allocate.
type Position struct {
	Pieces [MaxPieces]Piece // the first N are the position's
	N      int
	Turn   Color
	// EP is the square an en-passant capture moves to (the one a pawn of
	// the side not to move passed over with its double step on the move
	// just played), or 0 (a1, never one) for none: the node a double step
	// leads to when the capture is open to the side to move (enpassant.go).
	EP Square
}

// NewPosition returns the position of pieces (at most MaxPieces) with
// turn to move, in signature order.
func NewPosition(turn Color, pieces ...Piece) Position {
	p := Position{Turn: turn}
	for _, pc := range pieces {
		p.add(pc)
	}
	p.Sort()
	return p
}

// List returns p's pieces.
func (p *Position) List() []Piece { return p.Pieces[:p.N] }

// add puts one more piece on p, out of order (see Sort).
func (p *Position) add(pc Piece) {
	p.Pieces[p.N] = pc
	p.N++
}

// before reports whether a comes before b in signature order: White's
// pieces, then Black's, each side's by kind (K, Q, R, B, N, P) and then by
// square.
func before(a, b Piece) bool {
	if a.Color != b.Color {
		return a.Color < b.Color
	}
	if a.Kind != b.Kind {
		return a.Kind < b.Kind
	}
	return a.Square < b.Square
}

// Sort puts p's pieces in signature order (see before): an insertion sort,
// the quickest for five.
func (p *Position) Sort() {
	for i := 1; i < p.N; i++ {
		pc := p.Pieces[i]
		j := i
		for ; j > 0 && before(pc, p.Pieces[j-1]); j-- {
			p.Pieces[j] = p.Pieces[j-1]
		}
		p.Pieces[j] = pc
	}
}

// Material returns p's material signature (p sorted).
func (p *Position) Material() Material {
	var m Material
	for _, pc := range p.List() {
		m.Pieces[pc.Color] = append(m.Pieces[pc.Color], pc.Kind)
	}
	return m
}

// occupancy returns the squares of each side's pieces. They are gathered
// in two registers, not in the array by colour: or-ing into an array
// element stores and loads memory at each piece, and the array's copy
// to the caller, one 16-byte load of two 8-byte stores, waits for them to
// reach the cache (5% of a classification).
func (p *Position) occupancy() [2]Bitboard {
	var white, black Bitboard
	for _, pc := range p.List() {
		bit := Bit(pc.Square)
		isBlack := -Bitboard(pc.Color) // all ones for Black (1), none for White (0)
		white |= bit &^ isBlack
		black |= bit & isBlack
	}
	return [2]Bitboard{white, black}
}

// occupied returns the squares p's pieces stand on.
func (p *Position) occupied() Bitboard {
	var all Bitboard
	for _, pc := range p.List() {
		all |= Bit(pc.Square)
	}
	return all
}

// king returns the square of side c's king, NoSquare if it has none.
func (p *Position) king(c Color) Square {
	for _, pc := range p.List() {
		if pc.Kind == King && pc.Color == c {
			return pc.Square
		}
	}
	return NoSquare
}

// attacked reports whether side by attacks square s among the occupied
// squares.
func (p *Position) attacked(s Square, by Color, occupied Bitboard) bool {
	for _, pc := range p.List() {
		if pc.Color == by && pc.Square != s && hits(pc.Kind, by, pc.Square, s, occupied) {
			return true
		}
	}
	return false
}

// attackedBy returns the squares side by attacks among the occupied
// squares.
func (p *Position) attackedBy(by Color, occupied Bitboard) Bitboard {
	var a Bitboard
	for _, pc := range p.List() {
		if pc.Color == by {
			a |= attacks(pc.Kind, by, pc.Square, occupied)
		}
	}
	return a
}

// InCheck reports whether side c's king is attacked.
func (p *Position) InCheck(c Color) bool {
	occ := p.occupancy()
	return p.attacked(p.king(c), c.Other(), occ[0]|occ[1])
}

// Legal reports whether p is a position of this package (GAMES.md, chess):
// one king a side, no two pieces on one square, the kings not adjacent, no
// pawn on the first or last rank, the side not to move not in check, and
// an en-passant square only where the capture is open (see enPassant).
func (p *Position) Legal() bool {
	var all Bitboard
	kings := [2]int{}
	for _, pc := range p.List() {
		if all.Has(pc.Square) || pc.Square >= NoSquare {
			return false
		}
		all |= Bit(pc.Square)
		if pc.Kind == King {
			kings[pc.Color]++
		}
		if pc.Kind == Pawn && (pc.Square.Rank() == 0 || pc.Square.Rank() == 7) {
			return false
		}
	}
	if kings != [2]int{1, 1} || kingAttacks[p.king(White)].Has(p.king(Black)) || p.InCheck(p.Turn.Other()) {
		return false
	}
	return p.EP == 0 || p.hasEP()
}

// Illegal says why p is not Legal, in words that name the squares ("two
// pieces on e4", "black, not to move, in check"), or "" if it is: the
// first of Legal's rules it breaks, for an error that names it. Legal
// stays the rules' fast form, which the un-moves call for every
// candidate; FuzzParseFEN checks that the two agree.
func (p *Position) Illegal() string {
	if p.Legal() {
		return ""
	}
	var all Bitboard
	kings := [2]int{}
	for _, pc := range p.List() {
		switch {
		case pc.Square >= NoSquare:
			return "a piece off the board"
		case all.Has(pc.Square):
			return "two pieces on " + pc.Square.String()
		case pc.Kind == Pawn && (pc.Square.Rank() == 0 || pc.Square.Rank() == 7):
			return "a pawn on " + pc.Square.String() + ", on the first or last rank"
		case pc.Kind == King:
			kings[pc.Color]++
		}
		all |= Bit(pc.Square)
	}
	for c, n := range kings {
		if n != 1 {
			return fmt.Sprintf("%d %s kings, where a side has one", n, Color(c))
		}
	}
	switch {
	case kingAttacks[p.king(White)].Has(p.king(Black)):
		return "the kings side by side, on " + p.king(White).String() + " and " + p.king(Black).String()
	case p.InCheck(p.Turn.Other()):
		return p.Turn.Other().String() + ", not to move, in check"
	}
	return "an en-passant square, " + p.EP.String() + ", where no pawn can take"
}

// FEN writes p's first four FEN fields: the board, the side to move, no
// castling, and the en-passant square or none ("8/8/8/8/8/8/8/K1k5 w - -").
func (p *Position) FEN() string {
	var board [64]byte
	for _, pc := range p.List() {
		l := pc.Kind.Letter()
		if pc.Color == Black {
			l += 'a' - 'A'
		}
		board[pc.Square] = l
	}
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := range 8 {
			if l := board[At(f, r)]; l != 0 {
				if empty > 0 {
					b.WriteByte(byte('0' + empty))
					empty = 0
				}
				b.WriteByte(l)
			} else {
				empty++
			}
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString(" " + "wb"[p.Turn:p.Turn+1] + " - ")
	if p.EP != 0 {
		b.WriteString(p.EP.String())
	} else {
		b.WriteByte('-')
	}
	return b.String()
}

// ParseFEN reads a position from FEN: the board, the side to move,
// castling (only "-") and en passant ("-" or a square on the rank a pawn
// of the side not to move passes over), and optionally the two move
// counters, numbers which are ignored. It checks the text, not the rules (see
// Legal). An error names the field and the character that is wrong.
func ParseFEN(fen string) (Position, error) {
	var p Position
	fields := strings.Fields(fen)
	if len(fields) != 4 && len(fields) != 6 {
		return p, fmt.Errorf("FEN %q: want 4 fields (board, side to move, castling, en passant) or 6, got %d", fen, len(fields))
	}
	if len(fields) == 6 {
		counters := [2]struct{ what, text string }{{"halfmove clock", fields[4]}, {"fullmove number", fields[5]}}
		for _, c := range counters {
			if _, err := strconv.ParseUint(c.text, 10, 32); err != nil {
				return p, fmt.Errorf("FEN %q: %s %q: want a number, 0 or more (it is ignored)", fen, c.what, c.text)
			}
		}
	}
	r, f := 7, 0
	for i := range len(fields[0]) {
		c := fields[0][i]
		switch {
		case c == '/':
			if f != 8 || r == 0 {
				return p, fmt.Errorf("FEN %q: rank %d has %d squares, not 8 (board, character %d)", fen, r+1, f, i+1)
			}
			r, f = r-1, 0
		case c >= '1' && c <= '8':
			f += int(c - '0')
			if f > 8 {
				return p, fmt.Errorf("FEN %q: rank %d has more than 8 squares (board, character %d)", fen, r+1, i+1)
			}
		default:
			color := White
			if c >= 'a' && c <= 'z' {
				color, c = Black, c-('a'-'A')
			}
			k := strings.IndexByte(kindLetters, c)
			if k < 0 {
				return p, fmt.Errorf("FEN %q: %q is not a piece (board, character %d)", fen, fields[0][i], i+1)
			}
			if f > 7 {
				return p, fmt.Errorf("FEN %q: rank %d has more than 8 squares (board, character %d)", fen, r+1, i+1)
			}
			if p.N == MaxPieces {
				return p, fmt.Errorf("FEN %q: more than %d pieces (board, character %d)", fen, MaxPieces, i+1)
			}
			p.add(Piece{Kind(k), color, At(f, r)})
			f++
		}
	}
	if r != 0 || f != 8 {
		return p, fmt.Errorf("FEN %q: the board has %d ranks, not 8, or its last is short", fen, 8-r)
	}
	switch fields[1] {
	case "w":
		p.Turn = White
	case "b":
		p.Turn = Black
	default:
		return p, fmt.Errorf("FEN %q: side to move %q: want w or b", fen, fields[1])
	}
	if fields[2] != "-" {
		return p, fmt.Errorf("FEN %q: castling %q: endgames have no castling, want -", fen, fields[2])
	}
	if fields[3] != "-" {
		ep, err := ParseSquare(fields[3])
		if err != nil {
			return p, fmt.Errorf("FEN %q: en passant: %v", fen, err)
		}
		if want := doubleRank(p.Turn.Other()) - pawnStep(p.Turn.Other())/8; ep.Rank() != want {
			return p, fmt.Errorf("FEN %q: en passant %s: with %s to move, want a square on rank %d or -", fen, fields[3], p.Turn, want+1)
		}
		p.EP = ep
	}
	p.Sort()
	return p, nil
}
