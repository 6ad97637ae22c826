package pawns

import (
	"fmt"
	"io"

	"retro/implicit"
)

// ParseError is malformed input: what is wrong, on which board and line.
type ParseError struct {
	Board int // 1-based board number; 0 outside the boards
	Line  int
	Msg   string
}

// Error returns "board B, line N: what is wrong" (or "line N: ..." outside
// the boards).
func (e *ParseError) Error() string {
	if e.Board == 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return fmt.Sprintf("board %d, line %d: %s", e.Board, e.Line, e.Msg)
}

// maxBoards bounds the board count of one input, so that a huge T fails
// clearly instead of waiting for boards that never come.
const maxBoards = 1 << 20

// Parse reads the LOJ 3958 input of GAMES.md: a line `id T`, then T boards,
// each `n m` and n rows of m cells from ".#OX". Tokens are separated by
// white space, as scanf reads them. Every problem is a *ParseError naming
// the board and the line: a wrong count, an unknown character, a row of the
// wrong length, not exactly two `O` and one `X`, black in row 1, a board
// larger than MaxSide.
func Parse(r io.Reader) ([]*Board, error) {
	p := parser{t: implicit.NewTokens(r)}
	if _, err := p.t.Int("the test group id", 0, 1<<31-1); err != nil {
		return nil, p.wrap(err)
	}
	count, err := p.t.Int("the board count T", 1, maxBoards)
	if err != nil {
		return nil, p.wrap(err)
	}
	boards := make([]*Board, 0, min(count, 64))
	for k := 1; k <= count; k++ {
		p.board = k
		b, err := p.parseBoard()
		if err != nil {
			return nil, p.wrap(err)
		}
		boards = append(boards, b)
	}
	p.board = 0
	if tok, ok := p.t.Next(); ok {
		return nil, p.errorf("unexpected %q after the last of %d boards", tok, count)
	}
	if err := p.t.Err(); err != nil {
		return nil, p.wrap(err)
	}
	return boards, nil
}

type parser struct {
	t     *implicit.Tokens
	board int
}

func (p *parser) wrap(err error) error {
	return &ParseError{p.board, p.t.Line(), err.Error()}
}

func (p *parser) errorf(format string, args ...any) error {
	return p.wrap(fmt.Errorf(format, args...))
}

func (p *parser) parseBoard() (*Board, error) {
	n, err := p.t.Int("the row count n", 1, MaxSide)
	if err != nil {
		return nil, err
	}
	m, err := p.t.Int("the column count m", 1, MaxSide)
	if err != nil {
		return nil, err
	}
	b := &Board{Rows: n, Cols: m}
	reds, blacks := 0, 0
	for r := range n {
		tok, ok := p.t.Next()
		if !ok {
			if err := p.t.Err(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("the input ends before row %d of %d", r+1, n)
		}
		if len(tok) != m {
			return nil, fmt.Errorf("row %d has %d cells, want %d", r+1, len(tok), m)
		}
		for c, ch := range []byte(tok) {
			switch ch {
			case '.':
			case '#':
				b.Wall[r][c] = true
			case 'O':
				if reds == 2 {
					return nil, fmt.Errorf("a third red pawn 'O' at row %d, column %d: want exactly two", r+1, c+1)
				}
				b.Red[reds] = [2]int{r, c}
				reds++
			case 'X':
				if blacks == 1 {
					return nil, fmt.Errorf("a second black pawn 'X' at row %d, column %d: want exactly one", r+1, c+1)
				}
				if r == 0 {
					return nil, fmt.Errorf("the black pawn 'X' starts in row 1, where the game is already over")
				}
				b.Black = [2]int{r, c}
				blacks++
			default:
				return nil, fmt.Errorf("row %d, column %d: unknown cell %q (want '.', '#', 'O' or 'X')", r+1, c+1, ch)
			}
		}
	}
	if reds != 2 {
		return nil, fmt.Errorf("%d red pawns 'O': want exactly two", reds)
	}
	if blacks != 1 {
		return nil, fmt.Errorf("no black pawn 'X': want exactly one")
	}
	return b, nil
}
