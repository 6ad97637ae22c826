// Package teeko is Teeko (GAMES.md, section `teeko`) as an implicit game
// with the 8 symmetries of the 5 x 5 board.
//
// A position is the set of X's cells, the set of O's, and whose turn it is.
// In the drop phase the piece counts say whose turn it is; in the move phase
// (four pieces each) the turn is part of the index. The index runs through
// ten tiers: the eight drop tiers (0,0), (1,0), (1,1), ..., (4,3) and the
// move phase with X, then O, to move. Within a tier with x and o pieces, a
// position's index is rank(X) * C(25-x, o) + rank(O among the cells X
// leaves free), ranks in colexicographic order: 172,401,726 indices, as
// GamesmanOne counts them. Game plays on every position;
// implicit.Reduce(game) keeps one per symmetry class.
package teeko

import (
	"math/bits"
	"strings"

	"github.com/retro-solver/retro/implicit"
)

const (
	side  = 5
	cells = side * side
	full  = 1<<cells - 1
)

// tier is a group of positions with the same piece counts and turn.
type tier struct {
	x, o   int
	turn   uint64 // 0: X to move, 1: O to move
	offset uint64 // the first index of the tier
	perX   uint64 // C(25-x, o): O placements for each X placement
}

// Game is Teeko. It implements implicit.Symmetric and is safe for concurrent
// use; all Games are the same game.
type Game struct{}

var (
	binom   [cells + 1][5]uint64 // binom[n][k] = C(n, k)
	unrankK [5][]uint32          // unrankK[k][r]: the k-subset of colex rank r
	tiers   [10]tier
	size    uint64
	pattern [12650]bool // pattern[rank of a 4-set]: the set fills a pattern
	// rankByte[j][below][b]: the part of a colex rank from the cells b of
	// byte j, when below cells lie in the bytes under it.
	rankByte [4][5][256]uint32
	patterns []uint32
	nbr      [cells]uint32 // the 8 neighbours of each cell
	sym      [8][4][256]uint32
	_        = setup()
)

func setup() bool {
	for n := range cells + 1 {
		binom[n][0] = 1
		for k := 1; k < 5 && k <= n; k++ {
			binom[n][k] = binom[n-1][k-1]
			if k <= n-1 {
				binom[n][k] += binom[n-1][k]
			}
		}
	}
	for j := range 4 {
		for below := range 5 {
			for b := range 256 {
				// The cells of b are the (below+1)th, (below+2)th, ... of the set.
				var r uint64
				i := below + 1
				for m := uint32(b); m != 0 && i < 5; m &= m - 1 {
					if c := 8*j + bits.TrailingZeros32(m); c <= cells {
						r += binom[min(c, cells)][i]
					}
					i++
				}
				rankByte[j][below][b] = uint32(r)
			}
		}
	}
	for k := range 5 {
		unrankK[k] = make([]uint32, binom[cells][k])
	}
	// Every set of at most four cells, each built from a smaller one by a
	// cell above all of its own.
	sets := []uint32{0}
	for i := 0; i < len(sets); i++ {
		m := sets[i]
		unrankK[bits.OnesCount32(m)][rank(m)] = m
		if bits.OnesCount32(m) < 4 {
			for c := 32 - bits.LeadingZeros32(m); c < cells; c++ {
				sets = append(sets, m|1<<c)
			}
		}
	}
	// Tiers: drops (0,0), (1,0), ..., (4,3), then the move phase twice.
	var off uint64
	for k := range 10 {
		t := tier{x: (k + 1) / 2, o: k / 2, turn: uint64(k & 1)}
		if k >= 8 {
			t = tier{x: 4, o: 4, turn: uint64(k - 8)}
		}
		t.offset, t.perX = off, binom[cells-t.x][t.o]
		off += binom[cells][t.x] * t.perX
		tiers[k] = t
	}
	size = off

	bit := func(r, c int) uint32 { return 1 << (r*side + c) }
	for r := range side {
		for c := range side {
			for _, d := range [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} { // four in a row
				if r+3*d[0] < side && c+3*d[1] >= 0 && c+3*d[1] < side {
					var m uint32
					for i := range 4 {
						m |= bit(r+i*d[0], c+i*d[1])
					}
					patterns = append(patterns, m)
				}
			}
			if r+1 < side && c+1 < side { // a 2 x 2 square
				patterns = append(patterns, bit(r, c)|bit(r+1, c)|bit(r, c+1)|bit(r+1, c+1))
			}
			for dr := -1; dr <= 1; dr++ {
				for dc := -1; dc <= 1; dc++ {
					if (dr != 0 || dc != 0) && r+dr >= 0 && r+dr < side && c+dc >= 0 && c+dc < side {
						nbr[r*side+c] |= bit(r+dr, c+dc)
					}
				}
			}
			for k := range 8 {
				rr, cc := r, c
				for range k & 3 {
					rr, cc = cc, side-1-rr
				}
				if k >= 4 {
					cc = side - 1 - cc
				}
				cell := r*side + c
				for b := range 256 {
					if b&(1<<(cell%8)) != 0 {
						sym[k][cell/8][b] |= bit(rr, cc)
					}
				}
			}
		}
	}
	for _, p := range patterns {
		pattern[rank(p)] = true
	}
	return true
}

