package engine

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// A tier split across ranks (tier.SolveShared's big tiers) is an ExitGame:
// its moves into solved children are exits, which the distributed engine
// treats as Parallel does (par_exits.go). A position's exits are its own,
// so each rank keeps the exit actions of its own range only, in a lane
// per position, and applies those of a level after the level's messages;
// no exit crosses ranks. The ranks agree on the last level with an action,
// for a level with an empty frontier everywhere may still have some.

// newDistExits returns the exit actions' lanes for n positions of eg,
// coded as for a game that is not Alternating (a rank's checkpoint says
// nothing of the coding).
func newDistExits(eg ExitGame, n uint64) *exitEvents {
	return newExitEvents(eg, n, false)
}

// classifyExits is classify for an ExitGame: a position with exits counts
// one more move, which only an exit action of ExitToWins takes back.
func (d *distSolver) classifyExits(ctx context.Context, eg ExitGame, prog *Progress) error {
	n := uint64(len(d.state))
	var mu sync.Mutex
	classifiers := exitClassifiers(eg, d.workers)
	return parallel.For(ctx, d.workers, n, parallel.ChunkFor(n, d.workers, 4096), func(w int, lo, hi uint64) error {
		var buf []uint64
		var found exitEvents // this chunk's actions per level
		for j := lo; j < hi; j++ {
			kind, k, exit, b := classifiers[w](d.lo+j, buf)
			buf = b
			if kind == implicit.Inner && exit.Kind != NoExit {
				k++
				if e, ok := d.exits.event(exit); ok {
					d.exits.lanes.Store(j, e)
					found.count(e, 1)
				}
			}
			d.start(j, kind, k)
		}
		mu.Lock()
		for l, k := range found.atLevel {
			d.exits.countLevel(uint64(l), k)
		}
		mu.Unlock()
		prog.Advance(hi - lo)
		return nil
	})
}

// agreeExits sets the number of levels with an exit action on some rank
// (after classifying, or resuming from a checkpoint). Every rank calls it.
func (d *distSolver) agreeExits() error {
	if d.exits == nil {
		return nil
	}
	levels, err := d.comm.Max([]uint64{uint64(len(d.exits.atLevel))})
	if err != nil {
		return err
	}
	d.exitLevels = levels[0]
	return nil
}

// applyExits applies this rank's exit actions of level depth, as a
// level's messages are applied, and counts the positions they resolve in
// resolved.
func (d *distSolver) applyExits(ctx context.Context, depth uint64, resolved *atomic.Uint64) error {
	return d.exits.scan(ctx, d.workers, depth, func(_ int, j uint64, decrement bool) {
		loss := uint64(1)
		if decrement {
			loss = 0
		}
		if d.apply(d.lo+j, loss, depth+1) {
			resolved.Add(1)
		}
	})
}
