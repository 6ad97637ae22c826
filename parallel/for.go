package parallel

import (
	"context"
	"runtime"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// Workers returns n if it is positive and GOMAXPROCS otherwise.
func Workers(n int) int {
	if n > 0 {
		return n
	}
	return runtime.GOMAXPROCS(0)
}

// For calls body(worker, lo, hi) on W goroutines for consecutive chunks
// [lo, hi) that cover [0, n). Workers claim chunks from a shared atomic
// counter, so a slow chunk does not hold up the others. Every chunk but the
// last starts and ends on a multiple of chunk, which is rounded up to a
// multiple of 64 so that chunks never share a 64-bit word of a bit set.
// worker is in [0, workers) and no two calls with the same worker run at once,
// so per-worker state needs no locks.
//
// For stops handing out chunks once ctx is done or a body returns an error,
// and returns the first error (ctx.Err() for a cancellation).
func For(ctx context.Context, workers int, n, chunk uint64, body func(worker int, lo, hi uint64) error) error {
	return claim(ctx, workers, n, max(64, (chunk+63)&^63), body)
}

// ChunkFor returns a chunk size for n items of work on the given number of
// workers: small enough that every worker gets many chunks (so the load
// balances), large enough that claiming a chunk costs little, a multiple of
// 64, and at least minChunk.
func ChunkFor(n uint64, workers int, minChunk uint64) uint64 {
	c := n / uint64(Workers(workers)*64)
	return (max(c, minChunk, 64) + 63) &^ 63
}

// Each calls body(worker, i) once for each i in [0, n) on W goroutines,
// which claim the items one at a time from a shared atomic counter: for a
// few large items (blocks of an array), where For's chunks of 64 would
// leave workers idle. It stops and returns as For does.
func Each(ctx context.Context, workers int, n uint64, body func(worker int, i uint64) error) error {
	return claim(ctx, workers, n, 1, func(w int, i, _ uint64) error { return body(w, i) })
}

// claim runs body(worker, lo, hi) on up to W goroutines (no more than
// there are steps) for the steps [lo, hi) of [0, n), which they claim from
// a shared atomic counter, and stops as For says.
func claim(ctx context.Context, workers int, n, step uint64, body func(worker int, lo, hi uint64) error) error {
	if n == 0 {
		return ctx.Err()
	}
	workers = int(min(uint64(Workers(workers)), (n+step-1)/step))
	var next atomic.Uint64
	g, ctx := errgroup.WithContext(ctx)
	for w := range workers {
		g.Go(func() error {
			for {
				if err := ctx.Err(); err != nil {
					return err
				}
				lo := next.Add(step) - step
				if lo >= n {
					return nil
				}
				if err := body(w, lo, min(lo+step, n)); err != nil {
					return err
				}
			}
		})
	}
	return g.Wait()
}
