package engine_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/internal/testsize"
)

// TestCheckpointResume stops solves of random graphs (every other one with
// lazy counts, implicit.MoveProber) just after the k-th level's
// checkpoint, for every k, and resumes them from it: the result,
// depths and edges walked included, is the uninterrupted solve's.
func TestCheckpointResume(t *testing.T) {
	for seed := range raceSeeds(6) {
		var g implicit.Game = graph.Random(3000, 6000+seed*1000, seed)
		if seed%2 == 1 {
			g = probing{g} // lazy counts: markers saved and resumed
		}
		want, err := engine.Parallel(context.Background(), g, engine.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for k := uint64(0); k <= want.MaxDepth()+1; k++ {
			path := filepath.Join(t.TempDir(), "ckpt")
			// What a crash in the middle of a save leaves: the next save removes it.
			stale := filepath.Join(filepath.Dir(path), ".ckpt.tmp12345")
			if err := os.WriteFile(stale, []byte("half"), 0o644); err != nil {
				t.Fatal(err)
			}
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
			if _, err := os.Stat(stale); err == nil {
				t.Fatal("a save left the temporary file of an earlier one")
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

// TestLeanCheckpointResume does for the lean engine what
// TestCheckpointResume does for the parallel one, with and without the
// depths on disk: the resumed solve's values, depths kept, histogram and
// edges are the uninterrupted one's, and with the depths on disk every
// depth is, even when the depths' file holds bytes written after the
// checkpoint (a crash in the middle of a level).
func TestLeanCheckpointResume(t *testing.T) {
	for seed := range raceSeeds(4) {
		g := graph.Random(3000, 6000+seed*1000, seed)
		keep := []uint64{0, 17, 2999}
		for _, onDisk := range []bool{false, true} {
			opt := func(workers int, ck *engine.Checkpoint) engine.Options {
				return engine.Options{Workers: workers, Keep: keep, DepthsOnDisk: onDisk, DepthDir: t.TempDir(), Checkpoint: ck}
			}
			want, err := engine.Lean(context.Background(), g, opt(2, nil))
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
				_, err := engine.Lean(ctx, g, opt(2, ck))
				stop()
				if err == nil {
					continue // the solve ended before level k
				}
				if !errors.Is(err, context.Canceled) {
					t.Fatal(err)
				}
				if onDisk {
					f, err := os.OpenFile(ck.DepthsPath(), os.O_WRONLY|os.O_APPEND, 0)
					if err != nil {
						t.Fatal(err)
					}
					f.Write([]byte{1, 2, 3, 200, 7}) // a level cut short by the crash
					f.Close()
				}
				resumed := &engine.Checkpoint{Path: path, Fingerprint: "g", Every: 1 << 62}
				got, err := engine.Lean(context.Background(), g, opt(3, resumed))
				if err != nil {
					t.Fatalf("seed %d, resumed at level %d: %v", seed, k, err)
				}
				where := fmt.Sprintf("seed %d, depths on disk %v, resumed at level %d", seed, onDisk, k)
				sameLean(t, where, want, got, keep, onDisk)
				resumed.Remove()
				if _, err := os.Stat(ck.DepthsPath()); err == nil {
					t.Fatalf("%s: Remove left the depths' file", where)
				}
			}
		}
	}
}

// sameLean fails the test if lean results a and b differ: in values,
// edges, histogram, the depths of keep, and (all true) every depth.
func sameLean(t *testing.T, where string, a, b *engine.Result, keep []uint64, all bool) {
	t.Helper()
	if all {
		if i, differ := engine.Diff(a, b); differ {
			t.Fatalf("%s: index %d differs", where, i)
		}
	}
	for i := range a.Size() {
		if a.Value(i) != b.Value(i) {
			t.Fatalf("%s: index %d is %v, want %v", where, i, b.Value(i), a.Value(i))
		}
	}
	for _, i := range keep {
		if v := a.Value(i); (v == engine.Win || v == engine.Loss) && a.Depth(i) != b.Depth(i) {
			t.Fatalf("%s: kept index %d has depth %d, want %d", where, i, b.Depth(i), a.Depth(i))
		}
	}
	if !reflect.DeepEqual(engine.ComputeDepthStats(a), engine.ComputeDepthStats(b)) || a.Edges() != b.Edges() || a.MaxDepth() != b.MaxDepth() {
		t.Fatalf("%s: histogram, edges (%d, want %d) or deepest level differ", where, b.Edges(), a.Edges())
	}
}

// TestCheckpointOfAnotherEngine offers each engine the other's checkpoint
// and a lean one saved with the depths on disk to a solve without: each is
// refused with a line that says why, and nothing is solved.
func TestCheckpointOfAnotherEngine(t *testing.T) {
	g := graph.Random(3000, 7000, 1)
	solve := map[string]func(context.Context, engine.Options) (*engine.Result, error){
		"par":  func(ctx context.Context, o engine.Options) (*engine.Result, error) { return engine.Parallel(ctx, g, o) },
		"lean": func(ctx context.Context, o engine.Options) (*engine.Result, error) { return engine.Lean(ctx, g, o) },
	}
	saveOne := func(name string, onDisk bool) string {
		path := filepath.Join(t.TempDir(), "ckpt")
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		ck := &engine.Checkpoint{Path: path, Fingerprint: "g", Every: 1, Saved: func(uint64) { stop() }}
		if _, err := solve[name](ctx, engine.Options{Checkpoint: ck, DepthsOnDisk: onDisk}); !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: %v, want a cancelled solve", name, err)
		}
		return path
	}
	for _, c := range []struct {
		saver, resumer string
		onDisk         bool
		want           string
	}{
		{"par", "lean", false, "saved by the parallel engine"},
		{"lean", "par", false, "saved by the lean engine"},
		{"lean", "lean", true, "kept every depth on disk"},
	} {
		path := saveOne(c.saver, c.onDisk)
		_, err := solve[c.resumer](context.Background(), engine.Options{Checkpoint: &engine.Checkpoint{Path: path, Fingerprint: "g"}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s's checkpoint given to %s: %v, want an error saying %q", c.saver, c.resumer, err, c.want)
		}
	}
}

// TestProgressAfterResume checks that the progress lines of a solve that
// goes on from a checkpoint count the positions resolved before it: every
// level line shows at least those, and at most every win and loss.
func TestProgressAfterResume(t *testing.T) {
	n := uint64(400_000)
	if testsize.Race {
		n = 100_000 // levels as long under the detector, which is that much slower
	}
	g := graph.Random(n, 21*n/10, 3)
	for _, name := range []string{"par", "lean"} {
		solve := func(ctx context.Context, o engine.Options) (*engine.Result, error) {
			if name == "lean" {
				return engine.Lean(ctx, g, o)
			}
			return engine.Parallel(ctx, g, o)
		}
		want, err := solve(context.Background(), engine.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		st := engine.ComputeDepthStats(want)
		const k = 2 // the level the solve goes on from
		var before uint64
		for d := range k {
			before += st.Wins[d] + st.Losses[d]
		}
		path := filepath.Join(t.TempDir(), "ckpt")
		ctx, stop := context.WithCancel(context.Background())
		ck := &engine.Checkpoint{Path: path, Fingerprint: "g", Every: 1, Saved: func(level uint64) {
			if level == k {
				stop()
			}
		}}
		if _, err := solve(ctx, engine.Options{Workers: 2, Checkpoint: ck}); !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: %v, want a solve stopped at level %d", name, err, k)
		}
		stop()
		var out strings.Builder
		lines := &lockedWriter{w: &out}
		// One worker, so that another core runs the progress lines.
		_, err = solve(context.Background(), engine.Options{Workers: 1, Progress: lines, ProgressEvery: 50 * time.Microsecond,
			Checkpoint: &engine.Checkpoint{Path: path, Fingerprint: "g", Every: 1 << 62}})
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, line := range strings.Split(lines.String(), "\n") {
			var level, resolved, n uint64
			if _, err := fmt.Sscanf(line, "retro: level %d, %d of %d positions resolved", &level, &resolved, &n); err != nil {
				continue
			}
			seen++
			if resolved < before || resolved > want.Count(engine.Win)+want.Count(engine.Loss) {
				t.Fatalf("%s: %q: want at least the %d positions resolved before the checkpoint", name, line, before)
			}
		}
		if seen == 0 && runtime.GOMAXPROCS(0) > 1 {
			t.Fatalf("%s: no level line in a solve of %d levels", name, want.MaxDepth()+1-k)
		}
	}
}

// lockedWriter lets the progress goroutine write while the test reads.
type lockedWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.String()
}

// TestDamagedCheckpoint offers each engine its own checkpoint damaged in
// each way a disk or a user can damage it: every one is refused with a
// line that names the problem, and none is taken for a state to go on from.
func TestDamagedCheckpoint(t *testing.T) {
	g := graph.Random(3000, 7000, 2)
	for _, name := range []string{"par", "lean"} {
		solve := func(ctx context.Context, o engine.Options) (*engine.Result, error) {
			o.DepthsOnDisk = true // the lean engine's depths' file too
			if name == "lean" {
				return engine.Lean(ctx, g, o)
			}
			return engine.Parallel(ctx, g, o)
		}
		for _, c := range []struct {
			damage func(ck *engine.Checkpoint) error
			want   string
		}{
			{func(ck *engine.Checkpoint) error { return flipByte(ck.Path, 100) }, "damaged"},
			{func(ck *engine.Checkpoint) error { return os.Truncate(ck.Path, 20) }, "truncated"},
			{func(ck *engine.Checkpoint) error {
				return os.WriteFile(ck.Path, []byte(strings.Repeat("not a checkpoint ", 9)), 0o644)
			}, "damaged"},
			{func(ck *engine.Checkpoint) error { ck.Fingerprint = "h"; return nil }, "another game"},
			{func(ck *engine.Checkpoint) error {
				if name == "par" {
					return os.Truncate(ck.Path, 20) // the parallel engine keeps no depths' file
				}
				return os.Truncate(ck.DepthsPath(), 1)
			}, map[string]string{"par": "truncated", "lean": "shorter than"}[name]},
		} {
			ck := &engine.Checkpoint{Path: filepath.Join(t.TempDir(), "ckpt"), Fingerprint: "g", Every: 1}
			ctx, stop := context.WithCancel(context.Background())
			ck.Saved = func(level uint64) {
				if level == 3 {
					stop()
				}
			}
			if _, err := solve(ctx, engine.Options{Checkpoint: ck}); !errors.Is(err, context.Canceled) {
				t.Fatalf("%s: %v, want a solve stopped at level 3", name, err)
			}
			stop()
			ck.Saved = nil
			if err := c.damage(ck); err != nil {
				t.Fatal(err)
			}
			_, err := solve(context.Background(), engine.Options{Checkpoint: ck})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want an error saying %q", name, err, c.want)
			}
		}
	}
}

// flipByte flips the bits of the byte at offset at of a file.
func flipByte(path string, at int) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	b[at] ^= 0xff
	return os.WriteFile(path, b, 0o644)
}

// raceSeeds returns n, or 1 under the race detector: each seed repeats the
// same paths on another graph, which the detector needs once, at five to
// ten times the time.
func raceSeeds(n uint64) uint64 { return raceShare(n, n) }

// raceShare returns n, or a part of it under the race detector: n/k
// seeds, each of which repeats the paths of the others on another graph.
func raceShare(n, k uint64) uint64 {
	if testsize.Race {
		return n / k
	}
	return n
}
