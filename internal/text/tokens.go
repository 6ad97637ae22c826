package text

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Tokens splits a board file into white-space separated tokens, as scanf's
// %s and %d read them, and remembers the line of the last one, so that a
// game's parser can say where a problem is.
type Tokens struct {
	s        *bufio.Scanner
	line     int // line of the token last returned (1-based)
	consumed int // newlines the scanner has passed
}

// MaxToken is the longest token Tokens accepts.
const MaxToken = 1 << 20

// NewTokens returns a tokenizer reading r.
func NewTokens(r io.Reader) *Tokens {
	t := &Tokens{s: bufio.NewScanner(r), line: 1}
	t.s.Buffer(make([]byte, 64<<10), MaxToken)
	t.s.Split(t.split)
	return t
}

func (t *Tokens) split(data []byte, atEOF bool) (int, []byte, error) {
	i, lines := 0, 0
	for i < len(data) && isSpace(data[i]) {
		if data[i] == '\n' {
			lines++
		}
		i++
	}
	j := i
	for j < len(data) && !isSpace(data[j]) {
		j++
	}
	switch {
	case j < len(data) || (atEOF && j > i):
		t.consumed += lines
		return j, data[i:j], nil
	case atEOF:
		t.consumed += lines
		return len(data), nil, nil
	}
	return 0, nil, nil // a token may continue in data not read yet
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// Next returns the next token, or false at the end of the input or on a
// reading error (see Err).
func (t *Tokens) Next() (string, bool) {
	if !t.s.Scan() {
		return "", false
	}
	t.line = t.consumed + 1
	return t.s.Text(), true
}

// Line returns the line of the token last returned, or of the end of the
// input once Next has returned false.
func (t *Tokens) Line() int { return t.line }

// Err returns the reading error that stopped Next, if any.
func (t *Tokens) Err() error {
	err := t.s.Err()
	if errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("a token longer than %d bytes", MaxToken)
	}
	return err
}

// Int reads the next token as a decimal integer in [lo, hi]; what names it
// in the error.
func (t *Tokens) Int(what string, lo, hi int) (int, error) {
	tok, ok := t.Next()
	if !ok {
		if err := t.Err(); err != nil {
			return 0, err
		}
		return 0, fmt.Errorf("the input ends where %s should be", what)
	}
	v, err := strconv.Atoi(tok)
	if err != nil {
		return 0, fmt.Errorf("%s is %q, not a number", what, tok)
	}
	if v < lo || v > hi {
		return 0, fmt.Errorf("%s is %d, want %d to %d", what, v, lo, hi)
	}
	return v, nil
}

// Rest returns the tokens left in the input joined by single spaces ("" if
// none), for a closing phrase such as "Red to move" however it is spaced.
func (t *Tokens) Rest() string {
	var b strings.Builder
	for w, ok := t.Next(); ok; w, ok = t.Next() {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}
