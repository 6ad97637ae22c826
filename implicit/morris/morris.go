// Package morris is Nine Men's Morris and its variants Lasker and
// Morabaraba (docs/formats.md, morris) over a perfect index, tiered by the
// stones each side has on the board and in hand.
//
// A position is kept as the player to move sees it: the mover's stones and
// hand, the other's stones and hand (the rules treat both colours alike).
// Its index is that of its block, the positions of one count of stones on
// the board and in hand for each side, then the rank of the mover's stones
// among the sets of as many points, then the rank of the other's among the
// points left. A tier holds the blocks of one pair of counts, in both
// orders, which a move that places nothing and removes nothing swaps: every
// other move places a stone from a hand or removes one from the board, so
// the tiers' children (fewer stones in hand, or fewer on the board) never
// lead back.
//
// The index holds one position of each class under the board's 16
// symmetries (classes.go): the mover's stones are ranked among the
// classes of sets of as many points, not among all sets. The plain index,
// every position its own, is the game players see (Plain, Class) and the
// tests' reference.
package morris

import (
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/retro-solver/retro/implicit"
)

// A Variant is a set of rules.
type Variant struct {
	Name      string
	Stones    int  // stones in hand at the start, each side
	Lasker    bool // a player with stones in hand may move one on the board instead
	Diagonals bool // Morabaraba's four diagonals, as adjacencies and mills
	FullDraw  bool // a full board is a draw
}

// The variants.
var (
	Standard   = Variant{Name: "std", Stones: 9}
	Lasker     = Variant{Name: "lasker", Stones: 10, Lasker: true}
	Morabaraba = Variant{Name: "mora", Stones: 12, Diagonals: true, FullDraw: true}
)

// VariantOf returns the variant of the given name: std, lasker or mora.
func VariantOf(name string) (Variant, error) {
	for _, v := range []Variant{Standard, Lasker, Morabaraba} {
		if v.Name == name {
			return v, nil
		}
	}
	return Variant{}, fmt.Errorf("no variant %q: want std, lasker or mora", name)
}

// block is the positions of one count of stones: the mover's on the board
// (m) and in hand (hm), the other's (o, ho).
type block struct {
	start, size  uint64
	per          uint64 // C(24-m, o): the other's sets for each of the mover's
	m, hm, o, ho int
	reps         []uint32 // symmetric index: the mover's sets' classes' representatives
	fix          []uint16 // and the symmetries that fix each
}

// Game is a variant, whole or its ending with at most MaxStones stones a
// side on the board and none in hand.
type Game struct {
	v         Variant
	b         *board
	maxStones int
	blocks    []block
	blockOf   []int32 // by m, hm, o, ho (blockKey); -1 where the game has none
	tiers     []implicit.Tier
	size      uint64
	classes   *setClasses // nil: every position has its index (the plain index)
	plainOnce sync.Once
	plain     *Game // the game over the plain index, for Played
}

// New returns variant v: the whole game from the empty board if maxStones
// is 0, otherwise its ending with no stones in hand and at most maxStones
// stones of each side on the board (3 to v.Stones).
func New(v Variant, maxStones int) (*Game, error) { return newGame(v, maxStones, true) }

