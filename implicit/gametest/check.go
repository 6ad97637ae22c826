// Package gametest checks that a game keeps the implicit.Game contract, as
// testing/fstest checks a file system: every game's tests call Check.
package gametest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/retro-solver/retro/implicit"
)

// Check tests that g keeps the Game contract on up to samples legal
// positions: every index when Size() <= samples, random ones drawn with the
// given seed otherwise. For each position s it checks that the moves and
// un-moves of s are legal indices in range, that a terminal s has no moves,
// that s has at most MaxMoves() moves, and that every move s->t appears as
// often among Moves(s) as s does among Unmoves(t) (and the same from each
// un-move's side). The optional interfaces a game has are checked on the
// same positions: counts (MoveCounter, UnmoveCounter, ClassifyCounter,
// RangeCounter's runs from each) equal to the lists', an EndLister's ends
// of the run from each equal to what classifying its indices finds, an
// InEdger's lists equal to its un-moves, Notation's
// ParsePosition(Describe(s)) == s, and for a Symmetric game (with its
// CanonicalMover, ClassNumberer and ClassCounter) that Canonical picks one
// member per class that moves commute with (see checkSymmetric).
// It returns an error describing the first violation.
func Check(g implicit.Game, samples int, seed uint64) error {
	n := g.Size()
	c := checker{g: g, n: n}
	if n <= uint64(samples) {
		for s := range n {
			if err := c.position(s); err != nil {
				return err
			}
		}
		return nil
	}
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	legal := 0
	for tries := 0; legal < samples && tries < 100*samples; tries++ {
		s := r.Uint64N(n)
		if g.Classify(s) == implicit.Illegal {
			continue
		}
		legal++
		if err := c.position(s); err != nil {
			return err
		}
	}
	if legal == 0 {
		return fmt.Errorf("gametest: no legal position among %d random indices", 100*samples)
	}
	return nil
}

// CheckPositions is Check on the given positions (the illegal ones are
// skipped): for a game's rare kinds of position, which random indices
// seldom hit.
func CheckPositions(g implicit.Game, positions []uint64) error {
	c := checker{g: g, n: g.Size()}
	for _, s := range positions {
		if s >= c.n {
			return fmt.Errorf("gametest: position %d out of range [0, %d)", s, c.n)
		}
		if err := c.position(s); err != nil {
			return err
		}
	}
	return nil
}

type checker struct {
	g       implicit.Game
	n       uint64
	a, b, c []uint64
}

