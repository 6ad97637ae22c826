package pawns

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// Random returns a board of the given size with each cell a wall with
// probability walls, two red pawns and a black pawn (not in row 1) on free
// cells; the same arguments give the same board. It needs rows >= 2 and at
// least three cells; it clears walls where it must to place the pawns.
func Random(rows, cols int, walls float64, seed uint64) *Board {
	if rows < 2 || rows*cols < 3 || rows > MaxSide || cols > MaxSide {
		panic(fmt.Sprintf("pawns: Random board of %d x %d", rows, cols))
	}
	r := rand.New(rand.NewPCG(seed, 0x7061776e73))
	b := &Board{Rows: rows, Cols: cols}
	var free [][2]int
	for i := range rows {
		for j := range cols {
			if r.Float64() < walls {
				b.Wall[i][j] = true
			}
		}
	}
	// The black pawn stands below row 1, and the red pawns anywhere free.
	black := [2]int{1 + r.IntN(rows-1), r.IntN(cols)}
	b.Wall[black[0]][black[1]] = false
	b.Black = black
	for i := range rows {
		for j := range cols {
			if !b.Wall[i][j] && [2]int{i, j} != black {
				free = append(free, [2]int{i, j})
			}
		}
	}
	for len(free) < 2 {
		c := [2]int{r.IntN(rows), r.IntN(cols)}
		if b.Wall[c[0]][c[1]] {
			b.Wall[c[0]][c[1]] = false
			free = append(free, c)
		}
	}
	perm := r.Perm(len(free))
	b.Red = [2][2]int{free[perm[0]], free[perm[1]]}
	return b
}

// String returns the board in the input format: `n m` and the rows. A
// black pawn on a red one, a finished game and never an input, is '@'.
func (b *Board) String() string {
	var s strings.Builder
	fmt.Fprintf(&s, "%d %d\n", b.Rows, b.Cols)
	for i := range b.Rows {
		for j := range b.Cols {
			ch := byte('.')
			switch {
			case b.Wall[i][j]:
				ch = '#'
			case [2]int{i, j} == b.Black && (b.Black == b.Red[0] || b.Black == b.Red[1]):
				ch = '@' // black on a red pawn: a game already over
			case [2]int{i, j} == b.Black:
				ch = 'X'
			case [2]int{i, j} == b.Red[0] || [2]int{i, j} == b.Red[1]:
				ch = 'O'
			}
			s.WriteByte(ch)
		}
		s.WriteByte('\n')
	}
	return s.String()
}

// Write writes boards as one LOJ input, with test group id 0.
func Write(w io.Writer, boards []*Board) error {
	if _, err := fmt.Fprintf(w, "0 %d\n", len(boards)); err != nil {
		return err
	}
	for _, b := range boards {
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

// WallRow walls off a whole row between the pieces, the first one below row
// 1 that holds no pawn, and reports whether there was one.
func (b *Board) WallRow() bool {
	for row := 1; row < b.Rows; row++ {
		if row != b.Black[0] && row != b.Red[0][0] && row != b.Red[1][0] {
			for c := range b.Cols {
				b.Wall[row][c] = true
			}
			return true
		}
	}
	return false
}