// rank returns the colexicographic rank of the set m among sets of its
// size (at most 4): the sum over its cells c_1 < c_2 < ... of C(c_i, i),
// gathered a byte at a time from rankByte.
func rank(m uint32) uint64 {
	b0, b1, b2 := m&0xff, m>>8&0xff, m>>16&0xff
	n0 := bits.OnesCount32(b0)
	n1 := n0 + bits.OnesCount32(b1)
	n2 := n1 + bits.OnesCount32(b2)
	return uint64(rankByte[0][0][b0]) + uint64(rankByte[1][min(n0, 4)][b1]) +
		uint64(rankByte[2][min(n1, 4)][b2]) + uint64(rankByte[3][min(n2, 4)][m>>24&0xff])
}

// compress returns the set o with the cells of x taken out of the numbering
// (o's cells renumbered among the cells x leaves free): x's cells are cut
// out from the highest down.
func compress(o, x uint32) uint32 {
	for x != 0 {
		p := 31 - bits.LeadingZeros32(x)
		o = o&(1<<p-1) | o>>(p+1)<<p
		x &^= 1 << p
	}
	return o
}

// expand is compress's inverse: it places the renumbered set c on the cells
// that x leaves free, opening a gap at each of x's cells from the lowest up.
func expand(c, x uint32) uint32 {
	for ; x != 0; x &= x - 1 {
		p := bits.TrailingZeros32(x)
		c = c&(1<<p-1) | c>>p<<(p+1)
	}
	return c
}

func tierOf(x, o int, turn uint64) int {
	if x == 4 && o == 4 {
		return 8 + int(turn)
	}
	return x + o
}

// Index returns the index of the position with X on x, O on o, and the given
// player to move (0 for X, 1 for O; it must agree with the counts in the
// drop phase).
func (Game) Index(x, o uint32, turn uint64) uint64 {
	t := &tiers[tierOf(bits.OnesCount32(x), bits.OnesCount32(o), turn)]
	return t.offset + rank(x)*t.perX + rank(compress(o, x))
}

// Position returns the sets and the player to move of index s.
func (Game) Position(s uint64) (x, o uint32, turn uint64) {
	k := 9
	for k > 0 && tiers[k].offset > s {
		k--
	}
	t := &tiers[k]
	r := s - t.offset
	x = unrankK[t.x][r/t.perX]
	return x, expand(unrankK[t.o][r%t.perX], x), t.turn
}

// Start returns the index of the empty board, X to move.
func (Game) Start() uint64 { return 0 }

// Size returns 172,401,726.
func (Game) Size() uint64 { return size }

// MaxMoves returns 32: four pieces with eight steps each bound the move
// phase, and drops are at most 25.
func (Game) MaxMoves() uint64 { return 32 }

// filled reports whether a set of four pieces fills one of the 44 patterns.
func filled(m uint32) bool { return bits.OnesCount32(m) == 4 && pattern[rank(m)] }

// Classify applies GAMES.md: two filled patterns are illegal; one, and the
// player to move has lost.
func (g Game) Classify(s uint64) implicit.Kind {
	x, o, _ := g.Position(s)
	return classify(x, o)
}

