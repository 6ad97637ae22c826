package engine_test

import (
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
)

// oracle solves g by the seeds' repeat-until-no-change fixpoint (seed 002,
// seed 004 section 1.2), using only Classify and Moves: at step k, an
// unresolved position with a move to a loss resolved before step k is a win
// of depth k, and one whose moves all lead to wins resolved before step k is
// a loss of depth k. O(steps * (N + E)); slow, obvious, and independent of
// the engines and of Unmoves.
func oracle(g implicit.Game) (vals []engine.Value, depths []uint64) {
	n := g.Size()
	vals = make([]engine.Value, n)
	depths = make([]uint64, n)
	resolved := make([]bool, n)
	moves := make([][]uint64, n)
	for s := range n {
		switch k := g.Classify(s); k {
		case implicit.Illegal:
			vals[s] = engine.Illegal
		case implicit.TerminalWin, implicit.TerminalLoss:
			vals[s], resolved[s] = engine.Value(k), true
		default:
			moves[s] = g.Moves(s, nil)
			if len(moves[s]) == 0 {
				vals[s], resolved[s] = engine.Loss, true
			}
		}
	}
	for k := uint64(1); ; k++ {
		var found []uint64
		for s := range n {
			if resolved[s] || vals[s] == engine.Illegal {
				continue
			}
			allWins, anyLoss := true, false
			for _, t := range moves[s] {
				if !resolved[t] || vals[t] != engine.Win {
					allWins = false
				}
				if resolved[t] && vals[t] == engine.Loss {
					anyLoss = true
				}
			}
			switch {
			case anyLoss:
				vals[s] = engine.Win
			case allWins:
				vals[s] = engine.Loss
			default:
				continue
			}
			depths[s] = k
			found = append(found, s)
		}
		if len(found) == 0 {
			return vals, depths
		}
		for _, s := range found {
			resolved[s] = true
		}
	}
}
