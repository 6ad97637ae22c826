package gametest_test

import (
	"fmt"
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

// fault is a game with a fault switched on, and what Check's error must
// say of it.
type fault[G implicit.Game] struct {
	g    G
	want string
}

// checkFaults checks that Check passes the correct game and finds each
// fault.
func checkFaults[G implicit.Game](t *testing.T, correct G, faults []fault[G]) {
	t.Helper()
	if err := gametest.Check(correct, 100, 1); err != nil {
		t.Fatalf("a correct game failed: %v", err)
	}
	for _, f := range faults {
		err := gametest.Check(f.g, 100, 1)
		if err == nil || !strings.Contains(err.Error(), f.want) {
			t.Errorf("%+v: Check returned %v, want an error with %q", f.g, err, f.want)
		}
	}
}

func TestCheck(t *testing.T) {
	if err := gametest.Check(&ring{n: 1000}, 100, 1); err != nil {
		t.Fatalf("a correct game failed (sampled): %v", err)
	}
	checkFaults(t, &ring{n: 10}, []fault[*ring]{
		{&ring{n: 10, dropUnmove: true}, "appears"},
		{&ring{n: 10, terminalMoves: true}, "terminal loss position 0 has 2 moves"},
		{&ring{n: 10, outOfRange: true}, "out of range"},
		{&ring{n: 10, tooManyMoves: true}, "MaxMoves() is 1"},
		{&ring{n: 10, illegalPredOf0: true}, "illegal index"},
		{&ring{n: 10, terminalUnmoveOf: true}, "terminal loss position, which has no moves"},
	})
}

// turning is ring with the half turn s -> s+n/2 as its symmetry (moves
// commute with it) and a notation "pS", with faults to switch on.
type turning struct {
	ring
	mirror        bool // the symmetry claimed is s -> n-1-s, which moves do not commute with
	notIdempotent bool // Canonical(3) is 3+n/2, whose own is 3
	alwaysCanon   bool // IsCanonical says true everywhere
	rawMoves      bool // CanonicalMoves lists the moves themselves
	badParse      bool // ParsePosition reads "pS" as S+1
}

func (g *turning) Canonical(s uint64) uint64 {
	h := g.n / 2
	switch {
	case g.mirror:
		return min(s, g.n-1-s)
	case g.notIdempotent && s == 3:
		return 3 + h
	}
	return s % h
}
func (g *turning) IsCanonical(s uint64) bool { return g.alwaysCanon || g.Canonical(s) == s }
func (g *turning) CanonicalMoves(s uint64, dst []uint64) []uint64 {
	for _, m := range g.Moves(s, nil) {
		if !g.rawMoves {
			m = g.Canonical(m)
		}
		dst = append(dst, m)
	}
	return dst
}
func (g *turning) CanonicalUnmoves(t uint64, dst []uint64) []uint64 {
	for _, p := range g.Unmoves(t, nil) {
		dst = append(dst, g.Canonical(p))
	}
	return dst
}
func (g *turning) Describe(s uint64) string { return fmt.Sprintf("p%d", s) }
func (g *turning) ParsePosition(text string) (uint64, error) {
	var s uint64
	if _, err := fmt.Sscanf(text, "p%d", &s); err != nil {
		return 0, err
	}
	if g.badParse {
		s++
	}
	return s, nil
}

// TestCheckOptional checks that Check tests the optional interfaces a game
// has: Symmetric, CanonicalMover and Notation.
func TestCheckOptional(t *testing.T) {
	var _ implicit.CanonicalMover = (*turning)(nil)
	var _ implicit.Notation = (*turning)(nil)
	checkFaults(t, &turning{ring: ring{n: 12}}, []fault[*turning]{
		{&turning{ring: ring{n: 12}, mirror: true}, "reach the classes"},
		{&turning{ring: ring{n: 12}, notIdempotent: true}, "whose Canonical is"},
		{&turning{ring: ring{n: 12}, alwaysCanon: true}, "IsCanonical"},
		{&turning{ring: ring{n: 12}, rawMoves: true}, "CanonicalMoves"},
		{&turning{ring: ring{n: 12}, badParse: true}, "ParsePosition(Describe"},
	})
}

// tabled is ring with its un-moves also as an InEdger's table, with faults
// to switch on.
type tabled struct {
	ring
	shortOff  bool // the table has an offset too few
	swapped   bool // the list of 4 is in another order than Unmoves'
	pastTable bool // the last offset points past the table's end
}

func (g *tabled) InEdges() (off, src []uint32) {
	off = append(off, 0)
	for t := range g.n {
		for _, p := range g.Unmoves(t, nil) {
			src = append(src, uint32(p))
		}
		off = append(off, uint32(len(src)))
	}
	if g.swapped {
		src[off[4]], src[off[4]+1] = src[off[4]+1], src[off[4]]
	}
	if g.pastTable {
		off[g.n]++
	}
	if g.shortOff {
		off = off[:g.n]
	}
	return off, src
}

// TestCheckInEdger checks that Check compares an InEdger's table with its
// un-moves.
func TestCheckInEdger(t *testing.T) {
	checkFaults(t, &tabled{ring: ring{n: 10}}, []fault[*tabled]{
		{&tabled{ring: ring{n: 10}, shortOff: true}, "10 offsets for 10 positions, want 11"},
		{&tabled{ring: ring{n: 10}, swapped: true}, "InEdges lists [2 3] as the un-moves of 4, but Unmoves lists [3 2]"},
		{&tabled{ring: ring{n: 10}, pastTable: true}, "InEdges lists the un-moves of 9 as src[18:21], out of its 20 entries"},
	})
}

// spending is a tiered game for CheckTiers: position (k, p) has k tokens
// and stands at p on a cycle of m points; a move steps along the cycle
// (in the tier) or spends a token (into tier k-1). (0, 0) is lost. With
// leak, TierUnmoves also lists the un-moves from tier k+1, outside the
// tier.
type spending struct {
	m, tiers uint64
	leak     bool
	miscount bool // TierMoves counts the move out of the tier as one inside
}

func (g spending) Size() uint64     { return g.m * g.tiers }
func (g spending) MaxMoves() uint64 { return 2 }
func (g spending) Classify(s uint64) implicit.Kind {
	if s == 0 {
		return implicit.TerminalLoss
	}
	return implicit.Inner
}

func (g spending) Moves(s uint64, dst []uint64) []uint64 {
	if s == 0 {
		return dst
	}
	k, p := s/g.m, s%g.m
	dst = append(dst, k*g.m+(p+1)%g.m)
	if k > 0 {
		dst = append(dst, s-g.m)
	}
	return dst
}

func (g spending) Unmoves(t uint64, dst []uint64) []uint64 {
	dst = g.TierUnmoves(t, false, dst)
	if t/g.m+1 < g.tiers && !g.leak {
		dst = append(dst, t+g.m)
	}
	return dst
}

func (g spending) TierUnmoves(t uint64, _ bool, dst []uint64) []uint64 {
	k, p := t/g.m, t%g.m
	if prev := k*g.m + (p+g.m-1)%g.m; prev != 0 {
		dst = append(dst, prev)
	}
	if g.leak && k+1 < g.tiers {
		dst = append(dst, t+g.m)
	}
	return dst
}

func (g spending) TierMoves(s uint64, dst []uint64) (uint64, []uint64) {
	if s == 0 {
		return 0, dst
	}
	inside := uint64(1)
	if k := s / g.m; k > 0 {
		if g.miscount {
			return 2, dst
		}
		dst = append(dst, s-g.m)
	}
	return inside, dst
}

func (g spending) Tiers() []implicit.Tier {
	var tiers []implicit.Tier
	for k := range g.tiers {
		t := implicit.Tier{Name: fmt.Sprintf("%d tokens", k), Start: k * g.m, End: (k + 1) * g.m}
		if k > 0 {
			t.Children = []int{int(k) - 1}
		}
		tiers = append(tiers, t)
	}
	return tiers
}

// TestCheckTiersUnmover checks that CheckTiers accepts a TierUnmover that
// lists the un-moves inside a tier, and fails one that lists one outside.
func TestCheckTiersUnmover(t *testing.T) {
	var _ implicit.TierUnmover = spending{}
	if err := gametest.CheckTiers(spending{m: 5, tiers: 4}, 100, 1); err != nil {
		t.Fatalf("a correct game failed: %v", err)
	}
	err := gametest.CheckTiers(spending{m: 5, tiers: 4, leak: true}, 100, 1)
	if err == nil || !strings.Contains(err.Error(), "TierUnmoves") {
		t.Errorf("a TierUnmoves that leaves its tier: CheckTiers returned %v", err)
	}
}

// TestCheckTiersMover checks that CheckTiers accepts a TierMover that
// counts the moves inside a tier and lists the others, and fails one that
// counts a move out of the tier as one inside.
func TestCheckTiersMover(t *testing.T) {
	var _ implicit.TierMover = spending{}
	err := gametest.CheckTiers(spending{m: 5, tiers: 4, miscount: true}, 100, 1)
	if err == nil || !strings.Contains(err.Error(), "TierMoves") {
		t.Errorf("a TierMoves that counts an exit inside: CheckTiers returned %v", err)
	}
}

// parted lists each tier of a spending game in parts of one position,
// in decreasing order; with fault, it drops a position or lists one twice.
type parted struct {
	spending
	fault string // "", "drop" or "twice"
}

func (g parted) TierParts(int) uint64 { return g.m }

func (g parted) TierPart(k int, j uint64, dst []uint64) []uint64 {
	s := uint64(k)*g.m + g.m - 1 - j
	switch {
	case g.fault == "drop" && s == 7:
		return dst
	case g.fault == "twice" && s == 7:
		return append(dst, s, s)
	}
	return append(dst, s)
}

// TestCheckTierParts checks that CheckTiers accepts a TierOrderer whose
// parts list each position once, and fails one that drops a position or
// lists one twice.
func TestCheckTierParts(t *testing.T) {
	var _ implicit.TierOrderer = parted{}
	g := spending{m: 5, tiers: 4}
	if err := gametest.CheckTiers(parted{spending: g}, 100, 1); err != nil {
		t.Fatalf("a correct game failed: %v", err)
	}
	for fault, want := range map[string]string{"drop": "no part", "twice": "twice"} {
		err := gametest.CheckTiers(parted{spending: g, fault: fault}, 100, 1)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parts that %s a position: CheckTiers returned %v, want an error with %q", fault, err, want)
		}
	}
}

