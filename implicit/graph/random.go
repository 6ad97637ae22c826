package graph

import "math/rand/v2"

// Random returns a graph of n vertices and m edges drawn uniformly with the
// given seed: self-loops, repeated edges and isolated vertices happen as
// they fall. The same arguments give the same graph.
func Random(n, m, seed uint64) *Graph {
	if n == 0 {
		m = 0
	}
	r := rand.New(rand.NewPCG(seed, 0x6772617068))
	src := make([]uint32, m)
	dst := make([]uint32, m)
	for i := range src {
		src[i] = uint32(r.Uint64N(n))
		dst[i] = uint32(r.Uint64N(n))
	}
	return FromEdges(n, src, dst)
}
