package implicit

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomList returns k values drawn from [0, span), a fifth of them
// repeats of earlier ones.
func randomList(r *rand.Rand, k int, span uint64) []uint64 {
	xs := make([]uint64, k)
	for i := range xs {
		xs[i] = r.Uint64N(span)
		if i > 0 && r.IntN(5) == 0 {
			xs[i] = xs[r.IntN(i)]
		}
	}
	return xs
}

// TestDistinct checks Distinct against a map of the elements seen: the
// first occurrences, in order, on lists of every length of each of its
// ways (pairwise, the two tables on the stack, one on the heap), zeros
// and the largest value included.
func TestDistinct(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, span := range []uint64{3, 40, 1 << 20, 1<<64 - 1} {
		for k := range 300 {
			xs := randomList(r, k, span)
			if k > 2 {
				xs[r.IntN(k)], xs[r.IntN(k)] = 1<<64-1, 0
			}
			var want []uint64
			seen := map[uint64]bool{}
			for _, x := range xs {
				if !seen[x] {
					seen[x] = true
					want = append(want, x)
				}
			}
			in := slices.Clone(xs)
			if got := Distinct(xs); !slices.Equal(got, want) {
				t.Fatalf("Distinct(%v) = %v, want %v", in, got, want)
			}
		}
	}
}

// BenchmarkDedupe compares SortedSet and Distinct on lists of a
// position's length (a fifth repeats).
func BenchmarkDedupe(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{8, 24, 48} {
		lists := make([][]uint64, 1024)
		for i := range lists {
			lists[i] = randomList(r, k, 1<<26)
		}
		buf := make([]uint64, k)
		for _, f := range []struct {
			name string
			f    func([]uint64) []uint64
		}{{"SortedSet", SortedSet}, {"Distinct", Distinct}} {
			b.Run(fmt.Sprintf("%s/len=%d", f.name, k), func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					copy(buf, lists[i%len(lists)])
					f.f(buf)
				}
			})
		}
	}
}
