// Package quixo is Quixo on an n x n board (n = 2 to 5) as an implicit,
// tiered game with the 8 symmetries of the square (docs/formats.md, section
// `quixo`).
//
// A position is the board, as two bit masks (X's cells and O's, bit
// r*n + c), and whose turn it is. A move never takes a cube off the board,
// so the index is cut into tiers by the cubes on it: tier {a, b}, a <= b,
// holds the boards where one colour has a cubes and the other b, both
// turns, the tiers in order of a+b then a. Within a tier, the boards with
// X on a cells come first (then, if a != b, those with X on b), each
// numbered as rank(X) * C(n*n - x, o) + rank(O among the cells X leaves
// free) with colexicographic ranks, times two plus the turn (0 for X, 1
// for O). That is 2 * 3^(n*n) indices, 86,093,442 for 4 x 4, the empty
// board with X to move first; a tier's moves reach itself (a cube taken
// from its owner's place) and the tiers with one cube more.
//
// Game itself plays on every board; implicit.Reduce(game) or a tiered
// solve keeps one board per symmetry class: a class holds a board's 8
// images under the symmetries of the square and the same 8 with the
// colours and the turn swapped, and its representative has X to move and
// the masks that, read as the number X<<32 | O, are smallest. The
// swapped images lie in the same tier, so each tier is closed under them.
package quixo

import (
	"fmt"
	"math/bits"
	"sort"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/square"
)

// MaxN is the largest side supported.
const MaxN = 5

// Game is Quixo on one board size, on the boards with at least MinCubes
// cubes (all of them, from the empty start, when it is 0). It implements
// implicit.Symmetric and implicit.Tiered and is safe for concurrent use.
type Game struct {
	n, cells int
	full     uint32
	minCubes int
	base     uint64 // the first index of the tiers kept, in the index of every board
	size     uint64
	lines    []uint32 // the 2n+2 full lines: rows, columns, diagonals
	moves    []move   // every (taken cell, end) pair of the rules
	// toEnd[c] holds the moves whose pushed cube lands on cell c (e): an
	// un-move's board has the mover's cube there, so unmoveList looks at
	// the moves of the mover's cells alone.
	toEnd [MaxN * MaxN][]move
	// fromCell[c] holds the moves that take cell c (v): moveClasses looks
	// at those of the cells that are not the opponent's alone.
	fromCell [MaxN * MaxN][]move
	sym16    *[8]square.Map16 // the symmetries for n <= 4, in small tables
	sym      *[8]square.Map   // for n = 5
	// lined, for n <= 4, has bit m set when the cells m hold a full line:
	// one lookup in 8 KiB instead of a loop over the lines.
	lined []uint64
	rank  square.Ranker
	// segs are the boards of each count (x, o) of cubes, in index order;
	// seg[x][o] the number of the segment of that count.
	segs  []segment
	seg   [MaxN*MaxN + 1][MaxN*MaxN + 1]int32
	tiers []implicit.Tier
	// hint[s >> hintShift] is the segment that holds the first index of
	// that stretch: Board looks from there.
	hint      []int32
	hintShift uint
	// classes, for n <= 4, number the classes without a ClassSet.
	classes *classTables
	border  uint32 // the border cells, which moves take
}

// segment is the boards with x X's and o O's: perX boards for each set of
// X's, two indices each (the turns), from offset.
type segment struct {
	x, o   int
	offset uint64
	perX   uint64
}

// move is taking border cell v and pushing the player's piece back in at the
// end e of a line through v: the cells seg (from e up to, not including, v)
// slide one step toward v.
type move struct {
	v, e  uint32 // single-bit masks
	seg   uint32
	moved uint32 // where seg's cubes go: up to and including v
	// The segment moves up bits toward the higher ones, or down toward
	// the lower (one of the two is 0): forward and back shift by both,
	// without a branch on the direction.
	up, down uint8
}

// forward moves the cubes of x on the segment's cells one step, as the
// move pushes them.
func (m *move) forward(x uint32) uint32 { return x << (m.up & 31) >> (m.down & 31) }

// back moves the cubes of x on the cells they were pushed to back one step.
func (m *move) back(x uint32) uint32 { return x << (m.down & 31) >> (m.up & 31) }

