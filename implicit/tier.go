package implicit

import (
	"fmt"
	"slices"
	"sort"
)

// Tier is a part of a game's index: the positions [Start, End), which a
// tiered solve holds in memory at once. Children are the other tiers its
// moves can reach (by their number in Tiered.Tiers).
type Tier struct {
	Name       string
	Start, End uint64
	Children   []int
	// Group, in a game of shared tiers (SharedTiers), names the game of
	// the family whose own positions the tier is part of, where a game's
	// are cut into several tiers (a chess endgame with pawns, by its
	// pawns' squares: KRPvKR.1, KRPvKR.2, ... of group KRPvKR); "" where
	// the tier is the whole of the game Name. A group's tiers are
	// consecutive, in the same order in every game that has them.
	Group string
	// NoMovesInside says that no move of the tier's positions stays in the
	// tier (Morris's placements: each spends a stone from a hand): a tiered
	// solve then finds each position's value from its children's in one
	// pass over its moves (engine.OnePass), in a fraction of the memory.
	NoMovesInside bool
}

// Size returns the number of indices of the tier.
func (t Tier) Size() uint64 { return t.End - t.Start }

// Tiered is a Game whose index is cut into tiers by a quantity that moves
// never take back (the pieces on the board, the cubes of Quixo): a move
// from a position of a tier reaches the same tier or one of its children,
// and no chain of children leads back to a tier. A tiered solve solves the
// children first, one tier at a time, so that only one tier's arrays are
// in memory, with the values of its children read from disk.
//
// Tiers returns them in increasing order of Start, covering [0, Size())
// without gaps. If the game is also Symmetric, a position's Canonical
// image lies in its own tier.
type Tiered interface {
	Game
	Tiers() []Tier
}

// SharedTiers is a Tiered game whose tiers are games of their own, shared
// by the games of its family: a tier of a given Name holds the same
// positions in the same order in every game of the family that has it
// (a chess endgame is the same tier in each endgame whose captures lead
// into it). A tiered solve keeps such a tier in a file named by the tier,
// so that the family's solves in one folder solve each tier once.
// TierFamily names the family and the version of its index: files of
// another are refused.
type SharedTiers interface {
	Tiered
	TierFamily() string
}

// TierOf returns the number of the tier that holds index s, among tiers as
// Tiers returns them.
func TierOf(tiers []Tier, s uint64) int {
	return sort.Search(len(tiers), func(k int) bool { return tiers[k].End > s })
}

// TierRanges returns the index ranges of tier k and of its descendants up
// to generations deep (1: its children), each tier once, in the order of
// the index: what a pass over tier k's moves reads, or, at 2, a pass that
// also reads the moves of the positions they reach (a database that keeps
// the depths of losses only finds a win's from its moves, and one that
// keeps the losses alone whether a position is a win or a draw).
func TierRanges(tiers []Tier, k, generations int) [][2]uint64 {
	held := []int{k}
	for front := []int{k}; generations > 0; generations-- {
		var next []int
		for _, j := range front {
			for _, c := range tiers[j].Children {
				if !slices.Contains(held, c) {
					held = append(held, c)
					next = append(next, c)
				}
			}
		}
		front = next
	}
	slices.Sort(held)
	ranges := make([][2]uint64, len(held))
	for i, j := range held {
		ranges[i] = [2]uint64{tiers[j].Start, tiers[j].End}
	}
	return ranges
}