func (c *checker) position(s uint64) error {
	g := c.g
	kind := g.Classify(s)
	if kind > implicit.Illegal {
		return fmt.Errorf("gametest: Classify(%d) = %d, not a Kind", s, kind)
	}
	if kind != implicit.Illegal {
		c.a = g.Moves(s, c.a[:0])
	}
	if mc, ok := g.(implicit.MoveClassifier); ok {
		var want []uint64
		if kind == implicit.Inner {
			want = c.a
		}
		k, moves := mc.ClassifyMoves(s, []uint64{s}) // after one entry, kept
		if k != kind || len(moves) == 0 || moves[0] != s || !slices.Equal(moves[1:], want) {
			return fmt.Errorf("gametest: ClassifyMoves(%d) = %v, %v appended, but it is %v with moves %v", s, k, moves[1:], kind, want)
		}
	}
	if probe, count, ok := implicit.MoveProberOf(g); ok {
		k, has := probe(s)
		if want := kind == implicit.Inner && len(c.a) > 0; k != kind || has != want {
			return fmt.Errorf("gametest: the probe of %d says %v with a move %v, but it is %v with %d moves", s, k, has, kind, len(c.a))
		}
		if kind == implicit.Inner && count(s) != uint64(len(c.a)) {
			return fmt.Errorf("gametest: the probe's count of %d is %d, but it has %d moves", s, count(s), len(c.a))
		}
	}
	if rc, ok := g.(implicit.RangeCounter); ok {
		if kind != implicit.Inner {
			return fmt.Errorf("gametest: position %d is %v, but a RangeCounter's every position is inner", s, kind)
		}
		run := make([]uint32, min(3, c.n-s))
		rc.CountMoves(s, run)
		for j, k := range run {
			if want := len(g.Moves(s+uint64(j), nil)); int(k) != want {
				return fmt.Errorf("gametest: CountMoves(%d) gives %d moves for %d, which has %d", s, k, s+uint64(j), want)
			}
		}
	}
	if el, ok := g.(implicit.EndLister); ok {
		if err := checkEnds(g, el, s, min(s+endsRun, c.n)); err != nil {
			return err
		}
	}
	if kind == implicit.Illegal {
		return nil
	}
	if kind != implicit.Inner && len(c.a) > 0 {
		return fmt.Errorf("gametest: %v position %d has %d moves", kind, s, len(c.a))
	}
	if uint64(len(c.a)) > g.MaxMoves() {
		return fmt.Errorf("gametest: position %d has %d moves, MaxMoves() is %d", s, len(c.a), g.MaxMoves())
	}
	if cc, ok := g.(implicit.ClassifyCounter); ok {
		var want uint64
		if kind == implicit.Inner {
			want = uint64(len(c.a))
		}
		if k, n := cc.ClassifyCount(s); k != kind || n != want {
			return fmt.Errorf("gametest: ClassifyCount(%d) = %v, %d, but it is %v with %d moves", s, k, n, kind, want)
		}
	}
	if mc, ok := g.(implicit.MoveCounter); ok && mc.NumMoves(s) != uint64(len(c.a)) {
		return fmt.Errorf("gametest: NumMoves(%d) = %d, but it has %d moves", s, mc.NumMoves(s), len(c.a))
	}
	moves := append([]uint64(nil), c.a...)
	if err := c.checkNotation(s); err != nil {
		return err
	}
	if err := c.checkSymmetric(s, kind, moves); err != nil {
		return err
	}
	for _, t := range moves {
		if err := c.legal(t, "move", s); err != nil {
			return err
		}
		c.b = g.Unmoves(t, c.b[:0])
		if fwd, back := count(moves, t), count(c.b, s); fwd != back {
			return fmt.Errorf("gametest: %d->%d appears %d times among the moves of %d and %d among the un-moves of %d",
				s, t, fwd, s, back, t)
		}
	}
	c.a = g.Unmoves(s, c.a[:0])
	if uc, ok := g.(implicit.UnmoveCounter); ok && uc.NumUnmoves(s) != uint64(len(c.a)) {
		return fmt.Errorf("gametest: NumUnmoves(%d) = %d, but it has %d un-moves", s, uc.NumUnmoves(s), len(c.a))
	}
	if err := c.checkInEdges(s); err != nil {
		return err
	}
	unmoves := append([]uint64(nil), c.a...)
	for _, p := range unmoves {
		if err := c.legal(p, "un-move", s); err != nil {
			return err
		}
		if k := g.Classify(p); k != implicit.Inner {
			return fmt.Errorf("gametest: un-move %d of %d is a %v position, which has no moves", p, s, k)
		}
		c.c = g.Moves(p, c.c[:0])
		if fwd, back := count(c.c, s), count(unmoves, p); fwd != back {
			return fmt.Errorf("gametest: %d->%d appears %d times among the moves of %d and %d among the un-moves of %d",
				p, s, fwd, p, back, s)
		}
	}
	return nil
}

// checkNotation checks that a game with a Notation reads back what it
// writes of legal position s.
// checkInEdges checks that an InEdger's table lists s's un-moves (in
// c.a), and has the N+1 offsets a table of N positions needs.
func (c *checker) checkInEdges(s uint64) error {
	ie, ok := c.g.(implicit.InEdger)
	if !ok {
		return nil
	}
	off, src := ie.InEdges()
	if uint64(len(off)) != c.n+1 {
		return fmt.Errorf("gametest: InEdges has %d offsets for %d positions, want %d", len(off), c.n, c.n+1)
	}
	lo, hi := off[s], off[s+1]
	if lo > hi || uint64(hi) > uint64(len(src)) {
		return fmt.Errorf("gametest: InEdges lists the un-moves of %d as src[%d:%d], out of its %d entries", s, lo, hi, len(src))
	}
	if got := src[lo:hi]; !slices.EqualFunc(got, c.a, func(a uint32, b uint64) bool { return uint64(a) == b }) {
		return fmt.Errorf("gametest: InEdges lists %v as the un-moves of %d, but Unmoves lists %v", got, s, c.a)
	}
	return nil
}

