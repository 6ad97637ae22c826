package implicit_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/gametest"
)

// mirror is a game on positions (a, b) of a ring of 10 cells, a and b
// interchangeable: a symmetric game whose class is the unordered pair. A
// move steps a or b by one.
type mirror struct{}

const ringN = 10

func (mirror) Size() uint64     { return ringN * ringN }
func (mirror) MaxMoves() uint64 { return 4 }
func (mirror) Classify(s uint64) implicit.Kind {
	if s/ringN == s%ringN {
		return implicit.TerminalLoss
	}
	return implicit.Inner
}
func (m mirror) Moves(s uint64, dst []uint64) []uint64 {
	if m.Classify(s) != implicit.Inner {
		return dst
	}
	a, b := s/ringN, s%ringN
	return append(dst, (a+1)%ringN*ringN+b, (a+ringN-1)%ringN*ringN+b, a*ringN+(b+1)%ringN, a*ringN+(b+ringN-1)%ringN)
}
func (m mirror) Unmoves(t uint64, dst []uint64) []uint64 {
	a, b := t/ringN, t%ringN
	for _, p := range []uint64{(a+1)%ringN*ringN + b, (a+ringN-1)%ringN*ringN + b, a*ringN + (b+1)%ringN, a*ringN + (b+ringN-1)%ringN} {
		if m.Classify(p) == implicit.Inner {
			dst = append(dst, p)
		}
	}
	return dst
}
func (mirror) Canonical(s uint64) uint64 {
	a, b := s/ringN, s%ringN
	return min(a, b)*ringN + max(a, b)
}
func (m mirror) IsCanonical(s uint64) bool { return m.Canonical(s) == s }

func TestReduceAndCompact(t *testing.T) {
	var g mirror
	if err := gametest.Check(g, 1000, 1); err != nil {
		t.Fatalf("the full game: %v", err)
	}
	r := implicit.Reduce(g)
	if err := gametest.Check(r, 1000, 1); err != nil {
		t.Fatalf("reduced: %v", err)
	}
	c := implicit.NewCompact(g)
	if err := gametest.Check(c, 1000, 1); err != nil {
		t.Fatalf("compact: %v", err)
	}
	if c.Size() != ringN*(ringN+1)/2 {
		t.Fatalf("%d classes, want %d", c.Size(), ringN*(ringN+1)/2)
	}
	// The compact game is the reduced one renumbered: same moves, classes
	// in increasing order.
	for i := range c.Size() {
		s := c.Position(i)
		if c.Index(s) != i || (i > 0 && c.Position(i-1) >= s) {
			t.Fatalf("class %d: position %d comes back as %d", i, s, c.Index(s))
		}
		rm, cm := r.Moves(s, nil), c.Moves(i, nil)
		if len(rm) != len(cm) {
			t.Fatalf("class %d: %d moves reduced, %d compact", i, len(rm), len(cm))
		}
		for k := range rm {
			if c.Index(rm[k]) != cm[k] {
				t.Fatalf("class %d: move %d is %d reduced, %d compact", i, k, rm[k], cm[k])
			}
		}
	}
}

// TestPositionsOf checks every range of classes of random sets against the
// whole list.
func TestPositionsOf(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 63, 64, 511, 512, 513, 2000, 100000} {
		for _, density := range []int{1, 2, 50} {
			words := make([]uint64, (n+63)/64)
			for s := range n {
				if r.IntN(density) == 0 {
					words[s/64] |= 1 << (s % 64)
				}
			}
			c := implicit.ClassSetOf(words)
			all := c.Positions()
			var want []uint32
			for s := range n {
				if words[s/64]>>(s%64)&1 != 0 {
					want = append(want, uint32(s))
				}
			}
			if !slices.Equal(all, want) || uint64(len(all)) != c.Len() {
				t.Fatalf("n=%d density=%d: Positions() = %v, want %v (Len %d)", n, density, all, want, c.Len())
			}
			for range 50 {
				lo := r.Uint64N(c.Len() + 1)
				hi := lo + r.Uint64N(c.Len()-lo+1)
				if lo < c.Len() && c.Select(lo) != uint64(all[lo]) {
					t.Fatalf("n=%d density=%d: Select(%d) = %d, want %d", n, density, lo, c.Select(lo), all[lo])
				}
				if got := c.PositionsOf(lo, hi); !slices.Equal(got, all[lo:hi]) {
					t.Fatalf("n=%d density=%d: PositionsOf(%d, %d) = %v, want %v", n, density, lo, hi, got, all[lo:hi])
				}
			}
		}
	}
}