// play returns the mover's and the other player's cells after the mover,
// on me, makes move m (the cell v must not be the other's).
func (m *move) play(me, them uint32) (nm, nt uint32) {
	keep := ^(m.seg | m.v)
	return me&keep | m.forward(me&m.seg) | m.e, them&keep | m.forward(them&m.seg)
}

// New returns Quixo on an n x n board, n from 2 to 5, on every board.
func New(n int) (*Game, error) { return NewFrom(n, 0) }

// NewFrom returns Quixo on an n x n board restricted to the boards with at
// least minCubes cubes (a game of its own: no move lowers the count), so
// that the last tiers of a board too large to solve whole can be solved
// alone. With minCubes > 0 the empty start is not among its positions.
func NewFrom(n, minCubes int) (*Game, error) {
	if n < 2 || n > MaxN {
		return nil, fmt.Errorf("quixo: a %d x %d board is not supported (2 to %d)", n, n, MaxN)
	}
	if minCubes < 0 || minCubes > n*n {
		return nil, fmt.Errorf("quixo: at least %d cubes on a %d x %d board: want 0 to %d", minCubes, n, n, n*n)
	}
	g := &Game{n: n, cells: n * n, full: 1<<(n*n) - 1, minCubes: minCubes, rank: square.NewRanker()}
	if n <= 4 {
		g.sym16 = square.Symmetries16(n)
	} else {
		g.sym = square.Symmetries(n)
	}
	g.setTiers()
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
	if n <= 4 {
		g.setClasses()
		g.lined = make([]uint64, (1<<g.cells+63)/64)
		for m := range uint32(1) << g.cells {
			if g.scanLines(m) {
				g.lined[m/64] |= 1 << (m % 64)
			}
		}
	}

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
				if sign > 0 {
					m.up = uint8(step)
				} else {
					m.down = uint8(step)
				}
				for rr, cc := end[0], end[1]; rr != r || cc != c; rr, cc = rr+sign*dr, cc+sign*dc {
					m.seg |= bit(rr, cc)
				}
				m.moved = m.forward(m.seg)
				g.moves = append(g.moves, m)
				g.toEnd[bits.TrailingZeros32(m.e)] = append(g.toEnd[bits.TrailingZeros32(m.e)], m)
				g.fromCell[bits.TrailingZeros32(m.v)] = append(g.fromCell[bits.TrailingZeros32(m.v)], m)
				g.border |= m.v
			}
		}
	}
	return g, nil
}

// setTiers lays out the segments and tiers of the boards with at least
// minCubes cubes.
func (g *Game) setTiers() {
	var off uint64
	for c := g.minCubes; c <= g.cells; c++ {
		for a := 0; 2*a <= c; a++ {
			b := c - a
			t := implicit.Tier{Name: fmt.Sprintf("%d+%d cubes", a, b), Start: off}
			counts := [][2]int{{a, b}}
			if a != b {
				counts = append(counts, [2]int{b, a})
			}
			for _, xo := range counts {
				sg := segment{x: xo[0], o: xo[1], offset: off, perX: square.Binom[g.cells-xo[0]][xo[1]]}
				g.seg[sg.x][sg.o] = int32(len(g.segs))
				g.segs = append(g.segs, sg)
				off += 2 * square.Binom[g.cells][sg.x] * sg.perX
			}
			t.End = off
			g.tiers = append(g.tiers, t)
		}
	}
	g.size = off
	for g.hintShift = 0; g.size>>g.hintShift > 1<<12; g.hintShift++ {
	}
	g.hint = implicit.Buckets(len(g.segs), func(k int) uint64 { return g.segs[k].offset }, g.size, g.hintShift)
	// Children: {a+1, b} and {a, b+1}, which follow in the next count.
	for k := range g.tiers {
		a, b := g.segs[g.seg0(k)].x, g.segs[g.seg0(k)].o
		if a+b == g.cells {
			continue
		}
		for _, ab := range [2][2]int{{a + 1, b}, {a, b + 1}} {
			c := g.tierOfCount(ab[0], ab[1])
			if len(g.tiers[k].Children) == 0 || g.tiers[k].Children[0] != c {
				g.tiers[k].Children = append(g.tiers[k].Children, c)
			}
		}
	}
}

// seg0 returns the first segment of tier k.
func (g *Game) seg0(k int) int {
	return sort.Search(len(g.segs), func(i int) bool { return g.segs[i].offset >= g.tiers[k].Start })
}

