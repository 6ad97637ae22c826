package police

import (
	"fmt"
	"math/rand/v2"
)

// Random returns a board of the given size whose cells are walls with
// probability walls and exits with probability exits, the policeman and the
// thief on two distinct cells that are neither; the same arguments give the
// same board. It needs at least two cells.
func Random(rows, cols int, walls, exits float64, seed uint64) *Board {
	if rows < 1 || cols < 1 || rows*cols < 2 {
		panic(fmt.Sprintf("police: Random board of %d x %d", rows, cols))
	}
	r := rand.New(rand.NewPCG(seed, 0x706f6c696365))
	b := &Board{Rows: rows, Cols: cols, Cells: make([]uint8, rows*cols)}
	for i := range b.Cells {
		switch x := r.Float64(); {
		case x < walls:
			b.Cells[i] = Wall
		case x < walls+exits:
			b.Cells[i] = Exit
		}
	}
	perm := r.Perm(rows * cols)
	p, t := perm[0], perm[1]
	b.Cells[p], b.Cells[t] = Free, Free
	b.Police = [2]int{p / cols, p % cols}
	b.Thief = [2]int{t / cols, t % cols}
	return b
}
