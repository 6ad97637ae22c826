package db_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit/police"
)

// BenchmarkAdd writes the values of a police board (64 x 64 with 2% walls,
// 3.4e7 positions) to a database, from a parallel solve's lanes and from a
// lean solve's depths on disk: the writer's share of `retro solve -db`.
func BenchmarkAdd(b *testing.B) {
	g := police.New(police.Random(64, 64, 0.02, 0.004, 1))
	for _, name := range []string{"par", "lean"} {
		var r *engine.Result
		var err error
		if name == "par" {
			r, err = engine.Parallel(context.Background(), g, engine.Options{})
		} else {
			r, err = engine.Lean(context.Background(), g, engine.Options{DepthsOnDisk: true, DepthDir: b.TempDir()})
		}
		if err != nil {
			b.Fatal(err)
		}
		b.Run("source="+name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "p.db")
			for b.Loop() {
				writeDB(b, path, "police", nil, db.Options{}, db.Source{Values: r, MaxDepth: r.MaxDepth()})
			}
			b.ReportMetric(float64(r.Size()*uint64(b.N))/b.Elapsed().Seconds(), "positions/s")
		})
	}
}