// newGame returns the game with the symmetric index, or with every
// position indexed (plain: the tests' reference).
func newGame(v Variant, maxStones int, symmetric bool) (*Game, error) {
	if maxStones != 0 && (maxStones < 3 || maxStones > v.Stones) {
		return nil, fmt.Errorf("-max-stones %d: want 3 to %d (0: the whole game)", maxStones, v.Stones)
	}
	g := &Game{v: v, b: newBoard(v.Diagonals), maxStones: maxStones, blockOf: make([]int32, 13*13*13*13)}
	for i := range g.blockOf {
		g.blockOf[i] = -1
	}
	if symmetric {
		g.classes = classes()
	}
	// A tier is an unordered pair of counts (on the board, in hand), kept
	// as key{a, ha, b, hb} with (a, ha) >= (b, hb); the tiers go in order
	// of decreasing stones in hand, then on the board.
	type key struct{ a, ha, b, hb int }
	valid := func(m, hm, o, ho int) bool {
		switch {
		case o+ho < 3: // the player who moved last had lost before
			return false
		case m+hm > v.Stones || o+ho > v.Stones || m+o > 24:
			return false
		case maxStones > 0:
			return hm == 0 && ho == 0 && m <= maxStones && o <= maxStones
		case !v.Lasker:
			// Placing is obligatory and White places first: the mover has
			// placed as many stones as the other (White to move) or one
			// fewer (Black).
			return hm == ho || hm == ho+1
		}
		return true
	}
	var keys []key
	seenKey := map[key]bool{}
	for m := 0; m <= v.Stones; m++ {
		for hm := 0; hm <= v.Stones; hm++ {
			for o := 0; o <= v.Stones; o++ {
				for ho := 0; ho <= v.Stones; ho++ {
					if !valid(m, hm, o, ho) {
						continue
					}
					k := key{m, hm, o, ho}
					if m < o || (m == o && hm < ho) {
						k = key{o, ho, m, hm}
					}
					if !seenKey[k] {
						seenKey[k] = true
						keys = append(keys, k)
					}
				}
			}
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		x, y := keys[i], keys[j]
		if hx, hy := x.ha+x.hb, y.ha+y.hb; hx != hy {
			return hx > hy
		}
		if bx, by := x.a+x.b, y.a+y.b; bx != by {
			return bx > by
		}
		return slices.Compare([]int{x.a, x.ha, x.b, x.hb}, []int{y.a, y.ha, y.b, y.hb}) > 0
	})
	for _, k := range keys {
		t := implicit.Tier{Name: fmt.Sprintf("%d+%d v %d+%d stones", k.a, k.ha, k.b, k.hb), Start: g.size}
		add := func(m, hm, o, ho int) {
			if !valid(m, hm, o, ho) {
				return
			}
			if g.blockOf[blockKey(m, hm, o, ho)] >= 0 {
				return
			}
			per := choose[24-m][o]
			bl := block{start: g.size, size: choose[24][m] * per, per: per, m: m, hm: hm, o: o, ho: ho}
			if g.classes != nil {
				bl.reps, bl.fix = g.classes.reps[m], g.classes.fix[m]
				bl.size = uint64(len(bl.reps)) * per
			}
			g.blockOf[blockKey(m, hm, o, ho)] = int32(len(g.blocks))
			g.blocks = append(g.blocks, bl)
			g.size += bl.size
		}
		first := len(g.blocks)
		add(k.a, k.ha, k.b, k.hb)
		add(k.b, k.hb, k.a, k.ha)
		t.End = g.size
		// Where placing is obligatory, a tier whose every mover has a
		// stone in hand only places (or has lost): no move stays in it.
		t.NoMovesInside = !v.Lasker
		for _, bl := range g.blocks[first:] {
			t.NoMovesInside = t.NoMovesInside && (bl.hm > 0 || bl.m+bl.hm < 3)
		}
		if t.End > t.Start {
			g.tiers = append(g.tiers, t)
		}
	}
	// Each tier's children: the tiers its moves reach.
	tierOfBlock := func(bi int) int { return implicit.TierOf(g.tiers, g.blocks[bi].start) }
	for k := range g.tiers {
		seen := map[int]bool{k: true}
		for bi, bl := range g.blocks {
			if tierOfBlock(bi) != k || bl.m+bl.hm < 3 {
				continue
			}
			var targets [][4]int
			if bl.hm > 0 {
				targets = append(targets, [4]int{bl.o, bl.ho, bl.m + 1, bl.hm - 1}, [4]int{bl.o - 1, bl.ho, bl.m + 1, bl.hm - 1})
			}
			if bl.hm == 0 || v.Lasker {
				targets = append(targets, [4]int{bl.o - 1, bl.ho, bl.m, bl.hm})
			}
			for _, tg := range targets {
				if tg[0] < 0 {
					continue
				}
				if c, ok := g.block(tg[0], tg[1], tg[2], tg[3]); ok && !seen[tierOfBlock(c)] {
					seen[tierOfBlock(c)] = true
					g.tiers[k].Children = append(g.tiers[k].Children, tierOfBlock(c))
				}
			}
		}
		sort.Ints(g.tiers[k].Children)
	}
	return g, nil
}

