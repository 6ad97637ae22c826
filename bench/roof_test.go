package bench

import (
	"fmt"
	"testing"
)

func TestAtomicRate(t *testing.T) {
	if r := AtomicRate(1<<20, 2, 1<<16); r <= 0 {
		t.Fatalf("AtomicRate = %v", r)
	}
}

// BenchmarkAtomicRMW is the roof the engines' edge rates are compared with:
// random atomic adds over arrays of the engine benchmarks' lane sizes.
func BenchmarkAtomicRMW(b *testing.B) {
	for _, size := range []uint64{1 << 20, 54 << 20, 1 << 30} {
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("bytes=%d/workers=%d", size, w), func(b *testing.B) {
				rate := AtomicRate(size, w, uint64(b.N))
				b.ReportMetric(rate, "ops/s")
			})
		}
	}
}
