package yardstick

import (
	"fmt"

	"github.com/retro-solver/retro/implicit/pawns"
)

// pawnsTables is what the pawns yardstick knows of a board: its free cells
// in reading order, their rows, colour parities and neighbours (up, down,
// left, right, -1 for none), K (the free cells in rows up to black's
// starting row) and the index of the pair ranks.
type pawnsTables struct {
	free, k int
	row     []int
	parity  []uint8
	nb      [][4]int
	base    []uint64 // base[b] = b(b-1)/2 * K
	pairA   []uint16 // pairA[r], pairB[r]: the cells a < b of pair rank r = b(b-1)/2 + a
	pairB   []uint16
	redMove uint8 // the parity of a position with Red to move
}

func pawnsTablesOf(b *pawns.Board) (pawnsTables, [3]int) {
	var t pawnsTables
	var id [pawns.MaxSide][pawns.MaxSide]int
	for r := range b.Rows {
		for c := range b.Cols {
			id[r][c] = -1
			if !b.Wall[r][c] {
				id[r][c] = t.free
				t.free++
				t.row = append(t.row, r)
				t.parity = append(t.parity, uint8((r+c)&1))
				if r <= b.Black[0] {
					t.k++
				}
			}
		}
	}
	at := func(r, c int) int {
		if r < 0 || r >= b.Rows || c < 0 || c >= b.Cols {
			return -1
		}
		return id[r][c]
	}
	for r := range b.Rows {
		for c := range b.Cols {
			if id[r][c] >= 0 {
				t.nb = append(t.nb, [4]int{at(r-1, c), at(r+1, c), at(r, c-1), at(r, c+1)})
			}
		}
	}
	for hi := range t.free {
		t.base = append(t.base, uint64(hi*(hi-1)/2)*uint64(t.k))
		for lo := range hi {
			t.pairA, t.pairB = append(t.pairA, uint16(lo)), append(t.pairB, uint16(hi))
		}
	}
	start := [3]int{at(b.Red[0][0], b.Red[0][1]), at(b.Red[1][0], b.Red[1][1]), at(b.Black[0], b.Black[1])}
	t.redMove = t.parity[start[0]] ^ t.parity[start[1]] ^ t.parity[start[2]]
	return t, start
}

func (t *pawnsTables) index(a, b, c int) uint64 {
	if a > b {
		a, b = b, a
	}
	return t.base[b] + uint64(a*t.k+c)
}

// SolvePawns solves the river-crossing pawns board b on the given number
// of goroutines, as SolvePolice does police. The result is indexed as
// pawns.Game indexes positions: rank(a, b) * K + c for red pawns on free
// cells a < b and the black pawn on c, rank(a, b) = b(b-1)/2 + a.
func SolvePawns(b *pawns.Board, workers int) (*Solution, error) {
	t, _ := pawnsTablesOf(b)
	n := uint64(t.free*(t.free-1)/2) * uint64(t.k)
	if n >= 1<<32 {
		return nil, fmt.Errorf("yardstick: %d positions, more than 2^32", n)
	}
	workers = max(workers, 1)
	s := &Solution{state: make([]uint32, n)}
	lists := make([][]uint32, workers)
	// Classify: the positions of one higher red cell per task.
	tasks(workers, uint64(t.free), func(w int, hi uint64) {
		bb := int(hi)
		for a := range bb {
			for c := range t.k {
				i := t.index(a, bb, c)
				red := t.parity[a]^t.parity[bb]^t.parity[c] == t.redMove
				switch {
				case t.row[c] == 0: // black reached the first row: it has won
					s.state[i] = win << codeShift
					if red {
						s.state[i] = loss << codeShift
					}
					lists[w] = append(lists[w], uint32(i))
				case c == a || c == bb: // black on a red pawn: the mover lost
					s.state[i] = loss << codeShift
					lists[w] = append(lists[w], uint32(i))
				case red:
					var k uint32
					for d := range 4 {
						if x := t.nb[a][d]; x >= 0 && x != bb {
							k++
						}
						if x := t.nb[bb][d]; x >= 0 && x != a {
							k++
						}
					}
					s.state[i] = k
				default:
					var k uint32
					for _, d := range [3]int{0, 2, 3} { // up, left, right
						if t.nb[c][d] >= 0 {
							k++
						}
					}
					s.state[i] = k
				}
				if s.state[i] == 0 { // no move: a loss
					s.state[i] = loss << codeShift
					lists[w] = append(lists[w], uint32(i))
				}
			}
		}
	})
	levels(workers, lists, func(x uint64, depth uint32, out []uint32) []uint32 {
		return s.expandPawns(&t, x, depth, out)
	})
	return s, nil
}

// expandPawns writes frontier position x's depth and resolves what its
// value decides among its predecessors (pawns.Game's Unmoves, written out).
func (s *Solution) expandPawns(t *pawnsTables, x uint64, depth uint32, out []uint32) []uint32 {
	st := s.state
	code := settle(st, x, depth)
	pr, c := x/uint64(t.k), int(x%uint64(t.k))
	a, b := int(t.pairA[pr]), int(t.pairB[pr])
	if t.parity[a]^t.parity[b]^t.parity[c] == t.redMove {
		// Black moved last, from below, the right or the left.
		for _, d := range [3]int{1, 3, 2} {
			if p := t.nb[c][d]; p >= 0 && p < t.k && t.row[p] != 0 && p != a && p != b {
				out = resolve(st, t.index(a, b, p), code, out)
			}
		}
		return out
	}
	if t.row[c] == 0 {
		return out
	}
	for d := range 4 {
		if p := t.nb[a][d]; p >= 0 && p != b && p != c && c != b {
			out = resolve(st, t.index(p, b, c), code, out)
		}
		if p := t.nb[b][d]; p >= 0 && p != a && p != c && c != a {
			out = resolve(st, t.index(a, p, c), code, out)
		}
	}
	return out
}
