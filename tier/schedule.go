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
// whose children are solved: smallPerWorker positions per worker is where
// Quixo's and Teeko's tiers reach the rate of the large ones.
const smallPerWorker = 1 << 18

// small says whether tier t is solved by one worker, several such tiers at
// once, in a solve with the given number of workers. It counts positions,
// also for a game solved on its classes: Quixo 4 x 4's tiers hold a
// thirteenth as many classes, and counted so, all but one of them would
// be small and its tiered solve 0.96x the in-memory one's time instead of
// 1.1-1.2x (measured on 2 cores); but the plan counts small tiers side by
// side at once, and -max-memory would then refuse solves that run today
// one tier at a time. Side by side only while the tiers' memory fits the
// limit would allow both.
func small(t implicit.Tier, workers int) bool {
	return workers > 1 && t.Size() < smallPerWorker*uint64(workers)
}

// finished is what a tier's goroutine reports.
type finished struct {
	k       int
	workers int
	resumed bool
	took    time.Duration
	err     error
}

// schedule solves every tier, each after its children, with the
// bookkeeping of SolveShared's manager (which tiers are ready, which no
// parent needs any more): a large tier alone on all the workers, small
// ones side by side, one worker each, as long as workers are free. Of the
// ready tiers, the first in order (children first) goes first, which
// measured about 5% faster on Quixo 4 x 4 than the manager's heaviest
// chain first (tier.BenchmarkQuixo4, 4 runs each). The
// tiers' files do not depend on the schedule: each tier's solve gives the
// same values whatever its number of workers.
func (s *solver) schedule(ctx context.Context, order []int) error {
	workers := parallel.Workers(s.o.Engine.Workers)
	m := newManager(s.tiers, order, 1)
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
	for _, t := range s.tiers {
		total += t.Size()
	}
	start := time.Now()
	for m.done < len(s.tiers) {
		// Start what may start: the first ready tier, alone if it is
		// large (or the only one ready), otherwise on one free worker.
		for firstErr == nil && len(m.ready) > 0 {
			i := first()
			k := m.ready[i]
			w := 1
			if !small(s.tiers[k], workers) || (len(m.ready) == 1 && running == 0) {
				if running > 0 {
					break
				}
				w = workers
			} else if busy >= workers {
				break
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
			fmt.Fprintln(s.o.Progress, progressLine(m.done, len(s.tiers), t, how, done, solvedHere, total, time.Since(start)))
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
