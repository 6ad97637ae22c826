// Package square holds what the games on a square board share: the 8
// symmetries of the square as byte-wise tables over sets of cells (bit
// r*n + c for row r and column c), and the board as text, for quixo and
// teeko. It is internal: no user imports it.
package square

import (
	"fmt"
	"strings"
)

// MaxCells is the most cells a board may have: sets are uint32 masks.
const MaxCells = 32

// A Map is one symmetry of the board as tables, a byte of the set at a
// time: the image of a set is the union of its bytes' images.
type Map [4][256]uint32

// Apply returns the image of the set of cells m.
func (t *Map) Apply(m uint32) uint32 {
	return t[0][m&0xff] | t[1][m>>8&0xff] | t[2][m>>16&0xff] | t[3][m>>24]
}

// Symmetries returns the 8 symmetries of the n x n board, the identity
// first: symmetry k turns the board a quarter turn k&3 times, then, for k
// >= 4, mirrors it left to right. It panics if n*n > MaxCells.
func Symmetries(n int) *[8]Map {
	if n < 1 || n*n > MaxCells {
		panic(fmt.Sprintf("square: a %d x %d board has more than %d cells", n, n, MaxCells))
	}
	var sym [8]Map
	for k := range sym {
		for cell := range n * n {
			r, c := cell/n, cell%n
			for range k & 3 {
				r, c = c, n-1-r
			}
			if k >= 4 {
				c = n - 1 - c
			}
			to := uint32(1) << (r*n + c)
			for b := range 256 {
				if b&(1<<(cell%8)) != 0 {
					sym[k][cell/8][b] |= to
				}
			}
		}
	}
	return &sym
}

// A Map16 is a symmetry of a board of at most 16 cells, as Map but in a
// quarter of the space: the tables of all 8 stay in a few kilobytes of L1
// cache, which the hot loops of quixo's canonical forms feel.
type Map16 [2][256]uint16

// Apply returns the image of the set of cells m (below 1<<16).
func (t *Map16) Apply(m uint32) uint32 { return uint32(t[0][m&0xff] | t[1][m>>8&0xff]) }

// Symmetries16 returns Symmetries(n) as Map16s, for n*n <= 16.
func Symmetries16(n int) *[8]Map16 {
	if n*n > 16 {
		panic(fmt.Sprintf("square: a %d x %d board has more than 16 cells", n, n))
	}
	var sym16 [8]Map16
	for k, m := range Symmetries(n) {
		for j := range 2 {
			for b := range 256 {
				sym16[k][j][b] = uint16(m[j][b])
			}
		}
	}
	return &sym16
}

// Describe returns the n x n board with X on the cells of x and O on those
// of o: a line per row of 'X', 'O' and '.', then "X to move" (turn 0) or
// "O to move" (turn 1).
func Describe(n int, x, o uint32, turn uint64) string {
	var b strings.Builder
	for cell := range n * n {
		switch bit := uint32(1) << cell; {
		case x&bit != 0:
			b.WriteByte('X')
		case o&bit != 0:
			b.WriteByte('O')
		default:
			b.WriteByte('.')
		}
		if cell%n == n-1 {
			b.WriteByte('\n')
		}
	}
	b.WriteString([]string{"X to move\n", "O to move\n"}[turn&1])
	return b.String()
}

// Parse reads a board as Describe writes it: n rows of n cells from "XO.",
// then "X to move" or "O to move", the lines separated by newlines or
// slashes ("X../.O./.../X to move" is a position too), white space around
// them ignored. Errors say which row or cell is wrong.
func Parse(n int, s string) (x, o uint32, turn uint64, err error) {
	fields := strings.FieldsFunc(strings.TrimSpace(s), func(r rune) bool { return r == '\n' || r == '/' })
	if len(fields) != n+1 {
		return 0, 0, 0, fmt.Errorf("want %d rows of %d cells and a line \"X to move\" or \"O to move\", got %d lines", n, n, len(fields))
	}
	for r, row := range fields[:n] {
		row = strings.TrimSpace(row)
		if len(row) != n {
			return 0, 0, 0, fmt.Errorf("row %d has %d cells, want %d", r+1, len(row), n)
		}
		for c := range n {
			bit := uint32(1) << (r*n + c)
			switch row[c] {
			case 'X':
				x |= bit
			case 'O':
				o |= bit
			case '.':
			default:
				return 0, 0, 0, fmt.Errorf("row %d, column %d: %q is not 'X', 'O' or '.'", r+1, c+1, row[c])
			}
		}
	}
	switch strings.Join(strings.Fields(fields[n]), " ") {
	case "X to move":
	case "O to move":
		turn = 1
	default:
		return 0, 0, 0, fmt.Errorf("%q: want \"X to move\" or \"O to move\"", strings.TrimSpace(fields[n]))
	}
	return x, o, turn, nil
}
