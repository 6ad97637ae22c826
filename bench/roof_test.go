package bench

import "testing"

func TestAtomicRate(t *testing.T) {
	if r := AtomicRate(1<<20, 2, 1<<16); r <= 0 {
		t.Fatalf("AtomicRate = %v", r)
	}
}