func (c *checker) checkNotation(s uint64) error {
	n, ok := c.g.(implicit.Notation)
	if !ok {
		return nil
	}
	text := n.Describe(s)
	back, err := n.ParsePosition(text)
	switch {
	case errors.Is(err, implicit.ErrNoNotation):
		return nil // a wrapper of a game without one
	case err != nil:
		return fmt.Errorf("gametest: ParsePosition(Describe(%d)) fails: %v; the text:\n%s", s, err, text)
	case back != s:
		return fmt.Errorf("gametest: ParsePosition(Describe(%d)) = %d; the text:\n%s", s, back, text)
	}
	return nil
}

// checkSymmetric checks a Symmetric game at legal position s, whose moves
// are given: Canonical(s) is a legal position of s's kind and its own
// representative, IsCanonical agrees with it, and the classes that the
// moves of s reach are those that the moves of Canonical(s) reach, as
// often (moves commute with the symmetry). CanonicalMoves and
// CanonicalUnmoves, where the game has them, list Canonical of each move
// and un-move in order; ClassifyClasses counts the distinct classes of the
// moves.
func (c *checker) checkSymmetric(s uint64, kind implicit.Kind, moves []uint64) error {
	sg, ok := c.g.(implicit.Symmetric)
	if !ok {
		return nil
	}
	r := sg.Canonical(s)
	if err := c.legal(r, "Canonical", s); err != nil {
		return err
	}
	switch {
	case sg.Classify(r) != kind:
		return fmt.Errorf("gametest: %d is %v, its Canonical %d is %v", s, kind, r, sg.Classify(r))
	case sg.Canonical(r) != r:
		return fmt.Errorf("gametest: Canonical(%d) = %d, whose Canonical is %d", s, r, sg.Canonical(r))
	case sg.IsCanonical(s) != (r == s):
		return fmt.Errorf("gametest: IsCanonical(%d) = %v, Canonical(%d) = %d", s, sg.IsCanonical(s), s, r)
	}
	classes := func(xs []uint64) []uint64 {
		out := make([]uint64, len(xs))
		for i, x := range xs {
			out[i] = sg.Canonical(x)
		}
		return out
	}
	mine := classes(moves)
	theirs := classes(sg.Moves(r, nil))
	if !slices.Equal(slices.Sorted(slices.Values(mine)), slices.Sorted(slices.Values(theirs))) {
		return fmt.Errorf("gametest: the moves of %d reach the classes %v, those of its Canonical %d reach %v", s, mine, r, theirs)
	}
	if cm, ok := sg.(implicit.CanonicalMover); ok {
		if got := cm.CanonicalMoves(s, nil); !slices.Equal(got, mine) {
			return fmt.Errorf("gametest: CanonicalMoves(%d) = %v, Canonical of each move is %v", s, got, mine)
		}
		if got, want := cm.CanonicalUnmoves(s, nil), classes(sg.Unmoves(s, nil)); !slices.Equal(got, want) {
			return fmt.Errorf("gametest: CanonicalUnmoves(%d) = %v, Canonical of each un-move is %v", s, got, want)
		}
	}
	if cu := implicit.ClassNumbererOf(sg); cu != nil {
		if err := checkClassNumbers(cu, s); err != nil {
			return err
		}
	}
	if cc, ok := sg.(implicit.ClassCounter); ok {
		var want uint64
		if kind == implicit.Inner {
			want = uint64(len(implicit.SortedSet(slices.Clone(mine))))
		}
		if k, n := cc.ClassifyClasses(s); k != kind || n != want {
			return fmt.Errorf("gametest: ClassifyClasses(%d) = %v, %d, but it is %v with moves to %d classes", s, k, n, kind, want)
		}
	}
	return nil
}

