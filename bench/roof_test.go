package bench

import (
	"testing"
	"time"
)

func TestAtomicRate(t *testing.T) {
	if r := AtomicRate(1<<20, 2, 1<<16); r <= 0 {
		t.Fatalf("AtomicRate = %v", r)
	}
}

// TestALURate checks that the probe counts its operations: twice the
// operations take longer than once as many (a loop the compiler dropped
// would take no time either way), and the rates are positive.
func TestALURate(t *testing.T) {
	small := ALURate(1, 1<<22)
	if small <= 0 {
		t.Fatalf("ALURate = %v", small)
	}
	start := time.Now()
	ALURate(1, 1<<24)
	long := time.Since(start)
	start = time.Now()
	ALURate(1, 1<<20)
	if short := time.Since(start); short >= long {
		t.Fatalf("ALURate: 2^20 operations took %v, 2^24 took %v", short, long)
	}
	if s := CoreScaling(2, 1<<22, 3); s <= 0 {
		t.Fatalf("CoreScaling = %v", s)
	}
	if s := MemoryScaling(2, 1<<20, 1<<16, 3); s <= 0 {
		t.Fatalf("MemoryScaling = %v", s)
	}
}

// TestPhaseRate checks that the phases count their operations: 64 phases
// take longer than 2 of the same length, and the rates are positive.
func TestPhaseRate(t *testing.T) {
	start := time.Now()
	if r := PhaseRate(2, 1<<18, 64); r <= 0 {
		t.Fatalf("PhaseRate = %v", r)
	}
	long := time.Since(start)
	start = time.Now()
	PhaseRate(2, 1<<18, 2)
	if short := time.Since(start); short >= long {
		t.Fatalf("PhaseRate: 2 phases took %v, 64 took %v", short, long)
	}
	if s := PhaseScaling(2, 100*time.Microsecond, 3); s <= 0 {
		t.Fatalf("PhaseScaling = %v", s)
	}
}