// Variant returns the game's rules.
func (g *Game) Variant() Variant { return g.v }

// MaxStones returns the ending's bound, 0 for the whole game.
func (g *Game) MaxStones() int { return g.maxStones }

// Size returns the number of indices.
func (g *Game) Size() uint64 { return g.size }

// MaxMoves bounds the moves of a position: a flight of one of three
// stones to any of 21 points, or a placement on any empty point, each
// followed by the removal of one of up to 12 stones (Lasker: both).
func (g *Game) MaxMoves() uint64 { return 3*21*12 + 24*12 }

// Tiers returns the tiers.
func (g *Game) Tiers() []implicit.Tier { return g.tiers }

// HasStart says whether the game is whole, from the empty board.
func (g *Game) HasStart() bool { return g.maxStones == 0 }

// Start returns the empty board, White to move with every stone in hand.
func (g *Game) Start() uint64 {
	bi, _ := g.block(0, g.v.Stones, 0, g.v.Stones)
	return g.blocks[bi].start
}

// blockKey numbers the counts (m, hm, o, ho), each 0 to 12, for blockOf.
func blockKey(m, hm, o, ho int) int { return ((m*13+hm)*13+o)*13 + ho }

// block returns the block of the counts, if the game has it.
func (g *Game) block(m, hm, o, ho int) (int, bool) {
	if m < 0 || hm < 0 || o < 0 || ho < 0 || m > 12 || hm > 12 || o > 12 || ho > 12 {
		return 0, false
	}
	bi := g.blockOf[blockKey(m, hm, o, ho)]
	return int(bi), bi >= 0
}

// decode returns the block of index s and the mover's and the other's
// stones.
func (g *Game) decode(s uint64) (int, uint32, uint32) {
	bi := g.blockAt(s)
	bl := &g.blocks[bi]
	r := s - bl.start
	var mover uint32
	if bl.reps != nil {
		mover = bl.reps[r/bl.per]
	} else {
		mover = unrank(r/bl.per, bl.m, 24)
	}
	other := expand(unrank(r%bl.per, bl.o, 24-bl.m), mover)
	return bi, mover, other
}

// blockAt returns the block of index s.
func (g *Game) blockAt(s uint64) int {
	return sort.Search(len(g.blocks), func(i int) bool { return g.blocks[i].start+g.blocks[i].size > s })
}

// index returns the index of the position with mover's stones on the board
// and hm in hand, and other's and ho, if the game has it: with the
// symmetric index, that of its class's representative.
func (g *Game) index(mover uint32, hm int, other uint32, ho int) (uint64, bool) {
	m := bits.OnesCount32(mover)
	bi, ok := g.block(m, hm, bits.OnesCount32(other), ho)
	if !ok {
		return 0, false
	}
	bl := &g.blocks[bi]
	if g.classes == nil {
		return bl.start + rank(mover)*bl.per + rank(compress(other, mover)), true
	}
	n, other := g.classes.canonical(mover, other, m)
	return bl.start + n*bl.per + rank(compress(other, bl.reps[n])), true
}

// Plain returns the game over the plain index, every position its own
// (g itself if that is g's): the game as players see it, each position
// as it stands on the board, which a query shows and looks up through
// Class.
func (g *Game) Plain() *Game {
	if g.classes == nil {
		return g
	}
	g.plainOnce.Do(func() {
		g.plain, _ = newGame(g.v, g.maxStones, false) // g's rules were checked
	})
	return g.plain
}

// Class returns g's index of position s of g.Plain(): that of its class's
// representative.
func (g *Game) Class(s uint64) uint64 {
	p := g.Plain()
	bi, mover, other := p.decode(s)
	bl := &p.blocks[bi]
	return g.mustIndex(mover, bl.hm, other, bl.ho)
}

// legal says whether index s of block bl is a position: with the symmetric
// index, whether it is its class's representative (the mover's stones are,
// and the other's are the smallest of their images under the symmetries
// that fix the mover's).
func (g *Game) legal(bl *block, s uint64) bool {
	if bl.fix == nil {
		return true
	}
	r := s - bl.start
	n := r / bl.per
	if bl.fix[n] == 0 {
		return true
	}
	return g.classes.isCanonical(n, bl.m, expand(unrank(r%bl.per, bl.o, 24-bl.m), bl.reps[n]))
}

