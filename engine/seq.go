package engine

import (
	"context"
	"errors"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/implicit"
)

// Sequential solves g on one goroutine: the reference that the parallel
// engine must match index for index. It is the retrograde analysis of seeds
// 000-004 done iteratively (no recursion, so no stack overflow on big
// games): a breadth-first pass over resolved positions, level by level, in
// which a predecessor of a loss becomes a win and a position whose count of
// moves not known to reach a win drops to zero becomes a loss (doc.go,
// The algorithm). The level at which a position is resolved is its depth;
// positions never resolved are draws. O(N + E) time.
func Sequential(ctx context.Context, g implicit.Game, opt Options) (*Result, error) {
	if _, ok := g.(ExitGame); ok {
		return nil, errors.New("engine: the sequential engine does not solve games with exits (tiers): use Parallel")
	}
	if opt.Checkpoint != nil {
		return nil, errors.New("engine: the sequential engine keeps no checkpoints: use Parallel")
	}
	width, err := laneWidth(g.MaxMoves(), 0)
	if err != nil {
		return nil, err
	}
	if err := opt.CheckMemory(g.Size(), seqBytesPerIndex(width)+opt.reachBytesPerIndex()); err != nil {
		return nil, err
	}
	if g, err = restrict(ctx, g, opt); err != nil {
		return nil, err
	}
	n := g.Size()
	r := &Result{n: n, values: bitset.NewTwoBits(n)}
	// Before a position is resolved, its lane counts its moves not yet known
	// to lead to a win; afterwards it holds its depth.
	lanes := bitset.NewCounters(n, width)
	p := StartProgress(opt, n)
	defer p.Stop()

	var cur, next, buf []uint64
	classify := implicit.ClassifierOf(g)
	p.SetPhase("classifying")
	for s := range n {
		if s%(1<<16) == 0 {
			p.Advance(min(1<<16, n-s))
		}
		var kind implicit.Kind
		var k uint64
		kind, k, buf = classify(s, buf)
		v, frontier := initial(kind, k)
		r.values.Set(s, uint8(v))
		if frontier {
			cur = append(cur, s)
		} else if v == Draw {
			lanes.Set(s, k)
		}
	}

	p.SetPhase("")
	var depth uint64
	for len(cur) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r.maxDepth = depth
		p.Level(depth, uint64(len(cur)))
		depth++
		if depth > lanes.Max() {
			lanes = lanes.Widen()
		}
		next = next[:0]
		for _, t := range cur {
			fromLoss := r.values.Get(t) == uint8(Loss)
			buf = g.Unmoves(t, buf[:0])
			r.edges += uint64(len(buf))
			for _, s := range buf {
				if r.values.Get(s) != 0 {
					continue
				}
				if fromLoss {
					r.values.Set(s, uint8(Win))
				} else if c := lanes.Get(s) - 1; c > 0 {
					lanes.Set(s, c)
					continue
				} else {
					r.values.Set(s, uint8(Loss))
				}
				lanes.Set(s, depth)
				next = append(next, s)
			}
		}
		cur, next = next, cur
	}
	r.depths, r.depthMask = lanes, lanes.Max()
	r.countValues()
	return r, nil
}

// seqBytesPerIndex is the sequential engine's memory per index: values,
// lanes, and frontier lists that may hold a good part of the positions.
func seqBytesPerIndex(width uint) float64 { return 0.25 + float64(width)/8 + 4 }
