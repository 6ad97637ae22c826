package engine

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// Reachable returns the number of positions of g reachable from start by
// moves (start included). For a reduced symmetric game it counts symmetry
// classes.
func Reachable(ctx context.Context, g implicit.Game, start uint64, opt Options) (uint64, error) {
	seen, err := ReachableSet(ctx, g, []uint64{start}, opt)
	if err != nil {
		return 0, err
	}
	return seen.Count(), nil
}

// ReachableClasses counts what a game whose indices stand for classes of
// positions (implicit.PositionCounter) reaches from start: the indices
// reached that stand for positions (Positions > 0), and the positions they
// stand for.
func ReachableClasses(ctx context.Context, g implicit.PositionCounter, start uint64, opt Options) (classes, positions uint64, err error) {
	seen, err := ReachableSet(ctx, g, []uint64{start}, opt)
	if err != nil {
		return 0, 0, err
	}
	w := parallel.Workers(opt.Workers)
	words := seen.Words()
	sums := make([][2]uint64, w)
	err = parallel.For(ctx, w, uint64(len(words)), parallel.ChunkFor(uint64(len(words)), w, 64), func(wk int, lo, hi uint64) error {
		for wi := lo; wi < hi; wi++ {
			for x := words[wi]; x != 0; x &= x - 1 {
				if n := g.Positions(wi<<6 | uint64(bits.TrailingZeros64(x))); n > 0 {
					sums[wk][0]++
					sums[wk][1] += n
				}
			}
		}
		return nil
	})
	runtime.KeepAlive(seen) // its words are unmapped once it is unreachable
	for _, s := range sums {
		classes += s[0]
		positions += s[1]
	}
	return classes, positions, err
}

// ReachableSetBytes returns the memory ReachableSet takes for a game of n
// indices: its three bit sets, and the lists of its small levels (each of
// its two frontiers keeps the workers' lists and their merge).
func ReachableSetBytes(n uint64) uint64 { return 3*((n+63)/64*8) + 2*2*8*reachListLimit(n) }

// reachListLimit is the most positions a level of ReachableSet keeps in
// lists (see parallel.Frontier) before it turns to a bit set.
func reachListLimit(n uint64) uint64 { return max(n/512, 1024) }

// ReachableSet returns the positions of g reachable from starts by moves
// (the starts included), by a breadth-first forward pass: the set reached,
// and the level being expanded and the next, each a list while it is small
// (a level of a large board is a sliver of its positions, and scanning a
// bit set of them all for it was most of the pass) and a bit set once it
// is not. The set is closed under moves.
func ReachableSet(ctx context.Context, g implicit.Game, starts []uint64, opt Options) (bitset.Set, error) {
	n := g.Size()
	w := parallel.Workers(opt.Workers)
	seen := bitset.NewSet(n)
	cur, next := parallel.NewFrontier(n, w, reachListLimit(n)), parallel.NewFrontier(n, w, reachListLimit(n))
	cur.Reset()
	for _, s := range starts {
		if !seen.Test(s) {
			seen.Add(s)
			cur.Emit(0, s)
		}
	}
	cur.Close()
	bufs := make([]workerBuf, w)
	prog := StartProgress(opt, n)
	defer prog.Stop()
	prog.SetPhase("reaching from the start")
	prog.Advance(uint64(len(starts)))
	// expand emits the positions that position i's moves reach for the
	// first time, for worker wk (a repeat is seen already: the moves are
	// listed as they cost least, repeats and all).
	moves, _ := implicit.MovesWithRepeatsOf(g)
	expand := func(wk int, i uint64) uint64 {
		var found uint64
		buf := moves(i, bufs[wk].buf[:0])
		for _, t := range buf {
			if seen.TestAndAdd(t) {
				next.Emit(wk, t)
				found++
			}
		}
		bufs[wk].buf = buf
		return found
	}
	for {
		next.Reset()
		var err error
		if cur.Dense() {
			words := cur.Set().Words()
			err = parallel.For(ctx, w, uint64(len(words)), parallel.ChunkFor(uint64(len(words)), w, 64), func(wk int, lo, hi uint64) error {
				var found uint64
				for wi := lo; wi < hi; wi++ {
					for x := words[wi]; x != 0; x &= x - 1 {
						found += expand(wk, wi<<6|uint64(bits.TrailingZeros64(x)))
					}
					words[wi] = 0
				}
				prog.Advance(found)
				return nil
			})
			cur.MarkCleared()
		} else {
			list := cur.List()
			err = parallel.For(ctx, w, uint64(len(list)), parallel.ChunkFor(uint64(len(list)), w, 64), func(wk int, lo, hi uint64) error {
				var found uint64
				for _, i := range list[lo:hi] {
					found += expand(wk, i)
				}
				prog.Advance(found)
				return nil
			})
		}
		if err != nil {
			return bitset.Set{}, err
		}
		if next.Close() == 0 {
			return seen, nil
		}
		cur, next = next, cur
	}
}

// reached is a game restricted to a set of its positions closed under
// moves (ReachableSet): the others are illegal, and un-moves leave them
// out. On the positions of the set it has the same moves, so the same
// values.
type reached struct {
	implicit.Game
	in bitset.Set
}

func (r *reached) Classify(s uint64) implicit.Kind {
	if !r.in.Test(s) {
		return implicit.Illegal
	}
	return r.Game.Classify(s)
}

func (r *reached) Unmoves(t uint64, dst []uint64) []uint64 {
	k := len(dst)
	dst = r.Game.Unmoves(t, dst)
	out := dst[:k]
	for _, s := range dst[k:] {
		if r.in.Test(s) {
			out = append(out, s)
		}
	}
	return out
}

// reachedCounter is reached for a game that counts its moves.
type reachedCounter struct {
	reached
	mc implicit.MoveCounter
}

func (r *reachedCounter) NumMoves(s uint64) uint64 { return r.mc.NumMoves(s) }

// restrict returns g restricted to the positions reachable from
// opt.ReachableFrom, or g itself if that is empty.
func restrict(ctx context.Context, g implicit.Game, opt Options) (implicit.Game, error) {
	if len(opt.ReachableFrom) == 0 {
		return g, nil
	}
	for _, s := range opt.ReachableFrom {
		if s >= g.Size() || g.Classify(s) == implicit.Illegal {
			return nil, fmt.Errorf("engine: start %d is not a legal position", s)
		}
	}
	set, err := ReachableSet(ctx, g, opt.ReachableFrom, opt)
	if err != nil {
		return nil, err
	}
	r := reached{g, set}
	if mc, ok := g.(implicit.MoveCounter); ok {
		return &reachedCounter{r, mc}, nil
	}
	return &r, nil
}