// tierOfCount returns the tier of the boards with x and o cubes.
func (g *Game) tierOfCount(x, o int) int {
	return implicit.TierOf(g.tiers, g.segs[g.seg[x][o]].offset)
}

// Tiers returns the tiers, by the cubes on the board.
func (g *Game) Tiers() []implicit.Tier { return g.tiers }

// MinCubes returns the fewest cubes of the game's boards.
func (g *Game) MinCubes() int { return g.minCubes }

// N returns the side of the board.
func (g *Game) N() int { return g.n }

// Index returns the index of the board with X on x and O on o, player to
// move 0 (X) or 1 (O). The board must have at least MinCubes cubes.
func (g *Game) Index(x, o uint32, turn uint64) uint64 {
	sg := &g.segs[g.seg[bits.OnesCount32(x)][bits.OnesCount32(o)]]
	var r uint64
	if g.cells <= 16 {
		r = g.rank.Rank16(x)*sg.perX + g.rank.Rank16(g.rank.Compress16(o, ^x))
	} else {
		r = g.rank.Rank(x)*sg.perX + g.rank.Rank(g.rank.Compress(o, ^x))
	}
	return sg.offset + r<<1 | turn
}

// segment returns the segment that holds index s.
func (g *Game) segment(s uint64) *segment { return &g.segs[g.segmentOf(s)] }

// segmentOf returns the number of the segment that holds index s.
func (g *Game) segmentOf(s uint64) int {
	k := int(g.hint[s>>g.hintShift])
	for k+1 < len(g.segs) && g.segs[k+1].offset <= s {
		k++
	}
	return k
}

// Board returns the masks and turn of index s.
func (g *Game) Board(s uint64) (x, o uint32, turn uint64) {
	sg := g.segment(s)
	r := (s - sg.offset) >> 1
	var rx, ro uint64
	if g.cells <= 16 {
		// Below 3^16 boards: a 32-bit division, several times faster.
		rx, ro = uint64(uint32(r)/uint32(sg.perX)), uint64(uint32(r)%uint32(sg.perX))
	} else {
		rx, ro = r/sg.perX, r%sg.perX
	}
	x = g.rank.Unrank(sg.x, g.cells, rx)
	o = g.expand(g.rank.Unrank(sg.o, g.cells-sg.x, ro), ^x)
	return x, o, s & 1
}

// expand places the set c, numbered among the cells free, on the board.
func (g *Game) expand(c, free uint32) uint32 {
	if g.cells <= 16 {
		return g.rank.Expand16(c, free)
	}
	return g.rank.Expand(c, free)
}

// Start returns the index of the empty board, X to move. With MinCubes >
// 0 there is no such board: see HasStart.
func (g *Game) Start() uint64 { return 0 }

// HasStart reports whether the empty board is among the game's positions.
func (g *Game) HasStart() bool { return g.minCubes == 0 }

// Size returns 2 * 3^(n*n) for the whole game: two turns of every board.
func (g *Game) Size() uint64 { return g.size }

// MaxMoves returns 4(3n-4): 2 moves from each corner, 3 from other border
// cells.
func (g *Game) MaxMoves() uint64 { return uint64(len(g.moves)) }

// hasLine reports whether the cells m hold a full line.
func (g *Game) hasLine(m uint32) bool {
	if g.lined != nil {
		return g.lined[m/64]>>(m%64)&1 != 0
	}
	return g.scanLines(m)
}

func (g *Game) scanLines(m uint32) bool {
	for _, l := range g.lines {
		if m&l == l {
			return true
		}
	}
	return false
}

// Classify applies the rule (docs/formats.md): with a full line of its own the
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

// Moves appends the boards one move away from s, one per (cell, end) pair of
// the rules (different pairs may give the same board).
func (g *Game) Moves(s uint64, dst []uint64) []uint64 { return g.moveList(s, dst, indices) }

// CanonicalMoves appends the representatives of the classes of Moves(s),
// in the same order.
func (g *Game) CanonicalMoves(s uint64, dst []uint64) []uint64 {
	return g.moveList(s, dst, representatives)
}

