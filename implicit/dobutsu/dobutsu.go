// Package dobutsu is Dōbutsu shōgi ("Let's Catch the Lion!", docs/formats.md,
// section `dobutsu`) as an implicit game: a 3 x 4 board, two lions, two
// giraffes, two elephants and two chicks (hens once promoted), captures into
// the captor's hand, drops, and repetition draws.
//
// # Positions as the player to move sees them
//
// A position is always seen by the player to move: their pieces are "ours"
// (side 0), they move up the board (towards row 1, the opponent's home row),
// and a move is followed by a 180-degree turn of the board with the colours
// swapped, so that the opponent becomes side 0. The colour swap with the turn
// is a symmetry of the game, so a position and its turned image with the
// other player to move share their value and depth: the index holds one of
// them, as Sente to move. Left-right mirroring is the other symmetry: the
// index holds one of each mirror pair (Mirror in Config).
//
// # The index
//
// Squares are numbered 0 to 11, row by row from a1 (the top-left corner,
// row 1 being the opponent's home row) to c4. An index is a lion class and a
// placement of the other pieces:
//
//   - The lion class is the pair (our lion's square, theirs), one of each
//     mirror pair, or, after our lion was captured, their lion's square
//     alone (a terminal loss for us). Positions where their lion is missing
//     cannot occur: the player who just moved still has a lion.
//   - The other pieces, kind by kind (giraffes, elephants, chicks): how many
//     of the two are on the board (0, 1 or 2), on which of the squares the
//     lions and earlier kinds leave free (a colex rank of the set), with an
//     owner for each (and promoted or not for chicks), and how the others
//     split between the two hands (0, 1 or 2 in ours). Two pieces of a kind
//     and owner are interchangeable, so each set of squares counts once.
//
// Every index is a position, except, for the 12 lion pairs in the middle
// column that are their own mirror image (and the 4 such squares of a lone
// lion), the one of each mirror pair of placements that is not the smaller:
// 1,038,408,432 indices for 921,476,208 positions (88.7%). Without
// mirroring, the indices with both lions number 1,567,925,964: every
// position with the player to move as Sente, the count Tanaka's 2009
// analysis gives for the game.
//
// # Taking the lion
//
// A player who can take the opponent's lion has one move only: taking it
// (each capture of the lion, if several pieces can). Taking it wins at once,
// so such a position is a win in 1 whatever its other moves, and every
// value and depth is the same as with every move kept (the tests check it
// against a naive solver that keeps them all). It spares the solver those
// moves and their un-moves, and makes the positions reachable from the
// start the ones the published count counts: 246,803,167 up to symmetry.
package dobutsu

import (
	"fmt"
	"math/bits"
	"strings"
	"sync"

	"github.com/retro-solver/retro/implicit"
)

const (
	rows    = 4
	cols    = 3
	squares = rows * cols
	all     = 1<<squares - 1
)

// Piece kinds. The first three are also the kinds of the hands: a captured
// hen goes to hand as a chick.
const (
	giraffe = iota
	elephant
	chick
	hen
	lion
	handKinds = 3
)

// letters are the pieces' letters for side 0 (Sente, upper case); side 1
// writes them in lower case.
const letters = "GECHL"

// Config says which Dōbutsu shōgi to play.
type Config struct {
	// Kinds lists the kinds of pieces besides the lions, each as a pair
	// (one per player at the start), from "GEC": "GEC" is the real game,
	// "C" lions and chicks only, a small game for tests.
	Kinds string
	// Mirror keeps one position of each left-right mirror pair in the
	// index, halving it.
	Mirror bool
}

// Game is Dōbutsu shōgi. It implements implicit.Game, ClassifyCounter,
// Notation, Starter and PositionCounter, and is safe for concurrent use.
type Game struct {
	cfg    Config
	kinds  []int // the kinds in play besides lions, in index order
	mirror bool
	// The lion classes: both lions on the board first, nBoth of them with
	// perBoth placements each, then our lion captured, with perLone each.
	classOf  [squares + 1][squares]int16 // [our lion+1][their lion]: class, or -1 if the mirror is kept
	classes  []lionClass
	nBoth    uint64
	perBoth  uint64
	perLone  uint64
	size     uint64
	restFree [2]restTable // [0]: 10 free squares (two lions), [1]: 11 (one)
}

