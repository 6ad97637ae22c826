// Package graph is the explicit game: a directed graph whose vertices are
// positions and whose edges are moves, read from the `graph` text format of
// docs/formats.md and kept as forward and reverse adjacency arrays (CSR) of 32-bit
// vertex ids, so that a 10^7-vertex, 5*10^7-edge graph takes 8 bytes per
// vertex and 8 per edge.
package graph

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// MaxVertices is the most vertices, and MaxEdges the most edges, a Graph
// holds: ids and offsets are 32 bits.
const (
	MaxVertices = 1<<32 - 1
	MaxEdges    = 1<<32 - 1
)

// Graph is a directed graph with n vertices [0, n) in which a vertex with no
// out-edges is a loss for the player to move. It implements implicit.Game.
// A Graph is immutable and safe for concurrent use.
type Graph struct {
	fwdOff, fwd []uint32 // out-edges of u: fwd[fwdOff[u]:fwdOff[u+1]], in input order
	revOff, rev []uint32 // in-edges of v: rev[revOff[v]:revOff[v+1]], by increasing source
	maxOut      uint64
}

var (
	_ implicit.Game            = (*Graph)(nil)
	_ implicit.ClassifyCounter = (*Graph)(nil)
	_ implicit.RangeCounter    = (*Graph)(nil)
	_ implicit.UnmoveCounter   = (*Graph)(nil)
	_ implicit.InEdger         = (*Graph)(nil)
)

// FromEdges returns the graph on n vertices with the edges src[i] -> dst[i].
// It takes over src and dst: dst's storage becomes the reverse adjacency
// array, so that peak memory stays near the graph's own. It panics if the
// slices differ in length, an id is out of range, or the counts exceed
// MaxVertices or MaxEdges (a programming error: parsers check their input
// first). The work is spread over all cores; the result does not depend on
// their number.
func FromEdges(n uint64, src, dst []uint32) *Graph {
	if len(src) != len(dst) || n > MaxVertices || uint64(len(src)) > MaxEdges {
		panic(fmt.Sprintf("graph: FromEdges(%d, %d sources, %d targets)", n, len(src), len(dst)))
	}
	for i := range src {
		if uint64(src[i]) >= n || uint64(dst[i]) >= n {
			panic(fmt.Sprintf("graph: edge %d -> %d out of range [0, %d)", src[i], dst[i], n))
		}
	}
	g := &Graph{fwdOff: make([]uint32, n+1), revOff: make([]uint32, n+1)}

	// Each worker owns a range of vertex ids and scans all edges, writing
	// only the entries of its own vertices: no atomics, no sharing, and
	// every adjacency list keeps a deterministic order (out-edges in input
	// order, in-edges by increasing source).
	ranges := vertexRanges(n, parallel.Workers(0))
	inRanges(ranges, func(lo, span uint32) {
		for i, u := range src {
			if u-lo < span {
				g.fwdOff[u+1]++
			}
			if v := dst[i]; v-lo < span {
				g.revOff[v+1]++
			}
		}
	})
	g.fwd = make([]uint32, len(src))
	cursor := prefixSums(g.fwdOff)
	inRanges(ranges, func(lo, span uint32) {
		for i, u := range src {
			if u-lo < span {
				g.fwd[cursor[u]] = dst[i]
				cursor[u]++
			}
		}
	})
	src = nil
	g.rev, dst = dst, nil // dst is no longer needed: reuse its storage
	cursor = prefixSums(g.revOff)
	inRanges(ranges, func(lo, span uint32) {
		for u := range uint32(n) {
			for _, v := range g.fwd[g.fwdOff[u]:g.fwdOff[u+1]] {
				if v-lo < span {
					g.rev[cursor[v]] = u
					cursor[v]++
				}
			}
		}
	})
	for u := range n {
		g.maxOut = max(g.maxOut, uint64(g.fwdOff[u+1]-g.fwdOff[u]))
	}
	return g
}

// vertexRanges splits [0, n) into up to w ranges [lo, lo+span).
func vertexRanges(n uint64, w int) [][2]uint32 {
	step := max(1, (n+uint64(w)-1)/uint64(w))
	var r [][2]uint32
	for lo := uint64(0); lo < n; lo += step {
		r = append(r, [2]uint32{uint32(lo), uint32(min(step, n-lo))})
	}
	return r
}

// inRanges runs body once per range, all at once.
func inRanges(ranges [][2]uint32, body func(lo, span uint32)) {
	var wg sync.WaitGroup
	for _, r := range ranges {
		wg.Go(func() { body(r[0], r[1]) })
	}
	wg.Wait()
}

