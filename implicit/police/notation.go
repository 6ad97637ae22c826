package police

import (
	"fmt"
	"sort"
	"strings"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/text"
)

var _ implicit.Notation = (*Game)(nil)

// ParsePosition reads a position of g's board as Describe writes it: "n m",
// the rows of the board with 'P' (or 'C') for the policeman, 'T' for the
// thief and '@' for both on one cell, then "the policeman to move" or "the
// thief to move". Apart from the pieces, which may stand on exits, the
// cells must be g's.
func (g *Game) ParsePosition(s string) (uint64, error) {
	t := text.NewTokens(strings.NewReader(s))
	b := g.board
	cops, thieves := [][2]int{}, [][2]int{}
	rows, cols, err := text.Grid(t, MaxSide, func(r, c int, ch byte) error {
		if r >= b.Rows || c >= b.Cols {
			return fmt.Errorf("row %d, column %d: outside the game's %d x %d board", r+1, c+1, b.Rows, b.Cols)
		}
		kind := b.At(r, c)
		switch ch {
		case 'P', 'C':
			cops = append(cops, [2]int{r, c})
		case 'T':
			thieves = append(thieves, [2]int{r, c})
		case '@':
			cops, thieves = append(cops, [2]int{r, c}), append(thieves, [2]int{r, c})
		case '.', '*', 'E':
			if ".*E"[kind] != ch {
				return fmt.Errorf("row %d, column %d: %q, but the game's board has %q", r+1, c+1, ch, ".*E"[kind])
			}
			return nil
		default:
			return fmt.Errorf("row %d, column %d: unknown cell %q (want '.', '*', 'E', 'P', 'C', 'T' or '@')", r+1, c+1, ch)
		}
		if kind == Wall {
			return fmt.Errorf("row %d, column %d: a piece on a wall", r+1, c+1)
		}
		return nil
	})
	switch {
	case err != nil:
		return 0, fmt.Errorf("police: line %d: %v", t.Line(), err)
	case rows != b.Rows || cols != b.Cols:
		return 0, fmt.Errorf("police: a %d x %d board, the game's is %d x %d", rows, cols, b.Rows, b.Cols)
	case len(cops) != 1 || len(thieves) != 1:
		return 0, fmt.Errorf("police: %d policemen and %d thieves: want one of each", len(cops), len(thieves))
	}
	turn := uint64(policeTurn)
	switch who := t.Rest(); who {
	case "the policeman to move":
	case "the thief to move":
		turn = thiefTurn
	default:
		return 0, fmt.Errorf("police: %q: want \"the policeman to move\" or \"the thief to move\"", who)
	}
	return g.index(g.cellID(cops[0]), g.cellID(thieves[0]), turn), nil
}

// cellID returns the free-cell number of a cell that is not a wall: its
// rank among the free cells in reading order.
func (g *Game) cellID(rc [2]int) uint64 {
	return uint64(sort.Search(len(g.cells), func(i int) bool {
		c := g.cells[i]
		return c[0] > rc[0] || c[0] == rc[0] && c[1] >= rc[1]
	}))
}