// lionClass is one lion placement of the index.
type lionClass struct {
	ours, theirs int8 // squares; ours is -1 once our lion was captured
	selfMirror   bool // the placement is its own mirror image
}

// restTable ranks the other pieces on a given number of free squares: one
// block of indices per composition (how many of each kind are on the
// board), in order.
type restTable struct {
	free   int
	offset []uint64      // offset[comp]: the first rank of composition comp, then the total
	comps  []composition // comps[comp]: the kinds' counts on the board
}

// composition is how many pieces of each kind in play are on the board,
// and how many squares are free before each kind is placed.
type composition struct {
	n, free [handKinds]uint8
}

// The tables every Game shares.
var (
	step     [5][squares]uint16 // step[kind][sq]: where side 0's piece on sq may step
	from     [5][squares]uint16 // from[kind][sq]: where side 0's piece of kind steps to sq from
	mirror12 [1 << squares]uint16
	unpair   [66][2]uint8 // unpair[r]: the 2-set of colex rank r
	// statesOf[kind][f][k] = states(kind, f, k), for the hand kinds.
	statesOf [handKinds][squares + 1][3]uint32
	// unrank[chick?][k][rk]: a kind's rank among its states with k pieces
	// on the board, taken apart (see rest).
	unrank [2][3][]kindState
	// select8[b][k]: the k-th set bit of byte b.
	select8 [256][8]uint8
)

// kindState is one state of a kind's pair: the relative positions of its
// pieces on the board among the free squares, their attributes (owner, and
// promoted for chicks: 2 bits each, first piece lowest), and how many are
// in our hand.
type kindState struct {
	pos  [2]uint8
	attr uint8
	hand uint8
}

var setup = sync.OnceFunc(func() {
	for b := range 256 {
		k := 0
		for i := range 8 {
			if b>>i&1 != 0 {
				select8[b][k] = uint8(i)
				k++
			}
		}
	}
	r := 0
	for hi := 1; hi < squares; hi++ {
		for lo := 0; lo < hi; lo++ {
			unpair[r] = [2]uint8{uint8(lo), uint8(hi)}
			r++
		}
	}
	type d struct{ dr, dc int }
	orth := []d{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}
	diag := []d{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}
	dirs := [5][]d{
		giraffe:  orth,
		elephant: diag,
		chick:    {{-1, 0}},
		hen:      append(append([]d{}, orth...), d{-1, -1}, d{-1, 1}),
		lion:     append(append([]d{}, orth...), diag...),
	}
	for k, ds := range dirs {
		for sq := range squares {
			r, c := sq/cols, sq%cols
			for _, v := range ds {
				if nr, nc := r+v.dr, c+v.dc; nr >= 0 && nr < rows && nc >= 0 && nc < cols {
					to := nr*cols + nc
					step[k][sq] |= 1 << to
					from[k][to] |= 1 << sq
				}
			}
		}
	}
	for m := range 1 << squares {
		var x uint16
		for sq := range squares {
			if m>>sq&1 != 0 {
				x |= 1 << mirrorSq(sq)
			}
		}
		mirror12[m] = x
	}
	for k := range handKinds {
		for f := range squares + 1 {
			for n := range 3 {
				statesOf[k][f][n] = uint32(states(k, f, n))
			}
		}
	}
	for c, a := range [2]int{2, 4} {
		for n := range 3 {
			// The most states: the pair's sets among 12 squares.
			per := 1
			for range n {
				per *= a
			}
			for rk := range int(binom[squares][n]) * per * (3 - n) {
				st := kindState{hand: uint8(rk % (3 - n))}
				x := rk / (3 - n)
				comb, attr := x/per, x%per
				for j := range n {
					st.attr |= uint8(attr%a) << (2 * j)
					attr /= a
				}
				switch n {
				case 1:
					st.pos[0] = uint8(comb)
				case 2:
					st.pos = unpair[comb]
				}
				unrank[c][n] = append(unrank[c][n], st)
			}
		}
	}
})