func classify(x, o uint32) implicit.Kind {
	fx, fo := filled(x), filled(o)
	switch {
	case fx && fo:
		return implicit.Illegal
	case fx || fo:
		return implicit.TerminalLoss
	}
	return implicit.Inner
}

// Moves appends the positions one move away from s: a drop on any empty
// cell in the drop phase, a step of one's own piece to an empty neighbour
// in the move phase.
func (g Game) Moves(s uint64, dst []uint64) []uint64 {
	x, o, turn := g.Position(s)
	if classify(x, o) != implicit.Inner {
		return dst
	}
	me, them := x, o
	if turn == 1 {
		me, them = o, x
	}
	empty := full &^ (x | o)
	add := func(nme uint32) []uint64 {
		if turn == 0 {
			return append(dst, g.Index(nme, them, 1))
		}
		return append(dst, g.Index(them, nme, 0))
	}
	if bits.OnesCount32(x|o) < 8 { // the drop phase
		for m := empty; m != 0; m &= m - 1 {
			dst = add(me | m&-m)
		}
		return dst
	}
	for p := me; p != 0; p &= p - 1 {
		from := p & -p
		for m := nbr[bits.TrailingZeros32(from)] & empty; m != 0; m &= m - 1 {
			dst = add(me&^from | m&-m)
		}
	}
	return dst
}

// Unmoves appends the positions one move before t that were not over.
func (g Game) Unmoves(t uint64, dst []uint64) []uint64 {
	x, o, turn := g.Position(t)
	prev := turn ^ 1 // the player who moved last
	mover, other := x, o
	if prev == 1 {
		mover, other = o, x
	}
	add := func(pm uint32) []uint64 {
		px, po := pm, other
		if prev == 1 {
			px, po = other, pm
		}
		if classify(px, po) == implicit.Inner {
			return append(dst, g.Index(px, po, prev))
		}
		return dst
	}
	nx, no := bits.OnesCount32(x), bits.OnesCount32(o)
	if nx < 4 || no < 4 || prev == 1 {
		// A drop: in the drop phase, or O's fourth piece into the move phase.
		for m := mover; m != 0; m &= m - 1 {
			dst = add(mover &^ (m & -m))
		}
	}
	if nx == 4 && no == 4 {
		empty := full &^ (x | o)
		for p := mover; p != 0; p &= p - 1 {
			to := p & -p
			for m := nbr[bits.TrailingZeros32(to)] & empty; m != 0; m &= m - 1 {
				dst = add(mover&^to | m&-m)
			}
		}
	}
	return dst
}

func transform(k int, m uint32) uint32 {
	t := &sym[k]
	return t[0][m&0xff] | t[1][m>>8&0xff] | t[2][m>>16&0xff] | t[3][m>>24]
}

// Canonical returns the index of the image of s, under the 8 symmetries,
// whose sets read as the number X<<25 | O are smallest.
func (g Game) Canonical(s uint64) uint64 {
	x, o, turn := g.Position(s)
	bx, bo := x, o
	for k := 1; k < 8; k++ {
		// X's image decides unless it ties: only then is O's needed.
		tx := transform(k, x)
		if tx > bx {
			continue
		}
		to := transform(k, o)
		if tx < bx || to < bo {
			bx, bo = tx, to
		}
	}
	if bx == x && bo == o {
		return s
	}
	return g.Index(bx, bo, turn)
}

// IsCanonical reports whether s is its class's representative: no image
// of it reads smaller.
func (g Game) IsCanonical(s uint64) bool {
	x, o, _ := g.Position(s)
	for k := 1; k < 8; k++ {
		if tx := transform(k, x); tx < x || tx == x && transform(k, o) < o {
			return false
		}
	}
	return true
}

// Describe returns the board of s, rows of 'X', 'O' and '.', and whose turn
// it is.
func (g Game) Describe(s uint64) string {
	x, o, turn := g.Position(s)
	var b strings.Builder
	for i := range cells {
		switch {
		case x&(1<<i) != 0:
			b.WriteByte('X')
		case o&(1<<i) != 0:
			b.WriteByte('O')
		default:
			b.WriteByte('.')
		}
		if i%side == side-1 {
			b.WriteByte('\n')
		}
	}
	b.WriteString([]string{"X to move\n", "O to move\n"}[turn])
	return b.String()
}

var _ implicit.Symmetric = Game{}