// Positions returns the number of positions index s stands for
// (implicit.PositionCounter): with the symmetric index, its class's; 0 for
// an index that is no position.
func (g *Game) Positions(s uint64) uint64 {
	bl := &g.blocks[g.blockAt(s)]
	switch {
	case g.classes == nil:
		return 1
	case !g.legal(bl, s):
		return 0
	}
	r := s - bl.start
	n := r / bl.per
	return g.classes.positions(n, bl.m, expand(unrank(r%bl.per, bl.o, 24-bl.m), bl.reps[n]))
}

// mustIndex is index for a position a move reaches, which the game holds.
func (g *Game) mustIndex(mover uint32, hm int, other uint32, ho int) uint64 {
	i, ok := g.index(mover, hm, other, ho)
	if !ok {
		panic(fmt.Sprintf("morris: a move reaches %d+%d v %d+%d stones, a block the game lacks", bits.OnesCount32(mover), hm, bits.OnesCount32(other), ho))
	}
	return i
}

// Alternates reports that every win's depth is odd and every loss's even
// (implicit.Alternating): a game ends only with the player to move lost
// (too few stones, or no move), or in a draw.
func (g *Game) Alternates() bool { return true }

// Classify returns Illegal for an index that is no class's
// representative, TerminalLoss when the player to move has fewer than
// three stones on the board and in hand, Inner otherwise (a position
// without moves is then lost; a full Morabaraba board moves to itself, a
// draw).
func (g *Game) Classify(s uint64) implicit.Kind {
	bl := &g.blocks[g.blockAt(s)]
	switch {
	case !g.legal(bl, s):
		return implicit.Illegal
	case bl.m+bl.hm < 3:
		return implicit.TerminalLoss
	}
	return implicit.Inner
}

// distinct drops the repeats among dst[from:]: with the symmetric index,
// two moves may reach one class (each move then counts once, and each
// un-move: a class's moves are the classes its positions' moves reach).
// Of the moves that remove nothing, only those whose stones left unmoved
// (the player's who moves next) some symmetry fixes may repeat: two
// whose images are one position have a symmetry between them that fixes
// the stones they share, and differ in the stones they moved; repeats
// says whether they may.
func (g *Game) distinct(dst []uint64, from int, repeats bool) []uint64 {
	if !repeats || g.classes == nil || len(dst)-from < 2 {
		return dst
	}
	tail := dst[from:]
	slices.Sort(tail)
	return dst[:from+len(slices.Compact(tail))]
}

// full says whether the board is full, which in Morabaraba is a draw: the
// position's only move leads to itself.
func (g *Game) full(mover, other uint32) bool { return g.v.FullDraw && mover|other == full }

// Moves appends the positions one move after s: each placement (while
// stones are in hand) or slide (a flight with three stones left), each
// followed, if it closes a mill, by the removal of each stone that may be
// removed.
func (g *Game) Moves(s uint64, dst []uint64) []uint64 {
	dst, _ = g.moves(s, dst, false)
	return dst
}

// TierMoves appends the moves of s that leave its tier, and counts those
// that stay (implicit.TierMover): the slides that remove nothing, which
// are told apart without their index where no symmetry fixes the stones
// of the player to move next (two of them are then two classes).
func (g *Game) TierMoves(s uint64, dst []uint64) (uint64, []uint64) {
	dst, inside := g.moves(s, dst, true)
	return inside, dst
}