func mirrorSq(sq int) int { return sq - sq%cols + cols - 1 - sq%cols }

// rotate turns a set of squares by 180 degrees.
func rotate(m uint16) uint16 { return bits.Reverse16(m) >> (16 - squares) }

// attrs is the number of states of one piece of a kind on the board: its
// owner, and for chicks whether it is promoted.
func attrs(kind int) uint64 {
	if kind == chick {
		return 4
	}
	return 2
}

var binom = func() (b [squares + 1][3]uint64) {
	for n := range squares + 1 {
		b[n][0] = 1
		if n >= 1 {
			b[n][1] = uint64(n)
		}
		b[n][2] = uint64(n * (n - 1) / 2)
	}
	return
}()

// states returns the number of states of a kind with k of its two pieces on
// f free squares: the set of squares, each one's attributes, and the hand
// split of the others.
func states(kind, f, k int) uint64 {
	n := binom[f][k] * uint64(3-k)
	for range k {
		n *= attrs(kind)
	}
	return n
}

// New returns the game c describes.
func New(c Config) (*Game, error) {
	setup()
	g := &Game{cfg: c, mirror: c.Mirror}
	seen := 0
	for _, ch := range c.Kinds {
		k := strings.IndexRune("GEC", ch)
		if k < 0 || seen>>k&1 != 0 {
			return nil, fmt.Errorf("dobutsu: pieces %q: want distinct letters from \"GEC\"", c.Kinds)
		}
		seen |= 1 << k
	}
	for k := range handKinds {
		if seen>>k&1 != 0 {
			g.kinds = append(g.kinds, k)
		}
	}
	for i, f := range [2]int{squares - 2, squares - 1} {
		g.restFree[i] = g.newRestTable(f)
	}
	g.perBoth, g.perLone = g.restFree[0].size(), g.restFree[1].size()
	for o := -1; o < squares; o++ {
		for t := range squares {
			g.classOf[o+1][t] = -1
		}
	}
	add := func(o, t int) {
		mo, mt := o, mirrorSq(t)
		if o >= 0 {
			mo = mirrorSq(o)
		}
		if g.mirror && [2]int{mo, mt} != [2]int{o, t} && g.classOf[mo+1][mt] >= 0 {
			return // its mirror image is the class
		}
		g.classOf[o+1][t] = int16(len(g.classes))
		g.classes = append(g.classes, lionClass{ours: int8(o), theirs: int8(t), selfMirror: g.mirror && mo == o && mt == t})
	}
	for o := range squares {
		for t := range squares {
			if o != t {
				add(o, t)
			}
		}
	}
	g.nBoth = uint64(len(g.classes))
	for t := range squares {
		add(-1, t)
	}
	g.size = g.nBoth*g.perBoth + (uint64(len(g.classes))-g.nBoth)*g.perLone
	return g, nil
}

func (g *Game) newRestTable(f int) restTable {
	t := restTable{free: f}
	var walk func(i, free int, n uint64, c composition)
	total := uint64(0)
	// Compositions in the order comp = sum of k_i * 3^(len-1-i).
	walk = func(i, free int, n uint64, c composition) {
		if i == len(g.kinds) {
			t.offset = append(t.offset, total)
			t.comps = append(t.comps, c)
			total += n
			return
		}
		for k := range 3 {
			c.n[i], c.free[i] = uint8(k), uint8(free)
			walk(i+1, free-k, n*states(g.kinds[i], free, k), c)
		}
	}
	walk(0, f, 1, composition{})
	t.offset = append(t.offset, total)
	return t
}

func (t *restTable) size() uint64 { return t.offset[len(t.offset)-1] }

// Size returns the number of indices.
func (g *Game) Size() uint64 { return g.size }

