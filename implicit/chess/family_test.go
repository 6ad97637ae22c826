package chess

import (
	"testing"

	"github.com/retro-solver/retro/implicit"
)

// TestEndgames checks the list that -all solves: 5, 35 and 145 endgames
// (Syzygy's 3-, 4- and 5-piece sets), each once up to the colours, named
// as Syzygy names them, each child earlier than its parent.
func TestEndgames(t *testing.T) {
	for n, want := range map[int]int{3: 5, 4: 35, 5: 145} {
		list, err := Endgames(n)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != want {
			t.Errorf("up to %d pieces: %d endgames, want %d", n, len(list), want)
		}
		at := map[string]int{}
		for i, m := range list {
			if _, err := ParseMaterial(m.String()); err != nil {
				t.Errorf("%v: %v", m, err)
			}
			if _, dup := at[m.Swapped().String()]; dup {
				t.Errorf("%v: listed in both colour orders", m)
			}
			at[m.String()] = i
		}
		for i, m := range list {
			for _, c := range children(m) {
				if c.Pieces[0][len(c.Pieces[0])-1] == King && c.Pieces[1][len(c.Pieces[1])-1] == King {
					continue // two bare kings: no endgame
				}
				j, ok := at[c.String()]
				if !ok {
					j, ok = at[c.Swapped().String()]
				}
				if !ok || j >= i {
					t.Errorf("%v: child %v at %d of the list, not before %d", m, c, j, i)
				}
			}
		}
	}
	// Names from Syzygy's tables, and their colour swaps, which it does
	// not use.
	list, _ := Endgames(5)
	names := map[string]bool{}
	for _, m := range list {
		names[m.String()] = true
	}
	for _, sig := range []string{"KQvKR", "KBNvKB", "KNvKP", "KBBvKQ", "KRPvKR", "KQvKQ", "KPPvKP", "KNNNvK", "KRNvKQ"} {
		m, _ := ParseMaterial(sig)
		if !names[sig] || names[m.Swapped().String()] && m.Swapped().String() != sig {
			t.Errorf("%s: listed %v, its swap %v", sig, names[sig], names[m.Swapped().String()])
		}
	}
	// Each game's tiers are named as the list names the endgames, so that
	// a tier is the root tier of the game of its name (SharedTiers).
	for _, m := range list {
		if testing.Short() && m.Count() == 5 {
			continue
		}
		g, err := NewGame(m)
		if err != nil {
			t.Fatal(err)
		}
		tiers := g.Tiers()
		for _, tier := range tiers {
			if name := implicit.GroupOf(tier); name != "KvK" && !names[name] {
				t.Errorf("%v: tier %s, of %s, not an endgame of the list (its colours swapped?)", m, tier.Name, name)
			}
		}
		// The root's tiers come first (a database of the endgame alone
		// holds them: solve -linked).
		if first, end := implicit.GroupRange(tiers, 0); first != 0 || implicit.GroupOf(tiers[0]) != m.String() ||
			end < len(tiers) && implicit.GroupOf(tiers[end]) == m.String() {
			t.Errorf("%v: the root's tiers are not the first", m)
		}
	}
	for _, n := range []int{-1, 0, 2, 6} {
		if _, err := Endgames(n); err == nil {
			t.Errorf("Endgames(%d): no error", n)
		}
	}
}
