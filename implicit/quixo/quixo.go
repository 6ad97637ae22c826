// Package quixo is Quixo on an n x n board (n = 2, 3, 4) as an implicit game
// with the 8 symmetries of the square (GAMES.md, section `quixo`).
//
// A position is the board, as two bit masks (X's cells and O's, bit
// r*n + c), and whose turn it is. Its index is the board's ternary rank
// (cell i contributes 3^i times 0 for empty, 1 for X, 2 for O) times two,
// plus the turn (0 for X, 1 for O): 2 * 3^(n*n) indices, 86,093,442 for
// 4 x 4. Game itself plays on every board; implicit.Reduce(game) is the
// game over one board per symmetry class: a class holds a board's 8 images
// under the symmetries of the square and the same 8 with the colours and
// the turn swapped, and its representative has X to move and the masks
// that, read as the number X<<16 | O, are smallest.
package quixo

import (
	"fmt"
	"sync"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/square"
)

// MaxN is the largest side supported: the masks and tables hold 16 cells.
const MaxN = 4

// Game is Quixo on one board size. It implements implicit.Symmetric and is
// safe for concurrent use.
type Game struct {
	n, cells int
	size     uint64
	lines    []uint32 // the 2n+2 full lines: rows, columns, diagonals
	moves    []move   // every (taken cell, end) pair of the rules
	sym      *[8]square.Map16
	tern     *ternary
}

// move is taking border cell v and pushing the player's piece back in at the
// end e of a line through v: the cells seg (from e up to, not including, v)
// slide one step toward v.
type move struct {
	v, e  uint32 // single-bit masks
	seg   uint32
	shift int // +d: the segment moves to higher bits; -d: to lower
}

// ternary holds the ternary rank of up to 8 cells, and back: rank[x<<8|o],
// and the masks x and o of a rank below 3^8. It is built once, when the
// first Game is made.
type ternary struct {
	rank [1 << 16]uint16
	x, o [6561]uint8
}

var ternaryTables = sync.OnceValue(func() *ternary {
	t := new(ternary)
	for r := range 6561 {
		var x, o uint8
		for i, v := 0, r; i < 8; i, v = i+1, v/3 {
			switch v % 3 {
			case 1:
				x |= 1 << i
			case 2:
				o |= 1 << i
			}
		}
		t.x[r], t.o[r] = x, o
		t.rank[int(x)<<8|int(o)] = uint16(r)
	}
	return t
})

// pow3 returns 3^k.
func pow3(k int) uint64 {
	p := uint64(1)
	for range k {
		p *= 3
	}
	return p
}

// New returns Quixo on an n x n board; n must be 2, 3 or 4.
func New(n int) (*Game, error) {
	if n < 2 || n > MaxN {
		return nil, fmt.Errorf("quixo: a %d x %d board is not supported (2 to %d)", n, n, MaxN)
	}
	g := &Game{n: n, cells: n * n, size: 2 * pow3(n*n), sym: square.Symmetries16(n), tern: ternaryTables()}
	bit := func(r, c int) uint32 { return 1 << (r*n + c) }
	var d1, d2 uint32
	for i := range n {
		var row, col uint32
		for j := range n {
			row |= bit(i, j)
			col |= bit(j, i)
		}
		g.lines = append(g.lines, row, col)
		d1 |= bit(i, i)
		d2 |= bit(i, n-1-i)
	}
	g.lines = append(g.lines, d1, d2)

	// Moves: for each border cell, each end of its row and column that is
	// not the cell itself.
	for r := range n {
		for c := range n {
			if r != 0 && r != n-1 && c != 0 && c != n-1 {
				continue
			}
			for _, end := range [4][2]int{{r, 0}, {r, n - 1}, {0, c}, {n - 1, c}} {
				if end == [2]int{r, c} {
					continue
				}
				m := move{v: bit(r, c), e: bit(end[0], end[1])}
				// The segment runs from the end toward the cell, exclusive.
				dr, dc, step := 0, 1, 1
				if end[1] == c { // along the column
					dr, dc, step = 1, 0, n
				}
				sign := 1
				if end[0] > r || end[1] > c {
					sign = -1
				}
				m.shift = sign * step
				for rr, cc := end[0], end[1]; rr != r || cc != c; rr, cc = rr+sign*dr, cc+sign*dc {
					m.seg |= bit(rr, cc)
				}
				g.moves = append(g.moves, m)
			}
		}
	}

	return g, nil
}

// N returns the side of the board.
func (g *Game) N() int { return g.n }

// Index returns the index of the board with X on x and O on o, player to
// move 0 (X) or 1 (O).
func (g *Game) Index(x, o uint32, turn uint64) uint64 {
	t := uint64(g.tern.rank[(x&0xff)<<8|o&0xff]) + 6561*uint64(g.tern.rank[(x>>8&0xff)<<8|o>>8&0xff])
	return t<<1 | turn
}

// Board returns the masks and turn of index s.
func (g *Game) Board(s uint64) (x, o uint32, turn uint64) {
	t := s >> 1
	lo, hi := t%6561, t/6561
	tt := g.tern
	return uint32(tt.x[lo]) | uint32(tt.x[hi])<<8, uint32(tt.o[lo]) | uint32(tt.o[hi])<<8, s & 1
}

