package engine_test

import (
	"fmt"
	"testing"

	"github.com/retro-solver/retro/bench"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/police"
)

// benchGames are the engine benchmarks' workloads: a police board of 2.7e7
// positions (64 x 64, 10% walls) and a random graph of 10^7 vertices with
// two moves each on average.
func benchGames(b *testing.B) map[string]implicit.Game {
	return map[string]implicit.Game{
		"police64":   police.New(police.Random(64, 64, 0.1, 0.005, 1)),
		"graph1e7x2": graph.Random(10_000_000, 20_000_000, 1),
	}
}

// BenchmarkParallel reports, beside the time, the predecessor edges walked
// per second and, as roof, the random atomic read-modify-write rate over an
// array the size of the engine's lanes, with the same number of workers.
func BenchmarkParallel(b *testing.B) {
	games := benchGames(b)
	for _, name := range []string{"police64", "graph1e7x2"} {
		g := games[name]
		for _, w := range []int{1, 2} {
			for _, dir := range []engine.Direction{engine.Auto, engine.PushOnly, engine.PullOnly} {
				b.Run(fmt.Sprintf("game=%s/workers=%d/dir=%v", name, w, dir), func(b *testing.B) {
					var edges uint64
					for range b.N {
						r, err := engine.Parallel(ctx, g, engine.Options{Workers: w, Direction: dir})
						if err != nil {
							b.Fatal(err)
						}
						edges += r.Edges()
					}
					b.ReportMetric(float64(edges)/b.Elapsed().Seconds(), "edges/s")
					b.ReportMetric(float64(g.Size()*uint64(b.N))/b.Elapsed().Seconds(), "positions/s")
				})
			}
		}
	}
}

func BenchmarkSequential(b *testing.B) {
	g := benchGames(b)["police64"]
	for range b.N {
		if _, err := engine.Sequential(ctx, g, engine.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAtomicRMW is the roof for BenchmarkParallel: random atomic adds
// over 2 bytes per position of each workload, 2^24 of them an iteration.
func BenchmarkAtomicRMW(b *testing.B) {
	games := benchGames(b)
	for _, name := range []string{"police64", "graph1e7x2"} {
		size := 2 * games[name].Size()
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("game=%s/workers=%d", name, w), func(b *testing.B) {
				var rate float64
				for range b.N {
					rate += bench.AtomicRate(size, w, 1<<24)
				}
				b.ReportMetric(rate/float64(b.N), "ops/s")
			})
		}
	}
}

// BenchmarkLean is BenchmarkParallel for the lean engine: half a byte per
// position, move counts recomputed instead of stored.
func BenchmarkLean(b *testing.B) {
	games := benchGames(b)
	for _, name := range []string{"police64", "graph1e7x2"} {
		g := games[name]
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("game=%s/workers=%d", name, w), func(b *testing.B) {
				var edges uint64
				for range b.N {
					r, err := engine.Lean(ctx, g, engine.Options{Workers: w})
					if err != nil {
						b.Fatal(err)
					}
					edges += r.Edges()
				}
				b.ReportMetric(float64(edges)/b.Elapsed().Seconds(), "edges/s")
				b.ReportMetric(float64(g.Size()*uint64(b.N))/b.Elapsed().Seconds(), "positions/s")
			})
		}
	}
}
