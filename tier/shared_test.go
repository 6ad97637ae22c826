package tier_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retro-solver/retro/dist"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/quixo"
	"github.com/retro-solver/retro/tier"
)

// randomDAG returns a graph of n vertices in t tiers whose children are a
// random set of later tiers, so that some tiers are independent of each
// other; about m edges, each to its own tier or to one of its children.
func randomDAG(n, m uint64, t int, seed uint64) tieredGraph {
	r := rand.New(rand.NewPCG(seed, 11))
	per := max((n+uint64(t)-1)/uint64(t), 1)
	var g tieredGraph
	for k := 0; uint64(k)*per < n; k++ {
		lo, hi := uint64(k)*per, min(uint64(k+1)*per, n)
		tr := implicit.Tier{Name: fmt.Sprintf("vertices %d-%d", lo, hi-1), Start: lo, End: hi}
		for c := k + 1; uint64(c)*per < n; c++ {
			if r.IntN(3) == 0 {
				tr.Children = append(tr.Children, c)
			}
		}
		g.tiers = append(g.tiers, tr)
	}
	var src, dst []uint32
	for range m {
		u := r.Uint64N(n)
		tr := g.tiers[u/per]
		to := tr
		if len(tr.Children) > 0 && r.IntN(2) == 0 {
			to = g.tiers[tr.Children[r.IntN(len(tr.Children))]]
		}
		src, dst = append(src, uint32(u)), append(dst, uint32(to.Start+r.Uint64N(to.End-to.Start)))
	}
	g.Graph = graph.FromEdges(n, src, dst)
	return g
}

// solveShared runs SolveShared on ranks goroutines of Local and returns
// rank 0's solution and every rank's error.
func solveShared(ctx context.Context, g implicit.Tiered, o tier.Options, ranks int) (*tier.Solution, []error) {
	comms := dist.Local(ranks)
	errs := make([]error, ranks)
	var sol *tier.Solution
	var wg sync.WaitGroup
	for r, c := range comms {
		wg.Go(func() {
			s, err := tier.SolveShared(ctx, g, o, c)
			errs[r] = err
			if r == 0 {
				sol = s
			} else if s != nil {
				errs[r] = fmt.Errorf("rank %d returned a solution", r)
			}
		})
	}
	wg.Wait()
	return sol, errs
}

// TestSharedRandomDAGs solves random graphs of tiers on 1 to 4 ranks and
// compares every vertex with the sequential engine's whole solve, and the
// tier files with a single process's.
func TestSharedRandomDAGs(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(30) {
		n := 30 + seed*53%600
		g := randomDAG(n, n*(1+seed%4), 2+int(seed%9), seed)
		want, single := references(t, ctx, g)
		ranks := 1 + int(seed%4)
		dir := t.TempDir()
		var progress bytes.Buffer
		sol, errs := solveShared(ctx, g, tier.Options{Dir: dir, Fingerprint: "test", Engine: engine.Options{Workers: 2}, Progress: &progress}, ranks)
		what := fmt.Sprintf("seed %d, %d ranks", seed, ranks)
		noErrors(t, what, errs)
		sameValues(t, what, sol, want, n)
		sol.Close()
		sameFiles(t, single, dir)
		if lines := strings.Count(progress.String(), "\n"); lines != len(g.tiers) {
			t.Fatalf("seed %d: %d progress lines for %d tiers:\n%s", seed, lines, len(g.tiers), progress.String())
		}
	}
}

