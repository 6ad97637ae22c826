// Package teeko is Teeko (docs/formats.md, section `teeko`) as an implicit game
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
	"fmt"
	"math/bits"
	"sync"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/square"
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

// Game is Teeko. It implements implicit.Symmetric and implicit.Notation
// and is safe for concurrent use; all Games are the same game. The zero
// Game is not usable: call New.
type Game struct {
	*tables
}

// New returns Teeko. Its tables are built by the first call (a few
// milliseconds) and shared by every Game.
func New() Game { return Game{loadTables()} }

// tables are what Teeko's index and rules look up.
type tables struct {
	binom   [cells + 1][5]uint64 // binom[n][k] = C(n, k)
	unrankK [5][]uint32          // unrankK[k][r]: the k-subset of colex rank r
	tiers   [10]tier
	size    uint64
	pattern [12650]bool // pattern[rank of a 4-set]: the set fills a pattern
	// rankByte[j][below][b]: the part of a colex rank from the cells b of
	// byte j, when below cells lie in the bytes under it.
	rankByte [4][5][256]uint32
	nbr      [cells]uint32 // the 8 neighbours of each cell
	sym      *[8]square.Map
}

var loadTables = sync.OnceValue(func() *tables {
	t := &tables{sym: square.Symmetries(side)}
	t.setRanks()
	t.setTiers()
	t.setPatterns()
	return t
})

// setRanks fills binom, rankByte and unrankK.
func (t *tables) setRanks() {
	binom := &t.binom
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
				t.rankByte[j][below][b] = uint32(r)
			}
		}
	}
	for k := range 5 {
		t.unrankK[k] = make([]uint32, binom[cells][k])
	}
	// Every set of at most four cells, each built from a smaller one by a
	// cell above all of its own.
	sets := []uint32{0}
	for i := 0; i < len(sets); i++ {
		m := sets[i]
		t.unrankK[bits.OnesCount32(m)][t.rank(m)] = m
		if bits.OnesCount32(m) < 4 {
			for c := 32 - bits.LeadingZeros32(m); c < cells; c++ {
				sets = append(sets, m|1<<c)
			}
		}
	}
}

// setTiers fills tiers and size: drops (0,0), (1,0), ..., (4,3), then the
// move phase twice.
func (t *tables) setTiers() {
	var off uint64
	for k := range 10 {
		tr := tier{x: (k + 1) / 2, o: k / 2, turn: uint64(k & 1)}
		if k >= 8 {
			tr = tier{x: 4, o: 4, turn: uint64(k - 8)}
		}
		tr.offset, tr.perX = off, t.binom[cells-tr.x][tr.o]
		off += t.binom[cells][tr.x] * tr.perX
		t.tiers[k] = tr
	}
	t.size = off
}

// setPatterns fills pattern (the 44 patterns of the rules, by rank) and nbr.
func (t *tables) setPatterns() {
	var patterns []uint32

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
						t.nbr[r*side+c] |= bit(r+dr, c+dc)
					}
				}
			}
		}
	}
	for _, p := range patterns {
		t.pattern[t.rank(p)] = true
	}
}

