package engine

import (
	"fmt"
	"sync/atomic"
	"time"
)

// progress prints a line about the running solve every tick to
// Options.Progress; a nil *progress (no writer) does nothing.
type progress struct {
	n        uint64
	start    time.Time
	phase    atomic.Pointer[string] // what the solve is doing, when not expanding a level
	depth    atomic.Uint64
	resolved atomic.Uint64 // positions resolved at the levels already started
	done     chan struct{}
	finished chan struct{}
}

func newProgress(opt Options, n uint64) *progress {
	if opt.Progress == nil {
		return nil
	}
	every := opt.ProgressEvery
	if every <= 0 {
		every = time.Second
	}
	p := &progress{n: n, start: time.Now(), done: make(chan struct{}), finished: make(chan struct{})}
	go func() {
		defer close(p.finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.done:
				return
			case <-t.C:
				el := time.Since(p.start)
				if ph := p.phase.Load(); ph != nil {
					fmt.Fprintf(opt.Progress, "retro: %s, %d positions, %v\n", *ph, p.n, el.Round(time.Millisecond))
					continue
				}
				res := p.resolved.Load()
				fmt.Fprintf(opt.Progress, "retro: level %d, %d of %d positions resolved (%.1f%%), %.3g positions/s, %v\n",
					p.depth.Load(), res, p.n, 100*float64(res)/float64(max(p.n, 1)),
					float64(res)/el.Seconds(), el.Round(time.Millisecond))
			}
		}
	}()
	return p
}

// setPhase records what the solve does outside the levels ("" while it
// expands levels).
func (p *progress) setPhase(what string) {
	if p == nil {
		return
	}
	if what == "" {
		p.phase.Store(nil)
		return
	}
	p.phase.Store(&what)
}

// level records that the level of the given depth, with frontier positions,
// has started.
func (p *progress) level(depth, frontier uint64) {
	if p == nil {
		return
	}
	p.depth.Store(depth)
	p.resolved.Add(frontier)
}

func (p *progress) stop() {
	if p == nil {
		return
	}
	close(p.done)
	<-p.finished
}
