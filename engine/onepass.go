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
// depths fit in 16 bits: 2-bit values and 16-bit depths, and for a Parted
// game a byte a position while the pass lasts.
func OnePassBytes(n uint64, parted bool) uint64 {
	if parted {
		return n * 13 / 4
	}
	return n * 9 / 4
}

// OnePass solves an ExitGame none of whose positions has a move inside it
// (a tier of placements in Nine Men's Morris, where every move spends a
// stone from a hand): each position's value and depth follow from its
// exits alone, in one parallel pass, and the Result's values and depths
// are its only arrays (2.25 or 4.25 bytes a position, where Parallel keeps
// counters and frontiers besides, its exits' actions on disk, and walks every
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
	pg, parted := g.(Parted)
	var err error
	if parted {
		err = onePassParts(ctx, pg, r, workers, prog, &maxDepth)
	} else {
		// Chunks are whole words of both arrays (ChunkFor's multiples of
		// 64), so that no two workers write one word.
		err = parallel.For(ctx, workers, n, parallel.ChunkFor(n, workers, 4096), func(_ int, lo, hi uint64) error {
			var buf []uint64
			deepest := uint64(0)
			for i := lo; i < hi; i++ {
				v, d, b, err := onePosition(g, i, buf)
				if err != nil {
					return err
				}
				buf = b
				r.values.Set(i, uint8(v))
				if d > 0 {
					r.depths.Set(i, d)
					deepest = max(deepest, d)
				}
			}
			prog.Advance(hi - lo)
			raise(&maxDepth, deepest)
			return nil
		})
	}
	if err != nil {
		return nil, err
	}
	r.maxDepth = maxDepth.Load()
	r.countValues()
	return r, nil
}

// Parted is an ExitGame whose positions OnePass, and Parallel when it
// classifies them, visit part by part, in the order the game chooses
// (implicit.TierOrderer), not the index's: one where the exits of
// consecutive positions are looked up close together. Every position but
// the Illegal ones must be in exactly one part; the engines hold those in
// none Illegal without classifying them.
type Parted interface {
	ExitGame
	Parts() uint64
	Part(j uint64, dst []uint64) []uint64
}

// onePosition returns the value and depth of position i from its exits,
// and buf for the next.
func onePosition(g ExitGame, i uint64, buf []uint64) (Value, uint64, []uint64, error) {
	kind, inside, exit, buf := g.ClassifyExits(i, buf)
	switch kind {
	case implicit.TerminalWin:
		return Win, 0, buf, nil
	case implicit.TerminalLoss:
		return Loss, 0, buf, nil
	case implicit.Inner:
	default:
		return Illegal, 0, buf, nil
	}
	if inside > 0 {
		return 0, 0, buf, fmt.Errorf("engine: position %d has %d moves inside a game solved in one pass", i, inside)
	}
	switch exit.Kind {
	case ExitToLoss:
		return Win, exit.Depth + 1, buf, nil
	case ExitToWins:
		return Loss, exit.Depth + 1, buf, nil
	case ExitToDraw:
		return Draw, 0, buf, nil
	}
	return Loss, 0, buf, nil // no move at all
}

// onePassParts is OnePass's pass over a Parted game's parts. A part's
// positions are anywhere in the arrays, so workers share words: a value
// is a byte of its own while the pass lasts (packed into r's two-bit
// values at the end), and a depth a lane stored with a plain store where
// the machine allows it (storer). A plain store does not wait for its word
// to come from memory, where an atomic one would, at every position.
func onePassParts(ctx context.Context, g Parted, r *Result, workers int, prog *Progress, maxDepth *atomic.Uint64) error {
	n := g.Size()
	values := make([]uint8, n)
	for i := range values {
		values[i] = uint8(Illegal) // the positions of no part
	}
	setDepth := storer(r.depths)
	parts := g.Parts()
	err := parallel.For(ctx, workers, parts, parallel.ChunkFor(parts, workers, 64), func(_ int, lo, hi uint64) error {
		var list, codes, buf []uint64
		deepest, done := uint64(0), uint64(0)
		for j := lo; j < hi; j++ {
			list = g.Part(j, list[:0])
			codes = codes[:0]
			for _, i := range list {
				v, d, b, err := onePosition(g, i, buf)
				if err != nil {
					return err
				}
				buf = b
				codes = append(codes, d<<2|uint64(v))
				deepest = max(deepest, d)
			}
			// The part's results are stored together: a store that misses
			// the cache holds up the stores behind it, and here those are
			// only the next results', whose misses overlap.
			for k, i := range list {
				c := codes[k]
				values[i] = uint8(c & 3)
				if d := c >> 2; d > 0 {
					setDepth(i, d)
				}
			}
			done += uint64(len(list))
		}
		prog.Advance(done)
		raise(maxDepth, deepest)
		return nil
	})
	if err != nil {
		return err
	}
	// Pack the bytes, 32 to a word of r's values.
	words := r.values.Words()
	return parallel.For(ctx, workers, uint64(len(words)), parallel.ChunkFor(uint64(len(words)), workers, 4096), func(_ int, lo, hi uint64) error {
		for w := lo; w < hi; w++ {
			var x uint64
			for k, v := range values[32*w : min(32*w+32, n)] {
				x |= uint64(v) << (2 * k)
			}
			words[w] = x
		}
		return nil
	})
}

// raise sets a to v if v is larger.
func raise(a *atomic.Uint64, v uint64) {
	for m := a.Load(); v > m && !a.CompareAndSwap(m, v); m = a.Load() {
	}
}
