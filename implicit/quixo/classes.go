package quixo

import (
	"math/bits"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/square"
)

// classTables number the classes of a board of at most 16 cells directly,
// as implicit.ClassSet numbers them (class i is the i-th canonical board
// in index order), without a bit per index.
//
// A board with X to move is canonical when its X cells are the smallest
// of their 8 images (the set x is minimal) and, if some symmetry other
// than the identity maps x onto itself (x is symmetric), its O cells are
// the smallest of their images under those symmetries too. Within a
// segment (x X's and o O's), the boards come by the rank of x, then the
// rank of O among the cells x leaves free, so the classes below a
// canonical board are those of the segments before it, the perX boards of
// each minimal asymmetric x ranked before its x, the canonical boards of
// each minimal symmetric x ranked before it, and the boards of its own x
// with a smaller rank of O: the first three are tables, the last is the
// rank itself for an asymmetric x, or for a symmetric one a rank in a bit
// set of its canonical O ranks (8% of the classes of 4 x 4).
type classTables struct {
	// xs[x]: whether x is minimal and symmetric, and the minimal
	// asymmetric and symmetric sets of its size ranked before it.
	xs []uint32
	// toMinimal[x]: a symmetry that takes x to its smallest image, with
	// symmetricImage set if that image is symmetric.
	toMinimal []uint8
	segs      []segClasses // those of each segment, and one past the last
	// runs holds, segment by segment, an entry per minimal symmetric set
	// of the segment's X count, in rank order, and one past the last:
	// the classes of the segment's sets before it, and its first word in
	// symBits.
	runs []symRun
	// symBits, for each minimal symmetric x and count of O, has bit r set
	// where the O cells of rank r make a canonical board, in words of
	// their own (a run per set); symBefore[w] counts the bits of w's run
	// in the words before w.
	symBits   []uint64
	symBefore []uint16
}

// segClasses is what numbers the classes of one segment.
type segClasses struct {
	base uint64 // the classes of the segments before it
	perX uint64 // the boards of one set of X cells
	runs int    // its first entry in classTables.runs
}

// symRun is a minimal symmetric set of X cells of a segment (see
// classTables.runs).
type symRun struct {
	classes uint32
	word    uint32
}

// The fields of an entry of classTables.xs.
const (
	xMinimal   = 1 << 31
	xSymmetric = 1 << 30
	xBefore    = 1<<15 - 1 // the minimal asymmetric sets ranked before, in bits 0-14; the symmetric ones in bits 15-29

	symmetricImage = 1 << 3 // in classTables.toMinimal
)

// setClasses builds g's class tables (a board of at most 16 cells).
func (g *Game) setClasses() {
	c := &classTables{xs: make([]uint32, 1<<g.cells)}
	var asym, sym [MaxN*MaxN + 1]uint32 // of each size: minimal sets so far
	symSets := make([][]uint32, g.cells+1)
	for k := 0; k <= g.cells; k++ {
		for r := range square.Binom[g.cells][k] {
			x := g.rank.Unrank(k, g.cells, r)
			e := asym[k] | sym[k]<<15
			minimal, symmetric := true, false
			for t := 1; t < 8; t++ {
				switch im := g.image(t, x); {
				case im < x:
					minimal = false
				case im == x:
					symmetric = true
				}
			}
			switch {
			case !minimal:
			case symmetric:
				e |= xMinimal | xSymmetric
				sym[k]++
				symSets[k] = append(symSets[k], x)
			default:
				e |= xMinimal
				asym[k]++
			}
			c.xs[x] = e
		}
	}
	c.toMinimal = make([]uint8, 1<<g.cells)
	for x := range uint32(1) << g.cells {
		t := 0
		for k := 1; k < 8; k++ {
			if g.image(k, x) < g.image(t, x) {
				t = k
			}
		}
		if c.xs[g.image(t, x)]&xSymmetric != 0 {
			t |= symmetricImage
		}
		c.toMinimal[x] = uint8(t)
	}
	c.segs = make([]segClasses, len(g.segs)+1)
	for k, sg := range g.segs {
		c.segs[k].perX, c.segs[k].runs = sg.perX, len(c.runs)
		var classes uint32
		for _, x := range symSets[sg.x] {
			c.runs = append(c.runs, symRun{classes: classes, word: uint32(len(c.symBits))})
			first := len(c.symBits)
			for ro := range sg.perX {
				if ro%64 == 0 {
					c.symBits = append(c.symBits, 0)
					c.symBefore = append(c.symBefore, uint16(classes-c.runs[len(c.runs)-1].classes))
				}
				if g.canonicalBoard(x, g.expand(g.rank.Unrank(sg.o, g.cells-sg.x, ro), ^x)) {
					c.symBits[first+int(ro/64)] |= 1 << (ro % 64)
					classes++
				}
			}
		}
		c.runs = append(c.runs, symRun{classes: classes, word: uint32(len(c.symBits))})
		c.segs[k+1].base = c.segs[k].base + uint64(asym[sg.x])*sg.perX + uint64(classes)
	}
	g.classes = c
}