// TierOrder returns the tiers' numbers in an order where every tier comes
// after its children (the smaller number first among those ready at once),
// or an error if the tiers do not cover the index [0, size) in order or a
// chain of children comes back to a tier.
func TierOrder(tiers []Tier, size uint64) ([]int, error) {
	var end uint64
	for k, t := range tiers {
		if t.Start != end || t.End < t.Start {
			return nil, fmt.Errorf("implicit: tier %d (%s) is [%d, %d), want it to start at %d", k, t.Name, t.Start, t.End, end)
		}
		end = t.End
		for _, c := range t.Children {
			if c < 0 || c >= len(tiers) || c == k {
				return nil, fmt.Errorf("implicit: tier %d (%s) has child %d", k, t.Name, c)
			}
		}
	}
	if end != size {
		return nil, fmt.Errorf("implicit: the tiers end at %d, the index at %d", end, size)
	}
	// Depth-first, children before parents; state 1 while on the path.
	state := make([]uint8, len(tiers))
	order := make([]int, 0, len(tiers))
	var visit func(k int) error
	visit = func(k int) error {
		switch state[k] {
		case 1:
			return fmt.Errorf("implicit: tier %d (%s) is its own descendant", k, tiers[k].Name)
		case 2:
			return nil
		}
		state[k] = 1
		for _, c := range tiers[k].Children {
			if err := visit(c); err != nil {
				return err
			}
		}
		state[k] = 2
		order = append(order, k)
		return nil
	}
	for k := range tiers {
		if err := visit(k); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// TierUnmover is a Tiered game that lists apart the un-moves that stay in
// a position's tier. A tiered solve of a tier walks only those (the
// others reach parent tiers, solved later, which look this one up), so a
// game that skips the others spares generating and discarding them: in
// Quixo, the half of the un-moves that give back a blank cube.
//
// TierUnmoves(t, false, dst) must append the elements of Unmoves(t) that
// lie in t's tier, each as many times, in any order; for a CanonicalMover,
// TierUnmoves(t, true, dst) likewise those of CanonicalUnmoves(t). t
// itself may be left out (a move of t to itself, a stalemate's in chess):
// a tier's solve lists t's un-moves once t is resolved, and passes over
// the resolved.
type TierUnmover interface {
	Tiered
	TierUnmoves(t uint64, canonical bool, dst []uint64) []uint64
}

// TierMover is a Tiered game that counts the moves that stay in a
// position's tier without listing them, and lists the others (exits): a
// tiered solve of a tier needs only the number of the first (its
// counters) and the values of the second (looked up in the children), so
// a game spares numbering the first, in Morris the slides that remove
// nothing. Games that are Symmetric are solved over classes and do not use
// it.
//
// TierMoves(s, dst) must return the number of elements of Moves(s) that
// lie in s's tier, and append to dst the others, each as many times as
// Moves lists it, in any order.
type TierMover interface {
	Tiered
	TierMoves(s uint64, dst []uint64) (inside uint64, exits []uint64)
}

// TierMoveClassifier is a TierMover that classifies a position and counts
// and lists its moves in one call, sharing the work the two calls would
// each do (decoding the index, finding the legal moves): a tiered solve
// calls it once per index of the tier to start.
type TierMoveClassifier interface {
	TierMover
	// ClassifyTierMoves returns Classify(s) and, for an Inner s,
	// TierMoves(s, dst); 0 and dst as it was for the other kinds.
	ClassifyTierMoves(s uint64, dst []uint64) (Kind, uint64, []uint64)
}

// TierMoveRunner is a TierMoveClassifier whose classification is faster
// over consecutive indices in a classifier of one goroutine's own, which
// keeps what an index shares with the next (a chess tier: every piece's
// square but the last one's, and what they make of legality): a tiered
// solve gives each worker one for the runs of indices it classifies.
type TierMoveRunner interface {
	TierMoveClassifier
	// NewTierMoveClassifier returns a function that does what
	// ClassifyTierMoves does, for one goroutine at a time.
	NewTierMoveClassifier() func(s uint64, dst []uint64) (Kind, uint64, []uint64)
}

// TierMoveBounder is a Tiered game that bounds the moves of each tier's
// positions apart, where its tiers' bounds differ from MaxMoves, the
// whole game's: a tiered solve sizes a tier's counters by its own (a
// chess endgame's moves, by its pieces: KQRvKR's 49 fit a byte with a
// value code, where the 89 of three queens would need two but for
// LossBounder).
//
// TierMaxMoves(k) must bound len(Moves(s)) for every position s of tier
// k, and be at most MaxMoves.
type TierMoveBounder interface {
	Tiered
	TierMaxMoves(k int) uint64
}

// LossBounder is a TierMoveClassifier and TierMoveBounder some of whose
// positions are never lost, whatever is played: no move of theirs reaches
// a position that its side to move wins (a chess position whose opponent
// has a king alone, which never gives check). A tiered solve never takes
// their counts of moves down to zero, so their classification need not
// find them, and a tier's counters are sized by the positions that may be
// lost: KQQQvK's White has up to 89 moves and never loses, Black 8, and
// its counters take a byte where they took two.
//
// TierMaxLosableMoves(k) must bound len(Moves(s)) for every position s of
// tier k for which Losable(s), and be at least 1 and at most
// TierMaxMoves(k). Losable(s) may be false only where no move of s
// reaches a position won by its side to move; for such an s,
// ClassifyTierMoves (and a TierMoveRunner's classifier) must count a
// number from 1 to TierMaxLosableMoves(k) in place of its moves inside
// the tier, its exits listed as TierMoves lists them (a chess position
// against a lone king counts 1 and lists its pawns' moves alone).
type LossBounder interface {
	TierMoveClassifier
	TierMoveBounder
	TierMaxLosableMoves(k int) uint64
	Losable(s uint64) bool
}

// ChildReacher is a Tiered game whose tiers' moves reach part of a child
// tier's index only: a chess endgame's captures and promotions reach
// their children's positions with one side to move, half of them. A
// tiered solve looks up no other part of a child, so its memory plan
// (tier.Estimate, -plan, -max-memory) counts the codes of that part.
//
// ChildReach(k, c) must bound the indices of tier c that the moves of
// tier k's positions reach, c being one of tier k's Children, and be at
// most tier c's size.
type ChildReacher interface {
	Tiered
	ChildReach(k, c int) uint64
}

// TierOrderer is a Tiered game that lists the positions of a tier in
// parts, in an order that a tier's pass over every position's moves
// follows (the one pass of a tier without moves inside, the
// classification of the others, retro verify) so that the moves of
// consecutive positions reach positions close together in the index. In
// the index's own order each move of a big tier is a cache miss in a
// child of hundreds of megabytes; Morris lists a tier by the stones of
// the player not to move, which are the next mover's after every move and
// rank a position first.
//
// TierParts(k) returns the number of parts of tier k (0: use the index's
// order); TierPart(k, j, dst) appends the positions of part j, in the
// game's index. Every position of the tier that is not Illegal must be in
// exactly one part, and no Illegal index in any.
type TierOrderer interface {
	Tiered
	TierParts(k int) uint64
	TierPart(k int, j uint64, dst []uint64) []uint64
}

// GroupOf returns the name of the game whose positions tier t is part of
// (see Tier.Group).
func GroupOf(t Tier) string {
	if t.Group != "" {
		return t.Group
	}
	return t.Name
}

// GroupRange returns the tiers [first, end) of the group of tier k (see
// Tier.Group): tier k alone where it has none.
func GroupRange(tiers []Tier, k int) (first, end int) {
	name := GroupOf(tiers[k])
	first, end = k, k+1
	for first > 0 && GroupOf(tiers[first-1]) == name {
		first--
	}
	for end < len(tiers) && GroupOf(tiers[end]) == name {
		end++
	}
	return first, end
}
