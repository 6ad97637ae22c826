package engine_test

import (
	"fmt"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/dobutsu"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/police"
	"github.com/retro-solver/retro/implicit/quixo"
	"github.com/retro-solver/retro/internal/testsize"
)

// checkReached solves g from starts only, with both engines, and checks the
// result against the whole game's: the same value and depth on every
// reachable position, Illegal elsewhere, and the engines equal bit for bit.
func checkReached(t *testing.T, g implicit.Game, starts []uint64, label string) {
	t.Helper()
	full := seq(t, g)
	set, err := engine.ReachableSet(ctx, g, starts, engine.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	opt := engine.Options{ReachableFrom: starts}
	want, err := engine.Sequential(ctx, g, opt)
	if err != nil {
		t.Fatal(err)
	}
	for s := range g.Size() {
		if set.Test(s) {
			if want.Value(s) != full.Value(s) || want.Depth(s) != full.Depth(s) {
				t.Fatalf("%s: position %d is %v %d reached, %v %d in the whole game", label, s,
					want.Value(s), want.Depth(s), full.Value(s), full.Depth(s))
			}
		} else if want.Value(s) != engine.Illegal {
			t.Fatalf("%s: unreached position %d is %v", label, s, want.Value(s))
		}
	}
	if legal := g.Size() - want.Count(engine.Illegal); legal != set.Count()-countIllegal(g, set) {
		t.Fatalf("%s: %d positions solved, %d reached", label, legal, set.Count())
	}
	for _, w := range []int{1, 2, 3} {
		opt.Workers = w
		got, err := engine.Parallel(ctx, g, opt)
		if err != nil {
			t.Fatal(err)
		}
		if i, differ := engine.Diff(want, got); differ {
			t.Fatalf("%s: %d workers differ from the sequential engine at %d", label, w, i)
		}
	}
}

// countIllegal counts the illegal positions of g in a set (none, for a set
// reached by moves: moves reach only legal positions).
func countIllegal(g implicit.Game, set interface{ Test(uint64) bool }) uint64 {
	var n uint64
	for s := range g.Size() {
		if set.Test(s) && g.Classify(s) == implicit.Illegal {
			n++
		}
	}
	return n
}

func TestReachableFromRandomGames(t *testing.T) {
	for seed := range uint64(60) {
		g := randomMarkedGame(seed)
		var starts []uint64
		for s := range g.Size() {
			if g.Classify(s) != implicit.Illegal && len(starts) < 1+int(seed%3) {
				starts = append(starts, s)
			}
		}
		checkReached(t, g, starts, fmt.Sprintf("seed %d", seed))
	}
}

// TestReachableFromQuixo solves quixo 3 x 3 over its classes from the empty
// board only: a part of the classes, whose values are the whole solve's.
func TestReachableFromQuixo(t *testing.T) {
	q, err := quixo.New(3)
	if err != nil {
		t.Fatal(err)
	}
	cg := implicit.NewCompact(q)
	start := []uint64{cg.Index(q.Start())}
	checkReached(t, cg, start, "quixo 3x3")
	n, err := engine.Reachable(ctx, cg, start[0], engine.Options{})
	if err != nil || n >= cg.Size()-countIllegal(cg, allOf{}) {
		t.Fatalf("%d of %d classes reached (%v): the test needs fewer", n, cg.Size(), err)
	}
	t.Logf("%d of %d classes reached", n, cg.Size()-countIllegal(cg, allOf{}))
	if _, err := engine.Parallel(ctx, edges(3, 0, 1), engine.Options{ReachableFrom: []uint64{7}}); err == nil {
		t.Fatal("a start out of range was accepted")
	}
}

// TestReachableFromDobutsu solves two small Dōbutsu shōgi games (lions and
// chicks; lions, giraffes and elephants) from their starts only.
func TestReachableFromDobutsu(t *testing.T) {
	for _, kinds := range []string{"C", "GE"} {
		if kinds == "GE" && !testsize.Long() {
			continue
		}
		g, err := dobutsu.New(dobutsu.Config{Kinds: kinds, Mirror: true})
		if err != nil {
			t.Fatal(err)
		}
		checkReached(t, g, []uint64{g.Start()}, "dobutsu "+kinds)
	}
}

// allOf is the set of every index.
type allOf struct{}

func (allOf) Test(uint64) bool { return true }

// TestReachableSetOracle compares ReachableSet with a breadth-first search
// written plainly (a queue and a slice of booleans), on random graphs whose
// levels grow past the lists' limit (so both lists and bit sets are walked)
// and on a police board, for 1 to 3 workers.
func TestReachableSetOracle(t *testing.T) {
	games := map[string]implicit.Game{
		"police 20x20": police.New(police.Random(20, 20, 0.1, 0.01, 4)),
	}
	for seed := range uint64(4) {
		games[fmt.Sprintf("graph %d", seed)] = graph.Random(100_000+seed*50_000, 160_000+seed*90_000, seed)
	}
	for name, g := range games {
		starts := []uint64{0, g.Size() / 2, g.Size() / 2}
		if st, ok := g.(implicit.Starter); ok {
			starts = []uint64{st.Start()}
		}
		want := make([]bool, g.Size())
		queue := []uint64{}
		for _, s := range starts {
			if !want[s] {
				want[s] = true
				queue = append(queue, s)
			}
		}
		var buf []uint64
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			buf = g.Moves(s, buf[:0])
			for _, t := range buf {
				if !want[t] {
					want[t] = true
					queue = append(queue, t)
				}
			}
		}
		for _, w := range []int{1, 2, 3} {
			got, err := engine.ReachableSet(ctx, g, starts, engine.Options{Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			for i, in := range want {
				if got.Test(uint64(i)) != in {
					t.Fatalf("%s, %d workers: position %d reached %v, want %v", name, w, i, got.Test(uint64(i)), in)
				}
			}
		}
	}
}
