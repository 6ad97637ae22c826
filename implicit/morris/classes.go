package morris

import (
	"math/bits"
	"sync"
)

// The symmetric index ranks a position's mover's stones among the classes
// of sets of as many points under the board's 16 symmetries (about C(24,
// k)/16 of them), and the other's stones among the points left; a
// position is its class's representative when its mover's stones are
// their class's representative and its other's are the smallest of their
// images under the symmetries that fix the mover's (most sets have none
// but the identity). The other indices of a representative with such
// symmetries are images of the representative's: Illegal.
//
// setClasses holds, for every set of points, the number of its class among
// the sets of as many points and a symmetry that takes it to the class's
// representative, the smallest set of the class (read as a number); and
// for each class, its representative and the symmetries that fix it.
type setClasses struct {
	// of[k] is by the rank of a set of k points (at most 12): the sets of
	// one size are together, so that the few sizes a tier's moves reach
	// stay in the caches (a table by the set itself, 64 MiB, missed them
	// at every un-move).
	of   [13][]uint32 // by size, then rank: the set's class's number << 4 | a symmetry onto the representative
	reps [25][]uint32 // by number of points, then class: the representative
	fix  [25][]uint16 // by number of points, then class: the symmetries but the identity that fix the representative
}

var (
	classesOnce sync.Once
	classTables *setClasses
)

// classes returns the tables, built on first use (37 MiB, a fifth of a
// second): sets in increasing order, each one not yet seen is the smallest
// of its class, whose images it marks.
func classes() *setClasses {
	classesOnce.Do(func() {
		var inverse [16]int
		for k := range 16 {
			for j := range 16 {
				back := true
				for p := range 24 {
					back = back && symmetries[j][symmetries[k][p]] == p
				}
				if back {
					inverse[k] = j
				}
			}
		}
		c := &setClasses{}
		for k := range c.of {
			c.of[k] = make([]uint32, choose[24][k])
		}
		seen := make([]uint64, 1<<24/64)
		for set := uint32(0); set < 1<<24; set++ {
			k := bits.OnesCount32(set)
			if k > 12 || seen[set/64]>>(set%64)&1 != 0 {
				continue
			}
			number := uint32(len(c.reps[k]))
			var fix uint16
			for s := range 16 {
				img := image(s, set)
				if img == set && s != 0 {
					fix |= 1 << s
				}
				if seen[img/64]>>(img%64)&1 == 0 {
					seen[img/64] |= 1 << (img % 64)
					c.of[k][rank(img)] = number<<4 | uint32(inverse[s])
				}
			}
			c.reps[k] = append(c.reps[k], set)
			c.fix[k] = append(c.fix[k], fix)
		}
		classTables = c
	})
	return classTables
}

// canonical returns the number of the class of mover's stones (k of them)
// and other's stones under the symmetry that takes mover's to their
// representative, the smallest such image if several do.
func (c *setClasses) canonical(mover, other uint32, k int) (uint64, uint32) {
	e := c.of[k][rank(mover)]
	n := e >> 4
	o := image(int(e&15), other)
	if f := c.fix[k][n]; f != 0 {
		best := o
		for ; f != 0; f &= f - 1 {
			if img := image(bits.TrailingZeros16(f), o); img < best {
				best = img
			}
		}
		o = best
	}
	return uint64(n), o
}

// isCanonical says whether other's stones are the smallest of their images
// under the symmetries that fix class n's representative of k points.
func (c *setClasses) isCanonical(n uint64, k int, other uint32) bool {
	return smallestImage(other, c.fix[k][n])
}

// positions returns the number of positions of the class of the
// representative class n of k points with other's stones: 16 over the
// number of symmetries that fix both.
func (c *setClasses) positions(n uint64, k int, other uint32) uint64 {
	fixed := uint64(1)
	for f := c.fix[k][n]; f != 0; f &= f - 1 {
		if image(bits.TrailingZeros16(f), other) == other {
			fixed++
		}
	}
	return 16 / fixed
}
