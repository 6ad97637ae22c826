package smith_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/engine/smith"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
)

func solve(t testing.TB, g implicit.Game) *smith.Result {
	t.Helper()
	r, err := smith.Solve(ctx, g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func smithString(r *smith.Result, n uint64) []string {
	var out []string
	for v := range n {
		out = append(out, string(r.AppendValue(nil, v, nil)))
	}
	return out
}

func TestSmithExact(t *testing.T) {
	nim := func(k uint32) *graph.Graph { // vertex i is the nim heap *i
		var pairs []uint32
		for i := range k + 1 {
			for j := range i {
				pairs = append(pairs, i, j)
			}
		}
		return edges(uint64(k+1), pairs...)
	}
	for _, tc := range []struct {
		name string
		g    *graph.Graph
		want []string
	}{
		{"single vertex", edges(1), []string{"0"}},
		{"chain 0->1->2", edges(3, 0, 1, 1, 2), []string{"0", "1", "0"}},
		{"nim heaps", nim(5), []string{"0", "1", "2", "3", "4", "5"}},
		{"2-cycle without exit", edges(2, 0, 1, 1, 0), []string{"inf{}", "inf{}"}},
		{"3-cycle with an exit to a terminal", edges(4, 0, 1, 1, 2, 2, 0, 0, 3), []string{"2", "1", "0", "0"}},
		{"self-loop alone", edges(1, 0, 0), []string{"inf{}"}},
		{"self-loop and an exit", edges(2, 0, 0, 0, 1), []string{"inf{0}", "0"}},
		// 0 and 1 chase each other and both can move to the sink 2: each
		// has *0 among its options, so neither is *0, and neither can be
		// *1 (its other option does not reverse to *1).
		{"2-cycle, both with an exit", edges(3, 0, 1, 1, 0, 0, 2, 1, 2), []string{"inf{0}", "inf{0}", "0"}},
		// 1's options are 0 (which moves to the sink 2) and 3 (which moves
		// to the sink 4): both reverse to *0, so 1 is *0 and 0 is *1.
		{"2-cycle whose options reverse", edges(5, 0, 1, 1, 0, 0, 2, 1, 3, 3, 4), []string{"1", "0", "0", "1", "0"}},
	} {
		r := solve(t, tc.g)
		if got := smithString(r, tc.g.Size()); !slices.Equal(got, tc.want) {
			t.Errorf("%s: values %v, want %v", tc.name, got, tc.want)
		}
	}
}

// randomDAG has edges only from higher to lower vertices.
func randomDAG(seed uint64) *graph.Graph {
	r := rand.New(rand.NewPCG(seed, 11))
	n := 1 + r.Uint64N(40)
	var src, dst []uint32
	for range r.Uint64N(3*n + 1) {
		u, v := r.Uint64N(n), r.Uint64N(n)
		if u == v {
			continue
		}
		src, dst = append(src, uint32(max(u, v))), append(dst, uint32(min(u, v)))
	}
	return graph.FromEdges(n, src, dst)
}

func TestSmithIsGrundyOnAcyclicGraphs(t *testing.T) {
	for seed := range uint64(500) {
		g := randomDAG(seed)
		r := solve(t, g)
		// Direct mex recursion, bottom-up: edges go from higher to lower ids.
		grundy := make([]uint32, g.Size())
		for v := range g.Size() {
			seen := map[uint32]bool{}
			for _, w := range g.Moves(v, nil) {
				seen[grundy[w]] = true
			}
			for seen[grundy[v]] {
				grundy[v]++
			}
			if r.Value(v) != grundy[v] {
				t.Fatalf("seed %d: vertex %d has Smith value %d, Grundy value %d", seed, v, r.Value(v), grundy[v])
			}
		}
	}
}

// checkSmithDefinition checks a labelling against Smith's definition: a
// finite g has options of every value below g and none of value g, and every
// option that is infinite can be reversed to g; an infinite position has no
// option labelling that would make it finite by mex and reversibility.
func checkSmithDefinition(t *testing.T, g implicit.Game, r *smith.Result, label string) {
	t.Helper()
	for u := range g.Size() {
		moves := g.Moves(u, nil)
		has := map[uint32]bool{}
		for _, v := range moves {
			has[r.Value(v)] = true
		}
		val := r.Value(u)
		if val == smith.Inf {
			// No finite h could be u's value: for each h missing among the
			// options (the only candidates), some infinite option cannot
			// reverse to h, or h is absent below... checked for the mex.
			h := uint32(0)
			for has[h] {
				h++
			}
			reversible := true
			for _, v := range moves {
				if r.Value(v) == smith.Inf && !hasOption(g, r, v, h) {
					reversible = false
				}
			}
			if reversible {
				t.Fatalf("%s: vertex %d is infinite, but mex %d of its options reverses everywhere", label, u, h)
			}
			continue
		}
		for h := range val {
			if !has[h] {
				t.Fatalf("%s: vertex %d has value %d but no option of value %d", label, u, val, h)
			}
		}
		if has[val] {
			t.Fatalf("%s: vertex %d has value %d and an option of the same value", label, u, val)
		}
		for _, v := range moves {
			if r.Value(v) == smith.Inf && !hasOption(g, r, v, val) {
				t.Fatalf("%s: vertex %d has value %d, but its infinite option %d cannot reverse to it", label, u, val, v)
			}
		}
	}
}

func hasOption(g implicit.Game, r *smith.Result, v uint64, val uint32) bool {
	for _, w := range g.Moves(v, nil) {
		if r.Value(w) == val {
			return true
		}
	}
	return false
}

func TestSmithDefinitionOnRandomGraphs(t *testing.T) {
	for seed := range uint64(1000) {
		g := randomGraph(seed)
		checkSmithDefinition(t, g, solve(t, g), fmt.Sprintf("seed %d", seed))
	}
	// Larger sparse graphs: long acyclic stretches (valued before the
	// rounds) feeding into and out of cycles.
	for seed := range uint64(200) {
		g := graph.Random(300, 330+seed, seed)
		checkSmithDefinition(t, g, solve(t, g), fmt.Sprintf("sparse seed %d", seed))
	}
}

// sumGraph builds the explicit sum of a and b: vertex (x, y) = x*|b| + y,
// a move in exactly one component.
func sumGraph(a, b implicit.Game) *graph.Graph {
	na, nb := a.Size(), b.Size()
	var src, dst []uint32
	for x := range na {
		for y := range nb {
			for _, x2 := range a.Moves(x, nil) {
				src, dst = append(src, uint32(x*nb+y)), append(dst, uint32(x2*nb+y))
			}
			for _, y2 := range b.Moves(y, nil) {
				src, dst = append(src, uint32(x*nb+y)), append(dst, uint32(x*nb+y2))
			}
		}
	}
	return graph.FromEdges(na*nb, src, dst)
}

// predicted returns the outcome theorem 15 gives for the sum of two values.
func predicted(ra, rb *smith.Result, x, y uint64) engine.Value {
	a, b := ra.Value(x), rb.Value(y)
	switch {
	case a != smith.Inf && b != smith.Inf:
		if a^b == 0 {
			return engine.Loss
		}
		return engine.Win
	case a != smith.Inf || b != smith.Inf:
		// inf{K} + *i = inf{K xor i}: a win iff i is in K.
		k, i := ra.MoveValues(x, nil), b
		if a != smith.Inf {
			k, i = rb.MoveValues(y, nil), a
		}
		if slices.Contains(k, i) {
			return engine.Win
		}
		return engine.Draw
	}
	return engine.Draw // inf{K} + inf{L} = inf{}
}

// TestSumOutcomes ties Smith's values to the tested win/loss/draw engine:
// the outcome of every vertex of the explicit sum graph must be the one
// theorem 15 predicts from the components' values.
func TestSumOutcomes(t *testing.T) {
	var kinds [3]int // sums of two nims, of a nim and an infinity, of two infinities
	for seed := range uint64(400) {
		a, b := randomGraph(seed), randomGraph(seed+100000)
		for k := uint64(1); a.Size()*b.Size() > 600; k++ {
			b = randomGraph(seed + 100000*k) // another, until it is small enough
		}
		if seed%3 == 0 { // G + a nim heap
			var pairs []uint32
			k := uint32(seed % 6)
			for i := range k + 1 {
				for j := range i {
					pairs = append(pairs, i, j)
				}
			}
			b = edges(uint64(k+1), pairs...)
		}
		ra, rb := solve(t, a), solve(t, b)
		s := sumGraph(a, b)
		res := seq(t, s)
		for x := range a.Size() {
			for y := range b.Size() {
				want := predicted(ra, rb, x, y)
				kinds[btoi(ra.Value(x) == smith.Inf)+btoi(rb.Value(y) == smith.Inf)]++
				got := res.Value(x*b.Size() + y)
				if got != want {
					t.Fatalf("seed %d: (%d, %d) with values %s + %s is a %v, theorem 15 says %v",
						seed, x, y, ra.AppendValue(nil, x, nil), rb.AppendValue(nil, y, nil), got, want)
				}
				var sum smith.Sum
				sum.Add(ra, x)
				sum.Add(rb, y)
				if line := string(sum.AppendOutcome(nil)); !strings.HasSuffix(line, " "+got.String()) {
					t.Fatalf("seed %d: (%d, %d) is a %v, Sum says %q", seed, x, y, got, line)
				}
			}
		}
	}
	if kinds[0] < 1000 || kinds[1] < 1000 || kinds[2] < 1000 {
		t.Fatalf("too few sums of each kind (nim+nim, nim+inf, inf+inf): %v", kinds)
	}
	t.Logf("sums checked (nim+nim, nim+inf, inf+inf): %v", kinds)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
