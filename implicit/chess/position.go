package chess

import (
	"fmt"
	"slices"
	"strings"
)

// Piece is a piece on a square.
type Piece struct {
	Kind   Kind
	Color  Color
	Square Square
}

// Position is a placement of pieces and the side to move: no castling, no
// en-passant right (GAMES.md, chess). Its pieces are in signature order
// (see Sort), so that a position has one form.
type Position struct {
	Pieces []Piece
	Turn   Color
}

// Sort puts p's pieces in signature order: White's, then Black's, each
// side's by kind (K, Q, R, B, N, P) and then by square.
func (p *Position) Sort() {
	slices.SortFunc(p.Pieces, func(a, b Piece) int {
		switch {
		case a.Color != b.Color:
			return int(a.Color) - int(b.Color)
		case a.Kind != b.Kind:
			return int(a.Kind) - int(b.Kind)
		}
		return int(a.Square) - int(b.Square)
	})
}

// Material returns p's material signature (p sorted).
func (p *Position) Material() Material {
	var m Material
	for _, pc := range p.Pieces {
		m.Pieces[pc.Color] = append(m.Pieces[pc.Color], pc.Kind)
	}
	return m
}

// occupancy returns the squares of each side's pieces.
func (p *Position) occupancy() (byColor [2]Bitboard) {
	for _, pc := range p.Pieces {
		byColor[pc.Color] |= Bit(pc.Square)
	}
	return byColor
}

// king returns the square of side c's king, NoSquare if it has none.
func (p *Position) king(c Color) Square {
	for _, pc := range p.Pieces {
		if pc.Kind == King && pc.Color == c {
			return pc.Square
		}
	}
	return NoSquare
}

// attacked reports whether side by attacks square s among the occupied
// squares.
func (p *Position) attacked(s Square, by Color, occupied Bitboard) bool {
	for _, pc := range p.Pieces {
		if pc.Color == by && pc.Square != s && attacks(pc.Kind, by, pc.Square, occupied).Has(s) {
			return true
		}
	}
	return false
}

// InCheck reports whether side c's king is attacked.
func (p *Position) InCheck(c Color) bool {
	occ := p.occupancy()
	return p.attacked(p.king(c), c.Other(), occ[0]|occ[1])
}

// Legal reports whether p is a position of this package (GAMES.md, chess):
// one king a side, no two pieces on one square, the kings not adjacent, no
// pawn on the first or last rank, the side not to move not in check.
func (p *Position) Legal() bool {
	var all Bitboard
	kings := [2]int{}
	for _, pc := range p.Pieces {
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
	if kings != [2]int{1, 1} || kingAttacks[p.king(White)].Has(p.king(Black)) {
		return false
	}
	return !p.InCheck(p.Turn.Other())
}

// FEN writes p's first four FEN fields: the board, the side to move, no
// castling, no en passant ("8/8/8/8/8/8/8/K1k5 w - -").
func (p *Position) FEN() string {
	var board [64]byte
	for _, pc := range p.Pieces {
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
	b.WriteString(" " + "wb"[p.Turn:p.Turn+1] + " - -")
	return b.String()
}

// ParseFEN reads a position from FEN: the board, the side to move,
// castling (only "-") and en passant ("-"), and optionally the two move
// counters, which are ignored. It checks the text, not the rules (see
// Legal). An error names the field and the character that is wrong.
func ParseFEN(fen string) (Position, error) {
	var p Position
	fields := strings.Fields(fen)
	if len(fields) != 4 && len(fields) != 6 {
		return p, fmt.Errorf("FEN %q: want 4 fields (board, side to move, castling, en passant) or 6, got %d", fen, len(fields))
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
			if len(p.Pieces) == MaxPieces {
				return p, fmt.Errorf("FEN %q: more than %d pieces (board, character %d)", fen, MaxPieces, i+1)
			}
			p.Pieces = append(p.Pieces, Piece{Kind(k), color, At(f, r)})
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
		if _, err := ParseSquare(fields[3]); err != nil {
			return p, fmt.Errorf("FEN %q: en passant: %v", fen, err)
		}
		return p, fmt.Errorf("FEN %q: en passant %s: a stored position has no en-passant right, want -", fen, fields[3])
	}
	p.Sort()
	return p, nil
}
