// Package engine holds retro's solvers: the sequential reference
// (Sequential), the frontier-parallel retrograde pass (Parallel), and the
// Result they both return, identical index for index.
package engine

import (
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

// String returns "draw", "win", "loss" or "illegal", as GAMES.md writes them.
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
	// illegal indices).
	Lookup(i uint64) (v Value, depth uint64, err error)
}

var _ Values = (*Result)(nil)

// Result is the value and depth of every index of a game. Values take two
// bits per index; depths share a packed counter array of 16 or 32 bits per
// index (see Depth).
type Result struct {
	n         uint64
	values    bitset.TwoBits
	depths    bitset.Counters
	depthMask uint64 // the bits of a depths lane that hold the depth
	counts    [4]uint64
	maxDepth  uint64
	edges     uint64 // predecessor edges the solve walked
}

// Size returns the number of indices.
func (r *Result) Size() uint64 { return r.n }

// Value returns the value of index i.
func (r *Result) Value(i uint64) Value { return Value(r.values.Get(i)) }

// Depth returns the depth of index i: the number of plies to the end of the
// game when the winner hurries and the loser delays (GAMES.md). It is 0 for
// terminal positions and, meaninglessly, for draws and illegal indices.
func (r *Result) Depth(i uint64) uint64 {
	if r.values.Get(i)-1 >= 2 {
		return 0
	}
	return r.depths.Get(i) & r.depthMask
}

// Lookup returns the value and depth of index i; the error is always nil.
func (r *Result) Lookup(i uint64) (Value, uint64, error) { return r.Value(i), r.Depth(i), nil }

// Count returns the number of indices with value v.
func (r *Result) Count(v Value) uint64 { return r.counts[v&3] }

// MaxDepth returns the largest depth of any win or loss (0 if there is none).
func (r *Result) MaxDepth() uint64 { return r.maxDepth }

// Edges returns the number of predecessor edges (un-moves) the solve
// walked: the work of the retrograde pass, for rates in benchmarks.
func (r *Result) Edges() uint64 { return r.edges }

// Diff returns the first index at which a and b differ in value or depth,
// and false if they are identical (sizes included).
func Diff(a, b *Result) (uint64, bool) {
	if a.n != b.n {
		return min(a.n, b.n), true
	}
	for i := range a.n {
		if a.Value(i) != b.Value(i) || a.Depth(i) != b.Depth(i) {
			return i, true
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
