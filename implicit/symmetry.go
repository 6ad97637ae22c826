package implicit

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Symmetric is a game whose positions fall into classes of equivalent
// positions (images under the board's symmetries, say) that share their
// value and depth. Its own Moves and Unmoves work on every position, as if
// there were no symmetry; Canonical names one representative per class.
// Reduce turns it into the game over representatives.
type Symmetric interface {
	Game
	// Canonical returns the representative of s's class. It must be the
	// same for every member of the class, and moves must commute with the
	// symmetry: if s moves to t, every image of s moves to the
	// corresponding image of t.
	Canonical(s uint64) uint64
	// IsCanonical reports whether Canonical(s) == s, often much faster: it
	// can stop at the first smaller image.
	IsCanonical(s uint64) bool
}

// CanonicalMover is a Symmetric game that lists the representatives of
// its moves' and un-moves' classes directly, from the position it has
// decoded, which is faster than Canonical of each (that decodes each
// again). CanonicalMoves(s) must list Canonical(m) for each m of Moves(s),
// in the same order, and CanonicalUnmoves(t) likewise for Unmoves(t).
type CanonicalMover interface {
	Symmetric
	CanonicalMoves(s uint64, dst []uint64) []uint64
	CanonicalUnmoves(t uint64, dst []uint64) []uint64
}

// ClassNumberer is a CanonicalMover that numbers its moves' and
// un-moves' classes itself, as ClassSet and Compact number them (class i
// is the i-th canonical position in index order), from the position it
// has decoded: Compact and a tier's solve then spare an index and a rank
// in a ClassSet per move. A game may number its classes on some sizes
// only: the other methods are called only where NumbersClasses reports
// true.
type ClassNumberer interface {
	CanonicalMover
	NumbersClasses() bool
	// ClassMoves appends the class numbers of CanonicalMoves(s), in the
	// same order.
	ClassMoves(s uint64, dst []uint64) []uint64
	// ClassUnmoves appends the distinct class numbers of
	// CanonicalUnmoves(t), in no particular order, or with within those
	// of the un-moves that a TierUnmover lists (TierUnmoves(t, true,
	// dst)): what Compact's and a tier's Unmoves list, a class once.
	ClassUnmoves(t uint64, within bool, dst []uint64) []uint64
	// CountClassUnmoves returns the number of distinct classes among
	// ClassUnmoves(t, within), counted without numbering them, with buf
	// (returned, perhaps grown) for scratch: what a pull level needs of
	// a frontier position, which it counts and does not walk.
	CountClassUnmoves(t uint64, within bool, buf []uint64) (uint64, []uint64)
	// ClassifyTierClasses returns, for a Tiered game, Classify(s) and,
	// for an Inner s, the number of distinct classes its moves reach in
	// its own tier, with the class numbers of those that reach other
	// tiers appended to dst (repeats kept): what a tier's solve needs of
	// each position to start.
	ClassifyTierClasses(s uint64, dst []uint64) (Kind, uint64, []uint64)
	// ClassesBelow returns the number of canonical positions below s (s
	// up to Size()).
	ClassesBelow(s uint64) uint64
}

// TierExitClassifier is a ClassNumberer that does ClassifyTierClasses in
// two steps: the exits (a position's moves into other tiers) first, the
// count of the classes inside its tier apart. A tier's solve then counts
// only where the exits leave a position's value open: where one reaches
// a loss, or a draw, the position is never a loss and its count is never
// read down to zero (engine.ExitGame).
type TierExitClassifier interface {
	ClassNumberer
	// ClassifyTierExits returns Classify(s) and, for an Inner s, appends
	// to dst the class numbers of its moves into other tiers, as
	// ClassifyTierClasses appends them.
	ClassifyTierExits(s uint64, dst []uint64) (Kind, []uint64)
	// CountTierClasses returns, for an Inner s, the number of distinct
	// classes its moves reach in its own tier: ClassifyTierClasses's
	// count.
	CountTierClasses(s uint64) uint64
}

// ClassNumbererOf returns g as a ClassNumberer if it is one that numbers
// its classes, and nil otherwise.
func ClassNumbererOf(g Game) ClassNumberer {
	if cu, ok := g.(ClassNumberer); ok && cu.NumbersClasses() {
		return cu
	}
	return nil
}

