// Package chess holds what chess endgames need to be a retro game: the
// board on bitboards, material signatures ("KQvKR"), positions in FEN,
// legal moves and un-moves, and a perfect index of one material's
// positions, one per class under the board's symmetries (Endgame), whose
// count of legal positions matches the published statistics. The game
// over them is not built yet: captures and promotions into smaller
// endgames as tiers, and the en-passant captures a double step allows.
//
// This file holds the board: squares, bitboards and the squares each piece
// attacks.
package chess

import (
	"fmt"
	"math/bits"
)

// Square is a square of the board: 0 is a1, 1 is b1, 8 is a2, 63 is h8.
type Square uint8

// NoSquare stands for "no square" where one may be absent.
const NoSquare Square = 64

// File returns the square's file, 0 for a to 7 for h.
func (s Square) File() int { return int(s) & 7 }

// Rank returns the square's rank, 0 for the first to 7 for the eighth.
func (s Square) Rank() int { return int(s) >> 3 }

// At returns the square on file f and rank r (both 0 to 7).
func At(f, r int) Square { return Square(r*8 + f) }

// String returns the square's name ("e4"), or "-" for NoSquare.
func (s Square) String() string {
	if s >= NoSquare {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare reads a square's name ("e4").
func ParseSquare(name string) (Square, error) {
	if len(name) != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8' {
		return NoSquare, fmt.Errorf("%q is not a square (a1 to h8)", name)
	}
	return At(int(name[0]-'a'), int(name[1]-'1')), nil
}

// Bitboard is a set of squares, bit s for square s.
type Bitboard uint64

// Bit returns the set of square s alone.
func Bit(s Square) Bitboard { return 1 << s }

// Has reports whether b holds square s.
func (b Bitboard) Has(s Square) bool { return b>>s&1 != 0 }

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// First returns the lowest square of b; b must not be empty.
func (b Bitboard) First() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// last returns the highest square of b; b must not be empty.
func (b Bitboard) last() Square { return Square(63 - bits.LeadingZeros64(uint64(b))) }

// The eight directions a queen moves in, as file and rank steps. The first
// four go up the square numbers (their first blocker is the lowest square
// of the ray), the last four down.
var directions = [8][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}, {-1, 0}, {0, -1}, {-1, -1}, {1, -1}}

var (
	// rays[d][s] holds the squares from s in direction d, to the edge.
	rays [8][64]Bitboard
	// kingAttacks, knightAttacks: the squares a king or knight on s
	// attacks.
	kingAttacks, knightAttacks [64]Bitboard
	// pawnAttacks[c][s]: the squares a pawn of colour c on s attacks.
	pawnAttacks [2][64]Bitboard
	// between[a][b]: the squares strictly between a and b where they
	// share a rank, file or diagonal; lines[a][b] says which they share
	// (rookLine or bishopLine), 0 for none.
	between [64][64]Bitboard
	lines   [64][64]uint8
)

// The lines two squares can share, and the ones each kind attacks along.
const (
	rookLine   = 1
	bishopLine = 2
)

var kindLines = [...]uint8{Queen: rookLine | bishopLine, Rook: rookLine, Bishop: bishopLine, Pawn: 0}

func init() {
	for s := Square(0); s < NoSquare; s++ {
		f, r := s.File(), s.Rank()
		for d, step := range directions {
			for k := 1; ; k++ {
				ff, rr := f+k*step[0], r+k*step[1]
				if !onBoard(ff, rr) {
					break
				}
				rays[d][s] |= Bit(At(ff, rr))
			}
		}
		for _, st := range [][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}} {
			if onBoard(f+st[0], r+st[1]) {
				kingAttacks[s] |= Bit(At(f+st[0], r+st[1]))
			}
		}
		for _, st := range [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if onBoard(f+st[0], r+st[1]) {
				knightAttacks[s] |= Bit(At(f+st[0], r+st[1]))
			}
		}
		for _, df := range []int{-1, 1} {
			if onBoard(f+df, r+1) {
				pawnAttacks[White][s] |= Bit(At(f+df, r+1))
			}
			if onBoard(f+df, r-1) {
				pawnAttacks[Black][s] |= Bit(At(f+df, r-1))
			}
		}
	}
	// Once every ray is known: the squares between two on a line.
	for s := Square(0); s < NoSquare; s++ {
		for d := range directions {
			line := uint8(bishopLine)
			if d == 0 || d == 1 || d == 4 || d == 5 {
				line = rookLine
			}
			for ray := rays[d][s]; ray != 0; ray &= ray - 1 {
				t := ray.First()
				between[s][t] = rays[d][s] &^ rays[d][t] &^ Bit(t)
				lines[s][t] = line
			}
		}
	}
}

