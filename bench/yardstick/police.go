// Package yardstick holds solvers written by hand for one game each, as
// fast as plain Go allows: no interface call, no generic lanes, no batches.
// They are what the engine's benchmarks measure the cost of being generic
// against (BenchmarkPolice), and their results must equal the engine's.
package yardstick

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/retro-solver/retro/implicit/police"
)

// Police is a solved policeman-and-thief board, indexed as police.Game
// indexes positions: (policeman's cell * F + thief's cell) * 2 + turn, over
// the F free cells in reading order, turn 0 for the policeman.
type Police struct {
	state []uint32 // per position: value code << 30 | depth (a move count while unresolved)
	free  uint64
}

// The value codes, as engine.Value numbers them.
const (
	draw = 0
	win  = 1
	loss = 2
)

const codeShift = 30

// Value returns the value code of index i: 0 draw, 1 win, 2 loss (the
// numbers of engine.Value).
func (s *Police) Value(i uint64) uint8 { return uint8(s.state[i] >> codeShift) }

// Depth returns the depth of index i, 0 for a draw.
func (s *Police) Depth(i uint64) uint64 {
	if s.state[i]>>codeShift == draw {
		return 0
	}
	return uint64(s.state[i] & (1<<codeShift - 1))
}

// Size returns the number of indices, 2F^2.
func (s *Police) Size() uint64 { return uint64(len(s.state)) }

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
func SolvePolice(b *police.Board, workers int) (*Police, error) {
	t := tables(b)
	n := 2 * t.free * t.free
	if n >= 1<<32 {
		return nil, fmt.Errorf("yardstick: %d positions, more than 2^32", n)
	}
	workers = max(workers, 1)
	s := &Police{state: make([]uint32, n), free: t.free}
	lists := make([][]uint32, workers)
	var wg sync.WaitGroup

	// Classify: a row of policeman cells per task.
	var nextP atomic.Uint64
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				p := nextP.Add(1) - 1
				if p >= t.free {
					return
				}
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
			}
		}()
	}
	wg.Wait()

	next := make([][]uint32, workers)
	for depth := uint32(0); ; depth++ {
		var frontier []uint32
		for w := range lists {
			frontier = append(frontier, lists[w]...)
			lists[w] = lists[w][:0]
		}
		if len(frontier) == 0 {
			return s, nil
		}
		var cursor atomic.Uint64
		const chunk = 1024
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out := next[w][:0]
				for {
					lo := cursor.Add(chunk) - chunk
					if lo >= uint64(len(frontier)) {
						break
					}
					for _, x := range frontier[lo:min(lo+chunk, uint64(len(frontier)))] {
						out = s.expand(&t, uint64(x), depth, out)
					}
				}
				next[w] = out
			}()
		}
		wg.Wait()
		lists, next = next, lists
	}
}

// expand writes frontier position x's depth and resolves what its value
// decides among its predecessors, appending the positions it resolves to
// out.
func (s *Police) expand(t *board, x uint64, depth uint32, out []uint32) []uint32 {
	st := s.state
	code := atomic.LoadUint32(&st[x]) >> codeShift
	atomic.StoreUint32(&st[x], code<<codeShift|depth)
	pq, turn := x>>1, x&1
	p, q := pq/t.free, pq%t.free
	resolve := func(pred uint64) {
		if atomic.LoadUint32(&st[pred])>>codeShift != draw {
			return
		}
		if code == loss {
			if atomic.OrUint32(&st[pred], win<<codeShift)>>codeShift == draw {
				out = append(out, uint32(pred))
			}
		} else if atomic.AddUint32(&st[pred], ^uint32(0)) == 0 {
			atomic.StoreUint32(&st[pred], loss<<codeShift)
			out = append(out, uint32(pred))
		}
	}
	if turn == 1 {
		// The policeman moved last, from a neighbour of p or passing; the
		// thief stood on q, which is not an exit.
		if t.exit[q] {
			return out
		}
		if p != q {
			resolve((p*t.free + q) << 1)
		}
		for _, c := range t.nb[p] {
			if c >= 0 && uint64(c) != q {
				resolve((uint64(c)*t.free + q) << 1)
			}
		}
		return out
	}
	// The thief moved last, from a neighbour of q or passing, from a
	// position that was not over.
	if p != q && !t.exit[q] {
		resolve((p*t.free+q)<<1 | 1)
	}
	for _, c := range t.nb[q][:4] {
		if c >= 0 && uint64(c) != p && !t.exit[c] {
			resolve((p*t.free+uint64(c))<<1 | 1)
		}
	}
	return out
}
