package games_test

import (
	"flag"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/chess"
	"github.com/retro-solver/retro/implicit/games"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/morris"
	"github.com/retro-solver/retro/implicit/pawns"
	"github.com/retro-solver/retro/implicit/police"
	"github.com/retro-solver/retro/implicit/quixo"
	"github.com/retro-solver/retro/internal/testsize"
)

// TestRegistry checks what the command line relies on: names sorted and
// unique, every field that the help and the answer need filled in, and
// Lookup finding each game.
func TestRegistry(t *testing.T) {
	all := games.All()
	if !slices.IsSortedFunc(all, func(a, b *implicit.Descriptor) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("games.All is not sorted by name")
	}
	for i, d := range all {
		if i > 0 && all[i-1].Name == d.Name {
			t.Errorf("two games called %q", d.Name)
		}
		if d.Summary == "" || d.Help == "" || d.Setup == nil {
			t.Errorf("%s: summary, help or setup missing", d.Name)
		}
		if got, ok := games.Lookup(d.Name); !ok || got != d {
			t.Errorf("Lookup(%q) does not find it", d.Name)
		}
	}
	if _, ok := games.Lookup("go"); ok {
		t.Error("Lookup finds go")
	}
}

// TestNotation loads each game that reads no input, with its default flags,
// and checks that ParsePosition reads back what Describe writes, on random
// legal positions, and the same through the compact renumbering.
func TestNotation(t *testing.T) {
	testsize.SkipUnderRace(t, "one goroutine's round trips; each game under parallel workers is raced in its own package")
	for _, d := range games.All() {
		if d.Input {
			continue
		}
		fs := flag.NewFlagSet(d.Name, flag.ContinueOnError)
		load := d.Setup(fs)
		switch d.Name {
		case "quixo":
			fs.Parse([]string{"-n", "3"})
		case "chess":
			fs.Parse([]string{"-material", "KRvKP"})
		}
		insts, err := load(nil, implicit.LoadConfig{})
		if err != nil || len(insts) != 1 {
			t.Fatalf("%s: %d instances, %v", d.Name, len(insts), err)
		}
		g := insts[0].Game()
		if _, ok := g.(implicit.Starter); (!ok || d.Answers[2] == "") && !d.Counts {
			t.Errorf("%s: neither a start with its answers nor counts", d.Name)
		}
		roundTrip(t, d.Name, g, 2000)
	}
	roundTrip(t, "graph", graph.Random(100, 300, 1), 100)
}

func roundTrip(t *testing.T, name string, g implicit.Game, samples int) {
	t.Helper()
	n, ok := g.(implicit.Notation)
	if !ok {
		t.Fatalf("%s has no notation", name)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range samples {
		s := r.Uint64N(g.Size())
		if g.Classify(s) == implicit.Illegal {
			continue
		}
		text := n.Describe(s)
		if got, err := n.ParsePosition(text); err != nil || got != s {
			t.Fatalf("%s: ParsePosition(%q) = %d, %v; want %d", name, text, got, err, s)
		}
	}
	if _, err := n.ParsePosition("no such position"); err == nil {
		t.Errorf("%s: nonsense parsed", name)
	}
}

// TestBoardNotation checks the board games' notation on random boards:
// every legal position reads back, terminal ones (pieces on one cell)
// included.
func TestBoardNotation(t *testing.T) {
	testsize.SkipUnderRace(t, "one goroutine's round trips; each game under parallel workers is raced in its own package")
	for seed := range uint64(20) {
		pb := pawns.Random(3+int(seed%6), 2+int(seed%7), 0.15, seed)
		roundTrip(t, "pawns", pawns.New(pb), 3000)
		roundTrip(t, "police", police.New(police.Random(1+int(seed%5), 2+int(seed%6), 0.15, 0.1, seed)), 3000)
	}
}

// FuzzParsePosition feeds any text to each game's ParsePosition: no panic,
// and what it accepts is a legal-range index that reads back through
// Describe.
func FuzzParsePosition(f *testing.F) {
	q, _ := quixo.New(3)
	pw := pawns.New(pawns.Random(4, 4, 0.1, 1))
	pl := police.New(police.Random(3, 4, 0.1, 0.1, 2))
	mo, _ := morris.New(morris.Standard, 0)
	me, _ := morris.New(morris.Lasker, 4)
	m, _ := chess.ParseMaterial("KRvKP")
	ch, _ := chess.NewGame(m)
	gs := []implicit.Notation{q, pw, pl, graph.Random(10, 20, 1), mo, me, ch}
	for _, g := range gs {
		f.Add(g.Describe(1))
	}
	f.Add("4 4\n@...\n.O..\n....\n....\nRed to move\n")
	f.Add("W.W/.B./.../...W../.../B../... B 5 6")
	f.Add("8/8/8/8/8/2k5/1p6/KR6 w - -")
	f.Fuzz(func(t *testing.T, s string) {
		for _, g := range gs {
			i, err := g.ParsePosition(s)
			if err != nil {
				continue
			}
			if i >= g.(implicit.Game).Size() {
				t.Fatalf("%T: ParsePosition(%q) = %d, out of range", g, s, i)
			}
			if j, err := g.ParsePosition(g.Describe(i)); err != nil || j != i {
				t.Fatalf("%T: %q reads as %d, its description as %d, %v", g, s, i, j, err)
			}
		}
	})
}