// CanonicalMarker is a Symmetric game that finds the canonical positions
// of a run of consecutive indices faster than one IsCanonical call each,
// which decodes each index from scratch: NewClassSet uses it.
type CanonicalMarker interface {
	Symmetric
	// MarkCanonical sets bit s-from of words (bit b of words[k] standing
	// for position from+64k+b) for each canonical position s in [from,
	// to), and leaves the other bits as they are.
	MarkCanonical(from, to uint64, words []uint64)
}

// ClassCounter is a Symmetric game that classifies a position and counts
// the classes its moves reach in one call, without numbering them (no
// index of each move, no rank among the classes): what a solve over the
// classes (Compact, Reduced) needs of each to start. ClassifyClasses(s)
// must return Classify(s) and, for an Inner s, the number of distinct
// Canonical(m) for m in Moves(s); 0 moves for the other kinds.
type ClassCounter interface {
	Symmetric
	ClassifyClasses(s uint64) (Kind, uint64)
}

// classifierSource is a game that knows a faster classifier than
// ClassifierOf's general one; classifier returns nil when it does not.
type classifierSource interface {
	classifier() func(s uint64, buf []uint64) (Kind, uint64, []uint64)
}

// classifier uses the underlying game's ClassifyClasses, if it has one.
func (r Reduced) classifier() func(s uint64, buf []uint64) (Kind, uint64, []uint64) {
	cc, ok := r.S.(ClassCounter)
	if !ok {
		return nil
	}
	return func(s uint64, buf []uint64) (Kind, uint64, []uint64) {
		if !r.S.IsCanonical(s) {
			return Illegal, 0, buf
		}
		k, n := cc.ClassifyClasses(s)
		return k, n, buf
	}
}

// Reduced is the game over the canonical positions of a Symmetric game:
// every other index is Illegal, and moves and un-moves are canonical.
//
// Repeated moves are deduplicated, on both sides: Moves(s) lists each class
// that s can move into once, and Unmoves(t) each canonical position that
// can move into t's class once. Counting moves into each class exactly is
// not possible from t's side alone (the count differs by the ratio of the
// two positions' stabilisers), while deduplicated lists keep the Game
// contract exactly: t is among Moves(s) once exactly when s is among
// Unmoves(t) once. A position's value does not depend on how many of its
// moves reach a class, only on which classes it reaches, so the values and
// depths are those of the full game.
type Reduced struct {
	S Symmetric
}

// Reduce returns the game over g's canonical positions.
func Reduce(g Symmetric) Reduced { return Reduced{g} }

// Size returns the size of the underlying index.
func (r Reduced) Size() uint64 { return r.S.Size() }

// MaxMoves returns the underlying bound.
func (r Reduced) MaxMoves() uint64 { return r.S.MaxMoves() }

// Classify returns Illegal for positions that are not their class's
// representative, and the underlying kind for the others.
func (r Reduced) Classify(s uint64) Kind {
	if !r.S.IsCanonical(s) {
		return Illegal
	}
	return r.S.Classify(s)
}

// Moves appends the distinct canonical positions reachable from s.
func (r Reduced) Moves(s uint64, dst []uint64) []uint64 {
	start := len(dst)
	if cm, ok := r.S.(CanonicalMover); ok {
		dst = cm.CanonicalMoves(s, dst)
		return append(dst[:start], SortedSet(dst[start:])...)
	}
	dst = r.S.Moves(s, dst)
	return canonicalSet(r.S, dst, start, SortedSet)
}

// MovesWithRepeats appends the canonical positions reachable from s, in
// no particular order, one reached by several moves once for each
// (RepeatMover): Moves without its deduplication.
func (r Reduced) MovesWithRepeats(s uint64, dst []uint64) []uint64 {
	if cm, ok := r.S.(CanonicalMover); ok {
		return cm.CanonicalMoves(s, dst)
	}
	start := len(dst)
	return canonicalSet(r.S, r.S.Moves(s, dst), start, func(xs []uint64) []uint64 { return xs })
}

