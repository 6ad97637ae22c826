package engine

import (
	"context"
	"fmt"

	"retro/implicit"
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