// before returns, for a set of X cells x of segment k (its entry e in
// xs), the classes of the segments before and of the sets before x in
// its segment, and x's run in runs if it is symmetric.
func (c *classTables) before(k int, e uint32) (uint64, int) {
	sc := &c.segs[k]
	r := sc.runs + int(e>>15&xBefore)
	return sc.base + uint64(e&xBefore)*sc.perX + uint64(c.runs[r].classes), r
}

// symRank returns the canonical boards of run r whose O cells rank below
// ro, and whether the O cells of rank ro make one.
func (c *classTables) symRank(r int, ro uint64) (uint64, bool) {
	w := uint64(c.runs[r].word) + ro/64
	m := c.symBits[w]
	return uint64(c.symBefore[w]) + uint64(bits.OnesCount64(m&(1<<(ro%64)-1))), m>>(ro%64)&1 != 0
}

// Bytes returns the memory of g's class tables (implicit.Sizer): about
// 560 KiB for 4 x 4, counted against -max-memory.
func (g *Game) Bytes() uint64 {
	c := g.classes
	if c == nil {
		return 0
	}
	return uint64(len(c.xs))*4 + uint64(len(c.toMinimal)) + uint64(len(c.segs))*24 +
		uint64(len(c.runs))*8 + uint64(len(c.symBits))*8 + uint64(len(c.symBefore))*2
}

// NumbersClasses reports whether g numbers its classes itself
// (implicit.ClassNumberer): on boards of up to 4 x 4.
func (g *Game) NumbersClasses() bool { return g.classes != nil }

// ClassMoves appends the class numbers of CanonicalMoves(s), in the same
// order (implicit.ClassNumberer).
func (g *Game) ClassMoves(s uint64, dst []uint64) []uint64 {
	return g.moveList(s, dst, classNumbers)
}

// ClassifyTierClasses returns the kind of s and, for an Inner s, the number
// of distinct classes its moves reach in its tier, with the class numbers
// of its moves into the next tiers (an empty cell taken) appended to dst
// (implicit.ClassNumberer).
func (g *Game) ClassifyTierClasses(s uint64, dst []uint64) (implicit.Kind, uint64, []uint64) {
	k, me, them := g.classifySides(s)
	if k != implicit.Inner {
		return k, 0, dst
	}
	n, dst := g.moveClasses(me, them, tierBoth, dst)
	return implicit.Inner, n, dst
}

// ClassifyTierExits returns the kind of s and, for an Inner s, appends
// the class numbers of its moves into other tiers, as
// ClassifyTierClasses does, without counting the others
// (implicit.TierExitClassifier).
func (g *Game) ClassifyTierExits(s uint64, dst []uint64) (implicit.Kind, []uint64) {
	k, me, them := g.classifySides(s)
	if k != implicit.Inner {
		return k, dst
	}
	_, dst = g.moveClasses(me, them, tierExits, dst)
	return implicit.Inner, dst
}

// CountTierClasses returns the number of distinct classes of its own
// tier that the moves of s, an Inner position, reach: ClassifyTierClasses's
// count (implicit.TierExitClassifier).
func (g *Game) CountTierClasses(s uint64) uint64 {
	x, o, turn := g.Board(s)
	if turn == 1 {
		x, o = o, x
	}
	n, _ := g.moveClasses(x, o, tierInside, nil)
	return n
}

