package tier

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// A tier too small to keep every worker busy through its levels (each
// level of a few thousand entries ends at a barrier where the workers
// wait for each other) is solved by one worker, beside other small tiers
// whose children are solved: smallPerWorker entries per worker (see small)
// is where Quixo's and Teeko's tiers reach the rate of the large ones.
const smallPerWorker = 1 << 18

// small says whether tier t of g is solved by one worker, several such
// tiers at once (at most sideBySide), in a solve with the given number of
// workers. Its size is its classes where g numbers them (ClassNumberer:
// Quixo up to 4 x 4, whose tiers of up to 8 million positions hold a
// thirteenth as many classes, the entries the engine walks), its
// positions otherwise. Counted in positions, Quixo 4 x 4's tiers of 2^19
// classes and fewer took both workers of a 2-core machine, each level's
// barrier leaving one idle: its tiered solve took 1.18x the in-memory
// one's time, and 0.96x-1.02x counted in classes.
func small(g implicit.Game, t implicit.Tier, workers, sideBySide int) bool {
	n := t.Size()
	if cu := implicit.ClassNumbererOf(g); cu != nil {
		n = cu.ClassesBelow(t.End) - cu.ClassesBelow(t.Start)
	}
	return workers > 1 && sideBySide > 1 && n < smallPerWorker*uint64(workers)
}

// finished is what a tier's goroutine reports.
type finished struct {
	k       int
	workers int
	resumed bool
	took    time.Duration
	err     error
}

// schedule solves the tiers of order (every tier, or those
// Options.FirstGroupOnly leaves), each after the children waits lists for
// it (the tiers', or firstGroup's), with the bookkeeping of SolveShared's
// manager (which tiers are ready, which no parent needs any more): a large
// tier alone on all the workers, small ones side by side, one worker each,
// as long as workers are free. Of the ready tiers, the first in order
// (children first) goes first, which measured about 5% faster on Quixo
// 4 x 4 than the manager's heaviest chain first (tier.BenchmarkQuixo4, 4
// runs each). The tiers' files do not depend on the schedule: each tier's
// solve gives the same values whatever its number of workers.
func (s *solver) schedule(ctx context.Context, order []int, waits []implicit.Tier) error {
	workers := parallel.Workers(s.o.Engine.Workers)
	sideBySide := workers
	if s.o.SideBySide > 0 {
		sideBySide = min(s.o.SideBySide, workers)
	}
	m := newManager(waits, order, 1)
	closed := 0                       // m.retired[:closed] are closed
	rank := make([]int, len(s.tiers)) // rank[k]: k's place in order
	for i, k := range order {
		rank[k] = i
	}
	first := func() int { // the place in m.ready of the first ready tier in order
		best := 0
		for i, k := range m.ready {
			if rank[k] < rank[m.ready[best]] {
				best = i
			}
		}
		return best
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make(chan finished)
	busy, running := 0, 0 // workers in use; tiers under way
	var firstErr error
	var total, done, solvedHere uint64 // positions: all; of finished tiers; of those solved by this run
	for _, k := range order {
		total += s.tiers[k].Size()
	}
	start := time.Now()
	for m.done < len(order) {
		// Start what may start: the first ready tier, alone if it is
		// large (or the only one ready), otherwise on one free worker.
		for firstErr == nil && len(m.ready) > 0 {
			i := first()
			k := m.ready[i]
			w := 1
			if !small(s.g, s.tiers[k], workers, sideBySide) || (len(m.ready) == 1 && running == 0) {
				if running > 0 {
					break
				}
				w = workers
			} else if busy >= workers || running >= sideBySide {
				break
			} else {
				w = workers / sideBySide // all the workers, where fewer tiers than they go side by side
			}
			m.ready = slices.Delete(m.ready, i, i+1)
			busy += w
			running++
			go func() {
				began := time.Now()
				resumed, err := s.solveTier(ctx, k, w)
				results <- finished{k: k, workers: w, resumed: resumed, took: time.Since(began), err: err}
			}()
		}
		if running == 0 {
			break // after an error, once every tier under way has stopped
		}
		f := <-results
		busy -= f.workers
		running--
		t := s.tiers[f.k]
		if f.err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("tier %d (%s): %w", f.k, t.Name, f.err)
				cancel()
			}
			continue
		}
		m.finish(f.k)
		done += t.Size()
		if !f.resumed {
			solvedHere += t.Size()
			if f.workers == workers {
				s.release(f.k)
			}
		}
		if s.o.Progress != nil {
			how := fmt.Sprintf("solved in %s", f.took.Round(time.Millisecond))
			if f.resumed {
				how = "already done in " + s.o.Dir
			}
			fmt.Fprintln(s.o.Progress, progressLine(m.done, len(order), t, how, done, solvedHere, total, time.Since(start)))
		}
		// A child whose parents are all solved is closed: its pages go.
		s.mu.Lock()
		for _, c := range m.retired[closed:] {
			if s.stores[c] != nil {
				s.stores[c].close()
				s.stores[c] = nil
			}
		}
		s.mu.Unlock()
		closed = len(m.retired)
	}
	return firstErr
}
