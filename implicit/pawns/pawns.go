// Package pawns is the river-crossing pawns game (LOJ 3958, 「过河卒」) as
// an implicit game: two red pawns and one black pawn on a board of up to
// 16 x 16 cells with walls. See docs/formats.md, section `pawns`, for the
// rules.
//
// A position is (red pawn a, red pawn b, black pawn c) over the board's
// free cells, numbered 0..F-1 in reading order. The red pawns are
// interchangeable, so only a < b is indexed. The black pawn never moves
// down, so the positions with black below its starting row are never
// reached from the start, and no position above them leads to them: the
// index leaves them out, and c ranges over the K free cells in rows up to
// black's starting row (ids 0..K-1, thanks to the reading order). So
// index = rank(a, b)*K + c with rank(a, b) = b(b-1)/2 + a: F(F-1)K/2
// indices, none of them on a wall, often half of what all rows would take. Whose turn it is follows from the position itself: every
// move changes one coordinate by one, so the parity of the sum of all
// coordinates flips with every ply, and Red is to move exactly when it
// equals the parity at the start (swapping the red pawns keeps it).
package pawns

import (
	"github.com/retro-solver/retro/implicit"
)

// MaxSide is the largest number of rows or columns a board may have.
const MaxSide = 16

// Board is one starting position: the board's size and walls and where the
// three pawns stand. Rows are numbered from 0 at the top (row 1 of docs/formats.md).
type Board struct {
	Rows, Cols int
	Wall       [MaxSide][MaxSide]bool
	Red        [2][2]int // (row, col) of each red pawn
	Black      [2]int    // (row, col) of the black pawn
}

// Game is the pawns game on one board. It implements implicit.Game. The zero
// value is not usable: call Reset (or New).
type Game struct {
	board   Board      // the walls, for Describe
	cells   [][2]int   // (row, column) of each free cell
	free    int        // F, the number of free cells
	blackK  int        // K, the free cells in rows up to black's starting row
	row     []int8     // row of each free cell
	parity  []uint8    // (row + col) & 1 of each free cell
	nb      [][4]int16 // neighbour free cell up, down, left, right, or -1
	pairA   []uint8    // pairA[rank], pairB[rank]: the red cells of a pair rank
	pairB   []uint8
	base    []uint64                 // base[b] = b(b-1)/2 * F: the first index whose higher red cell is b
	id      [MaxSide * MaxSide]int16 // free cell id of (row, col), -1 on walls
	redMove uint8                    // position parity when Red is to move
	start   uint64
}

// Directions, as indices into Game.nb.
const (
	up = iota
	down
	left
	right
)

var _ implicit.Game = (*Game)(nil)

// New returns the game on board b.
func New(b *Board) *Game {
	g := &Game{}
	g.Reset(b)
	return g
}

// Reset makes g the game on board b, reusing g's tables.
func (g *Game) Reset(b *Board) {
	g.board = *b
	g.free = 0
	g.row, g.parity, g.nb, g.cells = g.row[:0], g.parity[:0], g.nb[:0], g.cells[:0]
	for r := range b.Rows {
		for c := range b.Cols {
			g.id[r*MaxSide+c] = -1
			if b.Wall[r][c] {
				continue
			}
			g.id[r*MaxSide+c] = int16(g.free)
			g.free++
			g.row = append(g.row, int8(r))
			g.cells = append(g.cells, [2]int{r, c})
			g.parity = append(g.parity, uint8((r+c)&1))
		}
	}
	cell := func(r, c int) int16 {
		if r < 0 || r >= b.Rows || c < 0 || c >= b.Cols {
			return -1
		}
		return g.id[r*MaxSide+c]
	}
	for r := range b.Rows {
		for c := range b.Cols {
			if g.id[r*MaxSide+c] >= 0 {
				g.nb = append(g.nb, [4]int16{cell(r-1, c), cell(r+1, c), cell(r, c-1), cell(r, c+1)})
			}
		}
	}
	g.blackK = 0
	for _, r := range g.row {
		if int(r) <= b.Black[0] {
			g.blackK++
		}
	}
	g.base = g.base[:0]
	for hi := range g.free {
		g.base = append(g.base, uint64(hi*(hi-1)/2)*uint64(g.blackK))
	}
	g.pairA, g.pairB = g.pairA[:0], g.pairB[:0]
	for hi := 1; hi < g.free; hi++ {
		for lo := range hi {
			g.pairA = append(g.pairA, uint8(lo))
			g.pairB = append(g.pairB, uint8(hi))
		}
	}
	a := int(cell(b.Red[0][0], b.Red[0][1]))
	bb := int(cell(b.Red[1][0], b.Red[1][1]))
	c := int(cell(b.Black[0], b.Black[1]))
	g.redMove = g.parity[a] ^ g.parity[bb] ^ g.parity[c]
	g.start = g.index(a, bb, c)
}

// index returns the index of red pawns on free cells a and b (in either
// order, a != b) and the black pawn on free cell c.
func (g *Game) index(a, b, c int) uint64 {
	if a > b {
		a, b = b, a
	}
	return g.base[b] + uint64(a*g.blackK+c)
}