// MaxMoves bounds the moves of a position: the lion's 8 steps, each piece's
// steps, and a drop of each kind on each of up to 10 empty squares.
func (g *Game) MaxMoves() uint64 {
	n := uint64(8)
	for range g.kinds {
		n += 2*6 + 10 // a hen's 6 steps bound every kind's
	}
	return n
}

// position is a position as the player to move (side 0) sees it.
type position struct {
	side [2]uint16          // squares of each side's pieces, lions included
	lion [2]int8            // each side's lion's square; side 0's is -1 once captured
	kind [4]uint16          // squares of the giraffes, elephants, chicks and hens of both sides
	hand [2][handKinds]int8 // pieces in hand, [side][giraffe, elephant, chick]
}

// lions returns the squares of the lions on the board.
func (p *position) lions() uint16 {
	m := uint16(1) << p.lion[1]
	if p.lion[0] >= 0 {
		m |= 1 << p.lion[0]
	}
	return m
}

// occupied returns the squares holding a piece.
func (p *position) occupied() uint16 { return p.side[0] | p.side[1] }

// flip returns the position as the other side sees it: the board turned by
// 180 degrees and the colours swapped.
func (p *position) flip() position {
	q := position{
		side: [2]uint16{rotate(p.side[1]), rotate(p.side[0])},
		lion: [2]int8{rotateSq(p.lion[1]), rotateSq(p.lion[0])},
		hand: [2][handKinds]int8{p.hand[1], p.hand[0]},
	}
	for k, m := range p.kind {
		q.kind[k] = rotate(m)
	}
	return q
}

func rotateSq(sq int8) int8 {
	if sq < 0 {
		return sq
	}
	return squares - 1 - sq
}

// mirrored returns the position's left-right mirror image.
func (p *position) mirrored() position {
	q := position{side: [2]uint16{mirror12[p.side[0]], mirror12[p.side[1]]}, hand: p.hand}
	for i, sq := range p.lion {
		q.lion[i] = sq
		if sq >= 0 {
			q.lion[i] = int8(mirrorSq(int(sq)))
		}
	}
	for k, m := range p.kind {
		q.kind[k] = mirror12[m]
	}
	return q
}

// pieceAt returns the kind of the non-lion piece on sq.
func (p *position) pieceAt(sq int8) int {
	b := uint16(1) << sq
	for k, m := range p.kind {
		if m&b != 0 {
			return k
		}
	}
	return lion
}

// piece is a piece of the board: its square and kind.
type piece struct {
	sq   int8
	kind int
}

// lionTakers returns side 0's pieces that can take their lion, out[:n]:
// those of the lion's neighbours that step onto its square. (An array, not
// a slice: the hot paths that call it allocate nothing.)
func (p *position) lionTakers() (out [8]piece, n int) {
	for m := from[lion][p.lion[1]] & p.side[0]; m != 0; m &= m - 1 {
		y := int8(bits.TrailingZeros16(m))
		if k := p.pieceOn(y); from[k][p.lion[1]]>>y&1 != 0 {
			out[n] = piece{y, k}
			n++
		}
	}
	return out, n
}

// pieceOn returns the kind of the piece on sq, the lions included.
func (p *position) pieceOn(sq int8) int {
	if p.lion[0] == sq || p.lion[1] == sq {
		return lion
	}
	return p.pieceAt(sq)
}

// attacked reports whether a piece of side 0 could step onto sq.
func (p *position) attacked(sq int8) bool {
	if p.lion[0] >= 0 && from[lion][sq]>>p.lion[0]&1 != 0 {
		return true
	}
	for k, m := range p.kind {
		if from[k][sq]&m&p.side[0] != 0 {
			return true
		}
	}
	return false
}

// classify returns the game's classification of p, side 0 to move.
func (p *position) classify() implicit.Kind {
	switch {
	case p.lion[0] < 0:
		return implicit.TerminalLoss // our lion was captured
	case p.lion[0] < cols:
		return implicit.TerminalWin // our lion reached their home row and survived
	case p.lion[1] >= squares-cols && !p.attacked(p.lion[1]):
		return implicit.TerminalLoss // theirs reached ours and cannot be taken
	}
	return implicit.Inner
}

