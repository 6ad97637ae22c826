package pawns_test

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
	"github.com/retro-solver/retro/implicit/pawns"
	"github.com/retro-solver/retro/internal/testsize"
)

// randomBoard draws a board of varied size and wall density from seed,
// including one-column boards and boards with a full wall row.
func randomBoard(seed uint64) *pawns.Board {
	r := rand.New(rand.NewPCG(seed, 1))
	rows, cols := 2+r.IntN(9), 1+r.IntN(10)
	if rows*cols < 3 {
		rows = 3
	}
	b := pawns.Random(rows, cols, []float64{0, 0.1, 0.25, 0.4}[r.IntN(4)], seed)
	if r.IntN(8) == 0 {
		b.WallRow()
	}
	return b
}

func TestConsistency(t *testing.T) {
	testsize.SkipUnderRace(t, "one goroutine's checks; pawns under parallel workers is raced in TestEnginesAgree")
	for seed := range uint64(300) {
		b := randomBoard(seed)
		g := pawns.New(b)
		if err := gametest.Check(g, 300, seed); err != nil {
			t.Fatalf("board seed %d:\n%s%v", seed, b, err)
		}
	}
	b := pawns.Random(16, 16, 0, 1)
	if err := gametest.Check(pawns.New(b), 3000, 1); err != nil {
		t.Fatalf("16 x 16: %v", err)
	}
}

func TestEnginesAgree(t *testing.T) {
	boards := 150
	switch {
	case testsize.Race:
		boards = 5 // the same paths on other boards, which the detector needs once
	case !testsize.Long():
		boards = 30
	}
	for seed := range uint64(boards) {
		b := randomBoard(seed)
		if err := enginetest.CrossCheck(context.Background(), pawns.New(b), 1, 2, 3, 4, 8); err != nil {
			t.Fatalf("board seed %d: %v\n%s", seed, err, b)
		}
	}
}

func TestSample(t *testing.T) {
	in := "0 2\n4 5\n...#O\n.#..#\n#O#..\n.#..X\n3 3\n#.#\nO.O\n.X.\n"
	boards, err := pawns.Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(boards) != 2 || boards[0].Rows != 4 || boards[0].Cols != 5 || !boards[0].Wall[0][3] ||
		boards[0].Red != [2][2]int{{0, 4}, {2, 1}} || boards[0].Black != [2]int{3, 4} {
		t.Fatalf("parsed %+v", boards[0])
	}
	var buf bytes.Buffer
	pawns.Write(&buf, boards)
	if buf.String() != in {
		t.Fatalf("Write gave\n%s\nwant\n%s", buf.String(), in)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "line 1: the input ends where the test group id should be"},
		{"0", "line 1: the input ends where the board count T should be"},
		{"0 x", `line 1: the board count T is "x", not a number`},
		{"0 0", "line 1: the board count T is 0, want 1 to 1048576"},
		{"0 2\n2 2\nO.\nOX\n", "board 2, line 4: the input ends where the row count n should be"},
		{"0 1\n17 2\n", "board 1, line 2: the row count n is 17, want 1 to 16"},
		{"0 1\n2 0\n", "board 1, line 2: the column count m is 0, want 1 to 16"},
		{"0 1\n2 2\nO.\n", "board 1, line 3: the input ends before row 2 of 2"},
		{"0 1\n2 2\nO..\nOX\n", "board 1, line 3: row 1 has 3 cells, want 2"},
		{"0 1\n2 2\nOa\nOX\n", "board 1, line 3: row 1, column 2: unknown cell 'a' (want '.', '#', 'O' or 'X')"},
		{"0 1\n2 2\nOO\nOX\n", "board 1, line 4: a third red pawn 'O' at row 2, column 1: want exactly two"},
		{"0 1\n2 2\nO.\n.X\n", "board 1, line 4: 1 red pawns 'O': want exactly two"},
		{"0 1\n2 2\nOO\n..\n", "board 1, line 4: no black pawn 'X': want exactly one"},
		{"0 1\n2 2\nOX\nO.\n", "board 1, line 3: the black pawn 'X' starts in row 1, where the game is already over"},
		{"0 1\n2 3\nO.O\nXX.\n", "board 1, line 4: a second black pawn 'X' at row 2, column 2: want exactly one"},
		{"0 1\n2 2\nOO\n.X\nextra\n", `line 5: unexpected "extra" after the last of 1 boards`},
	} {
		_, err := pawns.Parse(strings.NewReader(tc.in))
		var pe *pawns.ParseError
		if !errors.As(err, &pe) || err.Error() != tc.want {
			t.Errorf("Parse(%q):\n got %v\nwant %s", tc.in, err, tc.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"0 1\n2 2\nOO\n.X\n", "0 5\n4 5\n...#O\n.#..#\n#O#..\n.#..X\n", "1 1\n3 1\nO\nO\nX\n", "0 1\n16 16\n", "0 2\n3 3\n#.#\nO.O\n.X.\n2 3\nO#O\n.X#\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		boards, err := pawns.Parse(bytes.NewReader(data))
		if err != nil {
			var pe *pawns.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		// What was accepted means what it says: the boards write back as
		// the tokens after the group id and the count.
		toks := strings.FieldsFunc(string(data), func(r rune) bool { return strings.ContainsRune(" \t\n\r\v\f", r) })
		var want, got strings.Builder
		for k := 2; k < len(toks); {
			rows, _ := strconv.Atoi(toks[k])
			cols, _ := strconv.Atoi(toks[k+1])
			fmt.Fprintf(&want, "%d %d\n%s\n", rows, cols, strings.Join(toks[k+2:k+2+rows], "\n"))
			k += 2 + rows
		}
		for _, b := range boards {
			got.WriteString(b.String())
		}
		if got.String() != want.String() {
			t.Fatalf("%q read as %q, want %q", data, got.String(), want.String())
		}
		for _, b := range boards {
			if b.Rows > 16 || b.Cols > 16 {
				t.Fatalf("board of %d x %d accepted", b.Rows, b.Cols)
			}
			g := pawns.New(b)
			if s := g.Start(); s >= g.Size() || g.Classify(s) == implicit.Illegal {
				t.Fatalf("start %d of %d is not a legal index", s, g.Size())
			}
		}
	})
}

func Example() {
	boards, _ := pawns.Parse(strings.NewReader("0 1\n3 3\n#.#\nO.O\n.X.\n"))
	g := pawns.New(boards[0])
	r, _ := engine.Parallel(context.Background(), g, engine.Options{})
	fmt.Println(r.Value(g.Start()), r.Depth(g.Start()))
	// Output: loss 2
}
