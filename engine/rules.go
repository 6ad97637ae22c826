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

// starts finds the positions a solve in nibbles starts with a code for
// (the lean engines, whose nibbles start at 0, unresolved): a game's ends
// where it lists them (implicit.EndLister), otherwise every index
// classified.
type starts struct {
	ends     implicit.EndLister // nil: every index is classified
	classify func(s uint64, buf []uint64) (implicit.Kind, uint64, []uint64)
}

func startsOf(g implicit.Game) starts {
	if el, ok := g.(implicit.EndLister); ok {
		return starts{ends: el}
	}
	return starts{classify: implicit.ClassifierOf(g)}
}

// endsRun is the indices of a run whose ends are listed at once, so that
// a game of many ends lists them in a buffer of bounded size.
const endsRun = 4096

// each calls f with each index of [lo, hi) that starts resolved or
// illegal, its value, and whether it is of the frontier of depth 0; ends
// and moves are a worker's scratch space, returned (perhaps grown) for its
// next call.
func (st starts) each(lo, hi uint64, ends []implicit.End, moves []uint64, f func(i uint64, v Value, frontier bool)) ([]implicit.End, []uint64) {
	if st.ends != nil {
		for run := lo; run < hi; run += endsRun {
			ends = st.ends.Ends(run, min(run+endsRun, hi), ends[:0])
			for _, e := range ends {
				v, frontier := initial(e.Kind, 0)
				f(e.Index, v, frontier)
			}
		}
		return ends, moves
	}
	var kind implicit.Kind
	var k uint64
	for i := lo; i < hi; i++ {
		kind, k, moves = st.classify(i, moves)
		if v, frontier := initial(kind, k); v != Draw {
			f(i, v, frontier)
		}
	}
	return ends, moves
}
