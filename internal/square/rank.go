package square

import (
	"math/bits"
	"sync"
)

// Sets of cells are numbered, among the sets of their size, in
// colexicographic order: the set {c_1 < c_2 < ... < c_k} has rank
// C(c_1, 1) + C(c_2, 2) + ... + C(c_k, k), so the sets within the first m
// cells come first and ranks need no board size.

// Binom holds C(n, k) for n, k <= MaxCells.
var Binom = func() (b [MaxCells + 1][MaxCells + 1]uint64) {
	for n := range MaxCells + 1 {
		b[n][0] = 1
		for k := 1; k <= n; k++ {
			b[n][k] = b[n-1][k-1] + b[n-1][k]
		}
	}
	return b
}()

// rankTables are the byte tables of Rank, Compress and Expand.
type rankTables struct {
	// rank[j][below][b]: the part of a rank from the cells b of byte j when
	// below cells of the set lie in the bytes under it.
	rank [4][MaxCells + 1][256]uint32
	// pext[f][b]: the bits of b where f has ones, packed down; pdep[f][c]
	// puts them back.
	pext, pdep [256][256]uint8
	// unrank16[k][r]: the set of k of the first 16 cells of rank r;
	// rank16[m] the rank of m, a set of the first 16 cells.
	unrank16 [17][]uint16
	rank16   [1 << 16]uint16
}

var tables = sync.OnceValue(func() *rankTables {
	t := new(rankTables)
	for j := range 4 {
		for below := range MaxCells + 1 {
			for b := range 256 {
				var r uint64
				i := below + 1
				for m := uint32(b); m != 0 && i <= MaxCells; m &= m - 1 {
					r += Binom[8*j+bits.TrailingZeros32(m)][i]
					i++
				}
				t.rank[j][below][b] = uint32(r)
			}
		}
	}
	for k := range 17 {
		t.unrank16[k] = make([]uint16, 0, Binom[16][k])
	}
	for m := range 1 << 16 { // in increasing order, which is colex order within each size
		k := bits.OnesCount32(uint32(m))
		t.rank16[m] = uint16(len(t.unrank16[k]))
		t.unrank16[k] = append(t.unrank16[k], uint16(m))
	}
	for f := range 256 {
		for b := range 256 {
			var packed, k uint8
			for c := range 8 {
				if f&(1<<c) != 0 {
					if b&(1<<c) != 0 {
						packed |= 1 << k
					}
					k++
				}
			}
			t.pext[f][b] = packed
			t.pdep[f][packed] = uint8(b & f)
		}
	}
	return t
})

// Ranker numbers sets of cells (bit c for cell c, at most MaxCells cells).
// The zero value is ready to use: its tables (about 100 KB) are built once
// and shared.
type Ranker struct{ t *rankTables }

// NewRanker returns a Ranker with its tables built.
func NewRanker() Ranker { return Ranker{tables()} }

// Rank returns the colexicographic rank of m among the sets of its size.
func (r Ranker) Rank(m uint32) uint64 {
	b0, b1, b2 := m&0xff, m>>8&0xff, m>>16&0xff
	n0 := bits.OnesCount32(b0)
	n1 := n0 + bits.OnesCount32(b1)
	n2 := n1 + bits.OnesCount32(b2)
	t := &r.t.rank
	return uint64(t[0][0][b0]) + uint64(t[1][n0][b1]) + uint64(t[2][n1][b2]) + uint64(t[3][n2][m>>24])
}

// Rank16 is Rank for a set of the first 16 cells: one lookup.
func (r Ranker) Rank16(m uint32) uint64 { return uint64(r.t.rank16[m&0xffff]) }

// Compress16 is Compress for sets of the first 16 cells.
func (r Ranker) Compress16(m, free uint32) uint32 {
	f0 := uint8(free)
	return uint32(r.t.pext[f0][uint8(m)]) | uint32(r.t.pext[uint8(free>>8)][uint8(m>>8)])<<bits.OnesCount8(f0)
}

// Expand16 is Expand for sets of the first 16 cells: two lookups.
func (r Ranker) Expand16(c, free uint32) uint32 {
	f0, f1 := uint8(free), uint8(free>>8)
	k0, k1 := bits.OnesCount8(f0), bits.OnesCount8(f1)
	return uint32(r.t.pdep[f0][uint8(c)&(1<<k0-1)]) | uint32(r.t.pdep[f1][uint8(c>>k0)&(1<<k1-1)])<<8
}

// Unrank returns the set of k cells, all below cells, of rank rank.
func (r Ranker) Unrank(k, cells int, rank uint64) uint32 {
	if cells <= 16 {
		return uint32(r.t.unrank16[k][rank])
	}
	var m uint32
	for c := cells - 1; k > 0; c-- {
		if b := Binom[c][k]; b <= rank {
			m |= 1 << c
			rank -= b
			k--
		}
	}
	return m
}

// Compress returns the cells of m that lie in free, renumbered among the
// cells of free (the i-th cell of free becomes cell i).
func (r Ranker) Compress(m, free uint32) uint32 {
	var out uint32
	shift := 0
	for j := 0; j < 32; j += 8 {
		f := uint8(free >> j)
		out |= uint32(r.t.pext[f][uint8(m>>j)]) << shift
		shift += bits.OnesCount8(f)
	}
	return out
}

// Expand is Compress's inverse: it puts cell i of c on the i-th cell of
// free.
func (r Ranker) Expand(c, free uint32) uint32 {
	var out uint32
	for j := 0; j < 32; j += 8 {
		f := uint8(free >> j)
		k := bits.OnesCount8(f)
		out |= uint32(r.t.pdep[f][uint8(c)&(1<<k-1)]) << j
		c >>= k
	}
	return out
}
