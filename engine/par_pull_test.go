package engine

import "testing"

// sampleRuns times the indices it visits even where they list no move,
// so that a pull over a range of few unresolved positions still costs
// its scan (directions.pull).
func TestSampleRuns(t *testing.T) {
	visited := 0
	perIndex, perMove := sampleRuns(1<<20, 16, func(uint64) uint64 { visited++; return 0 })
	if visited != 16*256 || perIndex <= 0 || perMove != 0 {
		t.Errorf("no moves: %d visited, %v ns an index, %v a move; want 4096, > 0, 0", visited, perIndex, perMove)
	}
	perIndex, perMove = sampleRuns(100, 16, func(uint64) uint64 { return 4 })
	if perIndex <= 0 || perMove*4 != perIndex {
		t.Errorf("4 moves an index: %v ns an index, %v a move", perIndex, perMove)
	}
}