// rank returns the colexicographic rank of the set m among sets of its
// size (at most 4): the sum over its cells c_1 < c_2 < ... of C(c_i, i),
// gathered a byte at a time from rankByte.
func (t *tables) rank(m uint32) uint64 {
	b0, b1, b2 := m&0xff, m>>8&0xff, m>>16&0xff
	n0 := bits.OnesCount32(b0)
	n1 := n0 + bits.OnesCount32(b1)
	n2 := n1 + bits.OnesCount32(b2)
	rb := &t.rankByte
	return uint64(rb[0][0][b0]) + uint64(rb[1][min(n0, 4)][b1]) +
		uint64(rb[2][min(n1, 4)][b2]) + uint64(rb[3][min(n2, 4)][m>>24&0xff])
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
func (g Game) Index(x, o uint32, turn uint64) uint64 {
	t := &g.tiers[tierOf(bits.OnesCount32(x), bits.OnesCount32(o), turn)]
	return t.offset + g.rank(x)*t.perX + g.rank(compress(o, x))
}

// Tiers returns the game's tiers: the eight drop tiers, each the child of
// the one before it, and the move phase (both players to move, which
// reach each other), the child of the last drop tier.
func (g Game) Tiers() []implicit.Tier {
	tiers := make([]implicit.Tier, 9)
	for k := range 9 {
		t := g.tiers[k]
		tiers[k] = implicit.Tier{Name: fmt.Sprintf("drops X %d O %d", t.x, t.o), Start: t.offset, End: g.tiers[k+1].offset}
		if k < 8 {
			tiers[k].Children = []int{k + 1}
		}
	}
	tiers[8].Name, tiers[8].End = "move phase", g.size
	return tiers
}

// Position returns the sets and the player to move of index s.
func (g Game) Position(s uint64) (x, o uint32, turn uint64) {
	k := 9
	for k > 0 && g.tiers[k].offset > s {
		k--
	}
	t := &g.tiers[k]
	r := s - t.offset
	x = g.unrankK[t.x][r/t.perX]
	return x, expand(g.unrankK[t.o][r%t.perX], x), t.turn
}

// Start returns the index of the empty board, X to move.
func (Game) Start() uint64 { return 0 }

// Size returns 172,401,726.
func (g Game) Size() uint64 { return g.size }

// MaxMoves returns 32: four pieces with eight steps each bound the move
// phase, and drops are at most 25.
func (Game) MaxMoves() uint64 { return 32 }

// filled reports whether a set of four pieces fills one of the 44 patterns.
func (t *tables) filled(m uint32) bool { return bits.OnesCount32(m) == 4 && t.pattern[t.rank(m)] }

// Classify applies the rules (docs/formats.md): two filled patterns are illegal; one, and the
// player to move has lost.
func (g Game) Classify(s uint64) implicit.Kind {
	x, o, _ := g.Position(s)
	return g.classify(x, o)
}

func (t *tables) classify(x, o uint32) implicit.Kind {
	fx, fo := t.filled(x), t.filled(o)
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
	return g.moveList(s, func(x, o uint32, turn uint64) uint64 { return g.Index(x, o, turn) }, dst)
}

// CanonicalMoves appends the representatives of the classes of Moves(s),
// in the same order (implicit.CanonicalMover): no move is decoded again.
func (g Game) CanonicalMoves(s uint64, dst []uint64) []uint64 {
	return g.moveList(s, g.canonicalIndex, dst)
}

// ClassifyClasses returns the kind of s and, if it is Inner, the number of
// distinct classes its moves reach, counted on their representatives' sets
// without numbering them (implicit.ClassCounter).
func (g Game) ClassifyClasses(s uint64) (implicit.Kind, uint64) {
	x, o, turn := g.Position(s)
	if k := g.classify(x, o); k != implicit.Inner {
		return k, 0
	}
	var buf [32]uint64
	keys := g.movesOf(x, o, turn, func(x, o uint32, _ uint64) uint64 {
		bx, bo := g.canonicalSets(x, o)
		return uint64(bx)<<25 | uint64(bo)
	}, buf[:0])
	return implicit.Inner, uint64(len(implicit.Distinct(keys)))
}

// ProbeMoves returns Classify(s) and, for an Inner s, whether the player
// to move has a move: an empty cell in the drop phase, a piece beside one
// after it (Compact passes it on as implicit.MoveProberOf's probe).
func (g Game) ProbeMoves(s uint64) (implicit.Kind, bool) {
	x, o, turn := g.Position(s)
	k := g.classify(x, o)
	if k != implicit.Inner {
		return k, false
	}
	me := x
	if turn == 1 {
		me = o
	}
	empty := full &^ (x | o)
	if bits.OnesCount32(x|o) < 8 {
		return k, empty != 0
	}
	for p := me; p != 0; p &= p - 1 {
		if g.nbr[bits.TrailingZeros32(p)]&empty != 0 {
			return k, true
		}
	}
	return k, false
}

// moveList appends, for each move of s, what index returns of the position
// it reaches.
func (g Game) moveList(s uint64, index func(x, o uint32, turn uint64) uint64, dst []uint64) []uint64 {
	x, o, turn := g.Position(s)
	if g.classify(x, o) != implicit.Inner {
		return dst
	}
	return g.movesOf(x, o, turn, index, dst)
}

// movesOf is moveList for the Inner position already decoded.
func (g Game) movesOf(x, o uint32, turn uint64, index func(x, o uint32, turn uint64) uint64, dst []uint64) []uint64 {
	me, them := x, o
	if turn == 1 {
		me, them = o, x
	}
	empty := full &^ (x | o)
	add := func(nme uint32) []uint64 {
		if turn == 0 {
			return append(dst, index(nme, them, 1))
		}
		return append(dst, index(them, nme, 0))
	}
	if bits.OnesCount32(x|o) < 8 { // the drop phase
		for m := empty; m != 0; m &= m - 1 {
			dst = add(me | m&-m)
		}
		return dst
	}
	for p := me; p != 0; p &= p - 1 {
		from := p & -p
		for m := g.nbr[bits.TrailingZeros32(from)] & empty; m != 0; m &= m - 1 {
			dst = add(me&^from | m&-m)
		}
	}
	return dst
}

// Unmoves appends the positions one move before t that were not over.
func (g Game) Unmoves(t uint64, dst []uint64) []uint64 {
	return g.unmoveList(t, func(x, o uint32, turn uint64) uint64 { return g.Index(x, o, turn) }, false, dst)
}

// CanonicalUnmoves appends the representatives of the classes of
// Unmoves(t), in the same order (implicit.CanonicalMover).
func (g Game) CanonicalUnmoves(t uint64, dst []uint64) []uint64 {
	return g.unmoveList(t, g.canonicalIndex, false, dst)
}

// TierUnmoves appends the un-moves of t in its own tier
// (implicit.TierUnmover): the slides of the move phase, none in the drop
// phase, whose un-drops all reach the tier before; with canonical, their
// representatives.
func (g Game) TierUnmoves(t uint64, canonical bool, dst []uint64) []uint64 {
	if canonical {
		return g.unmoveList(t, g.canonicalIndex, true, dst)
	}
	return g.unmoveList(t, func(x, o uint32, turn uint64) uint64 { return g.Index(x, o, turn) }, true, dst)
}

// unmoveList appends, for each un-move of t, what index returns of the
// position it reaches; with slidesOnly, of the un-slides only.
func (g Game) unmoveList(t uint64, index func(x, o uint32, turn uint64) uint64, slidesOnly bool, dst []uint64) []uint64 {
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
		if g.classify(px, po) == implicit.Inner {
			return append(dst, index(px, po, prev))
		}
		return dst
	}
	nx, no := bits.OnesCount32(x), bits.OnesCount32(o)
	if (nx < 4 || no < 4 || prev == 1) && !slidesOnly {
		// A drop: in the drop phase, or O's fourth piece into the move phase.
		for m := mover; m != 0; m &= m - 1 {
			dst = add(mover &^ (m & -m))
		}
	}
	if nx == 4 && no == 4 {
		empty := full &^ (x | o)
		for p := mover; p != 0; p &= p - 1 {
			to := p & -p
			for m := g.nbr[bits.TrailingZeros32(to)] & empty; m != 0; m &= m - 1 {
				dst = add(mover&^to | m&-m)
			}
		}
	}
	return dst
}

