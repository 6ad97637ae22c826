package pawns_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit/pawns"
)

// BenchmarkSolve10x10 solves ten random 10 x 10 boards, the workload of the
// comparison with seed 001.
func BenchmarkSolve10x10(b *testing.B) {
	var boards []*pawns.Board
	for k := range uint64(10) {
		boards = append(boards, pawns.Random(10, 10, 0.1, 1+k))
	}
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			var g pawns.Game
			for range b.N {
				for _, bd := range boards {
					g.Reset(bd)
					if _, err := engine.Parallel(context.Background(), &g, engine.Options{Workers: w}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
