package graph

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkFromEdges builds the graph of retro bench's graph-1e7x2
// workload (10^7 vertices, 2x10^7 random edges) from its edge lists.
func BenchmarkFromEdges(b *testing.B) {
	const n, m = 10_000_000, 20_000_000
	r := rand.New(rand.NewPCG(1, 1))
	src, dst := make([]uint32, m), make([]uint32, m)
	for i := range src {
		src[i], dst[i] = uint32(r.Uint64N(n)), uint32(r.Uint64N(n))
	}
	s, d := make([]uint32, m), make([]uint32, m)
	b.SetBytes(8 * m)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		copy(s, src) // FromEdges takes them over
		copy(d, dst)
		b.StartTimer()
		FromEdges(n, s, d)
	}
}
