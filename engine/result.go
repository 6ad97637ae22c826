package engine

import (
	"fmt"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/implicit"
)

// Value is the game-theoretic value of a position for the player to move.
type Value uint8

// The values. Their numeric codes match implicit.Kind: the engines store a
// position's value in two bits.
const (
	Draw    Value = iota // neither side can force a win: play goes on forever
	Win                  // the player to move wins
	Loss                 // the player to move loses
	Illegal              // the index is no position
)

// The value codes are the kinds' codes: the engines store a terminal
// position's kind as its value. This fails to compile if they part.
// (A constant index other than 0, or one that wraps around, is out of range.)
var _ = [1]struct{}{}[Value(implicit.TerminalWin)-Win]
var _ = [1]struct{}{}[Value(implicit.TerminalLoss)-Loss]
var _ = [1]struct{}{}[Value(implicit.Illegal)-Illegal]
var _ = [1]struct{}{}[Value(implicit.Inner)-Draw]

var valueNames = [...]string{"draw", "win", "loss", "illegal"}

// String returns "draw", "win", "loss" or "illegal", as the command's outputs write them
// (docs/formats.md).
func (v Value) String() string {
	if int(v) < len(valueNames) {
		return valueNames[v]
	}
	return "invalid value"
}

// Values is a solved game as queries and checks read it: the value and
// depth of every index. A Result in memory satisfies it, and so does a
// database on disk, whose reads can fail (a damaged block): Lookup returns
// that error and never a wrong value.
type Values interface {
	// Size returns the number of indices.
	Size() uint64
	// Lookup returns the value and depth of index i (depth 0 for draws and
	// illegal indices; NoDepth for a win whose depth is not stored, and
	// a draw at NoDepth for a position stored as a win or a draw).
	Lookup(i uint64) (v Value, depth uint64, err error)
}

// NoDepth is the depth Values give a win whose depth they do not store: a
// database that keeps only the depths of losses (db.LossDepths) finds a
// win's depth again from its moves, one more than the least depth among
// the losses it reaches (query.WinDepths). A draw at NoDepth is a position
// that a database keeping the losses alone (db.Losses) stores as a win or
// a draw: a win if it moves to a loss, found the same way.
const NoDepth = ^uint64(0)

// RangeValues is a Values that can read a run of indices at once; the
// database writer reads a block at a time through it where ReadsRuns says
// that is faster than one index at a time (a lean solve's depths on disk).
type RangeValues interface {
	Values
	// LookupRange stores the values and depths of the indices [lo, hi) in
	// vals and depths, which hold hi-lo entries each.
	LookupRange(lo, hi uint64, vals []Value, depths []uint64) error
	// ReadsRuns reports whether LookupRange is the faster way.
	ReadsRuns() bool
}

var _ RangeValues = (*Result)(nil)

// Result is the value and depth of every index of a game. Values take two
// bits per index; depths share a packed counter array of 16 or 32 bits per
// index (see Depth).
type Result struct {
	n         uint64
	values    bitset.TwoBits
	depths    bitset.Counters
	depthMask uint64 // the bits of a depths lane that hold the depth
	// A parallel solve's lanes hold depths halved, and deep holds those
	// they do not (laneDepth); 0 and nil where they do not.
	halve    uint
	deep     *deepDepths
	counts   [4]uint64
	maxDepth uint64
	edges    uint64      // predecessor edges the solve walked
	lean     *leanDepths // a lean solve's: the depths of some positions only
	// only holds the values of the few positions a summary knows (a
	// distributed solve's, DistResult.Summary), which has no values array.
	only map[uint64]Value
}

// Size returns the number of indices.
func (r *Result) Size() uint64 { return r.n }

// Value returns the value of index i.
func (r *Result) Value(i uint64) Value {
	if r.only != nil {
		return r.onlyValue(i)
	}
	return Value(r.values.Get(i))
}

// onlyValue returns a summary's value of index i, one of those it knows.
func (r *Result) onlyValue(i uint64) Value {
	v, ok := r.only[i]
	if !ok {
		panic(fmt.Sprintf("engine: index %d: a distributed solve's summary knows the positions it was asked to keep only", i))
	}
	return v
}

// Depth returns the depth of index i: the number of plies to the end of the
// game when the winner hurries and the loser delays (docs/formats.md). It is 0 for
// terminal positions and, meaninglessly, for draws and illegal indices. A
// Result of Lean has the depths of the positions it was asked to keep and
// of the longest win and loss only: Depth panics for another win or loss
// (see KeepsDepth).
func (r *Result) Depth(i uint64) uint64 {
	if r.Value(i)-1 >= 2 {
		return 0
	}
	if r.lean != nil {
		d, err := r.lean.depth(i)
		if err != nil {
			panic("engine: " + err.Error())
		}
		return d
	}
	return r.laneDepth(i, r.depths.Get(i)&r.depthMask)
}

