package graph

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/retro-solver/retro/implicit/gametest"
)

func TestRead(t *testing.T) {
	in := "# comment\n\n  # indented comment\n4 5\r\n0 1\n1 2\t\n2 0\n2 2\n\n# between\n0 1"
	g, err := Read(strings.NewReader(in), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if g.Size() != 4 || g.Edges() != 5 || g.MaxMoves() != 2 {
		t.Fatalf("Size %d Edges %d MaxMoves %d", g.Size(), g.Edges(), g.MaxMoves())
	}
	for _, tc := range []struct {
		s              uint64
		moves, unmoves []uint64
	}{
		{0, []uint64{1, 1}, []uint64{2}},
		{1, []uint64{2}, []uint64{0, 0}},
		{2, []uint64{0, 2}, []uint64{1, 2}},
		{3, nil, nil},
	} {
		if got := g.Moves(tc.s, nil); !slices.Equal(got, tc.moves) {
			t.Errorf("Moves(%d) = %v, want %v", tc.s, got, tc.moves)
		}
		if got := g.Unmoves(tc.s, nil); !slices.Equal(got, tc.unmoves) {
			t.Errorf("Unmoves(%d) = %v, want %v", tc.s, got, tc.unmoves)
		}
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "the input is empty: want a header line `n m`"},
		{"# only a comment\n\n", "line 2: the input ends before the header line `n m`"},
		{"3\n", "line 1: header `n m`: expected two numbers, found 1"},
		{"3 1 7\n0 1\n", "line 1: header `n m`: more than two numbers"},
		{"3 x\n", `line 1: "x" is not a number`},
		{"3 2\n0 1\n", "line 2: the header promises 2 edges, but the input ends after 1"},
		{"3 1\n0 1\n1 2\n", "line 3: more edge lines than the 1 the header promises"},
		{"3 1\n0 3\n", "line 2: vertex 3 out of range [0, 3)"},
		{"3 1\n\n\n7 0\n", "line 4: vertex 7 out of range [0, 3)"},
		{"3 1\n0 -1\n", "line 2: negative number -1"},
		{"-3 1\n", "line 1: negative number -3"},
		{"3 1\n0 1.5\n", `line 2: "1.5" is not a number`},
		{"3 1\n0\n", "line 2: edge `u v`: expected two numbers, found 1"},
		{"3 1\n0 1 2\n", "line 2: edge `u v`: more than two numbers"},
		{"0 1\n0 0\n", "line 2: vertex 0 out of range [0, 0)"},
		{"99999999999999999999 1\n", "line 1: number 99999999999999999999 is too large"},
		{"4294967296 0\n", "line 1: number 4294967296 is too large"},
		{"1000000000 1000000000\n", "line 1: a graph of 1000000000 vertices and 1000000000 edges needs about 29.8 GiB to build, more than the 1.0 GiB allowed"},
	} {
		_, err := Read(strings.NewReader(tc.in), 1<<30)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Read(%q): error %v, want a *ParseError", tc.in, err)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("Read(%q):\n got %q\nwant %q", tc.in, err.Error(), tc.want)
		}
	}
}

func TestReadLongLine(t *testing.T) {
	in := "2 1\n0 " + strings.Repeat("1", 2<<20) + "\n"
	_, err := Read(strings.NewReader(in), 1<<30)
	if err == nil || !strings.Contains(err.Error(), "line 2: line longer than") {
		t.Fatalf("a 2 MiB line: error %v", err)
	}
}

func TestRandomGraphsKeepTheContract(t *testing.T) {
	for seed := range uint64(200) {
		n := 1 + seed%50
		g := Random(n, seed%7*n, seed)
		if err := gametest.Check(g, 100, seed); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	if err := gametest.Check(Random(100000, 300000, 1), 2000, 1); err != nil {
		t.Fatal(err)
	}
}

func TestRandomIsDeterministic(t *testing.T) {
	a, b := Random(1000, 5000, 42), Random(1000, 5000, 42)
	if !slices.Equal(a.fwd, b.fwd) || !slices.Equal(a.rev, b.rev) {
		t.Fatal("Random with the same seed gave different graphs")
	}
}

func FuzzRead(f *testing.F) {
	for _, s := range []string{"", "3 2\n0 1\n1 2\n", "# c\n2 1\n1 1", "1 0", "2 2\n0 1\n1 -1\n", "5 1\n4 4 4\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Read(bytes.NewReader(data), 1<<24)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 0 {
				t.Fatalf("error %v is not a *ParseError with a line", err)
			}
			return
		}
		if err := gametest.Check(g, 50, 1); err != nil && g.Size() > 0 {
			t.Fatal(err)
		}
		// What was accepted means what it says: the edges of a plain
		// reading of the lines, each vertex's in input order.
		out := map[uint64][]uint64{}
		header := true
		for _, line := range strings.Split(string(data), "\n") {
			// Blank: nothing but blanks before the end, a CR or a '#'.
			if rest := strings.TrimLeft(line, " \t"); rest == "" || rest[0] == '\r' || rest[0] == '#' {
				continue
			}
			fields := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' })
			if header {
				header = false
				continue
			}
			if len(fields) != 2 {
				t.Fatalf("%q accepted with the edge line %q", data, line)
			}
			u, errU := strconv.ParseUint(fields[0], 10, 64)
			v, errV := strconv.ParseUint(fields[1], 10, 64)
			if errU != nil || errV != nil {
				t.Fatalf("%q accepted with the edge line %q", data, line)
			}
			out[u] = append(out[u], v)
		}
		for u := range g.Size() {
			if got := g.Moves(u, nil); !slices.Equal(got, out[u]) {
				t.Fatalf("%q: vertex %d moves to %v, the lines say %v", data, u, got, out[u])
			}
		}
	})
}

// TestWriteRead writes random graphs and reads them back: the same moves
// from every vertex, in the same order, so `bench/gen graph` writes the
// graphs of the benchmark workloads.
func TestWriteRead(t *testing.T) {
	for seed := range uint64(20) {
		g := Random(1+seed*37, seed*101, seed)
		var b bytes.Buffer
		if err := Write(&b, g); err != nil {
			t.Fatal(err)
		}
		h, err := Read(&b, 1<<30)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if h.Size() != g.Size() {
			t.Fatalf("seed %d: %d vertices, want %d", seed, h.Size(), g.Size())
		}
		for v := range g.Size() {
			if a, b := g.Moves(v, nil), h.Moves(v, nil); !slices.Equal(a, b) {
				t.Fatalf("seed %d, vertex %d: moves %v, want %v", seed, v, b, a)
			}
		}
	}
}

// TestReadLongNumbers: an id written with more than ten digits (leading
// zeros) is read by the slow path, and its edge is the one written (it
// was read as 0 -> 0 before).
func TestReadLongNumbers(t *testing.T) {
	g, err := Read(strings.NewReader("3 1\n000000000001 2\n"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Moves(1, nil); !slices.Equal(got, []uint64{2}) {
		t.Errorf("vertex 1 moves to %v, want [2]", got)
	}
}