// checkClassNumbers checks a ClassNumberer's numbers at s: ClassesBelow
// steps by one past a canonical position and by none past another, and
// ClassMoves and ClassUnmoves list the ClassesBelow of the representatives
// CanonicalMoves and CanonicalUnmoves (and TierUnmoves, for a TierUnmover)
// list, and CountClassUnmoves counts the distinct classes ClassUnmoves
// lists.
func checkClassNumbers(cu implicit.ClassNumberer, s uint64) error {
	step := uint64(0)
	if cu.IsCanonical(s) {
		step = 1
	}
	if below, next := cu.ClassesBelow(s), cu.ClassesBelow(s+1); next != below+step {
		return fmt.Errorf("gametest: ClassesBelow(%d) = %d and ClassesBelow(%d) = %d, but IsCanonical(%d) is %v", s, below, s+1, next, s, step == 1)
	}
	numbers := func(reps []uint64) []uint64 {
		for i, r := range reps {
			reps[i] = cu.ClassesBelow(r)
		}
		return reps
	}
	if got, want := cu.ClassMoves(s, nil), numbers(cu.CanonicalMoves(s, nil)); !slices.Equal(got, want) {
		return fmt.Errorf("gametest: ClassMoves(%d) = %v, the classes of CanonicalMoves are %v", s, got, want)
	}
	// ClassUnmoves lists each class once, in any order.
	if got, want := cu.ClassUnmoves(s, false, nil), implicit.SortedSet(numbers(cu.CanonicalUnmoves(s, nil))); !slices.Equal(sorted(got), want) {
		return fmt.Errorf("gametest: ClassUnmoves(%d) = %v, the classes of CanonicalUnmoves are %v", s, got, want)
	}
	if tu, ok := cu.(implicit.TierUnmover); ok {
		if got, want := cu.ClassUnmoves(s, true, nil), implicit.SortedSet(numbers(tu.TierUnmoves(s, true, nil))); !slices.Equal(sorted(got), want) {
			return fmt.Errorf("gametest: ClassUnmoves(%d, within) = %v, the classes of TierUnmoves are %v", s, got, want)
		}
	}
	for _, within := range []bool{false, true} {
		want := len(cu.ClassUnmoves(s, within, nil))
		if got, _ := cu.CountClassUnmoves(s, within, nil); got != uint64(want) {
			return fmt.Errorf("gametest: CountClassUnmoves(%d, %v) = %d, ClassUnmoves lists %d classes", s, within, got, want)
		}
	}
	return nil
}

func (c *checker) legal(t uint64, what string, s uint64) error {
	if t >= c.n {
		return fmt.Errorf("gametest: %s %d of %d is out of range [0, %d)", what, t, s, c.n)
	}
	if c.g.Classify(t) == implicit.Illegal {
		return fmt.Errorf("gametest: %s %d of %d is an illegal index", what, t, s)
	}
	return nil
}

func count(xs []uint64, x uint64) int {
	k := 0
	for _, y := range xs {
		if y == x {
			k++
		}
	}
	return k
}

// endsRun is the length of the runs from each position checked whose ends
// an EndLister's are compared with: longer than a police row of the small
// boards the tests use, so that runs cross from one row to the next.
const endsRun = 70

// checkEnds compares el.Ends(lo, hi) with the ends found by classifying
// each index of [lo, hi) and listing its moves, appended after a first
// entry that Ends must keep.
func checkEnds(g implicit.Game, el implicit.EndLister, lo, hi uint64) error {
	mark := implicit.End{Index: ^uint64(0)}
	want := []implicit.End{mark}
	for s := lo; s < hi; s++ {
		if k := g.Classify(s); k != implicit.Inner || len(g.Moves(s, nil)) == 0 {
			want = append(want, implicit.End{Index: s, Kind: k})
		}
	}
	got := el.Ends(lo, hi, []implicit.End{mark})
	if len(got) == 0 || got[0] != mark {
		return fmt.Errorf("gametest: Ends(%d, %d, dst) did not keep what dst held", lo, hi)
	}
	if !slices.Equal(got, want) {
		return fmt.Errorf("gametest: Ends(%d, %d) = %v, but its ends are %v", lo, hi, got[1:], want[1:])
	}
	return nil
}
