package engine

import "github.com/retro-solver/retro/implicit"

// initial returns the value a position starts a solve with, from its kind
// and its count of moves, and whether it is resolved at depth 0 (the first
// frontier). Every engine classifies with it:
//   - an illegal index is Illegal, and never expanded;
//   - a terminal position has its kind's value (TerminalWin is Win,
//     TerminalLoss is Loss) at depth 0;
//   - an inner position with no move is a Loss at depth 0: the player to
//     move cannot move;
//   - any other inner position is unresolved (Draw) until a level
//     resolves it, its count of moves not yet known to reach a win
//     starting at moves.
func initial(kind implicit.Kind, moves uint64) (v Value, frontier bool) {
	switch {
	case kind == implicit.Illegal:
		return Illegal, false
	case kind != implicit.Inner:
		return Value(kind), true // the kinds' codes are the values' (result.go)
	case moves == 0:
		return Loss, true
	}
	return Draw, false
}
