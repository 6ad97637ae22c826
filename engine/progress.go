package engine

import (
	"fmt"
	"sync/atomic"
	"time"
)

// Progress prints a line about a running solve every tick (a second by
// default) to Options.Progress: the level, the positions resolved, the
// rate; or the phase the solve is in. A nil *Progress (no writer) does
// nothing, so solvers call it unconditionally.
type Progress struct {
	n        uint64
	start    time.Time
	phase    atomic.Pointer[string] // what the solve is doing, when not expanding a level
	depth    atomic.Uint64
	resolved atomic.Uint64 // positions resolved at the levels already started
	before   atomic.Uint64 // positions resolved before the checkpoint the solve goes on from
	advanced atomic.Uint64 // positions the current phase has done (see Advance)
	done     chan struct{}
	finished chan struct{}
}

// StartProgress starts the lines for a solve of n positions; it returns nil
// when opt.Progress is nil. Stop ends them.
func StartProgress(opt Options, n uint64) *Progress {
	if opt.Progress == nil {
		return nil
	}
	every := opt.ProgressEvery
	if every <= 0 {
		every = time.Second
	}
	p := &Progress{n: n, start: time.Now(), done: make(chan struct{}), finished: make(chan struct{})}
	// Until the solve names its first phase, a line says it is starting,
	// not "level 0": a resumed solve has not yet counted what it resolved
	// before.
	starting := "starting"
	p.phase.Store(&starting)
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
					if a := p.advanced.Load(); a > 0 {
						fmt.Fprintf(opt.Progress, "retro: %s, %d of %d positions (%.1f%%), %v\n", *ph, a, p.n,
							100*float64(a)/float64(max(p.n, 1)), el.Round(time.Millisecond))
					} else {
						fmt.Fprintf(opt.Progress, "retro: %s, %d positions, %v\n", *ph, p.n, el.Round(time.Millisecond))
					}
					continue
				}
				res, all := p.resolved.Load(), p.resolved.Load()+p.before.Load()
				fmt.Fprintf(opt.Progress, "retro: level %d, %d of %d positions resolved (%.1f%%), %.3g positions/s, %v\n",
					p.depth.Load(), all, p.n, 100*float64(all)/float64(max(p.n, 1)),
					float64(res)/el.Seconds(), el.Round(time.Millisecond))
			}
		}
	}()
	return p
}

// SetPhase records what the solve does outside the levels ("" while it
// expands levels).
func (p *Progress) SetPhase(what string) {
	if p == nil {
		return
	}
	p.advanced.Store(0)
	if what == "" {
		p.phase.Store(nil)
		return
	}
	p.phase.Store(&what)
}

// Advance records that the current phase has done k more positions, for
// the percentage of its lines.
func (p *Progress) Advance(k uint64) {
	if p != nil {
		p.advanced.Add(k)
	}
}

// Level records that the level of the given depth, with frontier
// positions, has started.
func (p *Progress) Level(depth, frontier uint64) {
	if p == nil {
		return
	}
	p.depth.Store(depth)
	p.resolved.Add(frontier)
}

// Resumed records the positions resolved before the checkpoint the solve
// goes on from: counted in the lines' share of positions resolved, not in
// their rate (this process did not resolve them).
func (p *Progress) Resumed(k uint64) {
	if p != nil {
		p.before.Store(k)
	}
}

// Stop ends the lines and waits until the last one is written.
func (p *Progress) Stop() {
	if p == nil {
		return
	}
	close(p.done)
	<-p.finished
}
