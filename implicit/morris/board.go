package morris

import (
	"fmt"
	"math/bits"
)

// The 24 points, numbered in reading order: row 7 (top) to row 1, each row
// left to right, as a position's text lists them.
var pointNames = [24]string{
	"a7", "d7", "g7",
	"b6", "d6", "f6",
	"c5", "d5", "e5",
	"a4", "b4", "c4", "e4", "f4", "g4",
	"c3", "d3", "e3",
	"b2", "d2", "f2",
	"a1", "d1", "g1",
}

// rowLengths is the number of points of each row, top to bottom.
var rowLengths = [7]int{3, 3, 3, 6, 3, 3, 3}

// lines are the 16 rows of three along the lines of the board: each
// square's four sides, then the four spokes; diagonals are Morabaraba's
// four more.
var (
	lines = [][3]int{
		{0, 1, 2}, {2, 14, 23}, {21, 22, 23}, {0, 9, 21}, // outer square
		{3, 4, 5}, {5, 13, 20}, {18, 19, 20}, {3, 10, 18}, // middle square
		{6, 7, 8}, {8, 12, 17}, {15, 16, 17}, {6, 11, 15}, // inner square
		{1, 4, 7}, {16, 19, 22}, {9, 10, 11}, {12, 13, 14}, // spokes
	}
	diagonals = [][3]int{{0, 3, 6}, {2, 5, 8}, {21, 18, 15}, {23, 20, 17}}
)

// full is the set of all 24 points.
const full = 1<<24 - 1

// board is a variant's geometry: the points next to each point, and the
// mills, as sets of points (bit p for point p).
type board struct {
	adj     [24]uint32
	mills   []uint32
	millsAt [24][]uint32 // the mills through each point
}

func newBoard(withDiagonals bool) *board {
	b := &board{}
	ls := lines
	if withDiagonals {
		ls = append(append([][3]int{}, lines...), diagonals...)
	}
	for _, l := range ls {
		m := uint32(1)<<l[0] | uint32(1)<<l[1] | uint32(1)<<l[2]
		b.mills = append(b.mills, m)
		for _, p := range l {
			b.millsAt[p] = append(b.millsAt[p], m)
		}
		for k := range 2 {
			b.adj[l[k]] |= 1 << l[k+1]
			b.adj[l[k+1]] |= 1 << l[k]
		}
	}
	return b
}

// closes says whether point p, one of set's, is in a mill of set's points.
func (b *board) closes(set uint32, p int) bool {
	for _, m := range b.millsAt[p] {
		if set&m == m {
			return true
		}
	}
	return false
}

// reach returns the empty points a stone on p may go to: its neighbours,
// or with fly any.
func (b *board) reach(p int, empty uint32, fly bool) uint32 {
	if fly {
		return empty
	}
	return b.adj[p] & empty
}

// inMills returns the points of set that lie in a mill of set's points.
func (b *board) inMills(set uint32) uint32 {
	var in uint32
	for _, m := range b.mills {
		if set&m == m {
			in |= m
		}
	}
	return in
}

// removable returns the stones of set that a mill against it may remove:
// those in no mill, or all of them if every one is in a mill.
func (b *board) removable(set uint32) uint32 {
	if free := set &^ b.inMills(set); free != 0 {
		return free
	}
	return set
}

// mayRemove says whether a mill against set may remove its stone on p
// (removable's rule, without finding every stone's): one in no mill may
// be, and one in a mill only if all of set's are.
func (b *board) mayRemove(set uint32, p int) bool {
	return !b.closes(set, p) || b.inMills(set) == set
}

// pointOf returns the number of a point's name ("d7"), or an error.
func pointOf(name string) (int, error) {
	for p, n := range pointNames {
		if n == name {
			return p, nil
		}
	}
	return 0, fmt.Errorf("no point %q", name)
}

// choose[n][k] is the binomial coefficient, for n and k up to 24.
var choose [25][25]uint64

func init() {
	for n := range 25 {
		choose[n][0] = 1
		for k := 1; k <= n; k++ {
			choose[n][k] = choose[n-1][k-1] + choose[n-1][k]
		}
	}
}

// rank returns the rank of set (at most 12 points) among the sets of as
// many points, in colexicographic order: the sum of C(p, i+1) over its
// i-th point p, read a byte at a time from colexTable.
func rank(set uint32) uint64 {
	b0, b1 := uint8(set), uint8(set>>8)
	n0 := bits.OnesCount8(b0)
	return uint64(colexTable[0][b0][0] + colexTable[1][b1][n0] + colexTable[2][uint8(set>>16)][n0+bits.OnesCount8(b1)])
}

// colexTable[j][b][i] is the part of rank's sum of the points of byte j of
// a set whose bits there are b, with i points of the set below the byte.
var colexTable [3][256][13]uint32

