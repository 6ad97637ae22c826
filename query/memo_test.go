package query

import (
	"sync/atomic"
	"testing"
)

// TestMemoSlots checks that a memo of any length, a power of two or not,
// puts indices in every one of its entries and in none past its end: the
// memory a command's plan sets aside for it is all used.
func TestMemoSlots(t *testing.T) {
	for _, n := range []int{1, 3, 5, 125, 1000, 4096} {
		w := &winDepths{memo: make([]atomic.Uint64, n)}
		used := make([]bool, n)
		for i := range uint64(20 * n) {
			s := w.memoSlot(i)
			if s >= uint64(n) {
				t.Fatalf("memo of %d entries: index %d at entry %d", n, i, s)
			}
			used[s] = true
		}
		for s, u := range used {
			if !u {
				t.Fatalf("memo of %d entries: entry %d holds none of the first %d indices", n, s, 20*n)
			}
		}
	}
}
