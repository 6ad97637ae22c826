package police

import (
	"fmt"
	"io"

	"retro/implicit"
)

// ParseError is a malformed board: what is wrong, and on which line.
type ParseError struct {
	Line int
	Msg  string
}

// Error returns "line N: what is wrong".
func (e *ParseError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// MaxSide is the most rows or columns Parse accepts; whether a board that
// large can be solved is for the memory estimate to say.
const MaxSide = 1 << 14

// Parse reads a board in the format of GAMES.md: `n m`, then n rows of m
// cells: '.' free, '*' wall, 'E' exit, 'P' or 'C' the policeman (exactly
// one), 'T' the thief (exactly one). Tokens are separated by white space, as
// the seeds' `cin >>` reads them. Every problem is a *ParseError naming the
// line: a count out of range, an unknown character, a row of the wrong
// length, a missing or second piece, a missing row, anything after the
// board.
func Parse(r io.Reader) (*Board, error) {
	t := implicit.NewTokens(r)
	b, err := parse(t)
	if err != nil {
		return nil, &ParseError{t.Line(), err.Error()}
	}
	return b, nil
}

func parse(t *implicit.Tokens) (*Board, error) {
	n, err := t.Int("the row count n", 1, MaxSide)
	if err != nil {
		return nil, err
	}
	m, err := t.Int("the column count m", 1, MaxSide)
	if err != nil {
		return nil, err
	}
	// The cells grow as rows arrive: a header alone must not allocate a
	// huge board.
	b := &Board{Rows: n, Cols: m, Cells: make([]uint8, 0, min(n*m, 1<<16))}
	police, thieves := 0, 0
	for r := range n {
		tok, ok := t.Next()
		if !ok {
			if err := t.Err(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("the input ends before row %d of %d", r+1, n)
		}
		if len(tok) != m {
			return nil, fmt.Errorf("row %d has %d cells, want %d", r+1, len(tok), m)
		}
		for c, ch := range []byte(tok) {
			kind := uint8(Free)
			switch ch {
			case '.':
			case '*':
				kind = Wall
			case 'E':
				kind = Exit
			case 'P', 'C':
				if police++; police > 1 {
					return nil, fmt.Errorf("a second policeman %q at row %d, column %d: want exactly one", ch, r+1, c+1)
				}
				b.Police = [2]int{r, c}
			case 'T':
				if thieves++; thieves > 1 {
					return nil, fmt.Errorf("a second thief 'T' at row %d, column %d: want exactly one", r+1, c+1)
				}
				b.Thief = [2]int{r, c}
			default:
				return nil, fmt.Errorf("row %d, column %d: unknown cell %q (want '.', '*', 'E', 'P', 'C' or 'T')", r+1, c+1, ch)
			}
			b.Cells = append(b.Cells, kind)
		}
	}
	if police == 0 {
		return nil, fmt.Errorf("no policeman 'P' (or 'C') on the board")
	}
	if thieves == 0 {
		return nil, fmt.Errorf("no thief 'T' on the board")
	}
	if tok, ok := t.Next(); ok {
		return nil, fmt.Errorf("unexpected %q after the %d rows of the board", tok, n)
	}
	return b, t.Err()
}

// String returns the board in the input format, the policeman written 'P'.
func (b *Board) String() string {
	out := fmt.Appendf(nil, "%d %d\n", b.Rows, b.Cols)
	for r := range b.Rows {
		for c := range b.Cols {
			ch := ".*E"[b.At(r, c)]
			switch [2]int{r, c} {
			case b.Police:
				ch = 'P'
			case b.Thief:
				ch = 'T'
			}
			out = append(out, ch)
		}
		out = append(out, '\n')
	}
	return string(out)
}
