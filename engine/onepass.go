package engine

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// OnePassBytes is the memory of OnePass's arrays for n positions whose
// depths fit in 16 bits: 2-bit values and 16-bit depths.
func OnePassBytes(n uint64) uint64 { return n * 9 / 4 }

// OnePass solves an ExitGame none of whose positions has a move inside it
// (a tier of placements in Nine Men's Morris, where every move spends a
// stone from a hand): each position's value and depth follow from its
// exits alone, in one parallel pass, and the Result's values and depths
// are its only arrays (2.25 or 4.25 bytes a position, where Parallel keeps
// counters, the exits' lanes and frontiers besides, and walks every
// position's un-moves). A position with a move inside is an error: the
// game was wrong to say it has none.
func OnePass(ctx context.Context, g ExitGame, opt Options) (*Result, error) {
	n := g.Size()
	width := uint(16)
	if g.MaxExitDepth()+1 >= 1<<16 {
		width = 32
	}
	r := &Result{n: n, values: bitset.NewTwoBits(n), depths: bitset.NewCounters(n, width), depthMask: 1<<width - 1}
	prog := StartProgress(opt, n)
	defer prog.Stop()
	prog.SetPhase("one pass over the moves")
	var maxDepth atomic.Uint64
	workers := parallel.Workers(opt.Workers)
	// Chunks are whole words of both arrays (ChunkFor's multiples of 64),
	// so that no two workers write one word.
	err := parallel.For(ctx, workers, n, parallel.ChunkFor(n, workers, 4096), func(_ int, lo, hi uint64) error {
		var buf []uint64
		deepest := uint64(0)
		for i := lo; i < hi; i++ {
			kind, inside, exit, b := g.ClassifyExits(i, buf)
			buf = b
			v, d := Illegal, uint64(0)
			switch kind {
			case implicit.TerminalWin:
				v = Win
			case implicit.TerminalLoss:
				v = Loss
			case implicit.Inner:
				if inside > 0 {
					return fmt.Errorf("engine: position %d has %d moves inside a game solved in one pass", i, inside)
				}
				switch exit.Kind {
				case ExitToLoss:
					v, d = Win, exit.Depth+1
				case ExitToWins:
					v, d = Loss, exit.Depth+1
				case ExitToDraw:
					v = Draw
				default: // no move at all
					v = Loss
				}
			}
			r.values.Set(i, uint8(v))
			if d > 0 {
				r.depths.Set(i, d)
				deepest = max(deepest, d)
			}
		}
		prog.Advance(hi - lo)
		for m := maxDepth.Load(); deepest > m && !maxDepth.CompareAndSwap(m, deepest); m = maxDepth.Load() {
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.maxDepth = maxDepth.Load()
	r.countValues()
	return r, nil
}