func onBoard(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

// lineMasks[l][s] are the squares of line l through s, s left out: the
// file, the diagonal a1-h8's way and the one a8-h1's way, each with at
// most one square on a rank. rankAttacks[f][o] are the files a slider
// on file f of a rank attacks along it, o holding the inner six files'
// occupancy (b to g).
var (
	lineMasks   [3][64]Bitboard
	rankAttacks [8][64]uint8
)

func init() {
	for s := range Square(64) {
		lineMasks[0][s] = rays[1][s] | rays[5][s]
		lineMasks[1][s] = rays[2][s] | rays[6][s]
		lineMasks[2][s] = rays[3][s] | rays[7][s]
	}
	for f := range 8 {
		for o := range 64 {
			occupied := o << 1
			for _, d := range [2]int{1, -1} {
				for g := f + d; g >= 0 && g < 8; g += d {
					rankAttacks[f][o] |= 1 << g
					if occupied>>g&1 != 0 {
						break
					}
				}
			}
		}
	}
}

// lineAttacks returns the squares a slider on s attacks along line mask
// (a lineMasks entry: one square a rank at most) among the occupied
// squares. The nearest blocker above s is found by subtracting s's bit
// from the occupancy (the borrow runs up to it), the one below by the
// same on the board turned upside down (a byte swap), which keeps the
// line one square a rank (hyperbola quintessence).
func lineAttacks(s Square, occupied, mask Bitboard) Bitboard {
	up := occupied & mask
	down := Bitboard(bits.ReverseBytes64(uint64(up)))
	up -= Bit(s)
	down -= Bitboard(bits.ReverseBytes64(uint64(Bit(s))))
	return (up ^ Bitboard(bits.ReverseBytes64(uint64(down)))) & mask
}

// rookAttacks and bishopAttacks return the squares a rook or a bishop on s
// attacks among the occupied squares: each ray up to and including its
// first blocker.
func rookAttacks(s Square, occupied Bitboard) Bitboard {
	r := uint(s.Rank()) * 8
	rank := Bitboard(rankAttacks[s.File()][occupied>>(r+1)&63]) << r
	return rank | lineAttacks(s, occupied, lineMasks[0][s])
}

func bishopAttacks(s Square, occupied Bitboard) Bitboard {
	return lineAttacks(s, occupied, lineMasks[1][s]) | lineAttacks(s, occupied, lineMasks[2][s])
}

// hits reports whether a piece of kind k and colour c on from attacks
// square to among the occupied squares: attacks(k, c, from,
// occupied).Has(to) without listing the others.
func hits(k Kind, c Color, from, to Square, occupied Bitboard) bool {
	switch k {
	case King:
		return kingAttacks[from].Has(to)
	case Knight:
		return knightAttacks[from].Has(to)
	case Pawn:
		return pawnAttacks[c][from].Has(to)
	}
	return lines[from][to]&kindLines[k] != 0 && between[from][to]&occupied == 0
}

// attacks returns the squares a piece of kind k and colour c on s attacks
// among the occupied squares.
func attacks(k Kind, c Color, s Square, occupied Bitboard) Bitboard {
	switch k {
	case King:
		return kingAttacks[s]
	case Queen:
		return rookAttacks(s, occupied) | bishopAttacks(s, occupied)
	case Rook:
		return rookAttacks(s, occupied)
	case Bishop:
		return bishopAttacks(s, occupied)
	case Knight:
		return knightAttacks[s]
	}
	return pawnAttacks[c][s]
}
