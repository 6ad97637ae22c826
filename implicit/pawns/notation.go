package pawns

import (
	"fmt"
	"strings"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/text"
)

var _ implicit.Notation = (*Game)(nil)

// ParsePosition reads a position of g's board as Describe writes it: "n m",
// the rows ('.' empty, '#' wall, 'O' a red pawn, 'X' the black pawn, '@'
// the black pawn on a red one), then "Red to move" or "Black to move". The
// walls must be g's, black may not be below its starting row (those
// positions are not in the index), and the turn must be the one that the
// cells imply: every move flips the parity of the coordinates' sum.
func (g *Game) ParsePosition(s string) (uint64, error) {
	t := text.NewTokens(strings.NewReader(s))
	bd := &g.board
	var reds [][2]int
	black := [2]int{-1, -1}
	rows, cols, err := text.Grid(t, MaxSide, func(r, c int, ch byte) error {
		if r >= bd.Rows || c >= bd.Cols || (ch == '#') != bd.Wall[r][c] {
			return fmt.Errorf("row %d, column %d: %q differs from the game's board", r+1, c+1, ch)
		}
		switch ch {
		case '.', '#':
		case 'O':
			reds = append(reds, [2]int{r, c})
		case 'X':
			black = [2]int{r, c}
		case '@':
			reds, black = append(reds, [2]int{r, c}), [2]int{r, c}
		default:
			return fmt.Errorf("row %d, column %d: unknown cell %q (want '.', '#', 'O', 'X' or '@')", r+1, c+1, ch)
		}
		return nil
	})
	switch {
	case err != nil:
		return 0, fmt.Errorf("pawns: line %d: %v", t.Line(), err)
	case rows != bd.Rows || cols != bd.Cols:
		return 0, fmt.Errorf("pawns: a %d x %d board, the game's is %d x %d", rows, cols, bd.Rows, bd.Cols)
	case len(reds) != 2 || black[0] < 0:
		return 0, fmt.Errorf("pawns: %d red pawns and %d black: want two and one", len(reds), btoi(black[0] >= 0))
	}
	a, b, c := g.id[reds[0][0]*MaxSide+reds[0][1]], g.id[reds[1][0]*MaxSide+reds[1][1]], g.id[black[0]*MaxSide+black[1]]
	if int(c) >= g.blackK {
		return 0, fmt.Errorf("pawns: black in row %d, below its starting row %d: not in the index", black[0]+1, g.startRow()+1)
	}
	red := g.redToMove(int(a), int(b), int(c))
	switch turn := t.Rest(); {
	case turn != "Red to move" && turn != "Black to move":
		return 0, fmt.Errorf("pawns: %q: want \"Red to move\" or \"Black to move\"", turn)
	case red != (turn == "Red to move"):
		return 0, fmt.Errorf("pawns: %q, but with these cells it is %s's turn", turn, map[bool]string{true: "Red", false: "Black"}[red])
	}
	return g.index(int(a), int(b), int(c)), nil
}

// startRow returns black's starting row (from 0).
func (g *Game) startRow() int { return int(g.row[g.blackK-1]) }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
