package yardstick

import (
	"sync"
	"sync/atomic"
)

// Solution is a solved board: a value code and a depth per index.
type Solution struct {
	state []uint32 // per position: value code << 30 | depth (a move count while unresolved)
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
func (s *Solution) Value(i uint64) uint8 { return uint8(s.state[i] >> codeShift) }

// Depth returns the depth of index i, 0 for a draw.
func (s *Solution) Depth(i uint64) uint64 {
	if s.state[i]>>codeShift == draw {
		return 0
	}
	return uint64(s.state[i] & (1<<codeShift - 1))
}

// Size returns the number of indices.
func (s *Solution) Size() uint64 { return uint64(len(s.state)) }

// tasks calls body(w, k) for every k in [0, n) on the given number of
// goroutines, w being the goroutine's number, each claiming the next k.
func tasks(workers int, n uint64, body func(w int, k uint64)) {
	var next atomic.Uint64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := next.Add(1) - 1; k < n; k = next.Add(1) - 1 {
				body(w, k)
			}
		}()
	}
	wg.Wait()
}

// levels runs the levels of a retrograde solve: the frontier of depth 0 is
// the concatenation of lists (one per worker); at each depth the workers
// take chunks of the frontier and expand each position with expand, which
// appends the positions it resolves to out, the next frontier. It returns
// when a frontier is empty. One call of expand per frontier position, none
// per edge.
func levels(workers int, lists [][]uint32, expand func(x uint64, depth uint32, out []uint32) []uint32) {
	next := make([][]uint32, workers)
	var wg sync.WaitGroup
	for depth := uint32(0); ; depth++ {
		var frontier []uint32
		for w := range lists {
			frontier = append(frontier, lists[w]...)
			lists[w] = lists[w][:0]
		}
		if len(frontier) == 0 {
			return
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
						out = expand(uint64(x), depth, out)
					}
				}
				next[w] = out
			}()
		}
		wg.Wait()
		lists, next = next, lists
	}
}

// settle writes frontier position x's depth into its state and returns
// its value code.
func settle(st []uint32, x uint64, depth uint32) uint32 {
	code := atomic.LoadUint32(&st[x]) >> codeShift
	atomic.StoreUint32(&st[x], code<<codeShift|depth)
	return code
}

// resolve settles predecessor pred of a frontier position of value code
// (win or loss) in the packed states st: a predecessor of a loss is claimed
// as a win with an atomic OR, a predecessor of a win has its move count
// decremented and is a loss at zero. The positions resolved are appended
// to out.
func resolve(st []uint32, pred uint64, code uint32, out []uint32) []uint32 {
	if atomic.LoadUint32(&st[pred])>>codeShift != draw {
		return out
	}
	if code == loss {
		if atomic.OrUint32(&st[pred], win<<codeShift)>>codeShift == draw {
			out = append(out, uint32(pred))
		}
	} else if atomic.AddUint32(&st[pred], ^uint32(0)) == 0 {
		atomic.StoreUint32(&st[pred], loss<<codeShift)
		out = append(out, uint32(pred))
	}
	return out
}
