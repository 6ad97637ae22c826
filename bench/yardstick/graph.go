package yardstick

import (
	"fmt"

	"github.com/retro-solver/retro/implicit/graph"
)

// Graph is an explicit graph copied into the arrays the graph yardstick
// walks: the in-edges of each vertex (CSR, 32-bit ids) and each vertex's
// out-degree. The copy is made once, before any timing, so that the
// yardstick and the engine solve from the same kind of arrays.
type Graph struct {
	revOff, rev []uint32 // in-edges of v: rev[revOff[v]:revOff[v+1]]
	degree      []uint32
}

// NewGraph copies g. Graphs of 2^32 vertices or more, or with a vertex of
// 2^30 moves or more, are refused.
func NewGraph(g *graph.Graph) (*Graph, error) {
	n := g.Size()
	if n >= 1<<32 || g.MaxMoves() >= 1<<codeShift {
		return nil, fmt.Errorf("yardstick: %d vertices, at most %d moves from one: too large", n, g.MaxMoves())
	}
	y := &Graph{revOff: make([]uint32, n+1), rev: make([]uint32, 0, g.Edges()), degree: make([]uint32, n)}
	var buf []uint64
	for v := range n {
		buf = g.Unmoves(v, buf[:0])
		for _, u := range buf {
			y.rev = append(y.rev, uint32(u))
		}
		y.revOff[v+1] = uint32(len(y.rev))
		y.degree[v] = uint32(g.NumMoves(v))
	}
	return y, nil
}

// Solve solves the graph on the given number of goroutines, as SolvePolice
// does a board: a vertex without moves is a loss of depth 0; each level's
// workers walk their share of the frontier's in-edges, claim a predecessor
// of a loss as a win with an atomic OR and count down a predecessor of a
// win with an atomic add.
func (y *Graph) Solve(workers int) *Solution {
	workers = max(workers, 1)
	n := uint64(len(y.degree))
	s := &Solution{state: make([]uint32, n)}
	lists := make([][]uint32, workers)
	const block = 1 << 16
	tasks(workers, (n+block-1)/block, func(w int, b uint64) {
		for v := b * block; v < min(b*block+block, n); v++ {
			if y.degree[v] == 0 {
				s.state[v] = loss << codeShift
				lists[w] = append(lists[w], uint32(v))
			} else {
				s.state[v] = y.degree[v]
			}
		}
	})
	levels(workers, lists, func(x uint64, depth uint32, out []uint32) []uint32 {
		code := settle(s.state, x, depth)
		for _, u := range y.rev[y.revOff[x]:y.revOff[x+1]] {
			out = resolve(s.state, uint64(u), code, out)
		}
		return out
	})
	return s
}
