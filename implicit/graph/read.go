package graph

import (
	"bufio"
	"errors"
	"io"

	"github.com/retro-solver/retro/internal/text"
)

// ParseError is the error of Read: what is wrong, and on which line
// ("line 2: ..."; the last line for a missing edge). It is the one parse
// error type of retro's readers.
type ParseError = text.ParseError

// Read parses a graph in the `graph` text format (docs/formats.md): blank lines and
// lines starting with '#' are skipped, the first other line is `n m`, then
// exactly m lines `u v` with 0 <= u, v < n. Anything else is a *ParseError
// naming the line. maxBytes bounds the memory the graph may take while it is
// built (about 16 bytes per vertex and per edge); a larger graph is refused
// before anything is allocated. Read errors of r are returned as they are.
func Read(r io.Reader, maxBytes uint64) (*Graph, error) {
	p := parser{r: bufio.NewReaderSize(r, 1<<20)}
	line, err := p.next()
	if err == io.EOF {
		if p.line == 0 {
			return nil, &ParseError{Err: errors.New("the input is empty: want a header line `n m`")}
		}
		return nil, &ParseError{Line: p.line, Err: errors.New("the input ends before the header line `n m`")}
	}
	if err != nil {
		return nil, err
	}
	n, m, err := p.pair(line, "header `n m`", MaxVertices+1)
	if err != nil {
		return nil, err
	}
	if n > MaxVertices {
		return nil, p.errorf("%d vertices: at most %d are supported", n, uint64(MaxVertices))
	}
	if m > MaxEdges {
		return nil, p.errorf("%d edges: at most %d are supported", m, uint64(MaxEdges))
	}
	if need := BuildBytes(n, m); need > maxBytes {
		return nil, p.errorf("a graph of %d vertices and %d edges needs about %s to build, more than the %s allowed",
			n, m, text.HumanBytes(need), text.HumanBytes(maxBytes))
	}
	src := make([]uint32, m)
	dst := make([]uint32, m)
	for i := range m {
		line, err := p.next()
		if err == io.EOF {
			return nil, p.errorf("the header promises %d edges, but the input ends after %d", m, i)
		}
		if err != nil {
			return nil, err
		}
		u, v, ok := edgeLine(line, n)
		if !ok {
			if u, v, err = p.pair(line, "edge `u v`", n); err != nil {
				return nil, err
			}
		}
		src[i], dst[i] = uint32(u), uint32(v)
	}
	switch _, err := p.next(); {
	case err == nil:
		return nil, p.errorf("more edge lines than the %d the header promises", m)
	case err != io.EOF:
		return nil, err
	}
	return FromEdges(n, src, dst), nil
}

// BuildBytes returns the peak memory, in bytes, of reading and building a
// graph of n vertices and m edges.
func BuildBytes(n, m uint64) uint64 { return 16 * (n + m) }

type parser struct {
	r    *bufio.Reader
	line int
}

func (p *parser) errorf(format string, args ...any) error {
	return text.Errorf(p.line, format, args...)
}

// next returns the next line that is neither blank nor a comment, without its
// line ending, or io.EOF. The slice is valid until the next call.
func (p *parser) next() ([]byte, error) {
	for {
		b, err := p.r.ReadSlice('\n')
		if len(b) == 0 && err == io.EOF {
			return nil, io.EOF
		}
		p.line++
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, p.errorf("line longer than %d bytes", p.r.Size())
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		i := 0
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		if i == len(b) || b[i] == '\n' || b[i] == '\r' || b[i] == '#' {
			continue
		}
		return b[i:], nil
	}
}

// edgeLine is the fast path for an edge line: two decimal numbers below n,
// separated by blanks, optionally followed by blanks. It reports false for
// anything else, which pair then parses again: to say what is wrong, or to
// read the line it takes where this does not (an id of more than ten
// digits, its leading zeros).
func edgeLine(b []byte, n uint64) (u, v uint64, ok bool) {
	i := 0
	u, i, ok = digits(b, i)
	if !ok || i == len(b) || (b[i] != ' ' && b[i] != '\t') {
		return 0, 0, false
	}
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	v, i, ok = digits(b, i)
	if !ok {
		return 0, 0, false
	}
	for ; i < len(b); i++ {
		if c := b[i]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return 0, 0, false
		}
	}
	return u, v, u < n && v < n
}

// digits parses the decimal number at b[i:], of at most 10 digits.
func digits(b []byte, i int) (v uint64, end int, ok bool) {
	start := i
	for ; i < len(b) && i-start <= 10; i++ {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		v = v*10 + uint64(c)
	}
	return v, i, i > start && i-start <= 10
}

// pair parses a line of exactly two non-negative integers, each below limit.
func (p *parser) pair(b []byte, what string, limit uint64) (x, y uint64, err error) {
	var vals [2]uint64
	k := 0
	for i := 0; ; {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
			i++
		}
		if i == len(b) {
			break
		}
		j := i
		for j < len(b) && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' && b[j] != '\n' {
			j++
		}
		if k == 2 {
			return 0, 0, p.errorf("%s: more than two numbers", what)
		}
		v, err := p.number(b[i:j], limit)
		if err != nil {
			return 0, 0, err
		}
		vals[k] = v
		k++
		i = j
	}
	if k < 2 {
		return 0, 0, p.errorf("%s: expected two numbers, found %d", what, k)
	}
	return vals[0], vals[1], nil
}

// number parses a decimal non-negative integer below limit; a vertex id at
// or above limit is out of range.
func (p *parser) number(tok []byte, limit uint64) (uint64, error) {
	if tok[0] == '-' && len(tok) > 1 && isDigits(tok[1:]) {
		return 0, p.errorf("negative number %s", tok)
	}
	if !isDigits(tok) {
		return 0, p.errorf("%q is not a number", tok)
	}
	var v uint64
	for _, c := range tok {
		v = v*10 + uint64(c-'0')
		if v >= limit {
			if limit <= MaxVertices {
				return 0, p.errorf("vertex %s out of range [0, %d)", tok, limit)
			}
			return 0, p.errorf("number %s is too large", tok)
		}
	}
	return v, nil
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}