// index returns the index of p (side 0 to move), or of its mirror image,
// whichever the index keeps.
func (g *Game) index(p *position) uint64 {
	c := g.classOf[p.lion[0]+1][p.lion[1]]
	if c < 0 {
		m := p.mirrored()
		return g.index(&m)
	}
	base, rt := g.classBase(int(c))
	r := g.rest(p, rt)
	if g.classes[c].selfMirror {
		m := p.mirrored()
		r = min(r, g.rest(&m, rt))
	}
	return base + r
}

// classBase returns the first index of lion class c and the table ranking
// the rest of its positions.
func (g *Game) classBase(c int) (uint64, *restTable) {
	if uint64(c) < g.nBoth {
		return uint64(c) * g.perBoth, &g.restFree[0]
	}
	return g.nBoth*g.perBoth + (uint64(c)-g.nBoth)*g.perLone, &g.restFree[1]
}

// boardSet returns the squares of a hand kind's pieces on the board.
func (p *position) boardSet(k int) uint16 {
	if k == chick {
		return p.kind[chick] | p.kind[hen]
	}
	return p.kind[k]
}

// rest ranks the pieces other than the lions: kind by kind, the rank of
// the kind's state (its set of squares among the free ones, colex; its
// pieces' attributes; our hand's count) in a mixed radix, after the offset
// of the composition.
func (g *Game) rest(p *position, rt *restTable) uint64 {
	free := all &^ p.lions()
	f := rt.free
	var comp int
	var r uint64
	for _, k := range g.kinds {
		set := p.boardSet(k)
		n := bits.OnesCount16(set)
		a := attrs(k)
		var comb, attr uint64
		mul := uint64(1)
		for i, m := 0, set; m != 0; i, m = i+1, m&(m-1) {
			sq := bits.TrailingZeros16(m)
			pos := uint64(bits.OnesCount16(free & (1<<sq - 1)))
			comb += binom[pos][i+1]
			at := uint64(p.side[1] >> sq & 1)
			if k == chick {
				at = at<<1 | uint64(p.kind[hen]>>sq&1)
			}
			attr += at * mul
			mul *= a
		}
		rk := (comb*mul+attr)*uint64(3-n) + uint64(p.hand[0][k])
		r = r*uint64(statesOf[k][f][n]) + rk
		comp = comp*3 + n
		free &^= set
		f -= n
	}
	return rt.offset[comp] + r
}

// decode returns the position at index s, and whether s is the index of a
// position: false for the mirror images the index does not keep.
func (g *Game) decode(s uint64) (position, bool) {
	// Indices are below 2^32 (1,842,690,096 without mirroring): 32-bit
	// divisions are the faster.
	var c int
	var r uint64
	if both := uint32(g.nBoth * g.perBoth); uint32(s) < both {
		c, r = int(uint32(s)/uint32(g.perBoth)), uint64(uint32(s)%uint32(g.perBoth))
	} else {
		x := uint32(s) - both
		c, r = int(g.nBoth)+int(x/uint32(g.perLone)), uint64(x%uint32(g.perLone))
	}
	lc := g.classes[c]
	_, rt := g.classBase(c)
	var p position
	p.lion = [2]int8{lc.ours, lc.theirs}
	p.side[1] = 1 << lc.theirs
	if lc.ours >= 0 {
		p.side[0] = 1 << lc.ours
	}
	// The composition: the last offset not above r (the later ones, with
	// more pieces on the board, hold most positions).
	comp := len(rt.offset) - 2
	for rt.offset[comp] > r {
		comp--
	}
	cp := &rt.comps[comp]
	x := uint32(r - rt.offset[comp]) // below 2^32: a class has 22,897,011 placements at most
	var rks [handKinds]uint32
	for i := len(g.kinds) - 1; i > 0; i-- {
		st := statesOf[g.kinds[i]][cp.free[i]][cp.n[i]]
		rks[i], x = x%st, x/st
	}
	rks[0] = x
	free := all &^ p.lions()
	for i, k := range g.kinds {
		n := int(cp.n[i])
		ks := &unrank[k/chick][n][rks[i]]
		p.hand[0][k] = int8(ks.hand)
		p.hand[1][k] = int8(2-n) - int8(ks.hand)
		for j := range n {
			sq := selectBit(free, int(ks.pos[j]))
			at := ks.attr >> (2 * j) & 3
			owner, kind := uint16(at&1), k
			if k == chick {
				owner, kind = uint16(at>>1), chick+int(at&1)
			}
			b := uint16(1) << sq
			p.side[0] |= b &^ -owner
			p.side[1] |= b & -owner
			p.kind[kind] |= b
		}
		free &^= p.boardSet(k)
	}
	if lc.selfMirror {
		m := p.mirrored()
		if g.rest(&m, rt) < g.rest(&p, rt) {
			return p, false
		}
	}
	return p, true
}

