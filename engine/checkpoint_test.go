package engine_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit/graph"
)

// TestCheckpointResume stops solves of random graphs just after the k-th
// level's checkpoint, for every k, and resumes them from it: the result,
// depths and edges walked included, is the uninterrupted solve's.
func TestCheckpointResume(t *testing.T) {
	for seed := range uint64(6) {
		g := graph.Random(3000, 6000+seed*1000, seed)
		want, err := engine.Parallel(context.Background(), g, engine.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for k := uint64(0); k <= want.MaxDepth()+1; k++ {
			path := filepath.Join(t.TempDir(), "ckpt")
			ctx, stop := context.WithCancel(context.Background())
			ck := &engine.Checkpoint{Path: path, Fingerprint: "g", Every: 1, Saved: func(level uint64) {
				if level == k {
					stop()
				}
			}}
			_, err := engine.Parallel(ctx, g, engine.Options{Workers: 2, Checkpoint: ck})
			stop()
			if err == nil {
				continue // the solve ended before level k
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatal(err)
			}
			got, err := engine.Parallel(context.Background(), g, engine.Options{Workers: 3,
				Checkpoint: &engine.Checkpoint{Path: path, Fingerprint: "g", Every: 1 << 62}})
			if err != nil {
				t.Fatalf("seed %d, resumed at level %d: %v", seed, k, err)
			}
			if i, differ := engine.Diff(want, got); differ || got.Edges() != want.Edges() {
				t.Fatalf("seed %d, resumed at level %d: index %d differs, or %d edges against %d", seed, k, i, got.Edges(), want.Edges())
			}
			// Another game's checkpoint is refused.
			_, err = engine.Parallel(context.Background(), g, engine.Options{Checkpoint: &engine.Checkpoint{Path: path, Fingerprint: "h"}})
			if err == nil {
				t.Fatalf("a checkpoint of another fingerprint was accepted")
			}
		}
	}
}