// unrank returns the free cells of index s: red pawns a < b, black pawn c.
func (g *Game) unrank(s uint64) (a, b, c int) {
	pr, c64 := s/uint64(g.blackK), s%uint64(g.blackK)
	return int(g.pairA[pr]), int(g.pairB[pr]), int(c64)
}

// Start returns the index of the starting position.
func (g *Game) Start() uint64 { return g.start }

// Size returns F(F-1)K/2 for F free cells, K of them in reach of black.
func (g *Game) Size() uint64 { return uint64(len(g.pairA)) * uint64(g.blackK) }

// MaxMoves returns 8: four steps for each red pawn.
func (g *Game) MaxMoves() uint64 { return 8 }

// redToMove reports whether Red moves in the position of cells a, b, c.
func (g *Game) redToMove(a, b, c int) bool {
	return g.parity[a]^g.parity[b]^g.parity[c] == g.redMove
}

// Classify applies the rules (docs/formats.md) in order: black in row 1 wins;
// black on a red pawn wins for whoever moved last; otherwise play goes on
// (and a player with no move loses, which the engines see as no moves).
func (g *Game) Classify(s uint64) implicit.Kind {
	a, b, c := g.unrank(s)
	return g.classify(a, b, c)
}

func (g *Game) classify(a, b, c int) implicit.Kind {
	switch {
	case g.row[c] == 0:
		if g.redToMove(a, b, c) {
			return implicit.TerminalLoss
		}
		return implicit.TerminalWin
	case c == a || c == b:
		return implicit.TerminalLoss
	}
	return implicit.Inner
}

// Moves appends the positions one move away from s.
func (g *Game) Moves(s uint64, dst []uint64) []uint64 {
	a, b, c := g.unrank(s)
	if g.classify(a, b, c) != implicit.Inner {
		return dst
	}
	if !g.redToMove(a, b, c) {
		for _, d := range [3]int{up, left, right} {
			if n := g.nb[c][d]; n >= 0 {
				dst = append(dst, g.index(a, b, int(n)))
			}
		}
		return dst
	}
	for d := range 4 {
		if n := int(g.nb[a][d]); n >= 0 && n != b {
			dst = append(dst, g.index(n, b, c))
		}
		if n := int(g.nb[b][d]); n >= 0 && n != a {
			dst = append(dst, g.index(a, n, c))
		}
	}
	return dst
}

// NumMoves returns the number of moves of s: Moves without the list.
func (g *Game) NumMoves(s uint64) uint64 {
	_, k := g.ClassifyCount(s)
	return k
}

// ClassifyCount returns Classify(s) and, for an inner position, its
// number of moves, decoding s once and computing no index.
func (g *Game) ClassifyCount(s uint64) (implicit.Kind, uint64) {
	a, b, c := g.unrank(s)
	if k := g.classify(a, b, c); k != implicit.Inner {
		return k, 0
	}
	var k uint64
	if !g.redToMove(a, b, c) {
		for _, d := range [3]int{up, left, right} {
			if g.nb[c][d] >= 0 {
				k++
			}
		}
		return implicit.Inner, k
	}
	for d := range 4 {
		if n := int(g.nb[a][d]); n >= 0 && n != b {
			k++
		}
		if n := int(g.nb[b][d]); n >= 0 && n != a {
			k++
		}
	}
	return implicit.Inner, k
}

// Unmoves appends the positions one move before t: positions that are not
// over yet and that the player who just moved left to reach t.
func (g *Game) Unmoves(t uint64, dst []uint64) []uint64 {
	a, b, c := g.unrank(t)
	if g.redToMove(a, b, c) {
		// Black moved last: up, left or right, so it came from below, the
		// right or the left, and it was not in row 1 nor on a red pawn (nor
		// below its starting row, outside the index).
		for _, d := range [3]int{down, right, left} {
			if p := int(g.nb[c][d]); p >= 0 && p < g.blackK && g.row[p] != 0 && p != a && p != b {
				dst = append(dst, g.index(a, b, p))
			}
		}
		return dst
	}
	// Red moved last: one red pawn came from a neighbouring cell that
	// neither the other red pawn nor the black pawn occupied, and the black
	// pawn was not on the other red pawn (that would have ended the game).
	if g.row[c] == 0 {
		return dst // black was already in row 1 before Red's move: over
	}
	for d := range 4 {
		if p := int(g.nb[a][d]); p >= 0 && p != b && p != c && c != b {
			dst = append(dst, g.index(p, b, c))
		}
		if p := int(g.nb[b][d]); p >= 0 && p != a && p != c && c != a {
			dst = append(dst, g.index(a, p, c))
		}
	}
	return dst
}

// Describe returns position s as a board in the input format, with a last
// line saying whose turn it is.
func (g *Game) Describe(s uint64) string {
	a, b, c := g.unrank(s)
	bd := g.board
	bd.Red = [2][2]int{g.cells[a], g.cells[b]}
	bd.Black = g.cells[c]
	// String draws the black pawn over a red one on a shared cell.
	who := "Red to move"
	if !g.redToMove(a, b, c) {
		who = "Black to move"
	}
	return bd.String() + who + "\n"
}
