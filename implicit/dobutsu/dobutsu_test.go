package dobutsu_test

import (
	"context"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/engine/enginetest"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/dobutsu"
	"github.com/retro-solver/retro/implicit/gametest"
	"github.com/retro-solver/retro/internal/testsize"
)

func game(t testing.TB, kinds string, mirror bool) *dobutsu.Game {
	t.Helper()
	g, err := dobutsu.New(dobutsu.Config{Kinds: kinds, Mirror: mirror})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestSize checks the index of the real game against the count of its
// positions worked out by hand in the package comment.
func TestSize(t *testing.T) {
	if got := game(t, "GEC", false).Size(); got != 1_842_690_096 {
		t.Fatalf("index without mirroring: %d, want 1842690096", got)
	}
	if got := game(t, "GEC", true).Size(); got != 1_038_408_432 {
		t.Fatalf("index with mirroring: %d, want 1038408432", got)
	}
}

// TestConsistency checks the Game contract: on every index of the small
// games, and on random positions of the real one.
func TestConsistency(t *testing.T) {
	testsize.SkipUnderRace(t, "one goroutine's checks; the engines on these games are raced in TestEngines")
	for _, mirror := range []bool{false, true} {
		for _, kinds := range []string{"", "C", "G", "E"} {
			if err := gametest.Check(game(t, kinds, mirror), 200_000, 1); err != nil {
				t.Fatalf("pieces %q, mirror %v: %v", kinds, mirror, err)
			}
		}
		n := 20_000
		if !testsize.Long() {
			n = 2_000
		}
		for _, kinds := range []string{"GC", "GEC"} {
			if err := gametest.Check(game(t, kinds, mirror), n, 2); err != nil {
				t.Fatalf("pieces %q, mirror %v: %v", kinds, mirror, err)
			}
		}
	}
}

// TestNaive solves the small games (lions and one kind of piece) with the
// naive solver of naive_test.go and with the engine, with and without
// mirroring: every position, either player to move, has the same value and
// depth, and the positions cover the index's legal indices exactly.
func TestNaive(t *testing.T) {
	testsize.SkipUnderRace(t, "a naive oracle; the engines on these games are raced in TestEngines")
	for _, kinds := range []string{"", "C", "G", "E"} {
		all, want := naiveSolve(kinds)
		for _, mirror := range []bool{false, true} {
			g := game(t, kinds, mirror)
			r, err := engine.Parallel(context.Background(), g, engine.Options{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			hit := map[uint64]bool{}
			for i, p := range all {
				s, err := g.ParsePosition(p.text())
				if err != nil {
					t.Fatalf("%q: %v", p.text(), err)
				}
				hit[s] = true
				if got, d := r.Value(s).String(), r.Depth(s); got != want[i].value || (got != "draw" && d != uint64(want[i].depth)) {
					t.Fatalf("pieces %q, mirror %v: %s is %s %d (index %d), the naive solver says %s %d",
						kinds, mirror, p.text(), got, d, s, want[i].value, want[i].depth)
				}
			}
			legal := uint64(0)
			for s := range g.Size() {
				if g.Classify(s) != implicit.Illegal {
					legal++
					if !hit[s] {
						t.Fatalf("pieces %q, mirror %v: index %d is no position of the naive game\n%s", kinds, mirror, s, g.Describe(s))
					}
				}
			}
			if uint64(len(hit)) != legal {
				t.Fatalf("pieces %q, mirror %v: %d positions hit %d indices, %d legal", kinds, mirror, len(all), len(hit), legal)
			}
			t.Logf("pieces %q, mirror %v: %d positions, %d indices, %d legal; start %v %d", kinds, mirror,
				len(all), g.Size(), legal, r.Value(g.Start()), r.Depth(g.Start()))
		}
	}
}

// TestEngines solves middle-sized games with the sequential engine and the
// parallel one on 1 to 4 workers.
func TestEngines(t *testing.T) {
	kinds := []string{"C", "GE"}
	if !testsize.Long() {
		kinds = kinds[:1]
	}
	for _, k := range kinds {
		if err := enginetest.CrossCheck(context.Background(), game(t, k, true), 1, 2, 3, 4); err != nil {
			t.Fatalf("pieces %q: %v", k, err)
		}
	}
}

// TestMirror solves lions, giraffes and chicks (lions and chicks with
// -short) with and without mirroring: each of 100,000 random positions has
// its mirror class's value, and CheckLocal holds on them against the
// mirrored solve.
func TestMirror(t *testing.T) {
	kinds := "GC"
	if !testsize.Long() {
		kinds = "C"
	}
	full, half := game(t, kinds, false), game(t, kinds, true)
	rf, err := engine.Parallel(context.Background(), full, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rh, err := engine.Parallel(context.Background(), half, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	index := func(s uint64) uint64 {
		i, err := half.ParsePosition(full.Describe(s))
		if err != nil {
			t.Fatal(err)
		}
		return i
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var sample []uint64
	for range min(100_000, full.Size()) {
		s := rng.Uint64N(full.Size())
		sample = append(sample, s)
		if full.Classify(s) == implicit.Illegal {
			t.Fatalf("index %d is illegal without mirroring", s)
		}
		if i := index(s); rf.Value(s) != rh.Value(i) || rf.Depth(s) != rh.Depth(i) {
			t.Fatalf("%s is %v %d, its mirror class %v %d", full.Describe(s), rf.Value(s), rf.Depth(s), rh.Value(i), rh.Depth(i))
		}
	}
	if err := enginetest.CheckLocal(full, rh, index, sample); err != nil {
		t.Fatal(err)
	}
	if rf.Value(full.Start()) != rh.Value(half.Start()) || rf.Depth(full.Start()) != rh.Depth(half.Start()) {
		t.Fatal("the start differs")
	}
}

// TestStart checks the start and its moves: the chick takes the chick, the
// lion steps to a3 or c3, the giraffe to c3.
func TestStart(t *testing.T) {
	g := game(t, "GEC", false)
	s := g.Start()
	if got, want := g.Describe(s), "gle\n.c.\n.C.\nELG\nSente to move; in hand: -\n"; got != want {
		t.Fatalf("start:\n%s\nwant\n%s", got, want)
	}
	var got []string
	for _, m := range g.Moves(s, nil) {
		got = append(got, strings.ReplaceAll(g.Describe(m), "\n", "/"))
	}
	if len(got) != 4 {
		t.Fatalf("%d moves from the start, want 4:\n%s", len(got), strings.Join(got, "\n"))
	}
	for _, text := range []string{
		"gle/.C./.../ELG/Gote to move; in hand: C", // the chick takes
		"gle/.c./LC./E.G/Gote to move; in hand: -", // lion to a3
		"gle/.c./.CL/E.G/Gote to move; in hand: -", // lion to c3
		"gle/.c./.CG/EL./Gote to move; in hand: -", // giraffe to c3
	} {
		i, err := g.ParsePosition(text)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, m := range g.Moves(s, nil) {
			found = found || m == i
		}
		if !found {
			t.Fatalf("%s is not a move from the start", text)
		}
	}
}

// TestNotation reads back what Describe writes on random indices, and the
// same position with Gote to move, turned.
func TestNotation(t *testing.T) {
	g := game(t, "GEC", true)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20_000 {
		s := rng.Uint64N(g.Size())
		if g.Classify(s) == implicit.Illegal {
			continue
		}
		text := g.Describe(s)
		i, err := g.ParsePosition(text)
		if err != nil || i != s {
			t.Fatalf("%q reads as %d, %v; want %d", text, i, err, s)
		}
		if i, err := g.ParsePosition(turned(text)); err != nil || i != s {
			t.Fatalf("%q (turned) reads as %d, %v; want %d", turned(text), i, err, s)
		}
		if got, want := strings.TrimSpace(g.DescribeTurned(s)), turned(text); got != want {
			t.Fatalf("DescribeTurned(%d) = %q, want %q", s, got, want)
		}
	}
}

// turned writes a Sente-to-move text as Gote to move: the board turned by
// 180 degrees, the colours swapped.
func turned(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	var b strings.Builder
	for r := 3; r >= 0; r-- {
		row := []byte(lines[r])
		for c := 2; c >= 0; c-- {
			b.WriteByte(swapCase(row[c]))
		}
		b.WriteByte('\n')
	}
	hand := strings.TrimPrefix(lines[4], "Sente to move; in hand: ")
	var upper, lower []byte // Sente's pieces first
	for i := range len(hand) {
		if c := swapCase(hand[i]); c >= 'a' {
			lower = append(lower, c)
		} else {
			upper = append(upper, c)
		}
	}
	b.WriteString("Gote to move; in hand: " + string(upper) + string(lower))
	return b.String()
}

func swapCase(c byte) byte {
	switch {
	case c >= 'a' && c <= 'z':
		return c - 'a' + 'A'
	case c >= 'A' && c <= 'Z':
		return c - 'A' + 'a'
	}
	return c
}

func TestParseErrors(t *testing.T) {
	g := game(t, "GEC", true)
	for _, c := range []struct{ text, want string }{
		{"gle/.c./.C./ELG", "got 4 lines"},
		{"gle/.c./.C./EL/Sente to move; in hand: -", "row 4 has 2 cells"},
		{"gle/.x./.C./ELG/Sente to move; in hand: -", "row 2, column b: 'x' is not one of"},
		{"gle/.c./.C./ELG/Black to move; in hand: -", "want \"Sente to move\" or \"Gote to move\""},
		{"gle/.c./.C./ELG/Sente to move", "want \"Sente to move; in hand: ...\""},
		{"gle/.c./.C./ELG/Sente to move; in hand: C", "3 chicks"},
		{"gle/.c./...//ELG/Sente to move; in hand: -", "1 chicks"},
		{"gLe/.c./.C./ELG/Sente to move; in hand: -", "a second Sente lion"},
		{"g.e/.c./.C./ELG/Sente to move; in hand: l", "'l' is not one of"},
		{"g.e/.c./.C./ELG/Sente to move; in hand: -", "Gote (who just moved) has no lion"},
		{"gle/.c./.C./E.G/Gote to move; in hand: -", "Sente (who just moved) has no lion"},
		{"gle/.c./.H./ELG/Sente to move; in hand: H", "'H' is not one of"},
	} {
		_, err := g.ParsePosition(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want one line with %q", c.text, err, c.want)
		}
	}
	small := game(t, "C", true)
	if _, err := small.ParsePosition("gle/.c./.C./ELG/Sente to move; in hand: -"); err == nil || !strings.Contains(err.Error(), "no giraffes in this game") {
		t.Errorf("a giraffe in the lions-and-chicks game: %v", err)
	}
	if _, err := dobutsu.New(dobutsu.Config{Kinds: "GGC"}); err == nil {
		t.Error("pieces GGC accepted")
	}
}

// FuzzParsePosition: no panic, and what is read is an index that reads back.
func FuzzParsePosition(f *testing.F) {
	g, _ := dobutsu.New(dobutsu.Config{Kinds: "GEC", Mirror: true})
	f.Add(g.Describe(g.Start()))
	f.Add("gle/.c./.C./E.G/Gote to move; in hand: -")
	f.Add("g.e/.c./.C./ELG/Sente to move; in hand: Ll")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := g.ParsePosition(text)
		if err != nil {
			return
		}
		if s >= g.Size() || g.Classify(s) == implicit.Illegal {
			t.Fatalf("%q reads as %d, not a position", text, s)
		}
		if i, err := g.ParsePosition(g.Describe(s)); err != nil || i != s {
			t.Fatalf("%q reads as %d, its description as %d, %v", text, s, i, err)
		}
	})
}

// TestReachable counts the positions reachable from the start on the small
// games twice: over every position, and over one of each mirror pair with
// Positions weighing each class. They agree when the start reaches its own
// mirror image (then what it reaches is closed under mirroring), which
// these games show; a lion-captured position is the end of a game and is
// not counted.
func TestReachable(t *testing.T) {
	ctx := context.Background()
	for _, kinds := range []string{"C", "G", "E", "GC"} {
		if kinds == "GC" && !testsize.Long() {
			continue
		}
		full, half := game(t, kinds, false), game(t, kinds, true)
		classes, want, err := engine.ReachableClasses(ctx, full, full.Start(), engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if classes != want {
			t.Fatalf("pieces %q, no mirroring: %d classes, %d positions", kinds, classes, want)
		}
		classes, got, err := engine.ReachableClasses(ctx, half, half.Start(), engine.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if got != want || want == 0 || classes >= got {
			t.Fatalf("pieces %q: %d positions reachable over %d mirror classes, %d over every position", kinds, got, classes, want)
		}
		t.Logf("pieces %q: %d positions reachable, %d up to mirroring", kinds, got, classes)
	}
}

// TestFullSolve solves the real game when RETRO_DOBUTSU_FULL is set (about
// 4 minutes and 2.6 GB on 2 cores): the start is a loss for Sente in 78
// plies, the published solution, and CheckLocal holds at a million random
// positions.
func TestFullSolve(t *testing.T) {
	if os.Getenv("RETRO_DOBUTSU_FULL") == "" {
		t.Skip("set RETRO_DOBUTSU_FULL=1 to solve the whole game (4 minutes, 2.6 GB)")
	}
	g := game(t, "GEC", true)
	r, err := engine.Parallel(context.Background(), g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v, d := r.Value(g.Start()), r.Depth(g.Start()); v != engine.Loss || d != 78 {
		t.Errorf("the start is %v %d, want loss 78", v, d)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	var sample []uint64
	for len(sample) < 1_000_000 {
		if s := rng.Uint64N(g.Size()); g.Classify(s) != implicit.Illegal {
			sample = append(sample, s)
		}
	}
	if err := enginetest.CheckLocal(g, r, func(s uint64) uint64 { return s }, sample); err != nil {
		t.Fatal(err)
	}
}
