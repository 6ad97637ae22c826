package pawns

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// ParseError is malformed input: what is wrong, on which board and line.
type ParseError struct {
	Board int // 1-based board number; 0 for the first line
	Line  int
	Msg   string
}

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
// larger than MaxSide. Reading errors of r are returned as they are.
func Parse(r io.Reader) ([]*Board, error) {
	t := tokenizer{s: bufio.NewScanner(r), line: 1}
	t.s.Buffer(make([]byte, 64<<10), 1<<20)
	t.s.Split(t.split)
	if _, err := t.number("the test group id", 0, 1<<31); err != nil {
		return nil, err
	}
	count, err := t.number("the board count T", 1, maxBoards)
	if err != nil {
		return nil, err
	}
	boards := make([]*Board, 0, min(count, 64))
	for k := 1; k <= count; k++ {
		t.board = k
		b, err := t.parseBoard()
		if err != nil {
			return nil, err
		}
		boards = append(boards, b)
	}
	if tok, ok := t.next(); ok {
		return nil, &ParseError{0, t.line, fmt.Sprintf("unexpected %q after the last of %d boards", tok, count)}
	}
	return boards, t.err()
}

func (t *tokenizer) parseBoard() (*Board, error) {
	n, err := t.number("the row count n", 1, MaxSide)
	if err != nil {
		return nil, err
	}
	m, err := t.number("the column count m", 1, MaxSide)
	if err != nil {
		return nil, err
	}
	b := &Board{Rows: n, Cols: m}
	reds, blacks := 0, 0
	for r := range n {
		tok, ok := t.next()
		if !ok {
			return nil, t.errorf("the input ends before row %d of %d", r+1, n)
		}
		if len(tok) != m {
			return nil, t.errorf("row %d has %d cells, want %d", r+1, len(tok), m)
		}
		for c, ch := range []byte(tok) {
			switch ch {
			case '.':
			case '#':
				b.Wall[r][c] = true
			case 'O':
				if reds == 2 {
					return nil, t.errorf("a third red pawn 'O' at row %d, column %d: want exactly two", r+1, c+1)
				}
				b.Red[reds] = [2]int{r, c}
				reds++
			case 'X':
				if blacks == 1 {
					return nil, t.errorf("a second black pawn 'X' at row %d, column %d: want exactly one", r+1, c+1)
				}
				if r == 0 {
					return nil, t.errorf("the black pawn 'X' starts in row 1, where the game is already over")
				}
				b.Black = [2]int{r, c}
				blacks++
			default:
				return nil, t.errorf("row %d, column %d: unknown cell %q (want '.', '#', 'O' or 'X')", r+1, c+1, ch)
			}
		}
	}
	if reds != 2 {
		return nil, t.errorf("%d red pawns 'O': want exactly two", reds)
	}
	if blacks != 1 {
		return nil, t.errorf("no black pawn 'X': want exactly one")
	}
	return b, nil
}

// tokenizer splits the input into white-space separated tokens and keeps
// the line number of the last one.
type tokenizer struct {
	s        *bufio.Scanner
	line     int // line of the token last returned
	nextLine int // line where the scanner stands
	board    int
}

func (t *tokenizer) split(data []byte, atEOF bool) (int, []byte, error) {
	i := 0
	for i < len(data) && isSpace(data[i]) {
		if data[i] == '\n' {
			t.nextLine++
		}
		i++
	}
	j := i
	for j < len(data) && !isSpace(data[j]) {
		j++
	}
	if j < len(data) || (atEOF && j > i) {
		return j, data[i:j], nil
	}
	if atEOF {
		return len(data), nil, nil
	}
	// Need more data; give back the spaces only once they are counted.
	t.nextLine -= countNewlines(data[:i])
	return 0, nil, nil
}

func countNewlines(b []byte) int {
	k := 0
	for _, c := range b {
		if c == '\n' {
			k++
		}
	}
	return k
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func (t *tokenizer) next() (string, bool) {
	if !t.s.Scan() {
		return "", false
	}
	t.line = t.nextLine + 1
	return t.s.Text(), true
}

func (t *tokenizer) err() error {
	if err := t.s.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return t.errorf("a token longer than 1 MiB")
		}
		return err
	}
	return nil
}

func (t *tokenizer) errorf(format string, args ...any) error {
	return &ParseError{t.board, t.line, fmt.Sprintf(format, args...)}
}

// number reads a decimal integer in [lo, hi] described by what.
func (t *tokenizer) number(what string, lo, hi int) (int, error) {
	tok, ok := t.next()
	if !ok {
		if err := t.err(); err != nil {
			return 0, err
		}
		return 0, t.errorf("the input ends where %s should be", what)
	}
	v, err := strconv.Atoi(tok)
	if err != nil {
		return 0, t.errorf("%s is %q, not a number", what, tok)
	}
	if v < lo || v > hi {
		return 0, t.errorf("%s is %d, want %d to %d", what, v, lo, hi)
	}
	return v, nil
}