// selectBit returns the square of the k-th (from 0) member of m, a set of
// squares, by a table for each of its bytes.
func selectBit(m uint16, k int) int {
	lo := uint8(m)
	if n := bits.OnesCount8(lo); k >= n {
		return 8 + int(select8[m>>8][k-n])
	}
	return int(select8[lo][k])
}

// Classify returns the kind of index s.
func (g *Game) Classify(s uint64) implicit.Kind {
	p, ok := g.decode(s)
	if !ok {
		return implicit.Illegal
	}
	return p.classify()
}

// Moves appends the positions s moves to, each once.
func (g *Game) Moves(s uint64, dst []uint64) []uint64 {
	p, _ := g.decode(s)
	if p.classify() != implicit.Inner {
		return dst
	}
	start := len(dst)
	emit := func(q *position) {
		f := q.flip()
		dst = append(dst, g.index(&f))
	}
	empty := all &^ p.occupied()
	if takers, n := p.lionTakers(); n > 0 {
		// Taking their lion wins at once: it is the only move kept.
		for _, tk := range takers[:n] {
			q := p.step(tk.sq, p.lion[1], tk.kind)
			emit(&q)
		}
		if n > 1 {
			dst = append(dst[:start], implicit.SortedSet(dst[start:])...)
		}
		return dst
	}
	g.eachStep(&p, func(y, x int8, k int) {
		q := p.step(y, x, k)
		emit(&q)
	})
	for _, k := range g.kinds {
		if p.hand[0][k] == 0 {
			continue
		}
		for m := empty; m != 0; m &= m - 1 {
			q := p
			q.hand[0][k]--
			q.put(0, int8(bits.TrailingZeros16(m)), k)
			emit(&q)
		}
	}
	if g.mayRepeat(&p) {
		dst = append(dst[:start], implicit.SortedSet(dst[start:])...)
	}
	return dst
}

// mayRepeat reports whether two moves of p (or two un-moves) may lead to
// mirror images of each other, one index: only if p's lions are both in the
// middle column (see NumMoves). Two captures of their lion may too (the
// lone lions' squares can match): Moves and count sort those apart.
func (g *Game) mayRepeat(p *position) bool {
	return g.classes[g.classOf[p.lion[0]+1][p.lion[1]]].selfMirror
}

// step returns p after side 0's piece of kind k on y steps to x: a capture
// puts the piece taken in our hand (a hen as a chick; a lion leaves the
// board), and a chick reaching the far row is promoted.
func (p *position) step(y, x int8, k int) position {
	q := *p
	by, bx := uint16(1)<<y, uint16(1)<<x
	q.side[0] ^= by | bx
	if p.side[1]&bx != 0 {
		q.side[1] &^= bx
		if p.lion[1] == x {
			q.lion[1] = -1
		} else {
			c := p.pieceAt(x)
			q.kind[c] &^= bx
			q.hand[0][min(c, chick)]++
		}
	}
	if k == lion {
		q.lion[0] = x
	} else {
		q.kind[k] ^= by
		if k == chick && x < cols {
			k = hen
		}
		q.kind[k] |= bx
	}
	return q
}

