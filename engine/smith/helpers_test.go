package smith_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
)

var ctx = context.Background()

// seq solves g with the sequential win/loss/draw engine, the oracle that
// Smith's values must agree with on sums.
func seq(t testing.TB, g implicit.Game) *engine.Result {
	t.Helper()
	r, err := engine.Sequential(ctx, g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// edges builds a graph from "u v" pairs.
func edges(n uint64, pairs ...uint32) *graph.Graph {
	var src, dst []uint32
	for i := 0; i < len(pairs); i += 2 {
		src = append(src, pairs[i])
		dst = append(dst, pairs[i+1])
	}
	return graph.FromEdges(n, src, dst)
}

// randomGraph draws a graph of varied size and density from seed: sparse
// and dense, with self-loops, repeated edges and isolated vertices.
func randomGraph(seed uint64) *graph.Graph {
	r := rand.New(rand.NewPCG(seed, 99))
	n := 1 + r.Uint64N(40)
	m := r.Uint64N(3*n + 1)
	if r.IntN(4) == 0 {
		m = r.Uint64N(n*n/2 + 1) // dense
	}
	return graph.Random(n, m, seed)
}