// references returns what a shared solve of g is compared with: the
// sequential engine's whole solve, and the folder of a single process's
// tier files.
func references(t *testing.T, ctx context.Context, g implicit.Tiered) (*engine.Result, string) {
	t.Helper()
	want, err := engine.Sequential(ctx, g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	single := t.TempDir()
	ref, err := tier.Solve(ctx, g, tier.Options{Dir: single, Fingerprint: "test", Engine: engine.Options{Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	ref.Close()
	return want, single
}

// noErrors fails if a rank returned an error; what says which solve.
func noErrors(t *testing.T, what string, errs []error) {
	t.Helper()
	for r, err := range errs {
		if err != nil {
			t.Fatalf("%s: rank %d: %v", what, r, err)
		}
	}
}

// sameValues fails unless the n vertices of sol have want's values and
// depths.
func sameValues(t *testing.T, what string, sol *tier.Solution, want *engine.Result, n uint64) {
	t.Helper()
	for v := range n {
		val, d, err := sol.Lookup(v)
		if err != nil || val != want.Value(v) || d != want.Depth(v) {
			t.Fatalf("%s, vertex %d: %v %d (%v), want %v %d", what, v, val, d, err, want.Value(v), want.Depth(v))
		}
	}
}

// sameFiles fails unless the tier files of the two folders are the same.
func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(a, "tier-*.bin"))
	if len(files) == 0 {
		t.Fatalf("no tier files in %s", a)
	}
	for _, f := range files {
		x, _ := os.ReadFile(f)
		y, err := os.ReadFile(filepath.Join(b, filepath.Base(f)))
		if err != nil || !bytes.Equal(x, y) {
			t.Fatalf("%s differs from the single process's (%v)", filepath.Base(f), err)
		}
	}
}

// TestSharedResume: tiers a stopped run left in the folder are not solved
// again, and the others are solved to the same files.
func TestSharedResume(t *testing.T) {
	ctx := context.Background()
	g := randomDAG(2000, 6000, 12, 5)
	single := t.TempDir()
	ref, err := tier.Solve(ctx, g, tier.Options{Dir: single, Fingerprint: "test"})
	if err != nil {
		t.Fatal(err)
	}
	ref.Close()
	dir := t.TempDir()
	files, _ := filepath.Glob(filepath.Join(single, "*"))
	kept := 0
	for i, f := range files {
		if strings.HasSuffix(f, ".bin") && i%2 == 0 || strings.HasSuffix(f, ".json") {
			b, _ := os.ReadFile(f)
			os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644)
			kept += strings.Count(f, ".bin")
		}
	}
	var progress bytes.Buffer
	sol, errs := solveShared(ctx, g, tier.Options{Dir: dir, Fingerprint: "test", Progress: &progress}, 3)
	noErrors(t, "the shared solve", errs)
	sol.Close()
	sameFiles(t, single, dir)
	if got := strings.Count(progress.String(), "already done"); got != kept {
		t.Fatalf("%d tiers already done, want %d:\n%s", got, kept, progress.String())
	}
}

// TestSharedFailure: a tier that cannot be solved (a folder in the way of
// its file) stops every rank with an error naming it, and the manager
// returns no solution.
func TestSharedFailure(t *testing.T) {
	ctx := context.Background()
	g := randomDAG(500, 1500, 6, 2)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "tier-00003.bin", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	sol, errs := solveShared(ctx, g, tier.Options{Dir: dir, Fingerprint: "test"}, 3)
	if sol != nil {
		t.Fatal("a solution despite a tier that failed")
	}
	if errs[0] == nil || !strings.Contains(errs[0].Error(), "tier 3") {
		t.Fatalf("rank 0: %v, want an error naming tier 3", errs[0])
	}
}

// TestSharedSplit solves random tiered graphs (some tiers without moves
// inside, games that list a tier's moves apart or in parts) with their big
// tiers split across 1 to 4 ranks, in rounds of a few messages, and
// compares every vertex with the sequential engine's whole solve and the
// tier files with a single process's.
func TestSharedSplit(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(16) {
		n := 50 + seed*97%700
		base := randomTiered(n, n*(1+seed%3), 2+int(seed%5), seed)
		g := listing(base, seed%4)
		want, single := references(t, ctx, g)
		ranks := 1 + int(seed%4)
		// All tiers split, or the larger ones only.
		split := uint64(1)
		if seed%3 == 1 {
			split = n / uint64(len(base.tiers))
		}
		dir := t.TempDir()
		var progress bytes.Buffer
		o := tier.Options{Dir: dir, Fingerprint: "test", Engine: engine.Options{Workers: 2, RoundBytes: 64}, Progress: &progress, SplitFrom: split}
		sol, errs := solveShared(ctx, g, o, ranks)
		what := fmt.Sprintf("seed %d, %d ranks", seed, ranks)
		noErrors(t, what, errs)
		sameValues(t, what, sol, want, n)
		sol.Close()
		sameFiles(t, single, dir)
		if split == 1 && !strings.Contains(progress.String(), fmt.Sprintf("solved on all %d ranks", ranks)) {
			t.Fatalf("seed %d: no tier split:\n%s", seed, progress.String())
		}
	}
}

// TestSharedSplitSymmetric splits every tier of Quixo 3x3, a symmetric
// game whose tiers' entries are classes, across 2 and 3 ranks: the files
// are a single process's.
func TestSharedSplitSymmetric(t *testing.T) {
	ctx := context.Background()
	g, err := quixo.New(3)
	if err != nil {
		t.Fatal(err)
	}
	single := t.TempDir()
	ref, err := tier.Solve(ctx, g, tier.Options{Dir: single, Fingerprint: "test"})
	if err != nil {
		t.Fatal(err)
	}
	ref.Close()
	for _, ranks := range []int{2, 3} {
		dir := t.TempDir()
		var progress bytes.Buffer
		o := tier.Options{Dir: dir, Fingerprint: "test", SplitFrom: 1, Engine: engine.Options{RoundBytes: 1 << 10}, Progress: &progress}
		sol, errs := solveShared(ctx, g, o, ranks)
		noErrors(t, fmt.Sprintf("%d ranks", ranks), errs)
		sol.Close()
		sameFiles(t, single, dir)
		if got := strings.Count(progress.String(), "solved on all"); got != len(g.Tiers()) {
			t.Fatalf("%d ranks: %d of %d tiers split:\n%s", ranks, got, len(g.Tiers()), progress.String())
		}
	}
}

// snapshotter is a progress writer that copies the solve's folder the
// first time a checkpoint of a split tier at level 2 or deeper is said to
// be saved: what a run killed at that moment would leave.
type snapshotter struct {
	bytes.Buffer
	tier      string // the tier's name, as progress lines give it
	dir, snap string
	taken     bool
}

func (w *snapshotter) Write(p []byte) (int, error) {
	line := string(p)
	if !w.taken && strings.Contains(line, w.tier+": checkpoint") && !strings.Contains(line, "level 1 ") {
		w.taken = true
		files, _ := os.ReadDir(w.dir)
		for _, f := range files {
			if b, err := os.ReadFile(filepath.Join(w.dir, f.Name())); err == nil {
				os.WriteFile(filepath.Join(w.snap, f.Name()), b, 0o644)
			}
		}
	}
	return w.Buffer.Write(p)
}

// TestSharedSplitResume: a split tier goes on from its ranks' checkpoint
// (states, frontier and exit actions) to the same files.
func TestSharedSplitResume(t *testing.T) {
	ctx := context.Background()
	g := randomTiered(6000, 9000, 3, 2)
	single := t.TempDir()
	ref, err := tier.Solve(ctx, g, tier.Options{Dir: single, Fingerprint: "test"})
	if err != nil {
		t.Fatal(err)
	}
	ref.Close()
	dir, snap := t.TempDir(), t.TempDir()
	// Tier 0, whose exits reach both others.
	w := &snapshotter{tier: "tier " + g.tiers[0].Name, dir: dir, snap: snap}
	o := tier.Options{Dir: dir, Fingerprint: "test", SplitFrom: 1, CheckpointEvery: time.Nanosecond, Progress: w}
	sol, errs := solveShared(ctx, g, o, 3)
	noErrors(t, "the first run", errs)
	sol.Close()
	if !w.taken {
		t.Fatalf("no checkpoint deeper than level 1 was saved:\n%s", w.String())
	}
	var progress bytes.Buffer
	o = tier.Options{Dir: snap, Fingerprint: "test", SplitFrom: 1, Progress: &progress}
	sol, errs = solveShared(ctx, g, o, 3)
	noErrors(t, "resumed", errs)
	sol.Close()
	if !strings.Contains(progress.String(), "going on from the checkpoint") {
		t.Fatalf("the second run did not go on from the checkpoint:\n%s", progress.String())
	}
	sameFiles(t, single, snap)
	if left, _ := filepath.Glob(filepath.Join(snap, "*.rank-*")); len(left) > 0 {
		t.Fatalf("checkpoint files left: %v", left)
	}
}