// eachStep calls f for each step of a piece of side 0: from y to x, the
// piece's kind before the step.
func (g *Game) eachStep(p *position, f func(y, x int8, k int)) {
	p.eachPiece(func(y int8, k int) {
		for m := step[k][y] &^ p.side[0]; m != 0; m &= m - 1 {
			f(y, int8(bits.TrailingZeros16(m)), k)
		}
	})
}

// eachPiece calls f for each piece of side 0 on the board: its square and
// kind, the lion first.
func (p *position) eachPiece(f func(sq int8, k int)) {
	if p.lion[0] >= 0 {
		f(p.lion[0], lion)
	}
	for k, km := range p.kind {
		for m := km & p.side[0]; m != 0; m &= m - 1 {
			f(int8(bits.TrailingZeros16(m)), k)
		}
	}
}

// put places a piece of the given side and kind (a lion included) on the
// empty square sq.
func (p *position) put(side int, sq int8, k int) {
	p.side[side] |= 1 << sq
	if k == lion {
		p.lion[side] = sq
	} else {
		p.kind[k] |= 1 << sq
	}
}

// NumMoves returns the number of distinct positions s moves to. Distinct
// moves lead to distinct positions; they can only lead to mirror images of
// each other, counted once in the index, if the two lions are in the middle
// column (both moves keep the lions, or one moves ours: its column would
// have to change by two) or if both capture their lion (the lone lions'
// squares can match). Those positions list their moves; the others count
// them, with no index to compute.
func (g *Game) NumMoves(s uint64) uint64 {
	p, _ := g.decode(s)
	if p.classify() != implicit.Inner {
		return 0
	}
	return g.count(s, &p)
}

// ClassifyCount returns Classify(s) and NumMoves(s), decoding s once.
func (g *Game) ClassifyCount(s uint64) (implicit.Kind, uint64) {
	p, ok := g.decode(s)
	if !ok {
		return implicit.Illegal, 0
	}
	if k := p.classify(); k != implicit.Inner {
		return k, 0
	}
	return implicit.Inner, g.count(s, &p)
}

// count returns the number of moves of p, the inner position at index s.
func (g *Game) count(s uint64, p *position) uint64 {
	if takers, n := p.lionTakers(); n > 0 {
		// Only the captures of their lion: distinct unless two lead to
		// mirror images, which only their indices tell.
		if n == 1 {
			return 1
		}
		var to [8]uint64
		for i, tk := range takers[:n] {
			q := p.step(tk.sq, p.lion[1], tk.kind)
			f := q.flip()
			to[i] = g.index(&f)
		}
		return uint64(len(implicit.SortedSet(to[:n])))
	}
	if g.mayRepeat(p) {
		return uint64(len(g.Moves(s, make([]uint64, 0, 80))))
	}
	n := uint64(0)
	g.eachStep(p, func(y, x int8, k int) { n++ })
	empty := uint64(bits.OnesCount16(all &^ p.occupied()))
	for _, k := range g.kinds {
		if p.hand[0][k] > 0 {
			n += empty
		}
	}
	return n
}

