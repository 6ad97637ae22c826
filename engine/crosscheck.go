package engine

import (
	"context"
	"fmt"

	"github.com/retro-solver/retro/implicit"
)

// CrossCheck solves g with the sequential engine and with the parallel
// engine on each of the given worker counts, and returns an error naming
// the first index where a parallel result differs in value or depth. Every
// game's tests call it: the parallel engine must match the reference
// whatever the number of workers.
func CrossCheck(ctx context.Context, g implicit.Game, workers ...int) error {
	want, err := Sequential(ctx, g, Options{})
	if err != nil {
		return err
	}
	for _, w := range workers {
		got, err := Parallel(ctx, g, Options{Workers: w})
		if err != nil {
			return err
		}
		if i, differ := Diff(want, got); differ {
			return fmt.Errorf("engine: with %d workers, index %d is %v %d; the sequential engine says %v %d",
				w, i, got.Value(i), got.Depth(i), want.Value(i), want.Depth(i))
		}
	}
	return nil
}

// CheckLocal tests r, a solve of g, against the rules at the given
// positions of the game s, whose positions map into g's indices through
// index (the identity, or a symmetric game's Canonical): a win has a move
// to a loss one ply shallower and none shallower still, a loss has only
// moves to wins, the deepest one ply shallower, a draw has no move to a
// loss and some move to a draw, and terminal positions keep their values.
// It checks a solve against the game on positions it never stored, such as
// the symmetric images of canonical ones.
func CheckLocal(s implicit.Game, r *Result, index func(uint64) uint64, positions []uint64) error {
	var buf []uint64
	for _, p := range positions {
		kind := s.Classify(p)
		if kind == implicit.Illegal {
			continue
		}
		v, d := r.Value(index(p)), r.Depth(index(p))
		if kind != implicit.Inner {
			if v != Value(kind) || d != 0 {
				return fmt.Errorf("engine: terminal position %d (%v) is %v %d", p, kind, v, d)
			}
			continue
		}
		buf = s.Moves(p, buf[:0])
		var minLoss, maxWin uint64 = 1 << 62, 0
		anyLoss, anyDraw, allWins := false, false, true
		for _, c := range buf {
			cv, cd := r.Value(index(c)), r.Depth(index(c))
			switch cv {
			case Loss:
				anyLoss, minLoss = true, min(minLoss, cd)
				allWins = false
			case Win:
				maxWin = max(maxWin, cd)
			default:
				anyDraw, allWins = true, false
			}
		}
		switch {
		case v == Win && (!anyLoss || d != minLoss+1),
			v == Loss && (!allWins || d != maxWin+1 && len(buf) > 0 || len(buf) == 0 && d != 0),
			v == Draw && (anyLoss || !anyDraw),
			v == Illegal:
			return fmt.Errorf("engine: position %d is %v %d, against the values of its %d moves", p, v, d, len(buf))
		}
	}
	return nil
}
