package games_test

import (
	"flag"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/games"
	"github.com/retro-solver/retro/implicit/graph"
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
	if _, ok := games.Lookup("chess"); ok {
		t.Error("Lookup finds chess")
	}
}

// TestNotation loads each game that reads no input, with its default flags,
// and checks that ParsePosition reads back what Describe writes, on random
// legal positions, and the same through the compact renumbering.
func TestNotation(t *testing.T) {
	for _, d := range games.All() {
		if d.Input {
			continue
		}
		fs := flag.NewFlagSet(d.Name, flag.ContinueOnError)
		load := d.Setup(fs)
		if d.Name == "quixo" {
			fs.Parse([]string{"-n", "3"})
		}
		insts, err := load(nil, implicit.LoadConfig{})
		if err != nil || len(insts) != 1 {
			t.Fatalf("%s: %d instances, %v", d.Name, len(insts), err)
		}
		g := insts[0].Game()
		if _, ok := g.(implicit.Starter); !ok || d.Answers[2] == "" {
			t.Errorf("%s: no start or no answers", d.Name)
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
