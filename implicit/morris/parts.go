package morris

import "math/bits"

// A tier's one-pass solve (its placements) looks up every move's position
// in a child. A placement leaves the other's stones to the player to move
// next, and a child's index ranks the next mover's stones first: listed by
// the other's stones (implicit.TierOrderer), the moves of one part reach a
// run of a child a few kilobytes long, where the index's order (by the
// mover's stones) scatters them over the whole child. The removals after a
// mill reach, for each stone removed, another such run.
//
// Part j of a tier is one class of the other's stones in one of the
// tier's blocks: its positions are the other's stones as that class's
// representative and the mover's as each set of the points left, the
// smallest of its images under the symmetries that fix the other's. Each
// class of positions has exactly one such pair.

// TierParts returns the number of parts of tier k: for each of its blocks,
// the classes of the other's stones (with the plain index, their sets).
func (g *Game) TierParts(k int) uint64 {
	var n uint64
	for _, bl := range g.tierBlocks(k) {
		n += g.otherSets(bl)
	}
	return n
}

// TierPart appends the positions of part j of tier k.
func (g *Game) TierPart(k int, j uint64, dst []uint64) []uint64 {
	for _, bl := range g.tierBlocks(k) {
		if n := g.otherSets(bl); j >= n {
			j -= n
			continue
		}
		var other uint32
		var fix uint16
		if g.classes != nil {
			other, fix = g.classes.reps[bl.o][j], g.classes.fix[bl.o][j]
		} else {
			other = unrank(j, bl.o, 24)
		}
		room := 24 - bl.o
		for c := uint32(1)<<bl.m - 1; c < 1<<room; c = nextSet(c) {
			mover := expand(c, other)
			if fix == 0 || smallestImage(mover, fix) {
				dst = append(dst, g.mustIndex(mover, bl.hm, other, bl.ho))
			}
			if c == 0 {
				break
			}
		}
		return dst
	}
	return dst
}

// tierBlocks returns the blocks of tier k (one or two).
func (g *Game) tierBlocks(k int) []block {
	t := g.tiers[k]
	lo := g.blockAt(t.Start)
	hi := lo
	for hi < len(g.blocks) && g.blocks[hi].start < t.End {
		hi++
	}
	return g.blocks[lo:hi]
}

// otherSets returns the number of classes of the other's stones of block
// bl (with the plain index, of sets).
func (g *Game) otherSets(bl block) uint64 {
	if g.classes != nil {
		return uint64(len(g.classes.reps[bl.o]))
	}
	return choose[24][bl.o]
}

// smallestImage says whether set is the smallest of its images under the
// symmetries fix.
func smallestImage(set uint32, fix uint16) bool {
	for ; fix != 0; fix &= fix - 1 {
		if image(bits.TrailingZeros16(fix), set) < set {
			return false
		}
	}
	return true
}

// nextSet returns the next larger number with as many bits set as c
// (c > 0): the sets of k points in increasing order.
func nextSet(c uint32) uint32 {
	low := c & -c
	ripple := c + low
	return ripple | (c^ripple)/low>>2
}