// Start returns the index of the empty board, X to move.
func (g *Game) Start() uint64 { return 0 }

// Size returns 2 * 3^(n*n).
func (g *Game) Size() uint64 { return g.size }

// MaxMoves returns 4(3n-4): 2 moves from each corner, 3 from other border
// cells.
func (g *Game) MaxMoves() uint64 { return uint64(len(g.moves)) }

func (g *Game) hasLine(m uint32) bool {
	for _, l := range g.lines {
		if m&l == l {
			return true
		}
	}
	return false
}

// Classify applies the rule of GAMES.md: with a full line of its own the
// player to move has won; otherwise, with one of the opponent's, it has
// lost.
func (g *Game) Classify(s uint64) implicit.Kind {
	x, o, turn := g.Board(s)
	return g.classify(x, o, turn)
}

func (g *Game) classify(x, o uint32, turn uint64) implicit.Kind {
	me, them := x, o
	if turn == 1 {
		me, them = o, x
	}
	switch {
	case g.hasLine(me):
		return implicit.TerminalWin
	case g.hasLine(them):
		return implicit.TerminalLoss
	}
	return implicit.Inner
}

func shift(m uint32, by int) uint32 {
	if by > 0 {
		return m << by
	}
	return m >> -by
}

// Moves appends the boards one move away from s, one per (cell, end) pair of
// the rules (different pairs may give the same board).
func (g *Game) Moves(s uint64, dst []uint64) []uint64 {
	x, o, turn := g.Board(s)
	if g.classify(x, o, turn) != implicit.Inner {
		return dst
	}
	me, them := x, o
	if turn == 1 {
		me, them = o, x
	}
	for _, m := range g.moves {
		if them&m.v != 0 {
			continue // the opponent's piece cannot be taken
		}
		keep := ^(m.seg | m.v)
		nm := me&keep | shift(me&m.seg, m.shift) | m.e
		nt := them&keep | shift(them&m.seg, m.shift)
		if turn == 0 {
			dst = append(dst, g.Index(nm, nt, 1))
		} else {
			dst = append(dst, g.Index(nt, nm, 0))
		}
	}
	return dst
}

// Unmoves appends the boards one move before t that were not over: for each
// (cell, end) pair whose end holds the last mover's piece, the segment slides
// back, and the taken cell held either nothing or the mover's piece.
func (g *Game) Unmoves(t uint64, dst []uint64) []uint64 {
	x, o, turn := g.Board(t)
	prev := turn ^ 1 // the player who just moved
	mover, other := x, o
	if prev == 1 {
		mover, other = o, x
	}
	for _, m := range g.moves {
		if mover&m.e == 0 {
			continue
		}
		moved := shift(m.seg, m.shift) // where the segment went: up to and including v
		keep := ^(m.seg | m.v)
		pm := mover&keep | shift(mover&moved, -m.shift)
		po := other&keep | shift(other&moved, -m.shift)
		for _, taken := range [2]uint32{0, m.v} { // v was empty, or the mover's
			pm2 := pm | taken
			px, po2 := pm2, po
			if prev == 1 {
				px, po2 = po, pm2
			}
			if g.classify(px, po2, prev) == implicit.Inner {
				dst = append(dst, g.Index(px, po2, prev))
			}
		}
	}
	return dst
}

// Canonical returns the representative of s's class: the players' colours
// swapped if O is to move (the rules treat both alike, so a board with O to
// move plays as its mirror image in colours with X to move), then the image
// under the 8 symmetries of the square whose masks read as X<<16 | O are
// smallest. Representatives always have X to move.
func (g *Game) Canonical(s uint64) uint64 {
	x, o, turn := g.Board(s)
	if turn == 1 {
		x, o = o, x
	}
	best := x<<16 | o
	bx, bo := x, o
	for k := 1; k < 8; k++ {
		tx, to := g.sym[k].Apply(x), g.sym[k].Apply(o)
		if key := tx<<16 | to; key < best {
			best, bx, bo = key, tx, to
		}
	}
	if turn == 0 && bx == x && bo == o {
		return s
	}
	return g.Index(bx, bo, 0)
}

// IsCanonical reports whether s is its class's representative: X is to
// move and no image of it reads smaller.
func (g *Game) IsCanonical(s uint64) bool {
	if s&1 != 0 {
		return false
	}
	x, o, _ := g.Board(s)
	key := x<<16 | o
	for k := 1; k < 8; k++ {
		if g.sym[k].Apply(x)<<16|g.sym[k].Apply(o) < key {
			return false
		}
	}
	return true
}

// Describe returns the board of s, rows of 'X', 'O' and '.', and whose turn
// it is ("X to move").
func (g *Game) Describe(s uint64) string {
	x, o, turn := g.Board(s)
	return square.Describe(g.n, x, o, turn)
}

// ParsePosition returns the index of a board written as Describe writes it
// (rows may also be separated by '/').
func (g *Game) ParsePosition(text string) (uint64, error) {
	x, o, turn, err := square.Parse(g.n, text)
	if err != nil {
		return 0, fmt.Errorf("quixo: %v", err)
	}
	return g.Index(x, o, turn), nil
}

var (
	_ implicit.Symmetric = (*Game)(nil)
	_ implicit.Notation  = (*Game)(nil)
)
