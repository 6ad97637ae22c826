package yardstick

import (
	"fmt"

	"github.com/retro-solver/retro/implicit/police"
)

// board is the neighbour tables of a board's free cells.
type board struct {
	free uint64
	nb   [][8]int32 // free neighbours: 4 along the axes, then 4 diagonals; -1 for none
	exit []bool
}

func tables(b *police.Board) board {
	id := make([]int32, len(b.Cells))
	var t board
	for i, k := range b.Cells {
		id[i] = -1
		if k != police.Wall {
			id[i] = int32(t.free)
			t.free++
			t.exit = append(t.exit, k == police.Exit)
		}
	}
	dirs := [8][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-1, -1}, {-1, 1}, {1, -1}, {1, 1}}
	for i := range b.Cells {
		if id[i] < 0 {
			continue
		}
		r, c := i/b.Cols, i%b.Cols
		var nb [8]int32
		for d, dd := range dirs {
			nb[d] = -1
			if rr, cc := r+dd[0], c+dd[1]; rr >= 0 && rr < b.Rows && cc >= 0 && cc < b.Cols {
				nb[d] = id[rr*b.Cols+cc]
			}
		}
		t.nb = append(t.nb, nb)
	}
	return t
}

// SolvePolice solves board b on the given number of goroutines, level by
// level: each level's frontier is a list per worker; a worker walks the
// un-moves of its share of the frontier, claims a predecessor of a loss as
// a win with an atomic OR and counts down a predecessor of a win with an
// atomic add. Boards of more than 2^32 positions are refused.
// The result is indexed as police.Game indexes positions: (policeman's cell
// * F + thief's cell) * 2 + turn, over the F free cells in reading order,
// turn 0 for the policeman.
func SolvePolice(b *police.Board, workers int) (*Solution, error) {
	t := tables(b)
	n := 2 * t.free * t.free
	if n >= 1<<32 {
		return nil, fmt.Errorf("yardstick: %d positions, more than 2^32", n)
	}
	workers = max(workers, 1)
	s := &Solution{state: make([]uint32, n)}
	lists := make([][]uint32, workers)
	// Classify: a row of policeman cells per task.
	tasks(workers, t.free, func(w int, p uint64) {
		steps := uint32(1)
		for _, c := range t.nb[p] {
			if c >= 0 {
				steps++
			}
		}
		for q := range t.free {
			i := (p*t.free + q) << 1
			switch {
			case p == q: // caught: the policeman to move has won
				s.state[i], s.state[i+1] = win<<codeShift, loss<<codeShift
				lists[w] = append(lists[w], uint32(i), uint32(i+1))
			case t.exit[q]: // escaped: the thief to move has won
				s.state[i], s.state[i+1] = loss<<codeShift, win<<codeShift
				lists[w] = append(lists[w], uint32(i), uint32(i+1))
			default:
				s.state[i] = steps
				k := uint32(1)
				for _, c := range t.nb[q][:4] {
					if c >= 0 {
						k++
					}
				}
				s.state[i+1] = k
			}
		}
	})

	levels(workers, lists, func(x uint64, depth uint32, out []uint32) []uint32 {
		return s.expandPolice(&t, x, depth, out)
	})
	return s, nil
}

// expand writes frontier position x's depth and resolves what its value
// decides among its predecessors, appending the positions it resolves to
// out.
func (s *Solution) expandPolice(t *board, x uint64, depth uint32, out []uint32) []uint32 {
	st := s.state
	code := settle(st, x, depth)
	pq, turn := x>>1, x&1
	p, q := pq/t.free, pq%t.free
	if turn == 1 {
		// The policeman moved last, from a neighbour of p or passing; the
		// thief stood on q, which is not an exit.
		if t.exit[q] {
			return out
		}
		if p != q {
			out = resolve(st, (p*t.free+q)<<1, code, out)
		}
		for _, c := range t.nb[p] {
			if c >= 0 && uint64(c) != q {
				out = resolve(st, (uint64(c)*t.free+q)<<1, code, out)
			}
		}
		return out
	}
	// The thief moved last, from a neighbour of q or passing, from a
	// position that was not over.
	if p != q && !t.exit[q] {
		out = resolve(st, (p*t.free+q)<<1|1, code, out)
	}
	for _, c := range t.nb[q][:4] {
		if c >= 0 && uint64(c) != p && !t.exit[c] {
			out = resolve(st, (p*t.free+uint64(c))<<1|1, code, out)
		}
	}
	return out
}