// moves appends the moves of s; with split, only those that leave its
// tier, and returns the number of the others.
func (g *Game) moves(s uint64, dst []uint64, split bool) ([]uint64, uint64) {
	bi, mover, other := g.decode(s)
	bl := g.blocks[bi]
	if bl.m+bl.hm < 3 {
		return dst, 0
	}
	if g.full(mover, other) {
		if split {
			return dst, 1
		}
		return append(dst, s), 0
	}
	from := len(dst)
	empty := full &^ (mover | other)
	// Every move that removes nothing leaves other's stones to the player
	// to move next: their class is found once.
	next := g.toward(other)
	var inside uint64
	// The moves that close a mill (the mover's stones after them, and
	// slid for a slide) are followed by each removal once the others are
	// listed: they reach another block, and each kind is told apart from
	// its own (distinct).
	var mills [24 + 3*21]uint32 // at most a placement on each point and a flight of three stones
	nm := 0
	const slid = 1 << 31
	if bl.hm > 0 {
		placed := g.mustBlock(bl.o, bl.ho, bl.m+1, bl.hm-1)
		for e := empty; e != 0; e &= e - 1 {
			to := mover | e&-e
			if other != 0 && g.b.closes(to, bits.TrailingZeros32(e)) {
				mills[nm] = to
				nm++
				continue
			}
			dst = append(dst, next.index(placed, to))
		}
	}
	if bl.hm == 0 || g.v.Lasker {
		into := g.mustBlock(bl.o, bl.ho, bl.m, bl.hm)
		fly := bl.m+bl.hm == 3
		// With split, the slides stay in the tier: counted, each class
		// once (they are listed, then dropped, where two may be one).
		listed := !split || next.symmetric()
		start := len(dst)
		for f := mover; f != 0; f &= f - 1 {
			p := bits.TrailingZeros32(f)
			for t := g.b.reach(p, empty, fly); t != 0; t &= t - 1 {
				to := mover&^(1<<p) | t&-t
				switch {
				case other != 0 && g.b.closes(to, bits.TrailingZeros32(t)):
					mills[nm] = to | slid
					nm++
				case listed:
					dst = append(dst, next.index(into, to))
				default:
					inside++
				}
			}
		}
		if split && listed {
			slides := dst[start:]
			slices.Sort(slides)
			inside = uint64(len(slices.Compact(slides)))
			dst = dst[:start]
		}
	}
	dst = g.distinct(dst, from, next.symmetric())
	if nm == 0 {
		return dst, inside
	}
	// Each removal leaves the same stones to the player to move next
	// whatever the mill: their class is found once for each.
	from = len(dst)
	var afterRemoval [12]toward
	removable := g.b.removable(other)
	for r, k := removable, 0; r != 0; r, k = r&(r-1), k+1 {
		afterRemoval[k] = g.toward(other &^ (r & -r))
	}
	for _, to := range mills[:nm] {
		hm := bl.hm - 1
		if to&slid != 0 {
			to, hm = to&^slid, bl.hm
		}
		into := g.mustBlock(bl.o-1, bl.ho, bits.OnesCount32(to), hm)
		for k := range bits.OnesCount32(removable) {
			dst = append(dst, afterRemoval[k].index(into, to))
		}
	}
	return g.distinct(dst, from, true), inside
}

// mustBlock returns the block of the counts, which a move reaches: the
// game holds it.
func (g *Game) mustBlock(m, hm, o, ho int) *block {
	bi, ok := g.block(m, hm, o, ho)
	if !ok {
		panic(fmt.Sprintf("morris: a move reaches %d+%d v %d+%d stones, a block the game lacks", m, hm, o, ho))
	}
	return &g.blocks[bi]
}

// toward numbers the positions after the moves of one position that
// remove nothing: the player to move next has the same stones in all, so
// their class, the symmetry onto its representative and the symmetries
// that fix it are found once.
type toward struct {
	n    uint64 // the next mover's stones' class (the plain index: their rank)
	onto int    // a symmetry onto its representative (the plain index: the identity)
	rep  uint32 // the representative (the plain index: the stones)
	fix  uint16 // the symmetries but the identity that fix the representative
}

func (g *Game) toward(stones uint32) toward {
	c := g.classes
	if c == nil {
		return toward{n: rank(stones), rep: stones}
	}
	k := bits.OnesCount32(stones)
	e := c.of[k][rank(stones)]
	n := uint64(e >> 4)
	return toward{n: n, onto: int(e & 15), rep: c.reps[k][n], fix: c.fix[k][n]}
}

// symmetric says whether a symmetry other than the identity fixes the
// next mover's stones (so that two moves may reach one class).
func (t *toward) symmetric() bool { return t.fix != 0 }

