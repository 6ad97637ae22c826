package bitset

import (
	"math/rand/v2"
	"testing"
)

const benchN = 1 << 24

func randomIndices(n, k uint64) []uint64 {
	r := rand.New(rand.NewPCG(7, 7))
	idx := make([]uint64, k)
	for i := range idx {
		idx[i] = r.Uint64N(n)
	}
	return idx
}

func BenchmarkSetTestAndAdd(b *testing.B) {
	s := NewSet(benchN)
	idx := randomIndices(benchN, 1<<16)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i&(1<<16-1) == 0 {
			s.Clear()
		}
		s.TestAndAdd(idx[i&(1<<16-1)])
	}
}

func BenchmarkTwoBitsCount(b *testing.B) {
	p := NewTwoBits(benchN)
	b.SetBytes(benchN / 4)
	for i := 0; i < b.N; i++ {
		p.Count(1, benchN)
	}
}

func BenchmarkCountersDec(b *testing.B) {
	for _, width := range []uint{16, 32} {
		b.Run("width="+map[uint]string{16: "16", 32: "32"}[width], func(b *testing.B) {
			c := NewCounters(benchN, width)
			for i := range uint64(benchN) {
				c.Set(i, c.Max())
			}
			idx := randomIndices(benchN, 1<<16)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c.Dec(idx[i&(1<<16-1)])
			}
		})
	}
}