// unrank returns the set of k points below n of rank r (see rank): its
// highest point is the largest p with C(p, k) <= r, and so on down, each
// found below the one before in one downward scan.
func unrank(r uint64, k, n int) uint32 {
	var set uint32
	p := n - 1
	for i := k; i > 0; i-- {
		for choose[p][i] > r {
			p--
		}
		r -= choose[p][i]
		set |= 1 << p
		p--
	}
	return set
}

// compress returns set (disjoint from taken) with the points of taken
// squeezed out: point p becomes p less the points of taken below it. Each
// byte is squeezed by squeezeTable, then the three put side by side.
func compress(set, taken uint32) uint32 {
	f0, f1, f2 := ^uint8(taken), ^uint8(taken>>8), ^uint8(taken>>16)
	n0 := bits.OnesCount8(f0)
	return uint32(squeezeTable[f0][uint8(set)]) | uint32(squeezeTable[f1][uint8(set>>8)])<<n0 |
		uint32(squeezeTable[f2][uint8(set>>16)])<<(n0+bits.OnesCount8(f1))
}

// squeezeTable[f][b] is the bits of b that are in f, each moved down past
// the bits below it that are not in f.
var squeezeTable [256][256]uint8

func init() {
	for f := range 256 {
		for b := range 256 {
			var c uint8
			q := 0
			for p := range 8 {
				if f>>p&1 != 0 {
					if b>>p&1 != 0 {
						c |= 1 << q
					}
					q++
				}
			}
			squeezeTable[f][b] = c
			spreadTable[f][c] |= uint8(f & b)
		}
	}
	for j := range 3 {
		for b := range 256 {
			for i := range 13 {
				var sum uint64
				t := i
				for p := range 8 {
					if b>>p&1 != 0 {
						t++
						if t <= 24 {
							sum += choose[8*j+p][t]
						}
					}
				}
				colexTable[j][b][i] = uint32(sum)
			}
		}
	}
}

// expand is compress's inverse: the points of c placed on the points not
// in taken, in order, a byte of the board at a time (spreadTable).
func expand(c, taken uint32) uint32 {
	f0, f1, f2 := ^uint8(taken), ^uint8(taken>>8), ^uint8(taken>>16)
	n0, n1 := bits.OnesCount8(f0), bits.OnesCount8(f1)
	return uint32(spreadTable[f0][uint8(c)&(1<<n0-1)]) | uint32(spreadTable[f1][uint8(c>>n0)&(1<<n1-1)])<<8 |
		uint32(spreadTable[f2][uint8(c>>(n0+n1))])<<16
}

// spreadTable[f][c] is the bits of f kept where c has a bit for them: the
// i-th lowest bit of f where c's bit i is set (squeezeTable's inverse).
var spreadTable [256][256]uint8

// The 16 symmetries of the board: the 8 of the square (on the points'
// places in a 7 x 7 grid, columns a-g and rows 7-1) times the swap of the
// inner and outer squares. Each maps lines to lines and mills to mills,
// Morabaraba's diagonals included (a7-b6-c5 onto c5-b6-a7).
var symmetries [16][24]int

// symmetryTables[k][j][b] is the image under symmetry k of the points of
// byte j of a set whose bits are b.
var symmetryTables [16][3][256]uint32

func init() {
	var grid [24][2]int // each point's row and column in the grid, row 7 first
	at := map[[2]int]int{}
	for p, name := range pointNames {
		grid[p] = [2]int{int('7' - name[1]), int(name[0] - 'a')}
		at[grid[p]] = p
	}
	square := func(k int, r, c int) (int, int) {
		for range k % 4 { // a quarter turn
			r, c = c, 6-r
		}
		if k >= 4 { // then a mirror
			c = 6 - c
		}
		return r, c
	}
	swapRings := func(r, c int) (int, int) {
		ring := min(r, c, 6-r, 6-c) // 0 outer, 1 middle, 2 inner
		half := 3 - ring            // the ring's half side
		scale := func(x int) int { return 3 + (x-3)/half*(3-(2-ring)) }
		return scale(r), scale(c)
	}
	for k := range 16 {
		for p := range 24 {
			r, c := square(k%8, grid[p][0], grid[p][1])
			if k >= 8 {
				r, c = swapRings(r, c)
			}
			q, ok := at[[2]int{r, c}]
			if !ok {
				panic(fmt.Sprintf("morris: symmetry %d maps %s off the board", k, pointNames[p]))
			}
			symmetries[k][p] = q
		}
		for j := range 3 {
			for b := range 256 {
				var img uint32
				for i := range 8 {
					if b>>i&1 != 0 {
						img |= 1 << symmetries[k][8*j+i]
					}
				}
				symmetryTables[k][j][b] = img
			}
		}
	}
}

// image returns the image of set under symmetry k.
func image(k int, set uint32) uint32 {
	t := &symmetryTables[k]
	return t[0][set&0xff] | t[1][set>>8&0xff] | t[2][set>>16&0xff]
}