// moveList is Moves, CanonicalMoves or ClassMoves, as form says: the next
// player's pieces and the mover's, read as X's and O's with X to move, are
// the colours swapped of the board with the next player to move.
func (g *Game) moveList(s uint64, dst []uint64, form int) []uint64 {
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
		nm, nt := m.play(me, them)
		switch {
		case form == classNumbers:
			dst = append(dst, g.classOf(nt, nm))
		case form == representatives:
			dst = append(dst, g.canonical(nt, nm))
		case turn == 0:
			dst = append(dst, g.Index(nm, nt, 1))
		default:
			dst = append(dst, g.Index(nt, nm, 0))
		}
	}
	return dst
}

// Unmoves appends the boards one move before t that were not over: for each
// (cell, end) pair whose end holds the last mover's piece, the segment slides
// back, and the taken cell held either nothing or the mover's piece.
func (g *Game) Unmoves(t uint64, dst []uint64) []uint64 { return g.unmoveList(t, dst, indices, false) }

// CanonicalUnmoves appends the representatives of the classes of
// Unmoves(t), in the same order.
func (g *Game) CanonicalUnmoves(t uint64, dst []uint64) []uint64 {
	return g.unmoveList(t, dst, representatives, false)
}

// TierUnmoves appends the un-moves of t in its own tier, those where the
// taken cell held the mover's piece (implicit.TierUnmover): with canonical,
// their representatives.
func (g *Game) TierUnmoves(t uint64, canonical bool, dst []uint64) []uint64 {
	if canonical {
		return g.unmoveList(t, dst, representatives, true)
	}
	return g.unmoveList(t, dst, indices, true)
}

// The forms in which unmoveList lists un-moves.
const (
	indices         = iota // the boards' indices (Unmoves)
	representatives        // their representatives' indices (CanonicalUnmoves)
	classNumbers           // their classes' numbers (ClassMoves)
	classKeys              // their representatives' masks, X<<32 | O (ClassUnmoves, CountClassUnmoves)
)

// unmoveList is Unmoves or CanonicalUnmoves, or the keys that ClassUnmoves
// numbers and CountClassUnmoves counts, as form says; with within, only
// the un-moves that keep the cubes on the board.
func (g *Game) unmoveList(t uint64, dst []uint64, form int, within bool) []uint64 {
	x, o, turn := g.Board(t)
	prev := turn ^ 1 // the player who just moved
	mover, other := x, o
	if prev == 1 {
		mover, other = o, x
	}
	// The taken cell held the mover's cube (took 1) or nothing (took 0),
	// the latter from a board one cube short, if the game keeps it.
	first := uint32(1)
	if bits.OnesCount32(x|o)-1 >= g.minCubes && !within {
		first = 0
	}
	for ends := mover & g.border; ends != 0; ends &= ends - 1 {
		to := g.toEnd[bits.TrailingZeros32(ends)]
		for i := range to {
			m := &to[i]
			keep := ^(m.seg | m.v)
			pm := mover&keep | m.back(mover&m.moved)
			po := other&keep | m.back(other&m.moved)
			// The board before, the mover to move, is Inner if neither side
			// has a line (classify): the other's cubes are the same in both.
			if g.hasLine(po) {
				continue
			}
			for took := first; took < 2; took++ {
				pm2 := pm | m.v&-took
				if g.hasLine(pm2) {
					continue
				}
				if form != indices {
					if form == classKeys {
						dst = append(dst, g.canonicalKey(pm2, po))
					} else {
						dst = append(dst, g.canonical(pm2, po))
					}
					continue
				}
				px, po2 := pm2, po
				if prev == 1 {
					px, po2 = po, pm2
				}
				dst = append(dst, g.Index(px, po2, prev))
			}
		}
	}
	return dst
}

// image returns the image of the set m under symmetry k.
func (g *Game) image(k int, m uint32) uint32 {
	if g.sym16 != nil {
		return g.sym16[k].Apply(m)
	}
	return g.sym[k].Apply(m)
}

// Canonical returns the representative of s's class: the players' colours
// swapped if O is to move (the rules treat both alike, so a board with O to
// move plays as its mirror image in colours with X to move), then the image
// under the 8 symmetries of the square whose masks read as X<<32 | O are
// smallest. Representatives always have X to move.
func (g *Game) Canonical(s uint64) uint64 {
	x, o, turn := g.Board(s)
	if turn == 1 {
		x, o = o, x
	}
	return g.canonical(x, o)
}

