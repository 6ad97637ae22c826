package gametest_test

import (
	"strings"
	"testing"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/gametest"
)

// ring is a game on n positions where s moves to s+1 and s+2 (mod n), with
// faults that can be switched on to see Check catch them.
type ring struct {
	n                uint64
	dropUnmove       bool // Unmoves forgets one predecessor
	terminalMoves    bool // position 0 is terminal but keeps its moves
	outOfRange       bool // position 1 moves off the board
	tooManyMoves     bool // MaxMoves is too small
	illegalPredOf0   bool // an illegal index is among the un-moves of 0
	terminalUnmoveOf bool // position 3 is terminal yet among the un-moves of 4
}

func (g *ring) Size() uint64 { return g.n }
func (g *ring) Classify(s uint64) implicit.Kind {
	switch {
	case g.terminalMoves && s == 0, g.terminalUnmoveOf && s == 3:
		return implicit.TerminalLoss
	case g.illegalPredOf0 && s == g.n-1:
		return implicit.Illegal
	}
	return implicit.Inner
}
func (g *ring) Moves(s uint64, dst []uint64) []uint64 {
	if g.terminalUnmoveOf && s == 3 {
		return dst
	}
	if g.outOfRange && s == 1 {
		return append(dst, g.n+5)
	}
	return append(dst, (s+1)%g.n, (s+2)%g.n)
}
func (g *ring) Unmoves(t uint64, dst []uint64) []uint64 {
	dst = append(dst, (t+g.n-1)%g.n)
	if !g.dropUnmove || t != 2 {
		dst = append(dst, (t+g.n-2)%g.n)
	}
	return dst
}
func (g *ring) MaxMoves() uint64 {
	if g.tooManyMoves {
		return 1
	}
	return 2
}

func TestCheck(t *testing.T) {
	if err := gametest.Check(&ring{n: 10}, 100, 1); err != nil {
		t.Fatalf("a correct game failed: %v", err)
	}
	if err := gametest.Check(&ring{n: 1000}, 100, 1); err != nil {
		t.Fatalf("a correct game failed (sampled): %v", err)
	}
	for _, tc := range []struct {
		g    *ring
		want string
	}{
		{&ring{n: 10, dropUnmove: true}, "appears"},
		{&ring{n: 10, terminalMoves: true}, "terminal loss position 0 has 2 moves"},
		{&ring{n: 10, outOfRange: true}, "out of range"},
		{&ring{n: 10, tooManyMoves: true}, "MaxMoves() is 1"},
		{&ring{n: 10, illegalPredOf0: true}, "illegal index"},
		{&ring{n: 10, terminalUnmoveOf: true}, "terminal loss position, which has no moves"},
	} {
		err := gametest.Check(tc.g, 100, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: Check returned %v, want an error with %q", *tc.g, err, tc.want)
		}
	}
}