// Unmoves appends the distinct canonical positions that can move into t's
// class: the representatives of t's own predecessors, which reach every
// image of t through the corresponding images of themselves. They come in
// no particular order (deduplicated without sorting them).
func (r Reduced) Unmoves(t uint64, dst []uint64) []uint64 {
	start := len(dst)
	if cm, ok := r.S.(CanonicalMover); ok {
		dst = cm.CanonicalUnmoves(t, dst)
		return append(dst[:start], Distinct(dst[start:])...)
	}
	dst = r.S.Unmoves(t, dst)
	return canonicalSet(r.S, dst, start, Distinct)
}

// canonicalSet replaces dst[start:] by its elements' distinct
// representatives, deduplicated by dedupe (SortedSet or Distinct).
func canonicalSet(g Symmetric, dst []uint64, start int, dedupe func([]uint64) []uint64) []uint64 {
	tail := dst[start:]
	for i, x := range tail {
		tail[i] = g.Canonical(x)
	}
	return append(dst[:start], dedupe(tail)...)
}

// SortedSet sorts xs in place and returns its distinct elements, in order:
// what a game that lists each move once (a symmetric one) needs.
// Move lists are short: insertion sort, specialised for uint64, beats the
// generic sort there.
func SortedSet(xs []uint64) []uint64 {
	if len(xs) > 48 {
		slices.Sort(xs)
	} else {
		for i := 1; i < len(xs); i++ {
			x, j := xs[i], i
			for ; j > 0 && xs[j-1] > x; j-- {
				xs[j] = xs[j-1]
			}
			xs[j] = x
		}
	}
	return slices.Compact(xs)
}

// Distinct removes the repeats from xs in place, keeping each element's
// first occurrence, in order, and returns the distinct elements: what an
// un-move list of a symmetric game needs, where the order does not matter
// and SortedSet's insertion sort costs a quarter of the square of the
// length (2 to 4 times the time on a Quixo position's 20 to 50 un-moves).
// Short lists are compared pairwise, longer ones go through a hash table
// on the stack, and the rare lists of more than 64 through a map.
func Distinct(xs []uint64) []uint64 {
	n := 0
	switch {
	case len(xs) <= 8:
	next:
		for _, x := range xs {
			for _, y := range xs[:n] {
				if y == x {
					continue next
				}
			}
			xs[n] = x
			n++
		}
	case len(xs) <= distinctSlots/2:
		// Open addressing over the kept elements: a slot holds 1 + the
		// place in xs[:n] of the element hashed there, 0 when free, so the
		// table is 128 bytes to clear rather than 128 words.
		var table [distinctSlots]uint8
		for _, x := range xs {
			for h := x * 0x9e3779b97f4a7c15 >> 57; ; h = (h + 1) % distinctSlots {
				i := table[h]
				if i == 0 {
					table[h] = uint8(n + 1)
					xs[n] = x
					n++
					break
				}
				if xs[i-1] == x {
					break
				}
			}
		}
	default:
		seen := make(map[uint64]struct{}, len(xs))
		for _, x := range xs {
			if _, ok := seen[x]; !ok {
				seen[x] = struct{}{}
				xs[n] = x
				n++
			}
		}
	}
	return xs[:n]
}

// distinctSlots is the size of Distinct's hash table, 2^7 for the hash's
// top 7 bits.
const distinctSlots = 128

// Describe describes s through the underlying game, if it can.
func (r Reduced) Describe(s uint64) string {
	if d, ok := r.S.(Describer); ok {
		return d.Describe(s)
	}
	return ""
}

// EstimateClasses estimates, generously, the number of classes among the
// positions [lo, hi) of g from samples of them drawn with r: the share of
// canonical positions found, plus four standard deviations. A range of no
// more than samples positions is counted exactly.
func EstimateClasses(g Symmetric, lo, hi uint64, samples int, r *rand.Rand) uint64 {
	n := hi - lo
	if n <= uint64(samples) {
		var c uint64
		for s := lo; s < hi; s++ {
			if g.IsCanonical(s) {
				c++
			}
		}
		return c
	}
	canon := 0
	for range samples {
		if g.IsCanonical(lo + r.Uint64N(n)) {
			canon++
		}
	}
	k := float64(samples)
	share := float64(canon) / k
	share = min(1, share+4*math.Sqrt(max(share, 1/k)*(1-share)/k))
	return uint64(share * float64(n))
}
