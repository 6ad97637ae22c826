package chess

import (
	"cmp"
	"fmt"
	"slices"
)

// Endgames returns every endgame of 3 to n pieces, one of each pair that
// swapping the colours makes, named as Syzygy names them (White holds
// more pieces, or as many and the stronger ones: KQvKR, KBNvKB, KNvKP),
// children before parents: by pieces, then by pawns, so that captures
// and promotions lead to endgames earlier in the list. With n = 5 there
// are 145.
func Endgames(n int) ([]Material, error) {
	if n < 3 || n > MaxPieces {
		return nil, fmt.Errorf("endgames of up to %d pieces: want 3 to %d", n, MaxPieces)
	}
	var sides [][]Kind // every side's pieces besides its king, strongest first
	var grow func(side []Kind, from Kind)
	grow = func(side []Kind, from Kind) {
		sides = append(sides, slices.Clone(side))
		if len(side) == n-2 {
			return
		}
		for k := from; k <= Pawn; k++ {
			grow(append(side, k), k)
		}
	}
	grow(nil, Queen)
	var list []Material
	for _, w := range sides {
		for _, b := range sides {
			if len(w)+len(b) == 0 || len(w)+len(b) > n-2 || !whiteFirst(w, b) {
				continue
			}
			list = append(list, Material{Pieces: [2][]Kind{append([]Kind{King}, w...), append([]Kind{King}, b...)}})
		}
	}
	pawns := func(m Material) int {
		return len(slices.DeleteFunc(slices.Concat(m.Pieces[0], m.Pieces[1]), func(k Kind) bool { return k != Pawn }))
	}
	slices.SortStableFunc(list, func(a, b Material) int {
		return cmp.Or(cmp.Compare(a.Count(), b.Count()), cmp.Compare(pawns(a), pawns(b)), cmp.Compare(a.String(), b.String()))
	})
	return list, nil
}

// whiteFirst reports whether Syzygy names the endgame of White's pieces w
// and Black's b as it stands: w has more, or as many and is the stronger
// at the first kind that differs (a smaller Kind is stronger).
func whiteFirst(w, b []Kind) bool {
	if len(w) != len(b) {
		return len(w) > len(b)
	}
	return slices.Compare(w, b) <= 0
}

// family lists Endgames(n) by name, for Descriptor.Family.
func family(n int) ([]string, error) {
	list, err := Endgames(n)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(list))
	for i, m := range list {
		names[i] = m.String()
	}
	return names, nil
}

// TierFamily makes a game's tiers shared by every chess endgame solved in
// one folder (implicit.SharedTiers): an endgame's tier is its own index,
// the same in each game that holds it.
// The game of Played, whose tiers hold every board as it stands, is a
// family of its own.
func (g *Game) TierFamily() string {
	if g.plain {
		return fmt.Sprintf("retro chess endgames as played (index version %d)", indexVersion)
	}
	return fmt.Sprintf("retro chess endgames (index version %d)", indexVersion)
}

// indexVersion numbers the endgames' index (Descriptor.Version): 1 since
// a game keeps the materials other than its root as Syzygy names them, 2
// since a material with pawns is numbered by blocks of its pawns'
// placement (blocks.go).
const indexVersion = 2