// index returns the index in block bl of the position where the next
// mover has t's stones and the other has set.
func (t *toward) index(bl *block, set uint32) uint64 {
	o := image(t.onto, set)
	if t.fix != 0 {
		best := o
		for f := t.fix; f != 0; f &= f - 1 {
			best = min(best, image(bits.TrailingZeros16(f), o))
		}
		o = best
	}
	return bl.start + t.n*bl.per + rank(compress(o, t.rep))
}

// symmetric says whether, with the symmetric index, a symmetry other than
// the identity fixes the mover's stones of index s of block bl.
func (bl *block) symmetric(s uint64) bool {
	return bl.fix != nil && bl.fix[(s-bl.start)/bl.per] != 0
}

// Unmoves appends the positions one move before t that the game holds and
// that are not over.
func (g *Game) Unmoves(t uint64, dst []uint64) []uint64 { return g.unmoves(t, false, dst) }

// TierUnmoves appends the un-moves of t in its own tier
// (implicit.TierUnmover): the slides that removed nothing, and a full
// Morabaraba board's move to itself.
func (g *Game) TierUnmoves(t uint64, _ bool, dst []uint64) []uint64 { return g.unmoves(t, true, dst) }

// unmoves appends t's un-moves; with within, only those of t's tier. The
// player who moved last now has the other's stones and hand.
func (g *Game) unmoves(t uint64, within bool, dst []uint64) []uint64 {
	bi, now, last := g.decode(t)
	bl := g.blocks[bi]
	from := len(dst)
	if g.full(now, last) {
		dst = append(dst, t)
	}
	// The un-moves that put a removed stone back are in another block than
	// the others: each kind is told apart from its own (distinct).
	var unremovalRoom [128]uint64
	unremovals := unremovalRoom[:0]
	empty := full &^ (now | last)
	// before appends the position before the move that left last's stones
	// on it with q just taken, from (last's stones before) with hl in hand:
	// without a removal if the move closed no mill (or found no stone to
	// remove), and with the removal of each stone r, now empty, that could
	// be removed, if it closed one. Such a position is never over: the
	// player to move there has as many stones on the board and in hand as
	// last has now, three or more; a block the game lacks is one where the
	// other had lost already, or one beyond the ending.
	before := func(from uint32, hl int, q int, spare uint32) {
		closed := g.b.closes(last, q)
		if !closed || now == 0 {
			if i, ok := g.index(from, hl, now, bl.hm); ok && !g.full(from, now) {
				dst = append(dst, i)
			}
		}
		if !closed || within {
			return
		}
		for r := spare; r != 0; r &= r - 1 {
			back := now | r&-r
			if !g.b.mayRemove(back, bits.TrailingZeros32(r)) || g.full(from, back) {
				continue
			}
			if i, ok := g.index(from, hl, back, bl.hm); ok {
				unremovals = append(unremovals, i)
			}
		}
	}
	// Placements: last had one more stone in hand.
	if !within {
		for f := last; f != 0; f &= f - 1 {
			q := bits.TrailingZeros32(f)
			before(last&^(1<<q), bl.ho+1, q, empty)
		}
	}
	// Slides and flights: last's hand is as it was, which only Lasker
	// allows with stones in hand.
	if bl.ho == 0 || g.v.Lasker {
		fly := bl.o+bl.ho == 3
		for f := last; f != 0; f &= f - 1 {
			q := bits.TrailingZeros32(f)
			for from := g.b.reach(q, empty, fly); from != 0; from &= from - 1 {
				p := from & -from
				before(last&^(1<<q)|p, bl.ho, q, empty&^p)
			}
		}
	}
	dst = g.distinct(dst, from, bl.symmetric(t))
	from = len(dst)
	return g.distinct(append(dst, unremovals...), from, true)
}

// Describe writes s in the position notation: the rows from 7 down to 1,
// each point '.', 'W' or 'B', joined by '/'; the player to move; White's
// and Black's stones in hand. The player to move is Black where the hands
// say so (Black has placed one stone fewer than White), White otherwise: a
// position that could be either colour's (no stones in hand, or Lasker) is
// written with White to move.
func (g *Game) Describe(s uint64) string {
	bl := &g.blocks[g.blockAt(s)]
	return g.write(s, !g.v.Lasker && bl.hm == bl.ho+1)
}

