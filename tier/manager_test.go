package tier

import (
	"slices"
	"testing"

	"github.com/retro-solver/retro/implicit"
)

// TestSplitToldLast hands out a split tier to every rank, idle in each
// order, and checks that rank 0's own worker is told last: it starts the
// tier's first collective at once, holding rank 0's communicator, and a
// message to a rank not yet told would wait behind it for ever (an MPI
// solve hung so, its rank 0 in MPI_Allreduce, rank 1 waiting for its
// message).
func TestSplitToldLast(t *testing.T) {
	tiers := []implicit.Tier{{Name: "big", Start: 0, End: 100}}
	for _, idle := range [][]int{{0, 1, 2}, {1, 0, 2}, {2, 1, 0}, {0}} {
		m := newManager(tiers, []int{0}, len(idle))
		m.split[0] = true
		m.idle = slices.Clone(idle)
		var told []int
		err := m.handOut(func(r int, msg []uint64) error {
			if msg[0] != msgSplit || msg[1] != 0 {
				t.Fatalf("idle %v: rank %d sent %v, want a split of tier 0", idle, r, msg)
			}
			told = append(told, r)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(told) != len(idle) || told[len(told)-1] != 0 {
			t.Fatalf("idle %v: told %v, want every rank, rank 0 last", idle, told)
		}
		if got := slices.Sorted(slices.Values(told)); !slices.Equal(got, slices.Sorted(slices.Values(idle))) {
			t.Fatalf("idle %v: told %v", idle, told)
		}
	}
}