// stopping is a ring of n positions where s moves to s+1 and s+2 (mod n),
// except that every fifth position is a terminal loss, with no moves; an
// implicit.EndLister, with faults to switch on.
type stopping struct {
	n         uint64
	missEnd   bool // Ends leaves out position 10
	wrongKind bool // Ends calls position 5 a terminal win
	dropsDst  bool // Ends forgets what dst held
	pastHi    bool // Ends lists an end at hi itself
}

func (g *stopping) Size() uint64     { return g.n }
func (g *stopping) MaxMoves() uint64 { return 2 }
func (g *stopping) Classify(s uint64) implicit.Kind {
	if s%5 == 0 {
		return implicit.TerminalLoss
	}
	return implicit.Inner
}
func (g *stopping) Moves(s uint64, dst []uint64) []uint64 {
	if s%5 == 0 {
		return dst
	}
	return append(dst, (s+1)%g.n, (s+2)%g.n)
}
func (g *stopping) Unmoves(t uint64, dst []uint64) []uint64 {
	for _, p := range []uint64{(t + g.n - 1) % g.n, (t + g.n - 2) % g.n} {
		if p%5 != 0 {
			dst = append(dst, p)
		}
	}
	return dst
}

func (g *stopping) Ends(lo, hi uint64, dst []implicit.End) []implicit.End {
	if g.dropsDst {
		dst = nil
	}
	for s := lo; s < min(hi, g.n); s++ {
		switch {
		case s%5 != 0, g.missEnd && s == 10:
		case g.wrongKind && s == 5:
			dst = append(dst, implicit.End{Index: s, Kind: implicit.TerminalWin})
		default:
			dst = append(dst, implicit.End{Index: s, Kind: implicit.TerminalLoss})
		}
	}
	if g.pastHi && hi < g.n && hi%5 == 0 {
		dst = append(dst, implicit.End{Index: hi, Kind: implicit.TerminalLoss})
	}
	return dst
}

// TestCheckEndLister checks that Check compares an EndLister's ends with
// the game's classification.
func TestCheckEndLister(t *testing.T) {
	checkFaults(t, &stopping{n: 100}, []fault[*stopping]{
		{&stopping{n: 100, missEnd: true}, "{5 terminal loss} {15 terminal loss}"},
		{&stopping{n: 100, wrongKind: true}, "{5 terminal win}"},
		{&stopping{n: 100, dropsDst: true}, "did not keep what dst held"},
		{&stopping{n: 100, pastHi: true}, "{65 terminal loss} {70 terminal loss}], but"},
	})
}