// prefixSums turns off[u+1] = count(u) into off[u] = start(u) in place and
// returns a copy of the starts to use as fill cursors.
func prefixSums(off []uint32) []uint32 {
	var sum uint32
	for i := range off {
		sum += off[i]
		off[i] = sum
	}
	return append([]uint32(nil), off[:len(off)-1]...)
}

// Size returns the number of vertices.
func (g *Graph) Size() uint64 { return uint64(len(g.fwdOff) - 1) }

// Bytes returns the memory of the graph's arrays: 4 bytes per vertex and
// per edge, each way.
func (g *Graph) Bytes() uint64 {
	return 4 * uint64(len(g.fwdOff)+len(g.fwd)+len(g.revOff)+len(g.rev))
}

// Edges returns the number of edges.
func (g *Graph) Edges() uint64 { return uint64(len(g.fwd)) }

// Classify returns implicit.Inner: every vertex is a position, and one with
// no moves is lost by the player to move.
func (g *Graph) Classify(uint64) implicit.Kind { return implicit.Inner }

// Moves appends the targets of s's out-edges to dst, in input order.
func (g *Graph) Moves(s uint64, dst []uint64) []uint64 {
	for _, v := range g.fwd[g.fwdOff[s]:g.fwdOff[s+1]] {
		dst = append(dst, uint64(v))
	}
	return dst
}

// Unmoves appends the sources of t's in-edges to dst, in increasing order.
func (g *Graph) Unmoves(t uint64, dst []uint64) []uint64 {
	for _, u := range g.rev[g.revOff[t]:g.revOff[t+1]] {
		dst = append(dst, uint64(u))
	}
	return dst
}

// InEdges returns the graph's in-edges (implicit.InEdger): t's are the
// sources src[off[t]:off[t+1]], in increasing order, what Unmoves(t)
// appends. A type that embeds a Graph and changes Unmoves must hide
// InEdges too.
func (g *Graph) InEdges() (off, src []uint32) { return g.revOff, g.rev }

// NumMoves returns the number of moves of s, its out-degree.
func (g *Graph) NumMoves(s uint64) uint64 { return uint64(g.fwdOff[s+1] - g.fwdOff[s]) }

// ClassifyCount returns Inner and s's out-degree in one call
// (implicit.ClassifyCounter), for the classification pass. A type that
// embeds a Graph and changes Classify must change ClassifyCount too, and
// hide CountMoves (which takes every vertex for inner).
func (g *Graph) ClassifyCount(s uint64) (implicit.Kind, uint64) {
	return implicit.Inner, g.NumMoves(s)
}

// CountMoves writes the out-degrees of the vertices from lo on to counts
// (implicit.RangeCounter): the differences of consecutive offsets.
func (g *Graph) CountMoves(lo uint64, counts []uint32) {
	off := g.fwdOff[lo : lo+uint64(len(counts))+1]
	for j := range counts {
		counts[j] = off[j+1] - off[j]
	}
}

// NumUnmoves returns the number of un-moves of t, its in-degree.
func (g *Graph) NumUnmoves(t uint64) uint64 { return uint64(g.revOff[t+1] - g.revOff[t]) }

// MaxMoves returns the largest out-degree.
func (g *Graph) MaxMoves() uint64 { return g.maxOut }

// Describe returns "vertex s".
func (g *Graph) Describe(s uint64) string { return fmt.Sprintf("vertex %d", s) }

// ParsePosition reads a vertex as Describe writes it, "vertex 7", or as its
// number alone, "7".
func (g *Graph) ParsePosition(text string) (uint64, error) {
	f := strings.Fields(text)
	if len(f) == 2 && f[0] == "vertex" {
		f = f[1:]
	}
	if len(f) != 1 {
		return 0, fmt.Errorf("graph: %q is not a vertex: want \"vertex N\" or N", text)
	}
	v, err := strconv.ParseUint(f[0], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("graph: %q is not a vertex number", f[0])
	}
	if v >= g.Size() {
		return 0, fmt.Errorf("graph: vertex %d out of range [0, %d)", v, g.Size())
	}
	return v, nil
}

var _ implicit.Notation = (*Graph)(nil)

// Write writes g in the `graph` text format that Read reads: "n m", then
// one line "u v" per edge, by source and, for each source, in input order.
func Write(w io.Writer, g *Graph) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "%d %d\n", g.Size(), len(g.fwd))
	var line []byte
	for u := range g.Size() {
		for _, v := range g.fwd[g.fwdOff[u]:g.fwdOff[u+1]] {
			line = strconv.AppendUint(line[:0], u, 10)
			line = append(line, ' ')
			line = strconv.AppendUint(line, uint64(v), 10)
			line = append(line, '\n')
			if _, err := bw.Write(line); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}