// DescribeTurned writes s with Black to move (implicit.TurnedDescriber):
// as a position reached after an odd number of moves stands on the board.
func (g *Game) DescribeTurned(s uint64) string { return g.write(s, true) }

// write writes s with the player to move as Black or as White.
func (g *Game) write(s uint64, black bool) string {
	bi, mover, other := g.decode(s)
	bl := &g.blocks[bi]
	w, b, wh, bh := mover, other, bl.hm, bl.ho
	if black {
		w, b, wh, bh = other, mover, bl.ho, bl.hm
	}
	var sb strings.Builder
	p := 0
	for row, n := range rowLengths {
		if row > 0 {
			sb.WriteByte('/')
		}
		for range n {
			switch {
			case w>>p&1 != 0:
				sb.WriteByte('W')
			case b>>p&1 != 0:
				sb.WriteByte('B')
			default:
				sb.WriteByte('.')
			}
			p++
		}
	}
	turn := "W"
	if black {
		turn = "B"
	}
	fmt.Fprintf(&sb, " %s %d %d", turn, wh, bh)
	return sb.String()
}

// ParsePosition reads a position in the notation Describe writes, its rows
// joined by '/' or one a line.
func (g *Game) ParsePosition(text string) (uint64, error) {
	// The rows may come one a line, as a query's '/' turns into newlines.
	fields := strings.Fields(strings.ReplaceAll(strings.TrimSpace(text), "\n", "/"))
	if len(fields) != 4 {
		return 0, fmt.Errorf("want the rows, the player to move and the stones in hand (%q), got %d fields",
			".../.../.../....../.../.../... W 9 9", len(fields))
	}
	rows := strings.Split(fields[0], "/")
	if len(rows) != 7 {
		return 0, fmt.Errorf("%d rows, want 7 joined by '/'", len(rows))
	}
	var w, b uint32
	p := 0
	for r, row := range rows {
		if len(row) != rowLengths[r] {
			return 0, fmt.Errorf("row %d has %d points, want %d", 7-r, len(row), rowLengths[r])
		}
		for _, c := range row {
			switch c {
			case 'W':
				w |= 1 << p
			case 'B':
				b |= 1 << p
			case '.':
			default:
				return 0, fmt.Errorf("point %s: %q, want '.', 'W' or 'B'", pointNames[p], c)
			}
			p++
		}
	}
	var hands [2]int
	for k, f := range fields[2:] {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 || n > g.v.Stones {
			return 0, fmt.Errorf("stones in hand %q: want 0 to %d", f, g.v.Stones)
		}
		hands[k] = n
	}
	wh, bh := hands[0], hands[1]
	nw, nb := bits.OnesCount32(w), bits.OnesCount32(b)
	switch {
	case nw+wh > g.v.Stones:
		return 0, fmt.Errorf("White has %d stones on the board and %d in hand, more than %d", nw, wh, g.v.Stones)
	case nb+bh > g.v.Stones:
		return 0, fmt.Errorf("Black has %d stones on the board and %d in hand, more than %d", nb, bh, g.v.Stones)
	}
	var i uint64
	var ok bool
	switch fields[1] {
	case "W":
		if !g.v.Lasker && wh != bh {
			return 0, fmt.Errorf("White to move with %d stones in hand and Black %d: White places first, so they must be equal", wh, bh)
		}
		if nb+bh < 3 {
			return 0, fmt.Errorf("Black has fewer than three stones: the game was over before White's move")
		}
		i, ok = g.index(w, wh, b, bh)
	case "B":
		if !g.v.Lasker && bh != wh+1 && (wh != 0 || bh != 0) {
			return 0, fmt.Errorf("Black to move with %d stones in hand and White %d: White places first, so Black has one more", bh, wh)
		}
		if nw+wh < 3 {
			return 0, fmt.Errorf("White has fewer than three stones: the game was over before Black's move")
		}
		i, ok = g.index(b, bh, w, wh)
	default:
		return 0, fmt.Errorf("player to move %q, want W or B", fields[1])
	}
	if !ok {
		return 0, fmt.Errorf("not a position of this game (at most %d stones a side on the board and none in hand)", g.maxStones)
	}
	return i, nil
}
