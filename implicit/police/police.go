// Package police is the policeman-and-thief game (docs/formats.md) as an
// implicit game, on boards of any size that memory allows (docs/formats.md,
// section `police`).
//
// A position is (policeman cell p, thief cell q, whose turn) over the
// board's free cells, numbered 0..F-1 in reading order, so walls cost no
// index: index = (p*F + q)*2 + turn, turn 0 for the policeman and 1 for the
// thief. A pass is a move to the neighbouring index.
package police

import (
	"cmp"
	"slices"

	"github.com/retro-solver/retro/implicit"
)

// Cell kinds of a board.
const (
	Free = iota
	Wall
	Exit
)

// Board is a starting position: the cells, row by row, and where the
// policeman and the thief stand (row, column), counted from 0.
type Board struct {
	Rows, Cols int
	Cells      []uint8 // Rows*Cols cell kinds, row by row
	Police     [2]int
	Thief      [2]int
}

// At returns the kind of the cell at row r, column c.
func (b *Board) At(r, c int) uint8 { return b.Cells[r*b.Cols+c] }

// Game is the policeman-and-thief game on one board. It implements
// implicit.Game and is safe for concurrent use.
type Game struct {
	board *Board
	cells [][2]int // (row, column) of each free cell
	free  uint64
	exit  []bool     // exit[cell]: the cell is an exit
	exits []uint64   // the exit cells, in increasing order
	moves [][8]int32 // the free neighbours of each cell: 4 along the axes first, then 4 diagonals; -1 where there is none
	steps [][2]uint8 // the number of free neighbours of each cell: along the axes, and in all 8 directions
	start uint64
}

var (
	_ implicit.Game      = (*Game)(nil)
	_ implicit.EndLister = (*Game)(nil)
)

// Whose turn, the lowest bit of an index.
const (
	policeTurn = 0
	thiefTurn  = 1
)

// New returns the game on board b, whose pieces must stand on free or exit
// cells (Parse checks this).
func New(b *Board) *Game {
	g := &Game{board: b}
	id := make([]int32, len(b.Cells))
	for i, k := range b.Cells {
		id[i] = -1
		if k != Wall {
			id[i] = int32(g.free)
			g.free++
			g.exit = append(g.exit, k == Exit)
			if k == Exit {
				g.exits = append(g.exits, g.free-1)
			}
			g.cells = append(g.cells, [2]int{i / b.Cols, i % b.Cols})
		}
	}
	cell := func(r, c int) int32 {
		if r < 0 || r >= b.Rows || c < 0 || c >= b.Cols {
			return -1
		}
		return id[r*b.Cols+c]
	}
	dirs := [8][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-1, -1}, {-1, 1}, {1, -1}, {1, 1}}
	for r := range b.Rows {
		for c := range b.Cols {
			if id[r*b.Cols+c] < 0 {
				continue
			}
			var nb [8]int32
			var steps [2]uint8
			for d, dd := range dirs {
				nb[d] = cell(r+dd[0], c+dd[1])
				if nb[d] >= 0 {
					if d < 4 {
						steps[0]++
					}
					steps[1]++
				}
			}
			g.moves = append(g.moves, nb)
			g.steps = append(g.steps, steps)
		}
	}
	p := uint64(cell(b.Police[0], b.Police[1]))
	q := uint64(cell(b.Thief[0], b.Thief[1]))
	g.start = g.index(p, q, policeTurn)
	return g
}

func (g *Game) index(p, q, turn uint64) uint64 { return (p*g.free+q)<<1 | turn }

func (g *Game) unrank(s uint64) (p, q, turn uint64) {
	pq := s >> 1
	return pq / g.free, pq % g.free, s & 1
}

// Start returns the index of the starting position, the policeman to move.
func (g *Game) Start() uint64 { return g.start }

// Size returns 2F^2 for F free cells.
func (g *Game) Size() uint64 { return 2 * g.free * g.free }

// MaxMoves returns 9: eight steps and a pass for the policeman.
func (g *Game) MaxMoves() uint64 { return 9 }

// Classify applies the rules (docs/formats.md): on the same cell the policeman
// has won; the thief on an exit without the policeman has won; whoever is
// to move.
func (g *Game) Classify(s uint64) implicit.Kind {
	return g.classify(g.unrank(s))
}

func (g *Game) classify(p, q, turn uint64) implicit.Kind {
	switch {
	case p == q:
		if turn == policeTurn {
			return implicit.TerminalWin
		}
		return implicit.TerminalLoss
	case g.exit[q]:
		if turn == thiefTurn {
			return implicit.TerminalWin
		}
		return implicit.TerminalLoss
	}
	return implicit.Inner
}

// over reports whether a position with the policeman on p and the thief on
// q is over, whoever is to move.
func (g *Game) over(p, q uint64) bool { return p == q || g.exit[q] }

