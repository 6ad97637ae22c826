package police_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/engine/enginetest"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/gametest"
	"github.com/retro-solver/retro/implicit/police"
	"github.com/retro-solver/retro/internal/testsize"
)

func randomBoard(seed uint64) *police.Board {
	r := rand.New(rand.NewPCG(seed, 5))
	rows, cols := 1+r.IntN(10), 1+r.IntN(10)
	if rows*cols < 2 {
		cols = 2
	}
	return police.Random(rows, cols, []float64{0, 0.1, 0.3}[r.IntN(3)], []float64{0, 0.03, 0.1}[r.IntN(3)], seed)
}

func TestConsistency(t *testing.T) {
	testsize.SkipUnderRace(t, "one goroutine's checks; police under parallel workers is raced in TestEnginesAgree")
	for seed := range uint64(200) {
		b := randomBoard(seed)
		if err := gametest.Check(police.New(b), 400, seed); err != nil {
			t.Fatalf("board seed %d:\n%s%v", seed, b, err)
		}
	}
	if err := gametest.Check(police.New(police.Random(40, 40, 0.1, 0.01, 1)), 5000, 1); err != nil {
		t.Fatal(err)
	}
}

func solveBoard(t *testing.T, text string) (engine.Value, uint64) {
	t.Helper()
	b, err := police.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	g := police.New(b)
	r, err := engine.Parallel(context.Background(), g, engine.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return r.Value(g.Start()), r.Depth(g.Start())
}

func TestKnownBoards(t *testing.T) {
	for _, tc := range []struct {
		name, board string
		v           engine.Value
		depth       uint64
	}{
		// The policeman steps up (1), the thief steps onto the exit (2).
		{"thief next to the exit", "1 4\nP.TE\n", engine.Loss, 2},
		// The policeman steps next to the thief (1), the thief can only
		// pass (2), the policeman catches it (3).
		{"cornered thief", "1 3\nP.T\n", engine.Win, 3},
		{"seed 000's C for the policeman", "1 3\nC.T\n", engine.Win, 3},
		// The thief runs down the corridor to the exit before the
		// policeman, far behind, can cut it off.
		{"corridor escape", "1 6\nET...P\n", engine.Loss, 2},
		// The policeman moves diagonally onto the thief.
		{"diagonal capture", "3 3\n..E\n.P.\nT..\n", engine.Win, 1},
		// The thief delays: it waits at the end of the corridor, or steps
		// back and forth, but is caught on the seventh ply either way.
		{"chase down a corridor", "1 5\nP...T\n", engine.Win, 7},
		{"a wall makes a draw", "1 3\nP*T\n", engine.Draw, 0},
		{"the wall keeps the policeman from the exit", "2 3\nP*T\n.*E\n", engine.Loss, 2},
	} {
		v, d := solveBoard(t, tc.board)
		if v != tc.v || d != tc.depth {
			t.Errorf("%s: start is %v %d, want %v %d", tc.name, v, d, tc.v, tc.depth)
		}
	}
}

func TestEnginesAgree(t *testing.T) {
	boards := 100
	if !testsize.Long() {
		boards = 20
	}
	for seed := range uint64(boards) {
		b := randomBoard(seed)
		if err := enginetest.CrossCheck(context.Background(), police.New(b), 1, 2, 3, 4, 8); err != nil {
			t.Fatalf("board seed %d: %v\n%s", seed, err, b)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "line 1: the input ends where the row count n should be"},
		{"2", "line 1: the input ends where the column count m should be"},
		{"0 3\n", "line 1: the row count n is 0, want 1 to 16384"},
		{"2 x\n", `line 1: the column count m is "x", not a number`},
		{"2 2\nPT\n", "line 2: the input ends before row 2 of 2"},
		{"2 2\nPT\n...\n", "line 3: row 2 has 3 cells, want 2"},
		{"2 2\nPT\n.x\n", "line 3: row 2, column 2: unknown cell 'x' (want '.', '*', 'E', 'P', 'C' or 'T')"},
		{"2 2\nPT\nC.\n", "line 3: a second policeman 'C' at row 2, column 1: want exactly one"},
		{"2 2\nPT\n.T\n", "line 3: a second thief 'T' at row 2, column 2: want exactly one"},
		{"2 2\n.T\n..\n", "line 3: no policeman 'P' (or 'C') on the board"},
		{"2 2\nP.\nE.\n", "line 3: no thief 'T' on the board"},
		{"1 2\nPT\nextra\n", `line 3: unexpected "extra" after the 1 rows of the board`},
	} {
		_, err := police.Parse(strings.NewReader(tc.in))
		var pe *police.ParseError
		if !errors.As(err, &pe) || err.Error() != tc.want {
			t.Errorf("Parse(%q):\n got %v\nwant %s", tc.in, err, tc.want)
		}
	}
}

func TestStringRoundTrip(t *testing.T) {
	for seed := range uint64(20) {
		b := randomBoard(seed)
		c, err := police.Parse(strings.NewReader(b.String()))
		if err != nil || c.String() != b.String() {
			t.Fatalf("seed %d: round trip failed: %v\n%s", seed, err, b)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"1 2\nPT\n", "3 3\n..E\n.P.\nT..\n", "2 3\nC*T\n.*E\n", "1 1\nP\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := police.Parse(bytes.NewReader(data))
		if err != nil {
			var pe *police.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		// What was accepted means what it says: the tokens of the
		// input, the rows as written ('C' is the policeman's other letter).
		toks := strings.FieldsFunc(string(data), func(r rune) bool { return strings.ContainsRune(" \t\n\r\v\f", r) })
		rows, _ := strconv.Atoi(toks[0])
		cols, _ := strconv.Atoi(toks[1])
		want := fmt.Sprintf("%d %d\n", rows, cols) + strings.ReplaceAll(strings.Join(toks[2:], "\n"), "C", "P") + "\n"
		if got := b.String(); got != want {
			t.Fatalf("%q read as %q, want %q", data, got, want)
		}
		if b.Rows*b.Cols > 400 {
			return
		}
		g := police.New(b)
		if s := g.Start(); s >= g.Size() || g.Classify(s) != implicit.Inner {
			t.Fatalf("start %d of %d is %v", s, g.Size(), g.Classify(s))
		}
	})
}

func Example() {
	b, _ := police.Parse(strings.NewReader("1 3\nP.T\n"))
	g := police.New(b)
	r, _ := engine.Sequential(context.Background(), g, engine.Options{})
	fmt.Println(r.Value(g.Start()), r.Depth(g.Start()))
	// Output: win 3
}
