package tier_test

import (
	"context"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/quixo"
	"github.com/retro-solver/retro/tier"
)

// BenchmarkQuixo4 solves Quixo 4 x 4 tier by tier and whole in memory
// (its classes, as the command does): the tiered solve's cost over the
// whole one is what issue 31 bounds.
func BenchmarkQuixo4(b *testing.B) {
	g, err := quixo.New(4)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.Run("tiered", func(b *testing.B) {
		for b.Loop() {
			sol, err := tier.Solve(ctx, g, tier.Options{Dir: b.TempDir(), Fingerprint: "bench"})
			if err != nil {
				b.Fatal(err)
			}
			sol.Close()
		}
	})
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			c := implicit.NewTieredCompact(g)
			if _, err := engine.Parallel(ctx, c, engine.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