// Ends appends the positions of [lo, hi) that are over, in increasing
// order (implicit.EndLister): in each policeman's cell's run of 2F indices,
// those whose thief stands on an exit or on the policeman's cell, with
// either to move. Every other position has a move: a pass at least.
func (g *Game) Ends(lo, hi uint64, dst []implicit.End) []implicit.End {
	hi = min(hi, g.Size())
	if lo >= hi {
		return dst
	}
	row := 2 * g.free
	for p := lo / row; p*row < hi; p++ {
		base := p * row
		emit := func(q uint64) {
			for turn := range uint64(2) {
				if s := base + 2*q + turn; s >= lo && s < hi {
					dst = append(dst, implicit.End{Index: s, Kind: g.classify(p, q, turn)})
				}
			}
		}
		// The exits from the first whose indices reach lo, and p among them.
		first, _ := slices.BinarySearchFunc(g.exits, lo, func(q, lo uint64) int {
			return cmp.Compare(base+2*q+1, lo)
		})
		pDone := false
		for _, q := range g.exits[first:] {
			if base+2*q >= hi {
				break
			}
			if !pDone && p <= q {
				if p < q {
					emit(p)
				}
				pDone = true
			}
			emit(q)
		}
		if !pDone {
			emit(p)
		}
	}
	return dst
}

// Moves appends the positions one move away from s: a step (8 directions
// for the policeman, 4 for the thief) or a pass.
func (g *Game) Moves(s uint64, dst []uint64) []uint64 {
	p, q, turn := g.unrank(s)
	if g.over(p, q) {
		return dst
	}
	if turn == policeTurn {
		dst = append(dst, g.index(p, q, thiefTurn))
		for _, n := range g.moves[p] {
			if n >= 0 {
				dst = append(dst, g.index(uint64(n), q, thiefTurn))
			}
		}
		return dst
	}
	dst = append(dst, g.index(p, q, policeTurn))
	for _, n := range g.moves[q][:4] {
		if n >= 0 {
			dst = append(dst, g.index(p, uint64(n), policeTurn))
		}
	}
	return dst
}

// NumMoves returns the number of moves of s: a pass and the steps.
func (g *Game) NumMoves(s uint64) uint64 {
	p, q, turn := g.unrank(s)
	switch {
	case g.over(p, q):
		return 0
	case turn == policeTurn:
		return 1 + uint64(g.steps[p][1])
	}
	return 1 + uint64(g.steps[q][0])
}

// ClassifyCount returns Classify(s) and, for an inner position, its
// number of moves, decoding s once.
func (g *Game) ClassifyCount(s uint64) (implicit.Kind, uint64) {
	p, q, turn := g.unrank(s)
	switch k := g.classify(p, q, turn); {
	case k != implicit.Inner:
		return k, 0
	case turn == policeTurn:
		return k, 1 + uint64(g.steps[p][1])
	}
	return implicit.Inner, 1 + uint64(g.steps[q][0])
}

// Unmoves appends the positions one move before t that were not over: the
// piece that just moved came from a neighbouring cell or passed.
func (g *Game) Unmoves(t uint64, dst []uint64) []uint64 {
	p, q, turn := g.unrank(t)
	if turn == thiefTurn {
		// The policeman moved last; the thief stood on q throughout.
		if g.exit[q] {
			return dst
		}
		if p != q {
			dst = append(dst, g.index(p, q, policeTurn))
		}
		for _, n := range g.moves[p] {
			if n >= 0 && uint64(n) != q {
				dst = append(dst, g.index(uint64(n), q, policeTurn))
			}
		}
		return dst
	}
	// The thief moved last; the policeman stood on p throughout.
	if !g.over(p, q) {
		dst = append(dst, g.index(p, q, thiefTurn))
	}
	for _, n := range g.moves[q][:4] {
		if n >= 0 && !g.over(p, uint64(n)) {
			dst = append(dst, g.index(p, uint64(n), thiefTurn))
		}
	}
	return dst
}

// NumUnmoves returns the number of un-moves of t: Unmoves without the list.
func (g *Game) NumUnmoves(t uint64) uint64 {
	p, q, turn := g.unrank(t)
	var k uint64
	if turn == thiefTurn {
		if g.exit[q] {
			return 0
		}
		if p != q {
			k++
		}
		for _, n := range g.moves[p] {
			if n >= 0 && uint64(n) != q {
				k++
			}
		}
		return k
	}
	if !g.over(p, q) {
		k++
	}
	for _, n := range g.moves[q][:4] {
		if n >= 0 && !g.over(p, uint64(n)) {
			k++
		}
	}
	return k
}

// Describe returns position s as a board in the input format, with a last
// line saying whose turn it is.
func (g *Game) Describe(s uint64) string {
	p, q, turn := g.unrank(s)
	b := *g.board
	b.Police = g.cells[p]
	b.Thief = g.cells[q]
	who := "the policeman to move"
	if turn == thiefTurn {
		who = "the thief to move"
	}
	return b.String() + who + "\n"
}