// canonical returns the representative of the class of the board with X
// on x and O on o, X to move.
func (g *Game) canonical(x, o uint32) uint64 {
	key := g.canonicalKey(x, o)
	return g.Index(uint32(key>>32), uint32(key), 0)
}

// canonicalKey returns the masks of the representative of the class of the
// board with X on x and O on o, X to move, as X<<32 | O.
func (g *Game) canonicalKey(x, o uint32) uint64 {
	if g.classes != nil {
		// The symmetry that takes x to its smallest image takes the board
		// to its representative, unless that image is symmetric.
		if t := g.classes.toMinimal[x]; t&symmetricImage == 0 {
			m := &g.sym16[t]
			return uint64(m.Apply(x))<<32 | uint64(m.Apply(o))
		}
	}
	if g.n == 4 {
		best := smallest4(x<<16 | o)
		return uint64(best>>16)<<32 | uint64(best&0xffff)
	}
	best := uint64(x)<<32 | uint64(o)
	for k := 1; k < 8; k++ {
		if key := uint64(g.image(k, x))<<32 | uint64(g.image(k, o)); key < best {
			best = key
		}
	}
	return best
}

// ProbeMoves returns Classify(s) and, for an Inner s, whether the player
// to move has a move: a border cell that is not the opponent's (Compact
// passes it on as implicit.MoveProberOf's probe).
func (g *Game) ProbeMoves(s uint64) (implicit.Kind, bool) {
	k, _, them := g.classifySides(s)
	return k, k == implicit.Inner && g.border&^them != 0
}

// classifySides returns the kind of s and its cubes: the player to move's,
// then the other's.
func (g *Game) classifySides(s uint64) (k implicit.Kind, me, them uint32) {
	x, o, turn := g.Board(s)
	k = g.classify(x, o, turn)
	if turn == 1 {
		x, o = o, x
	}
	return k, x, o
}

// ClassifyClasses returns the kind of s and, if it is Inner, the number of
// distinct classes its moves reach, counted on their representatives'
// masks without numbering them (implicit.ClassCounter): a solve over the
// classes starts from these counts.
func (g *Game) ClassifyClasses(s uint64) (implicit.Kind, uint64) {
	k, me, them := g.classifySides(s)
	if k != implicit.Inner {
		return k, 0
	}
	n, _ := g.moveClasses(me, them, everyMove, nil)
	return implicit.Inner, n
}

// What moveClasses looks at of a board's moves: every one (a game not
// solved by tiers), or of a tier's, those inside it, those out of it, or
// both.
type classListing uint8

const (
	everyMove  classListing = iota // counted
	tierBoth                       // those inside counted, the others numbered
	tierExits                      // those out of the tier numbered
	tierInside                     // those inside counted
)

// moveClasses returns the number of distinct classes that the moves of
// the player on me reach, counted on their representatives' masks; in a
// tier (how), of those in the board's tier only (a move that takes one of
// the mover's cubes), the class numbers of the others appended to exits.
func (g *Game) moveClasses(me, them uint32, how classListing, exits []uint64) (uint64, []uint64) {
	var buf [4 * (3*MaxN - 4)]uint64
	keys := buf[:0]
	for vs := g.border &^ them; vs != 0; vs &= vs - 1 {
		from := g.fromCell[bits.TrailingZeros32(vs)]
		exit := how != everyMove && me&vs&-vs == 0 // a blank taken: the tier's count goes up
		if exit && how == tierInside || !exit && how == tierExits {
			continue
		}
		for i := range from {
			nm, nt := from[i].play(me, them)
			key := g.canonicalKey(nt, nm)
			if exit {
				exits = append(exits, g.class(uint32(key>>32), uint32(key)))
				continue
			}
			keys = append(keys, key)
		}
	}
	return uint64(len(implicit.Distinct(keys))), exits
}

// smallest4 returns the smallest of the 8 images under the symmetries of
// the 4 x 4 square of a pair of boards packed in one word, X's cells in
// the high 16 bits and O's in the low (so that the word's order is that of
// X<<32 | O): each row is a nibble of each half, so a flip and the
// transposition are a few shifts and masks on both boards at once, where
// the tables cost two lookups per board and symmetry. Two images travel
// in one 64-bit word, so that the 8 take one column flip, one row flip
// and two transpositions.
func smallest4(p uint32) uint32 {
	a := uint64(p) | uint64(flipColumns4(p))<<32 // identity, columns flipped
	b := flipRows4(a)                            // rows flipped, both flipped
	c, d := transpose4(a), transpose4(b)
	lo := min(uint32(a), uint32(b), uint32(c), uint32(d))
	hi := min(uint32(a>>32), uint32(b>>32), uint32(c>>32), uint32(d>>32))
	return min(lo, hi)
}

