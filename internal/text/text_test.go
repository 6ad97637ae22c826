package text

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestParseError(t *testing.T) {
	err := error(&ParseError{Line: 3, Err: io.ErrUnexpectedEOF})
	if err.Error() != "line 3: unexpected EOF" || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("%q does not read or unwrap as it should", err)
	}
	err = &ParseError{Board: 2, Line: 7, Err: errors.New("no pawn")}
	if err.Error() != "board 2, line 7: no pawn" {
		t.Errorf("%q", err)
	}
	var pe *ParseError
	if err := Errorf(4, "vertex %d out of range", 9); !errors.As(err, &pe) || pe.Line != 4 || err.Error() != "line 4: vertex 9 out of range" {
		t.Errorf("Errorf: %v", err)
	}
}

func TestGrid(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"2 3\nab.\n...\n", ""},
		{"", "the input ends where the row count n should be"},
		{"0 3\n", "the row count n is 0, want 1 to 4"},
		{"2 x\n", "the column count m is \"x\", not a number"},
		{"2 3\nabc\n", "the input ends before row 2 of 2"},
		{"2 3\nabc\nab\n", "row 2 has 2 cells, want 3"},
		{"1 3\na?c\n", "row 1, column 2: '?'"},
	} {
		var cells []byte
		rows, cols, err := Grid(NewTokens(strings.NewReader(tc.in)), 4, func(r, c int, ch byte) error {
			if ch == '?' {
				return errors.New("row 1, column 2: '?'")
			}
			cells = append(cells, ch)
			return nil
		})
		switch {
		case tc.want == "" && (err != nil || rows != 2 || cols != 3 || string(cells) != "ab...."):
			t.Errorf("Grid(%q) = %d, %d, %q, %v", tc.in, rows, cols, cells, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want):
			t.Errorf("Grid(%q): error %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestTokensLines(t *testing.T) {
	tk := NewTokens(strings.NewReader("a b\n\n  c\r\nd"))
	var got []string
	for {
		s, ok := tk.Next()
		if !ok {
			break
		}
		got = append(got, s+"@"+string(rune('0'+tk.Line())))
	}
	if strings.Join(got, " ") != "a@1 b@1 c@3 d@4" {
		t.Errorf("tokens and lines: %v", got)
	}
}

func TestHumanBytes(t *testing.T) {
	for b, want := range map[uint64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 5 << 30: "5.0 GiB"} {
		if got := HumanBytes(b); got != want {
			t.Errorf("HumanBytes(%d) = %q, want %q", b, got, want)
		}
	}
}

// TestHumanBytesUp checks that a least figure is never written below
// the bytes it names: each tenth rounded up, whole tenths as they are.
func TestHumanBytesUp(t *testing.T) {
	for b, want := range map[uint64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1025: "1.1 KiB", 1536: "1.5 KiB", 1537: "1.6 KiB", 43630000: "41.7 MiB", 5 << 30: "5.0 GiB", 1<<64 - 1: "16.0 EiB"} {
		if got := HumanBytesUp(b); got != want {
			t.Errorf("HumanBytesUp(%d) = %q, want %q", b, got, want)
		}
	}
}

func TestTokensRest(t *testing.T) {
	tk := NewTokens(strings.NewReader("3 \n Red   to\tmove \n"))
	tk.Next()
	if got := tk.Rest(); got != "Red to move" {
		t.Errorf("Rest() = %q", got)
	}
	if got := tk.Rest(); got != "" {
		t.Errorf("Rest() at the end = %q", got)
	}
}