// laneDepth returns the depth of index i, a win or a loss, whose depths
// lane holds d.
func (r *Result) laneDepth(i, d uint64) uint64 {
	if r.deep == nil && r.halve == 0 {
		return d
	}
	return laneDepth(d, uint64(r.Value(i)), r.halve, r.deep, i)
}

// KeepsDepth reports whether Depth knows index i's depth: always, except in
// a Result of Lean.
func (r *Result) KeepsDepth(i uint64) bool {
	if r.lean == nil || r.lean.disk != nil || r.Value(i)-1 >= 2 {
		return true
	}
	_, ok := r.lean.known[i]
	return ok
}

// Lookup returns the value and depth of index i; the error is nil except
// for a win or loss whose depth a lean solve did not keep.
func (r *Result) Lookup(i uint64) (Value, uint64, error) {
	if r.lean != nil && r.Value(i)-1 < 2 {
		d, err := r.lean.depth(i)
		return r.Value(i), d, err
	}
	return r.Value(i), r.Depth(i), nil
}

// ReadsRuns reports whether r's depths are on disk, where a run costs
// about what one index does (RangeValues).
func (r *Result) ReadsRuns() bool { return r.lean != nil && r.lean.disk != nil }

// LookupRange stores the values and depths of the indices [lo, hi) in
// vals and depths (RangeValues); the error is that of Lookup.
func (r *Result) LookupRange(lo, hi uint64, vals []Value, depths []uint64) error {
	if r.lean == nil && r.only == nil {
		// Lookup's loop without its calls: the tier store reads every
		// index of a tier this way, twice, as it writes the tier.
		depths = depths[:hi-lo]
		r.depths.Read(lo, depths)
		next := -1 // the deep list's next entry, once one is looked for
		for k := range depths {
			v := Value(r.values.Get(lo + uint64(k)))
			d := depths[k] & r.depthMask
			switch {
			case v-1 >= 2:
				d = 0 // a draw's or an illegal index's lane holds no depth
			case r.deep != nil && d<<r.halve >= r.deep.from && !r.deep.dense():
				// The list's entries in order, as the indices come.
				t := lo + uint64(k)
				if next < 0 {
					next = r.deep.seek(t)
				}
				for r.deep.list[next]>>deepRelBits < t {
					next++
				}
				d = r.deep.from + r.deep.list[next]&(1<<deepRelBits-1)
			case r.halve != 0 || r.deep != nil:
				d = laneDepth(d, uint64(v), r.halve, r.deep, lo+uint64(k))
			}
			vals[k], depths[k] = v, d
		}
		return nil
	}
	if r.lean == nil || r.lean.disk == nil {
		for i := lo; i < hi; i++ {
			var err error
			if vals[i-lo], depths[i-lo], err = r.Lookup(i); err != nil {
				return err
			}
		}
		return nil
	}
	clear(depths[:hi-lo])
	if err := r.lean.disk.depths(lo, hi, depths); err != nil {
		return err
	}
	for i := lo; i < hi; i++ {
		vals[i-lo] = r.Value(i)
	}
	return nil
}

// Release gives the memory of r's arrays back at once, where dropping r
// would wait for a collection to unmap them (a tier's solve holds hundreds
// of megabytes there as its file is read back); r must not be used after.
func (r *Result) Release() {
	r.values.Release()
	r.depths.Release()
	if r.deep != nil {
		r.deep.release()
	}
}

// Count returns the number of indices with value v.
func (r *Result) Count(v Value) uint64 { return r.counts[v&3] }

// MaxDepth returns the largest depth of any win or loss (0 if there is none).
func (r *Result) MaxDepth() uint64 { return r.maxDepth }

// Edges returns the number of predecessor edges (un-moves) the solve
// walked: the work of the retrograde pass, for rates in benchmarks.
func (r *Result) Edges() uint64 { return r.edges }

// Diff returns the first index at which a and b differ in value or depth,
// and false if they are identical (sizes included). It panics if a depth
// cannot be read: one a lean solve did not keep, or its file failing.
func Diff(a, b *Result) (uint64, bool) {
	if a.n != b.n {
		return min(a.n, b.n), true
	}
	const run = 1 << depthSegShift
	va, vb := make([]Value, run), make([]Value, run)
	da, db := make([]uint64, run), make([]uint64, run)
	for lo := uint64(0); lo < a.n; lo += run {
		hi := min(lo+run, a.n)
		for _, e := range []error{a.LookupRange(lo, hi, va, da), b.LookupRange(lo, hi, vb, db)} {
			if e != nil {
				panic(fmt.Sprintf("engine: Diff: %v", e))
			}
		}
		for i := range hi - lo {
			if va[i] != vb[i] || da[i] != db[i] {
				return lo + i, true
			}
		}
	}
	return 0, false
}

// countValues fills r.counts from r.values.
func (r *Result) countValues() {
	for v := range uint8(4) {
		r.counts[v] = r.values.Count(v, r.n)
	}
}