// ClassUnmoves appends the distinct class numbers of CanonicalUnmoves(t),
// or with within of TierUnmoves(t, true), in no particular order
// (implicit.ClassNumberer): the representatives' masks are deduplicated
// first, and only the distinct ones numbered (a fifth of Quixo 4 x 4's
// un-moves repeat a class).
func (g *Game) ClassUnmoves(t uint64, within bool, dst []uint64) []uint64 {
	start := len(dst)
	dst = g.unmoveList(t, dst, classKeys, within)
	keys := implicit.Distinct(dst[start:])
	for j, key := range keys {
		keys[j] = g.class(uint32(key>>32), uint32(key))
	}
	return dst[:start+len(keys)]
}

// CountClassUnmoves returns the number of distinct classes among
// ClassUnmoves(t, within) (implicit.ClassNumberer): their representatives'
// masks are listed into buf and counted, not numbered.
func (g *Game) CountClassUnmoves(t uint64, within bool, buf []uint64) (uint64, []uint64) {
	buf = g.unmoveList(t, buf[:0], classKeys, within)
	return uint64(len(implicit.Distinct(buf))), buf
}

// classOf returns the class number of the board with X on x and O on o, X
// to move: the class of its representative.
func (g *Game) classOf(x, o uint32) uint64 {
	key := g.canonicalKey(x, o)
	return g.class(uint32(key>>32), uint32(key))
}

// class returns the class number of the canonical board with X on x and O
// on o, X to move.
func (g *Game) class(x, o uint32) uint64 {
	c := g.classes
	e := c.xs[x]
	n, r := c.before(int(g.seg[bits.OnesCount32(x)][bits.OnesCount32(o)]), e)
	ro := g.rank.Rank16(g.rank.Compress16(o, ^x))
	if e&xSymmetric == 0 {
		return n + ro
	}
	i, _ := c.symRank(r, ro)
	return n + i
}

// ClassesBelow returns the number of canonical boards with an index below
// s (implicit.ClassNumberer): the class number of s if s is canonical.
func (g *Game) ClassesBelow(s uint64) uint64 {
	c := g.classes
	if s >= g.size {
		return c.segs[len(g.segs)].base
	}
	k := g.segmentOf(s)
	sg := &g.segs[k]
	r := (s - sg.offset) >> 1
	rx, ro := r/sg.perX, r%sg.perX
	e := c.xs[g.rank.Unrank(sg.x, g.cells, rx)]
	n, run := c.before(k, e)
	switch {
	case e&xMinimal == 0:
		return n
	case e&xSymmetric == 0:
		return n + ro + s&1 // with O to move, its twin with X to move is below
	}
	i, canonical := c.symRank(run, ro)
	if canonical && s&1 == 1 {
		i++ // with O to move, its twin with X to move is below
	}
	return n + i
}

// markClasses is MarkCanonical from the class tables: a run of boards
// sharing their X cells is skipped whole where x is not minimal, and
// marked whole (X to move) where x is minimal and asymmetric.
func (g *Game) markClasses(from, to uint64, words []uint64) {
	c := g.classes
	for s := from; s < to; {
		k := g.segmentOf(s)
		sg := &g.segs[k]
		rx := (s - sg.offset) >> 1 / sg.perX
		lo := sg.offset + 2*rx*sg.perX
		hi := min(to, lo+2*sg.perX)
		e := c.xs[g.rank.Unrank(sg.x, g.cells, rx)]
		switch {
		case e&xMinimal == 0:
		case e&xSymmetric == 0:
			markEven(words, from, s, hi)
		default:
			_, r := c.before(k, e)
			for w := c.runs[r].word; w < c.runs[r+1].word; w++ {
				for m := c.symBits[w]; m != 0; m &= m - 1 {
					ro := uint64(w-c.runs[r].word)*64 + uint64(bits.TrailingZeros64(m))
					if p := lo + 2*ro; p >= s && p < hi {
						words[(p-from)/64] |= 1 << ((p - from) % 64)
					}
				}
			}
		}
		s = hi
	}
}

// markEven sets bit p-from of words for each even p in [lo, hi).
func markEven(words []uint64, from, lo, hi uint64) {
	lo += lo & 1
	pattern := uint64(0x5555555555555555) << (from & 1) // the bits of even positions
	for a, b := lo-from, hi-from; a < b; a = a&^63 + 64 {
		m := pattern &^ (1<<(a%64) - 1)
		if b < a&^63+64 {
			m &= 1<<(b%64) - 1
		}
		words[a/64] |= m
	}
}