// Canonical returns the index of the image of s, under the 8 symmetries,
// whose sets read as the number X<<25 | O are smallest.
func (g Game) Canonical(s uint64) uint64 {
	x, o, turn := g.Position(s)
	bx, bo := g.canonicalSets(x, o)
	if bx == x && bo == o {
		return s
	}
	return g.Index(bx, bo, turn)
}

// canonicalIndex returns the index of the representative of the class of
// the position with X on x, O on o and the given player to move.
func (g Game) canonicalIndex(x, o uint32, turn uint64) uint64 {
	bx, bo := g.canonicalSets(x, o)
	return g.Index(bx, bo, turn)
}

// canonicalSets returns the image of the sets x and o, under the 8
// symmetries, that reads as the smallest X<<25 | O.
func (g Game) canonicalSets(x, o uint32) (uint32, uint32) {
	bx, bo := x, o
	for k := 1; k < 8; k++ {
		// X's image decides unless it ties: only then is O's needed.
		tx := g.sym[k].Apply(x)
		if tx > bx {
			continue
		}
		to := g.sym[k].Apply(o)
		if tx < bx || to < bo {
			bx, bo = tx, to
		}
	}
	return bx, bo
}

// IsCanonical reports whether s is its class's representative: no image
// of it reads smaller.
func (g Game) IsCanonical(s uint64) bool {
	x, o, _ := g.Position(s)
	for k := 1; k < 8; k++ {
		if tx := g.sym[k].Apply(x); tx < x || tx == x && g.sym[k].Apply(o) < o {
			return false
		}
	}
	return true
}

// Describe returns the board of s, rows of 'X', 'O' and '.', and whose turn
// it is ("X to move").
func (g Game) Describe(s uint64) string {
	x, o, turn := g.Position(s)
	return square.Describe(side, x, o, turn)
}

// ParsePosition returns the index of a position written as Describe writes
// it (rows may also be separated by '/'). In the drop phase the turn must
// agree with the piece counts.
func (g Game) ParsePosition(text string) (uint64, error) {
	x, o, turn, err := square.Parse(side, text)
	if err != nil {
		return 0, fmt.Errorf("teeko: %v", err)
	}
	nx, no := bits.OnesCount32(x), bits.OnesCount32(o)
	switch {
	case nx > 4 || no > 4:
		return 0, fmt.Errorf("teeko: %d X and %d O pieces: at most 4 each", nx, no)
	case nx < 4 || no < 4:
		if want := uint64(nx - no); nx-no != 0 && nx-no != 1 || turn != want {
			return 0, fmt.Errorf("teeko: %d X and %d O pieces with %s to move: in the drop phase X moves when the counts are equal",
				nx, no, [2]string{"X", "O"}[turn])
		}
	}
	return g.Index(x, o, turn), nil
}

var (
	_ implicit.Symmetric      = Game{}
	_ implicit.Notation       = Game{}
	_ implicit.Tiered         = Game{}
	_ implicit.CanonicalMover = Game{}
	_ implicit.ClassCounter   = Game{}
)
