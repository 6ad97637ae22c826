package dobutsu

import "math/bits"

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
