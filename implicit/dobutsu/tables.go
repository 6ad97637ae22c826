package dobutsu

import (
	"math/bits"
	"sync"
)

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
