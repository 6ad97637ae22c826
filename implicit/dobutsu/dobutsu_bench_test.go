package dobutsu_test

import (
	"math/rand/v2"
	"testing"

	"github.com/retro-solver/retro/implicit"
)

// sample returns n random legal indices of the real game.
func sample(b *testing.B, n int) []uint64 {
	g := game(b, "GEC", true)
	rng := rand.New(rand.NewPCG(7, 8))
	var out []uint64
	for len(out) < n {
		if s := rng.Uint64N(g.Size()); g.Classify(s) == implicit.Inner {
			out = append(out, s)
		}
	}
	return out
}

// BenchmarkMoves measures the moves of random inner positions; edges/s
// is the rate that counts for the solver's classification.
func BenchmarkMoves(b *testing.B) {
	g, ss := game(b, "GEC", true), sample(b, 4096)
	var buf []uint64
	edges := 0
	for i := 0; b.Loop(); i++ {
		buf = g.Moves(ss[i%len(ss)], buf[:0])
		edges += len(buf)
	}
	b.ReportMetric(float64(edges)/b.Elapsed().Seconds(), "edges/s")
}

// BenchmarkUnmoves measures the un-moves of random positions.
func BenchmarkUnmoves(b *testing.B) {
	g, ss := game(b, "GEC", true), sample(b, 4096)
	var buf []uint64
	edges := 0
	for i := 0; b.Loop(); i++ {
		buf = g.Unmoves(ss[i%len(ss)], buf[:0])
		edges += len(buf)
	}
	b.ReportMetric(float64(edges)/b.Elapsed().Seconds(), "edges/s")
}

// BenchmarkClassify measures Classify, which decodes an index.
func BenchmarkClassify(b *testing.B) {
	g, ss := game(b, "GEC", true), sample(b, 4096)
	for i := 0; b.Loop(); i++ {
		g.Classify(ss[i%len(ss)])
	}
}

// BenchmarkClassifyCount measures what the solver's first pass calls on
// each index, on random indices.
func BenchmarkClassifyCount(b *testing.B) {
	g := game(b, "GEC", true)
	rng := rand.New(rand.NewPCG(7, 8))
	ss := make([]uint64, 4096)
	for i := range ss {
		ss[i] = rng.Uint64N(g.Size())
	}
	for i := 0; b.Loop(); i++ {
		g.ClassifyCount(ss[i%len(ss)])
	}
}
