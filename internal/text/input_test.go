package text

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// slowCR is checkCR as it was, a byte search per line: the oracle.
type slowCR struct {
	line int
	cr   bool
}

func (s *slowCR) check(b []byte) (int, bool) {
	if s.cr && len(b) > 0 && b[0] != '\n' {
		return s.line, false
	}
	for i := 0; ; {
		k := bytes.IndexAny(b[i:], "\r\n")
		if k < 0 {
			break
		}
		i += k
		if b[i] == '\n' {
			s.line++
		} else if i+1 < len(b) && b[i+1] != '\n' {
			return s.line, false
		}
		i++
		if i == len(b) {
			break
		}
	}
	s.cr = len(b) > 0 && b[len(b)-1] == '\r'
	return 0, true
}

// TestCheckCR: Input's check of line endings, fed random text cut into
// random chunks, refuses a lone CR at the line the oracle names, and
// counts the lines as it does.
func TestCheckCR(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	alphabet := []byte("ab \r\n\n\n")
	for range 20000 {
		text := make([]byte, r.IntN(40))
		for i := range text {
			text[i] = alphabet[r.IntN(len(alphabet))]
		}
		in, want := &Input{line: 1}, &slowCR{line: 1}
		for rest := text; len(rest) > 0; {
			n := 1 + r.IntN(len(rest))
			b := rest[:n]
			rest = rest[n:]
			wantLine, ok := want.check(b)
			err := in.checkCR(b)
			if ok != (err == nil) {
				t.Fatalf("text %q, chunk %q: error %v, want one: %v", text, b, err, !ok)
			}
			if !ok {
				if pe, is := err.(*ParseError); !is || pe.Line != wantLine {
					t.Fatalf("text %q: error %v, want it on line %d", text, err, wantLine)
				}
				break
			}
			if in.line != want.line || in.cr != want.cr {
				t.Fatalf("text %q, after chunk %q: line %d, cr %v; want %d, %v", text, b, in.line, in.cr, want.line, want.cr)
			}
		}
	}
}