// flipRows4 maps row r to row 3-r in each 16-bit board of p: the nibbles
// of each half reversed.
func flipRows4(p uint64) uint64 {
	p = p&0x00ff00ff00ff00ff<<8 | p>>8&0x00ff00ff00ff00ff
	return p&0x0f0f0f0f0f0f0f0f<<4 | p>>4&0x0f0f0f0f0f0f0f0f
}

// flipColumns4 maps column c to column 3-c: the bits of each nibble
// reversed.
func flipColumns4(p uint32) uint32 {
	p = p&0x33333333<<2 | p>>2&0x33333333
	return p&0x55555555<<1 | p>>1&0x55555555
}

// transpose4 maps cell (r, c) to (c, r) in each 16-bit board of p: the
// cells of each 2 x 2 block off its diagonal swap (bit 4r+c with 4r+c+3),
// then the 2 x 2 blocks off the board's diagonal (bit 4r+c with 4r+c+6).
func transpose4(p uint64) uint64 {
	t := (p ^ p>>3) & 0x0a0a0a0a0a0a0a0a
	p ^= t ^ t<<3
	t = (p ^ p>>6) & 0x00cc00cc00cc00cc
	return p ^ t ^ t<<6
}

// IsCanonical reports whether s is its class's representative: X is to
// move and no image of it reads smaller.
func (g *Game) IsCanonical(s uint64) bool {
	if s&1 != 0 {
		return false
	}
	x, o, _ := g.Board(s)
	return g.canonicalBoard(x, o)
}

// canonicalBoard reports whether the board with X on x and O on o, X to
// move, is its class's representative.
func (g *Game) canonicalBoard(x, o uint32) bool {
	if g.n == 4 {
		return smallest4(x<<16|o) == x<<16|o
	}
	key := uint64(x)<<32 | uint64(o)
	for k := 1; k < 8; k++ {
		if uint64(g.image(k, x))<<32|uint64(g.image(k, o)) < key {
			return false
		}
	}
	return true
}

// MarkCanonical sets bit s-from of words for each canonical s in [from,
// to) (implicit.CanonicalMarker): it decodes the first board and then
// walks the boards in index order, the O cells counting up under each set
// of X cells, with no division per board.
func (g *Game) MarkCanonical(from, to uint64, words []uint64) {
	if g.classes != nil {
		g.markClasses(from, to, words)
		return
	}
	s := from + from&1 // X to move: the even indices
	for s < to {
		sg := g.segment(s)
		xSets := square.Binom[g.cells][sg.x]
		end := min(to, sg.offset+2*xSets*sg.perX)
		r := (s - sg.offset) >> 1
		rx, ro := r/sg.perX, r%sg.perX
		x := g.rank.Unrank(sg.x, g.cells, rx)
		for ; s < end; s += 2 {
			o := g.expand(g.rank.Unrank(sg.o, g.cells-sg.x, ro), ^x)
			if g.canonicalBoard(x, o) {
				words[(s-from)/64] |= 1 << ((s - from) % 64)
			}
			if ro++; ro == sg.perX && rx+1 < xSets {
				ro, rx = 0, rx+1
				x = g.rank.Unrank(sg.x, g.cells, rx)
			}
		}
	}
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
	if c := bits.OnesCount32(x | o); c < g.minCubes {
		return 0, fmt.Errorf("quixo: the board has %d cubes; this game keeps the boards with at least %d", c, g.minCubes)
	}
	return g.Index(x, o, turn), nil
}

var (
	_ implicit.Symmetric       = (*Game)(nil)
	_ implicit.Notation        = (*Game)(nil)
	_ implicit.Tiered          = (*Game)(nil)
	_ implicit.CanonicalMover  = (*Game)(nil)
	_ implicit.ClassCounter    = (*Game)(nil)
	_ implicit.CanonicalMarker = (*Game)(nil)
	_ implicit.ClassNumberer   = (*Game)(nil)
	_ implicit.Sizer           = (*Game)(nil)
)
