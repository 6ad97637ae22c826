package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// TestScanChunks checks exitEvents.scan against a plain reading of every
// lane: each level's scan calls act for exactly the lanes that hold an
// action of that level, with its kind, for lanes of each width, levels
// past the 256 that the chunks' masks tell apart, and lanes that a depth
// overwrote after the masks were made.
func TestScanChunks(t *testing.T) {
	for _, width := range []uint{8, 16, 32} {
		rng := rand.New(rand.NewPCG(uint64(width), 1))
		n := uint64(5*eventChunk + 123)
		maxLevel := uint64(1)<<(width-1) - 2
		if width > 8 {
			maxLevel = 600
		}
		ev := newExitEvents(n, width)
		for i := range n {
			// clustered: one chunk in three has no action at all
			if (i/eventChunk)%3 == 1 || rng.IntN(4) != 0 {
				continue
			}
			d := rng.Uint64N(maxLevel + 1)
			e := (d+1)<<1 | rng.Uint64N(2)
			ev.lanes.Set(i, e)
			ev.count(e, 1)
		}
		ctx := context.Background()
		for depth := range maxLevel + 1 {
			if depth == maxLevel/2 {
				// Positions resolved since: their lanes hold depths of the
				// levels before this one.
				for i := range n {
					if ev.lanes.Get(i) != 0 && rng.IntN(3) == 0 {
						ev.lanes.Set(i, rng.Uint64N(depth))
					}
				}
			}
			var want, got []uint64
			for i := range n {
				if e := ev.lanes.Get(i); e>>1 == depth+1 {
					want = append(want, i<<1|e&1)
				}
			}
			var mu sync.Mutex
			err := ev.scan(ctx, 3, depth, func(_ int, p uint64, decrement bool) {
				mu.Lock()
				defer mu.Unlock()
				k := p << 1
				if decrement {
					k |= 1
				}
				got = append(got, k)
			})
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("width %d, level %d: scan found %d actions, want %d", width, depth, len(got), len(want))
			}
		}
		if ev.chunkLevels == nil {
			t.Fatalf("width %d: no chunk masks made", width)
		}
	}
}
