package engine

import (
	"context"
	"math/bits"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// Reachable returns the number of positions of g reachable from start by
// moves (start included), by a breadth-first forward pass over three bit
// sets of g's size: reached, this level and the next. For a reduced
// symmetric game it counts symmetry classes.
func Reachable(ctx context.Context, g implicit.Game, start uint64, opt Options) (uint64, error) {
	n := g.Size()
	w := parallel.Workers(opt.Workers)
	seen, cur, next := bitset.NewSet(n), bitset.NewSet(n), bitset.NewSet(n)
	seen.Add(start)
	cur.Add(start)
	bufs := make([]workerBuf, w)
	count := uint64(1)
	for {
		words := cur.Words()
		err := parallel.For(ctx, w, uint64(len(words)), parallel.ChunkFor(uint64(len(words)), w, 64), func(wk int, lo, hi uint64) error {
			buf := bufs[wk].buf
			for wi := lo; wi < hi; wi++ {
				for x := words[wi]; x != 0; x &= x - 1 {
					buf = g.Moves(wi<<6|uint64(bits.TrailingZeros64(x)), buf[:0])
					for _, t := range buf {
						if seen.TestAndAdd(t) {
							next.AtomicAdd(t)
						}
					}
				}
				words[wi] = 0
			}
			bufs[wk].buf = buf
			return nil
		})
		if err != nil {
			return 0, err
		}
		added := next.Count()
		if added == 0 {
			return count, nil
		}
		count += added
		cur, next = next, cur
	}
}
