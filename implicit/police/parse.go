package police

import (
	"fmt"
	"io"

	"github.com/retro-solver/retro/internal/text"
)

// ParseError is the error of Parse: what is wrong, and on which line
// ("line 3: ..."). It is the one parse error type of retro's readers.
type ParseError = text.ParseError

// MaxSide is the most rows or columns Parse accepts; whether a board that
// large can be solved is for the memory estimate to say.
const MaxSide = 1 << 14

// Parse reads a board in the format of docs/formats.md: `n m`, then n rows of m
// cells: '.' free, '*' wall, 'E' exit, 'P' or 'C' the policeman (exactly
// one), 'T' the thief (exactly one). Tokens are separated by white space, as
// the seeds' `cin >>` reads them. Every problem is a *ParseError naming the
// line: a count out of range, an unknown character, a row of the wrong
// length, a missing or second piece, a missing row, anything after the
// board.
func Parse(r io.Reader) (*Board, error) {
	t := text.NewTokens(r)
	b, err := parse(t)
	if err != nil {
		return nil, text.At(0, t.Line(), err)
	}
	return b, nil
}

func parse(t *text.Tokens) (*Board, error) {
	// The cells grow as rows arrive: a header alone must not allocate a
	// huge board.
	b := &Board{Cells: make([]uint8, 0, 1<<10)}
	police, thieves := 0, 0
	var err error
	b.Rows, b.Cols, err = text.Grid(t, MaxSide, func(r, c int, ch byte) error {
		kind := uint8(Free)
		switch ch {
		case '.':
		case '*':
			kind = Wall
		case 'E':
			kind = Exit
		case 'P', 'C':
			if police++; police > 1 {
				return fmt.Errorf("a second policeman %q at row %d, column %d: want exactly one", ch, r+1, c+1)
			}
			b.Police = [2]int{r, c}
		case 'T':
			if thieves++; thieves > 1 {
				return fmt.Errorf("a second thief 'T' at row %d, column %d: want exactly one", r+1, c+1)
			}
			b.Thief = [2]int{r, c}
		default:
			return fmt.Errorf("row %d, column %d: unknown cell %q (want '.', '*', 'E', 'P', 'C' or 'T')", r+1, c+1, ch)
		}
		b.Cells = append(b.Cells, kind)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if police == 0 {
		return nil, fmt.Errorf("no policeman 'P' (or 'C') on the board")
	}
	if thieves == 0 {
		return nil, fmt.Errorf("no thief 'T' on the board")
	}
	if tok, ok := t.Next(); ok {
		return nil, fmt.Errorf("unexpected %q after the %d rows of the board", tok, b.Rows)
	}
	return b, t.Err()
}

// String returns the board in the input format, the policeman written 'P';
// both on one cell, a finished game and never an input, is '@'.
func (b *Board) String() string {
	out := fmt.Appendf(nil, "%d %d\n", b.Rows, b.Cols)
	for r := range b.Rows {
		for c := range b.Cols {
			ch := ".*E"[b.At(r, c)]
			switch [2]int{r, c} {
			case b.Police:
				ch = 'P'
				if b.Police == b.Thief {
					ch = '@'
				}
			case b.Thief:
				ch = 'T'
			}
			out = append(out, ch)
		}
		out = append(out, '\n')
	}
	return string(out)
}
