package text

import (
	"errors"
	"fmt"
	"strconv"
)

// ParseError is malformed input: what is wrong and where, as one line. Like
// strconv.NumError it wraps the error that says what is wrong, so callers
// can test it with errors.Is and errors.As.
type ParseError struct {
	Board int // 1-based board number, for inputs of several boards; 0: none
	Line  int // 1-based line of the input
	Err   error
}

// Error returns "board B, line N: what is wrong", or "line N: what is
// wrong" outside the boards of an input of several; line 0 (an empty
// input has no line) is left out.
func (e *ParseError) Error() string {
	line := e.Err.Error()
	if e.Line > 0 {
		line = "line " + strconv.Itoa(e.Line) + ": " + line
	}
	if e.Board == 0 {
		return line
	}
	return "board " + strconv.Itoa(e.Board) + ", " + line
}

// Unwrap returns the error that says what is wrong.
func (e *ParseError) Unwrap() error { return e.Err }

// Errorf returns a *ParseError at the given line whose message is formatted
// as by fmt.Errorf.
func Errorf(line int, format string, args ...any) error {
	return &ParseError{Line: line, Err: fmt.Errorf(format, args...)}
}

// At returns err as a *ParseError at the given board and line, or, if err
// already is one (a reading error that knows its own line), err with the
// board filled in.
func At(board, line int, err error) error {
	var pe *ParseError
	if errors.As(err, &pe) {
		if pe.Board == 0 {
			return &ParseError{Board: board, Line: pe.Line, Err: pe.Err}
		}
		return pe
	}
	return &ParseError{Board: board, Line: line, Err: err}
}
