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

// EachStretch is Each with the items cut into a stretch per worker, of
// consecutive items: worker w claims the items of its own stretch first,
// in order, then what is left of the others' (the next worker's first).
// Where the items take alike, each worker goes through its stretch alone
// and in order; where they do not, the others finish what it has left.
func EachStretch(ctx context.Context, workers int, n uint64, body func(worker int, i uint64) error) error {
	workers = int(min(uint64(Workers(workers)), n))
	if workers <= 1 {
		return Each(ctx, workers, n, body)
	}
	// A stretch's next item and its end, a cache line each: the workers
	// claim from their own counters, not from one that all of them write.
	type stretch struct {
		next atomic.Uint64
		end  uint64
		_    [48]byte
	}
	stretches := make([]stretch, workers)
	for w := range stretches {
		stretches[w].next.Store(uint64(w) * n / uint64(workers))
		stretches[w].end = uint64(w+1) * n / uint64(workers)
	}
	g, ctx := errgroup.WithContext(ctx)
	for w := range workers {
		g.Go(func() error {
			for d := range workers {
				st := &stretches[(w+d)%workers]
				for {
					if err := ctx.Err(); err != nil {
						return err
					}
					i := st.next.Add(1) - 1
					if i >= st.end {
						break
					}
					if err := body(w, i); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
	return g.Wait()
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
