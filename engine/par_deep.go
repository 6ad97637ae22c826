package engine

import (
	"context"
	"math/bits"
	"slices"
	"sort"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/parallel"
)

// deepDepths holds the depths that an ExitGame's lanes do not: those from
// from on, whose positions' lanes have a payload of all ones (storeDepth).
// Few positions are that deep in most tiers, so they are a list, each
// position with its depth, recorded from each deep level's frontier (the
// positions of that depth) before it is expanded. A list that would grow
// past an entry for every deepListShare indices (half a byte an index)
// becomes a lane instead, a byte or more an index, which storeDepth fills
// from then on.
type deepDepths struct {
	n, from uint64
	// list holds t<<deepRelBits | depth-from for each deep position t
	// recorded so far, in the order the levels came; sorted (by t) once
	// the solve ends.
	list  []uint64
	lane  bitset.Counters // depth-from of each index, once dense
	store func(i, v uint64)
}

// deepRelBits is the bits a list's entry keeps for a depth less from; a
// deeper level makes the list a lane.
const deepRelBits = 16

// deepListShare is the share of the indices that a list may have entries
// for before it becomes a lane: at 1/16, 8 bytes an entry, half a byte an
// index, so that the list and the lane made from it take 1.5 bytes an index
// together, within the two the memory plan counts (ExitGameBytes).
var deepListShare uint64 = 16 // a variable for the tests, which try the list and the lane

// newDeepDepths returns the depths from from on of n indices, none yet.
func newDeepDepths(n, from uint64) *deepDepths { return &deepDepths{n: n, from: from} }

// dense reports whether the depths are in a lane.
func (d *deepDepths) dense() bool { return d.lane.Len() != 0 }

// level makes room for level depth (from or more), whose frontier cur
// holds count positions, before it is expanded: their entries added to
// the list, or the lane made or widened.
func (d *deepDepths) level(ctx context.Context, workers int, cur *parallel.Frontier, count, depth uint64) error {
	rel := depth - d.from
	if d.dense() {
		if rel <= d.lane.Max() {
			return nil
		}
		if d.lane.Width() == 32 {
			return errTooDeep
		}
		wide, err := widened(ctx, workers, d.lane)
		d.setLane(wide)
		return err
	}
	if rel < 1<<deepRelBits && d.n <= 1<<(64-deepRelBits) && uint64(len(d.list))+count <= d.n/deepListShare {
		d.list = slices.Grow(d.list, int(count))
		if !cur.Dense() {
			for _, t := range cur.List() {
				d.list = append(d.list, t<<deepRelBits|rel)
			}
			return nil
		}
		for wi, x := range cur.Set().Words() {
			for ; x != 0; x &= x - 1 {
				t := uint64(wi)<<6 | uint64(bits.TrailingZeros64(x))
				d.list = append(d.list, t<<deepRelBits|rel)
			}
		}
		return nil
	}
	// The lane, as wide as this level needs, from the list.
	width := uint(8)
	for width < 32 && rel > 1<<width-1 {
		width *= 2
	}
	if rel > 1<<width-1 {
		return errTooDeep
	}
	lane := bitset.NewCounters(d.n, width)
	for _, e := range d.list {
		lane.Set(e>>deepRelBits, e&(1<<deepRelBits-1))
	}
	d.list = nil
	d.setLane(lane)
	return nil
}

// setLane makes c the lane.
func (d *deepDepths) setLane(c bitset.Counters) { d.lane, d.store = c, storer(c) }

// done sorts the list, for get and seek.
func (d *deepDepths) done() { slices.Sort(d.list) }

// get returns the depth of deep position t, once done.
func (d *deepDepths) get(t uint64) uint64 {
	if d.dense() {
		return d.from + d.lane.Get(t)
	}
	j := d.seek(t)
	return d.from + d.list[j]&(1<<deepRelBits-1)
}

// seek returns the first entry of the sorted list for a position t or
// more.
func (d *deepDepths) seek(t uint64) int {
	return sort.Search(len(d.list), func(j int) bool { return d.list[j]>>deepRelBits >= t })
}

// release gives the lane's memory back, and drops the list.
func (d *deepDepths) release() {
	d.lane.Release()
	d.list = nil
}
