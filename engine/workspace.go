package engine

import (
	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/parallel"
)

// Workspace keeps the parallel engine's arrays between solves, so that a
// run of solves (the boards of one input) reuses them instead of allocating
// afresh whenever the next game is no larger. Pass it in Options.Workspace.
// A Result from a solve with a Workspace shares its arrays and is valid only
// until the next solve with the same Workspace. The zero value is ready to
// use; a Workspace must not serve two solves at once.
type Workspace struct {
	lanes     bitset.Counters
	values    bitset.TwoBits
	cur, next *parallel.Frontier
	bufs      []workerBuf
}

// newLanes returns n zero lanes of the given width, reusing ws's storage
// where it has room; ws may be nil.
func (ws *Workspace) newLanes(n uint64, width uint) bitset.Counters {
	if ws == nil {
		return bitset.NewCounters(n, width)
	}
	c, ok := ws.lanes.Resized(n, width)
	if !ok {
		c = bitset.NewCounters(n, width)
	}
	ws.lanes = c
	return c
}

// keepLanes records lanes allocated elsewhere (widened) for reuse.
func (ws *Workspace) keepLanes(c bitset.Counters) {
	if ws != nil {
		ws.lanes = c
	}
}

// newValues returns n zero 2-bit values, reusing ws's storage where it can.
func (ws *Workspace) newValues(n uint64) bitset.TwoBits {
	if ws == nil {
		return bitset.NewTwoBits(n)
	}
	p, ok := ws.values.Resized(n)
	if !ok {
		p = bitset.NewTwoBits(n)
	}
	ws.values = p
	return p
}

// newFrontiers returns two empty frontiers for n indices and w workers.
func (ws *Workspace) newFrontiers(n uint64, w int, limit uint64) (cur, next *parallel.Frontier) {
	if ws != nil && ws.cur != nil && ws.cur.Workers() == w && ws.cur.Resized(n) && ws.next.Resized(n) {
		return ws.cur, ws.next
	}
	cur, next = parallel.NewFrontier(n, w, limit), parallel.NewFrontier(n, w, limit)
	if ws != nil {
		ws.cur, ws.next = cur, next
	}
	return cur, next
}

// newBufs returns w workers' buffers.
func (ws *Workspace) newBufs(w int) []workerBuf {
	if ws != nil && len(ws.bufs) == w {
		for i := range ws.bufs {
			ws.bufs[i].edges = 0
		}
		return ws.bufs
	}
	bufs := make([]workerBuf, w)
	for i := range bufs {
		bufs[i].batch = make([]uint64, 0, batchSize)
	}
	if ws != nil {
		ws.bufs = bufs
	}
	return bufs
}
