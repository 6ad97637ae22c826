package gametest

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/retro-solver/retro/implicit"
)

// CheckTiers tests that g keeps the Tiered contract on up to samples legal
// positions drawn at random (every index when the game has no more than
// samples): its tiers cover the index in order and their children form no
// cycle; a move stays in its tier or reaches one of the tier's children;
// an un-move comes from the tier or from a tier that has it as a child;
// and, for a Symmetric game, Canonical stays in the tier, as do
// CanonicalMoves for a CanonicalMover, which list the canonical images of
// the moves and un-moves in order; ClassifyClasses, for a ClassCounter,
// counts the distinct canonical images of the moves; and TierUnmoves, for
// a TierUnmover, lists the un-moves (and the canonical ones) that stay in
// the tier, in order; ClassifyTierClasses, for a ClassNumberer, counts the
// classes of the moves in the tier and numbers the others; TierMaxMoves,
// for a TierMoveBounder, bounds the moves, and TierMaxLosableMoves, for a
// LossBounder, those of the positions it calls Losable; and the parts of a
// TierOrderer's tiers of at most samples indices list every position of
// the tier once.
func CheckTiers(g implicit.Tiered, samples int, seed uint64) error {
	tiers := g.Tiers()
	if _, err := implicit.TierOrder(tiers, g.Size()); err != nil {
		return err
	}
	if to, ok := g.(implicit.TierOrderer); ok {
		if err := CheckTierParts(to, uint64(samples)); err != nil {
			return err
		}
	}
	sym, _ := g.(implicit.Symmetric)
	cm, _ := g.(implicit.CanonicalMover)
	r := rand.New(rand.NewPCG(seed, 11))
	n := g.Size()
	var buf []uint64
	for i := 0; i < samples && uint64(i) < n; i++ {
		s := uint64(i)
		if n > uint64(samples) {
			s = r.Uint64N(n)
		}
		if g.Classify(s) == implicit.Illegal {
			continue
		}
		k := implicit.TierOf(tiers, s)
		if sym != nil {
			if c := sym.Canonical(s); implicit.TierOf(tiers, c) != k {
				return fmt.Errorf("gametest: position %d of tier %s has its canonical image %d in tier %s", s, tiers[k].Name, c, tiers[implicit.TierOf(tiers, c)].Name)
			}
		}
		buf = g.Moves(s, buf[:0])
		if b, ok := g.(implicit.TierMoveBounder); ok && (uint64(len(buf)) > b.TierMaxMoves(k) || b.TierMaxMoves(k) > g.MaxMoves()) {
			return fmt.Errorf("gametest: %d (tier %s) has %d moves; TierMaxMoves says at most %d, MaxMoves %d", s, tiers[k].Name, len(buf), b.TierMaxMoves(k), g.MaxMoves())
		}
		if b, ok := g.(implicit.LossBounder); ok {
			if most := b.TierMaxLosableMoves(k); most < 1 || most > b.TierMaxMoves(k) || b.Losable(s) && uint64(len(buf)) > most {
				return fmt.Errorf("gametest: %d (tier %s) has %d moves, losable %v; TierMaxLosableMoves says at most %d, TierMaxMoves %d", s, tiers[k].Name, len(buf), b.Losable(s), most, b.TierMaxMoves(k))
			}
		}
		for _, m := range buf {
			if c := implicit.TierOf(tiers, m); c != k && !slices.Contains(tiers[k].Children, c) {
				return fmt.Errorf("gametest: %d (tier %s) moves to %d (tier %s), not a child", s, tiers[k].Name, m, tiers[c].Name)
			} else if c == k && tiers[k].NoMovesInside {
				return fmt.Errorf("gametest: %d (tier %s) moves to %d in its tier, which says it has no moves inside", s, tiers[k].Name, m)
			}
		}
		if tm, ok := g.(implicit.TierMover); ok {
			var want []uint64
			for _, m := range buf {
				if implicit.TierOf(tiers, m) != k {
					want = append(want, m)
				}
			}
			inside, exits := tm.TierMoves(s, nil)
			if inside != uint64(len(buf)-len(want)) || !slices.Equal(sorted(exits), sorted(want)) {
				return fmt.Errorf("gametest: TierMoves(%d) = %d inside, exits %v; want %d inside, exits %v", s, inside, exits, len(buf)-len(want), want)
			}
			if tc, ok := tm.(implicit.TierMoveClassifier); ok {
				kind, inside2, exits2 := tc.ClassifyTierMoves(s, nil)
				want := inside
				if lb, ok := g.(implicit.LossBounder); ok && !lb.Losable(s) {
					if most := lb.TierMaxLosableMoves(k); inside2 < 1 || inside2 > most {
						return fmt.Errorf("gametest: ClassifyTierMoves(%d), never lost, counts %d moves; want 1 to %d", s, inside2, most)
					}
					want = inside2 // a count that is never read (LossBounder)
				}
				if kind != g.Classify(s) || inside2 != want || !slices.Equal(sorted(exits2), sorted(exits)) {
					return fmt.Errorf("gametest: ClassifyTierMoves(%d) = %v, %d, %v; Classify and TierMoves say %v, %d, %v", s, kind, inside2, exits2, g.Classify(s), inside, exits)
				}
			}
		}
		if cm != nil && !slices.Equal(cm.CanonicalMoves(s, nil), canonicals(sym, buf)) {
			return fmt.Errorf("gametest: CanonicalMoves(%d) does not list the canonical images of Moves(%d) in order", s, s)
		}
		if cc, ok := g.(implicit.ClassCounter); ok {
			want := uint64(0)
			if g.Classify(s) == implicit.Inner {
				want = uint64(len(implicit.SortedSet(canonicals(sym, buf))))
			}
			if kind, count := cc.ClassifyClasses(s); kind != g.Classify(s) || count != want {
				return fmt.Errorf("gametest: ClassifyClasses(%d) = %v, %d classes of moves; want %v, %d", s, kind, count, g.Classify(s), want)
			}
		}
		if cn := implicit.ClassNumbererOf(g); cn != nil {
			if err := checkTierClasses(cn, tiers, k, s, buf); err != nil {
				return err
			}
		}
		buf = g.Unmoves(s, buf[:0])
		for _, p := range buf {
			if c := implicit.TierOf(tiers, p); c != k && !slices.Contains(tiers[c].Children, k) {
				return fmt.Errorf("gametest: %d (tier %s) has un-move %d in tier %s, not a parent", s, tiers[k].Name, p, tiers[c].Name)
			}
		}
		if cm != nil && !slices.Equal(cm.CanonicalUnmoves(s, nil), canonicals(sym, buf)) {
			return fmt.Errorf("gametest: CanonicalUnmoves(%d) does not list the canonical images of Unmoves(%d) in order", s, s)
		}
		if tu, ok := g.(implicit.TierUnmover); ok {
			if err := checkTierUnmoves(tu, tiers[k], s, buf, false); err != nil {
				return err
			}
			if cm != nil {
				if err := checkTierUnmoves(tu, tiers[k], s, cm.CanonicalUnmoves(s, nil), true); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkTierClasses checks a ClassNumberer's ClassifyTierClasses at s, of
// tier k, whose moves are moves: the kind, the distinct classes of the
// moves inside the tier and the class numbers of the others.
func checkTierClasses(cn implicit.ClassNumberer, tiers []implicit.Tier, k int, s uint64, moves []uint64) error {
	var inside, exits []uint64
	for _, m := range moves {
		c := cn.Canonical(m)
		if implicit.TierOf(tiers, c) == k {
			inside = append(inside, c)
		} else {
			exits = append(exits, cn.ClassesBelow(c))
		}
	}
	want := uint64(len(implicit.SortedSet(inside)))
	kind, n, got := cn.ClassifyTierClasses(s, nil)
	if kind != cn.Classify(s) || n != want || !slices.Equal(sorted(got), sorted(exits)) {
		return fmt.Errorf("gametest: ClassifyTierClasses(%d) = %v, %d, %v; want %v, %d classes inside, exits %v", s, kind, n, got, cn.Classify(s), want, exits)
	}
	// The same in two steps: the exits, then the count.
	if ce, ok := cn.(implicit.TierExitClassifier); ok {
		kind, got := ce.ClassifyTierExits(s, nil)
		if kind != cn.Classify(s) || !slices.Equal(sorted(got), sorted(exits)) {
			return fmt.Errorf("gametest: ClassifyTierExits(%d) = %v, %v; want %v, exits %v", s, kind, got, cn.Classify(s), exits)
		}
		if n := ce.CountTierClasses(s); kind == implicit.Inner && n != want {
			return fmt.Errorf("gametest: CountTierClasses(%d) = %d; want %d classes inside", s, n, want)
		}
	}
	return nil
}

// CheckTierParts tests that the parts of each tier of at most max indices
// (implicit.TierOrderer) hold every position of the tier that is not
// Illegal once, and nothing else.
func CheckTierParts(g implicit.TierOrderer, max uint64) error {
	var list []uint64
	for k, t := range g.Tiers() {
		if t.Size() > max {
			continue
		}
		parts := g.TierParts(k)
		if parts == 0 {
			continue
		}
		seen := make([]bool, t.Size())
		for j := range parts {
			list = g.TierPart(k, j, list[:0])
			for _, s := range list {
				switch {
				case s < t.Start || s >= t.End:
					return fmt.Errorf("gametest: part %d of tier %s lists %d, outside the tier [%d, %d)", j, t.Name, s, t.Start, t.End)
				case seen[s-t.Start]:
					return fmt.Errorf("gametest: tier %s lists %d in two parts or twice in part %d", t.Name, s, j)
				case g.Classify(s) == implicit.Illegal:
					return fmt.Errorf("gametest: part %d of tier %s lists %d, which is Illegal", j, t.Name, s)
				}
				seen[s-t.Start] = true
			}
		}
		for i, ok := range seen {
			if s := t.Start + uint64(i); !ok && g.Classify(s) != implicit.Illegal {
				return fmt.Errorf("gametest: no part of tier %s lists position %d", t.Name, s)
			}
		}
	}
	return nil
}

// checkTierUnmoves checks that TierUnmoves(s, canonical) lists the
// elements of unmoves (s's un-moves, or their canonical images) that lie
// in s's tier t, each as many times (the order does not matter), s itself
// with them or not.
func checkTierUnmoves(g implicit.TierUnmover, t implicit.Tier, s uint64, unmoves []uint64, canonical bool) error {
	var want []uint64
	for _, p := range unmoves {
		if p >= t.Start && p < t.End && p != s {
			want = append(want, p)
		}
	}
	got := slices.DeleteFunc(g.TierUnmoves(s, canonical, nil), func(p uint64) bool { return p == s })
	if !slices.Equal(sorted(got), sorted(want)) {
		return fmt.Errorf("gametest: TierUnmoves(%d, canonical %v) = %v; want the un-moves in tier %s, %v", s, canonical, got, t.Name, want)
	}
	return nil
}

// canonicals returns the canonical images of xs.
func canonicals(g implicit.Symmetric, xs []uint64) []uint64 {
	out := make([]uint64, len(xs))
	for i, x := range xs {
		out[i] = g.Canonical(x)
	}
	return out
}

// sorted returns a sorted copy of list.
func sorted(list []uint64) []uint64 {
	c := slices.Clone(list)
	slices.Sort(c)
	return c
}
