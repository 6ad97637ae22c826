package pawns

import (
	"fmt"
	"io"

	"github.com/retro-solver/retro/internal/text"
)

// ParseError is the error of Parse: what is wrong, on which board and
// line ("board 2, line 7: ..."). It is the one parse error type of retro's
// readers, so errors.As finds it whichever game's input was read.
type ParseError = text.ParseError

// maxBoards bounds the board count of one input, so that a huge T fails
// clearly instead of waiting for boards that never come.
const maxBoards = 1 << 20

// Parse reads the LOJ 3958 input (docs/formats.md): a line `id T`, then T boards,
// each `n m` and n rows of m cells from ".#OX". Tokens are separated by
// white space, as scanf reads them. Every problem is a *ParseError naming
// the board and the line: a wrong count, an unknown character, a row of the
// wrong length, not exactly two `O` and one `X`, black in row 1, a board
// larger than MaxSide.
func Parse(r io.Reader) ([]*Board, error) {
	p := parser{t: text.NewTokens(r)}
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
	t     *text.Tokens
	board int
}

func (p *parser) wrap(err error) error {
	return text.At(p.board, p.t.Line(), err)
}

func (p *parser) errorf(format string, args ...any) error {
	return p.wrap(fmt.Errorf(format, args...))
}

func (p *parser) parseBoard() (*Board, error) {
	b := &Board{}
	reds, blacks := 0, 0
	var err error
	b.Rows, b.Cols, err = text.Grid(p.t, MaxSide, func(r, c int, ch byte) error {
		switch ch {
		case '.':
		case '#':
			b.Wall[r][c] = true
		case 'O':
			if reds == 2 {
				return fmt.Errorf("a third red pawn 'O' at row %d, column %d: want exactly two", r+1, c+1)
			}
			b.Red[reds] = [2]int{r, c}
			reds++
		case 'X':
			if blacks == 1 {
				return fmt.Errorf("a second black pawn 'X' at row %d, column %d: want exactly one", r+1, c+1)
			}
			if r == 0 {
				return fmt.Errorf("the black pawn 'X' starts in row 1, where the game is already over")
			}
			b.Black = [2]int{r, c}
			blacks++
		default:
			return fmt.Errorf("row %d, column %d: unknown cell %q (want '.', '#', 'O' or 'X')", r+1, c+1, ch)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if reds != 2 {
		return nil, fmt.Errorf("%d red pawns 'O': want exactly two", reds)
	}
	if blacks != 1 {
		return nil, fmt.Errorf("no black pawn 'X': want exactly one")
	}
	return b, nil
}