// Unmoves appends the positions that move to t, each once.
func (g *Game) Unmoves(t uint64, dst []uint64) []uint64 {
	p, _ := g.decode(t)
	// u.q: t as the player who just moved sees it (side 0); its un-moves
	// give positions with side 0 to move, as the index keeps them.
	u := unmover{g: g, q: p.flip(), dst: dst}
	u.lionTaken = u.q.lion[1] < 0
	empty := all &^ u.q.occupied()
	u.q.eachPiece(func(x int8, k int) {
		switch {
		case k == chick && x < cols:
			// A chick on the far row was dropped there: a step would have promoted it.
		case k == hen && x < cols:
			for m := from[hen][x] & empty; m != 0; m &= m - 1 {
				u.back(x, k, int8(bits.TrailingZeros16(m)), hen)
			}
			if y := x + cols; empty>>y&1 != 0 {
				u.back(x, k, y, chick) // the chick promoted on arrival
			}
		default:
			for m := from[k][x] & empty; m != 0; m &= m - 1 {
				u.back(x, k, int8(bits.TrailingZeros16(m)), k)
			}
		}
		if !u.lionTaken && k < hen {
			r := u.q
			r.side[0] &^= 1 << x
			r.kind[k] &^= 1 << x
			r.hand[0][k]++
			u.emit(&r) // un-dropped
		}
	})
	if g.mayRepeat(&p) {
		u.dst = append(u.dst[:len(dst)], implicit.Distinct(u.dst[len(dst):])...)
	}
	return u.dst
}

// unmover lists the un-moves of q, a position as the player who just moved
// (side 0) sees it.
type unmover struct {
	g         *Game
	q         position
	lionTaken bool // side 1's lion was just taken: every un-move puts it back
	dst       []uint64
}

// emit appends r, a predecessor with side 0 to move, if the game lets it
// move: it is not over, and it could not have taken side 1's lion instead
// (a player who can take the lion does), unless the move took it.
func (u *unmover) emit(r *position) {
	if r.classify() == implicit.Inner && (u.lionTaken || !r.attacked(r.lion[1])) {
		u.dst = append(u.dst, u.g.index(r))
	}
}

// back emits the predecessors where side 0's piece of kind k on x came from
// y as a piece of kind was: x was empty, or held a piece of side 1 taken
// from it (one of each kind in side 0's hand; a chick in hand may have been
// a hen; the lion, if it was just taken).
func (u *unmover) back(x int8, k int, y int8, was int) {
	r := u.q
	r.side[0] ^= 1<<x | 1<<y
	if k == lion {
		r.lion[0] = y
	} else {
		r.kind[k] &^= 1 << x
		r.kind[was] |= 1 << y
	}
	if u.lionTaken {
		r.put(1, x, lion)
		u.emit(&r)
		return
	}
	u.emit(&r)
	for c := range handKinds {
		if u.q.hand[0][c] > 0 {
			u.uncapture(r, x, c, c)
			if c == chick {
				u.uncapture(r, x, c, hen)
			}
		}
	}
}

// uncapture emits r with side 1's piece of kind taken back on x from side
// 0's hand, where it went as kind c.
func (u *unmover) uncapture(r position, x int8, c, taken int) {
	r.hand[0][c]--
	r.put(1, x, taken)
	u.emit(&r)
}

// Start returns the index of the starting position: gle / .c. / .C. / ELG
// (the kinds not in play left out), Sente to move.
func (g *Game) Start() uint64 {
	var p position
	place := func(k int, ours, theirs int8) {
		if k == lion || g.has(k) {
			p.put(0, ours, k)
			p.put(1, theirs, k)
		}
	}
	place(lion, 10, 1)
	place(giraffe, 11, 0)
	place(elephant, 9, 2)
	place(chick, 7, 4)
	return g.index(&p)
}

func (g *Game) has(k int) bool {
	for _, x := range g.kinds {
		if x == k {
			return true
		}
	}
	return false
}

// Positions returns the number of positions index s stands for: 2 for a
// position kept for itself and its mirror image, 1 for one that is its own
// image (or every position, without Mirror), 0 for a position where our
// lion was captured, which is the end of a game, not a position to play.
func (g *Game) Positions(s uint64) uint64 {
	p, ok := g.decode(s)
	if !ok || p.lion[0] < 0 {
		return 0
	}
	if !g.mirror {
		return 1
	}
	if p.mirrored() == p {
		return 1
	}
	return 2
}

var (
	_ implicit.Notation        = (*Game)(nil)
	_ implicit.MoveCounter     = (*Game)(nil)
	_ implicit.Starter         = (*Game)(nil)
	_ implicit.PositionCounter = (*Game)(nil)
)
