// Package gametest checks that a game keeps the implicit.Game contract, as
// testing/fstest checks a file system: every game's tests call Check.
package gametest

import (
	"fmt"
	"math/rand/v2"

	"github.com/retro-solver/retro/implicit"
)

// Check tests that g keeps the Game contract on up to samples legal
// positions: every index when Size() <= samples, random ones drawn with the
// given seed otherwise. For each position s it checks that the moves and
// un-moves of s are legal indices in range, that a terminal s has no moves,
// that s has at most MaxMoves() moves, and that every move s->t appears as
// often among Moves(s) as s does among Unmoves(t) (and the same from each
// un-move's side). It returns an error describing the first violation.
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

type checker struct {
	g       implicit.Game
	n       uint64
	a, b, c []uint64
}

func (c *checker) position(s uint64) error {
	g := c.g
	kind := g.Classify(s)
	if kind == implicit.Illegal {
		return nil
	}
	if kind > implicit.Illegal {
		return fmt.Errorf("gametest: Classify(%d) = %d, not a Kind", s, kind)
	}
	c.a = g.Moves(s, c.a[:0])
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
