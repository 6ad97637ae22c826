// Package tier solves a tiered game (implicit.Tiered) one tier at a time,
// children first, each on the frontier-parallel engine with its moves into
// solved children read from their files: peak memory is one tier's arrays
// and the pages of its children's files that it reads, not the whole
// game's. Finished tiers stay on disk in a folder, so that a solve stopped
// at any moment (an interrupt, kill -9, a power cut) resumes from them.
package tier

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/tempfile"
	"github.com/retro-solver/retro/internal/text"
	"github.com/retro-solver/retro/parallel"
)

// Options tune a tiered solve.
type Options struct {
	// Dir is the folder that keeps the finished tiers, created if missing.
	// A solve finds there the tiers an earlier run of the same solve
	// finished and goes on from them.
	Dir string
	// Fingerprint names what is solved: the game, its parameters, the
	// version of its index. Files solved under another are refused.
	Fingerprint string
	// Engine tunes each tier's solve (workers, memory, progress of a tier).
	Engine engine.Options
	// Progress, if not nil, receives a line per tier: which, how many of
	// how many, the share of positions done, the rate and the time left.
	Progress io.Writer
	// CheckpointEvery is the time between two checkpoints inside a tier
	// (engine.Checkpoint, at level barriers); 0 means 5 minutes.
	CheckpointEvery time.Duration
	// SideBySide is the most small tiers solved at once, one worker each
	// (Plan.SideBySide, which keeps them within the memory allowed); 0:
	// one per worker.
	SideBySide int
	// FirstGroupOnly, for Solve, solves the tiers of the game's first
	// group (implicit.GroupRange of tier 0: a family member's own tiers,
	// Tier.Group) and, of the tiers they read, those whose files are
	// missing, with what these read in turn: a finished tier's children's
	// files need not be in Dir. The Solution reads the first group alone.
	// A family's solves in one folder then keep only what the solves to
	// come read (solve chess -all removes the rest); a symmetric game's
	// tiers are all solved.
	FirstGroupOnly bool
	// SplitFrom, for SolveShared, is the number of positions from which a
	// tier is solved by all ranks together, each owning a range of its
	// entries (engine.Distributed), instead of whole by one; 0: none is.
	SplitFrom uint64
}

// manifest is the folder's description of the solve, for people and for
// refusing a folder of another solve.
type manifest struct {
	Format      int    `json:"format"`
	Fingerprint string `json:"fingerprint"`
	Tiers       int    `json:"tiers"`
	Size        uint64 `json:"size"`
}

// layout says where a solve's tier files lie and what their headers must
// say: tier k in "tier-0000k.bin" under the solve's fingerprint, or, for
// a game of SharedTiers, tier "KQvKR" in "KQvKR.tier" under its family's
// name and its own, which every solve of the family reads.
type layout struct {
	dir    string
	fp     uint32 // the solve's fingerprint's checksum
	family string // the SharedTiers family, or ""
}

func newLayout(g implicit.Tiered, o Options) layout {
	l := layout{dir: o.Dir, fp: checksum([]byte(o.Fingerprint))}
	if st, ok := g.(implicit.SharedTiers); ok {
		l.family = st.TierFamily()
	}
	return l
}

// manifest returns the folder's manifest for a solve of these tiers.
func (l layout) manifest(o Options, tiers []implicit.Tier, size uint64) manifest {
	if l.family != "" {
		return manifest{Format: storeVersion, Fingerprint: l.family}
	}
	return manifest{Format: storeVersion, Fingerprint: o.Fingerprint, Tiers: len(tiers), Size: size}
}

// path returns the file of tier k.
func (l layout) path(k int, t implicit.Tier) string {
	if l.family != "" {
		return sharedPath(l.dir, t)
	}
	return filepath.Join(l.dir, fmt.Sprintf("tier-%05d.bin", k))
}

// sharedPath returns the file of tier t of a family in dir.
func sharedPath(dir string, t implicit.Tier) string {
	return filepath.Join(dir, text.FileName(t.Name)+".tier")
}

// RemoveShared removes the files of these tiers of a family
// (implicit.SharedTiers) from dir, the folder its solves share, and
// returns the bytes they took: once no solve still to come reads them.
// A file already gone is no error.
func RemoveShared(dir string, tiers []implicit.Tier) (uint64, error) {
	var freed uint64
	for _, t := range tiers {
		path := sharedPath(dir, t)
		for _, f := range []string{path, path + ".levels"} { // the tier, a checkpoint inside it
			st, err := os.Stat(f)
			if err != nil {
				continue
			}
			if err := os.Remove(f); err != nil && !os.IsNotExist(err) { // gone since: another solve's
				return freed, err
			}
			freed += uint64(st.Size())
		}
	}
	return freed, nil
}

// header returns what tier k's file must say of itself with entries
// (classes or positions) as counted.
func (l layout) header(k int, t implicit.Tier, entries uint64, symmetric bool) storeHeader {
	h := storeHeader{tier: uint32(k), entries: entries, positions: t.Size(), symmetric: symmetric, fingerprint: l.fp}
	if l.family != "" {
		h.tier, h.fingerprint = 0, checksum([]byte(l.family+"; "+t.Name))
	}
	return h
}

// checkpointName names tier k's solve in its level checkpoints.
func (l layout) checkpointName(o Options, k int, t implicit.Tier) string {
	if l.family != "" {
		return l.family + "; " + t.Name
	}
	return fmt.Sprintf("%s; tier %d", o.Fingerprint, k)
}

// Solve solves g tier by tier and returns its solution, which reads the
// tiers' files in dir (Close it when done).
func Solve(ctx context.Context, g implicit.Tiered, o Options) (*Solution, error) {
	tiers := g.Tiers()
	order, err := implicit.TierOrder(tiers, g.Size())
	if err != nil {
		return nil, err
	}
	l := newLayout(g, o)
	if err := prepareDir(o.Dir, l.manifest(o, tiers, g.Size())); err != nil {
		return nil, err
	}
	s := &solver{g: g, tiers: tiers, o: o, l: l, stores: make([]*store, len(tiers))}
	s.sym, _ = g.(implicit.Symmetric)
	defer s.closeAll()
	waits := tiers  // each tier's children, which it waits for
	var kept []bool // the tiers the Solution reads; nil: all
	if o.FirstGroupOnly && s.sym == nil {
		order, waits, kept = s.firstGroup(order)
	}
	if err := s.schedule(ctx, order, waits); err != nil {
		return nil, err
	}
	s.closeAll()
	// Every file was checked whole as this run wrote it or found it.
	return openSolution(g, tiers, l, false, kept)
}

// firstGroup returns the tiers of order that Options.FirstGroupOnly
// solves, in that order: the first group's, and each tier they read,
// with its own children if its file is not there (a finished tier is
// read, not solved); the tiers with the children each waits for, none
// but for those solved; and the first group's tiers, marked.
func (s *solver) firstGroup(order []int) ([]int, []implicit.Tier, []bool) {
	_, end := implicit.GroupRange(s.tiers, 0)
	need, found := make([]bool, len(s.tiers)), make([]bool, len(s.tiers))
	var visit func(k int)
	visit = func(k int) {
		if need[k] {
			return
		}
		need[k] = true
		if found[k] = s.finished(k); found[k] {
			return
		}
		for _, c := range s.tiers[k].Children {
			visit(c)
		}
	}
	for k := range end {
		visit(k)
	}
	var some []int
	waits := slices.Clone(s.tiers)
	for _, k := range order {
		if need[k] {
			some = append(some, k)
		}
	}
	for k := range waits {
		if !need[k] || found[k] {
			waits[k].Children = nil
		}
	}
	first := make([]bool, len(s.tiers))
	for k := range end {
		first[k] = true
	}
	return some, waits, first
}

// progressLine says that tier t, the n-th of all finished, was done (how),
// with the share of positions done, and from the rate of those solved by
// this run since it started (elapsed) the time left.
func progressLine(n, all int, t implicit.Tier, how string, done, solvedHere, total uint64, elapsed time.Duration) string {
	line := fmt.Sprintf("retro: tier %d of %d (%s, %d positions) %s; %.1f%% of positions done",
		n, all, t.Name, t.Size(), how, 100*float64(done)/float64(max(total, 1)))
	if solvedHere > 0 && elapsed > 0 {
		rate := float64(solvedHere) / elapsed.Seconds()
		left := time.Duration(float64(total-done) / rate * float64(time.Second))
		line += fmt.Sprintf(", %.3g positions/s, about %s left", rate, left.Round(time.Second))
	}
	return line
}

// prepareDir creates dir if needed and writes its manifest, or checks the
// one there.
func prepareDir(dir string, m manifest) error {
	if dir == "" {
		return errors.New("tier: no folder for the tiers")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// A run killed while writing a file leaves it under a temporary name;
	// one that another solve in the same folder is writing stays.
	tempfile.RemoveStale(dir, "")
	path := filepath.Join(dir, "manifest.json")
	if b, err := os.ReadFile(path); err == nil {
		var old manifest
		err := json.Unmarshal(b, &old)
		upgrade := old.Format == 1 && m.Format == storeVersion // format 1's files are read as they are
		if upgrade {
			old.Format = m.Format
		}
		if err != nil || old != m {
			return fmt.Errorf("%s holds another solve (%q); remove it or choose another folder", dir, old.Fingerprint)
		}
		if !upgrade {
			return nil
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(dir)
}

// solver is one tiered solve under way.
type solver struct {
	g      implicit.Tiered
	sym    implicit.Symmetric
	tiers  []implicit.Tier
	o      Options
	l      layout
	mu     sync.Mutex // guards stores and readers
	stores []*store   // the open files of solved tiers, by tier number
	comm   Comm       // SolveShared's ranks; nil for Solve
	// readers counts the tiers being solved that read each tier as a
	// child: a child's codes are in memory (load) only while one does.
	readers []int
}

func (s *solver) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, st := range s.stores {
		if st != nil {
			st.close()
			s.stores[k] = nil
		}
	}
}

// want returns what tier k's file must say of itself, with entries
// (classes or positions) as counted.
func (s *solver) want(k int, entries uint64) storeHeader {
	return s.l.header(k, s.tiers[k], entries, s.sym != nil)
}

// solveTier solves tier k with the given number of workers unless its
// file is there already, whole, from the same solve; it reports which.
func (s *solver) solveTier(ctx context.Context, k, workers int) (resumed bool, err error) {
	t := s.tiers[k]
	path := s.l.path(k, t)
	if s.finished(k) {
		return true, nil
	}
	v, err := s.newView(k)
	defer s.doneReading(t.Children)
	if err != nil {
		return false, err
	}
	if s.sym != nil {
		v.sparse = v.classes.Positions()
	}
	// Inside a long tier, the engine saves its state at level barriers.
	opt := s.o.Engine
	if v.tm != nil && opt.Direction == engine.Auto {
		// A game that counts the moves inside a tier apart does so because
		// listing them is dear (Morris lists every move to keep the few
		// inside): a pulled level lists every unresolved position's, and
		// the engine's sample of that cost misjudged Morris's big tiers (a
		// pulled level of 7+0 v 6+0 took minutes where pushing takes
		// seconds).
		opt.Direction = engine.PushOnly
	}
	if workers != parallel.Workers(opt.Workers) {
		// One of several small tiers solved at once: its share of the
		// workers and of the memory, no progress lines of its own, and
		// arrays of its own (a Workspace lends to one solve at a time).
		opt.Workers, opt.Progress, opt.Workspace = workers, nil, nil
		if opt.MaxMemory != 0 {
			opt.MaxMemory = max(opt.MaxMemory/uint64(parallel.Workers(s.o.Engine.Workers))*uint64(workers), 1)
		}
	}
	opt.Checkpoint = &engine.Checkpoint{Path: path + ".levels", Every: s.o.CheckpointEvery,
		Fingerprint: s.l.checkpointName(s.o, k, t)}
	if s.o.Progress != nil {
		opt.Checkpoint.Saved = func(level uint64) {
			fmt.Fprintf(s.o.Progress, "retro: tier %s: checkpoint at level %d saved\n", t.Name, level)
		}
	}
	// A tier the game lists in parts is classified (or, without moves
	// inside, solved) in that order.
	var eg engine.ExitGame = v
	parted := false
	if to, ok := s.g.(implicit.TierOrderer); ok && to.TierParts(k) > 0 {
		eg, parted = &partedView{view: v, to: to, k: k}, true
	} else if s.sym != nil {
		eg = symmetricView{v}
	}
	// A tier without exits whose game probes for moves is solved as a
	// game without them, its counts taken lazily (implicit.MoveProber).
	var game implicit.Game = eg
	if pv, ok := v.probed(); ok && !parted {
		game = pv
	}
	var r *engine.Result
	if t.NoMovesInside {
		r, err = engine.OnePass(ctx, eg, opt)
	} else {
		r, err = engine.Parallel(ctx, game, opt)
	}
	if err != nil {
		return false, err
	}
	err = writeStore(ctx, path, s.want(k, r.Size()), r, v.classes, opt.Workers)
	r.Release()
	if err != nil {
		return false, err
	}
	os.Remove(opt.Checkpoint.Path)
	return false, nil
}

// Finished reports for each of g's tiers whether a solve with o finds its
// file finished in o.Dir: there, of the same solve, whole by its header
// and size (the solve checks its codes when it opens it), so that it is
// read, not solved (Plan.Skipping).
func Finished(g implicit.Tiered, o Options) []bool {
	l := newLayout(g, o)
	_, symmetric := g.(implicit.Symmetric)
	tiers := g.Tiers()
	done := make([]bool, len(tiers))
	for k, t := range tiers {
		if st, err := openStoreOf(l, k, t, symmetric, false); err == nil {
			done[k] = true
			st.close()
		}
	}
	return done
}

// finished reports whether tier k's file is there, whole, from the same
// solve; a damaged one is said (with Progress) and solved again.
func (s *solver) finished(k int) bool {
	if _, err := os.Stat(s.l.path(k, s.tiers[k])); err != nil {
		return false
	}
	_, err := s.open(k)
	if err != nil && s.o.Progress != nil {
		fmt.Fprintf(s.o.Progress, "retro: %v; solving the tier again\n", err)
	}
	return err == nil
}

// newView returns tier k as the engines solve it, its children open to be
// read; the caller calls doneReading with the tier's children once it is
// solved, even after an error. The class positions of a symmetric tier
// (view.sparse) are left to the caller.
func (s *solver) newView(k int) (*view, error) {
	t := s.tiers[k]
	v := &view{g: s.g, sym: s.sym, tiers: s.tiers, lo: t.Start, hi: t.End, maxMoves: maxMoves(s.g, k)}
	v.cm, _ = s.sym.(implicit.CanonicalMover)
	v.tu, _ = s.g.(implicit.TierUnmover)
	if s.sym == nil {
		v.tm, _ = s.g.(implicit.TierMover)
	}
	if len(t.Children) == 0 && v.tm == nil {
		v.counter = counterOf(s.g)
	}
	if s.sym != nil {
		if t.Size() >= 1<<32 {
			return nil, fmt.Errorf("%d positions: tiers of a symmetric game must have fewer than 2^32", t.Size())
		}
		v.classes = implicit.NewClassSetRange(s.sym, t.Start, t.End)
		if v.cu = implicit.ClassNumbererOf(s.sym); v.cu != nil && v.tu != nil {
			v.first, v.last = v.cu.ClassesBelow(t.Start), v.cu.ClassesBelow(t.End)
			if ce, ok := v.cu.(implicit.TierExitClassifier); ok && !t.NoMovesInside {
				v.ce = ce
			}
		} else {
			v.cu = nil
		}
	}
	for _, c := range t.Children {
		st, err := s.read(c)
		if err != nil {
			return nil, err
		}
		start, end := s.tiers[c].Start, s.tiers[c].End
		if v.cu != nil {
			start, end = v.cu.ClassesBelow(start), v.cu.ClassesBelow(end)
		}
		v.children = append(v.children, child{start: start, end: end, st: st})
		v.maxExit = max(v.maxExit, st.h.maxDepth)
	}
	return v, nil
}

// maxMoves bounds the counts of moves of the positions of g's tier k: its
// own bound, where g gives one (implicit.TierMoveBounder), or that of the
// positions that may be lost (implicit.LossBounder, whose classification
// counts no more for the others).
func maxMoves(g implicit.Game, k int) uint64 {
	if b, ok := g.(implicit.LossBounder); ok {
		return b.TierMaxLosableMoves(k)
	}
	if b, ok := g.(implicit.TierMoveBounder); ok {
		return b.TierMaxMoves(k)
	}
	return g.MaxMoves()
}

// counterOf returns a function that classifies a position of g and counts
// its moves, or for a symmetric game the classes they reach, without
// numbering them; nil for a symmetric game that cannot (no ClassCounter).
func counterOf(g implicit.Game) func(s uint64, buf []uint64) (implicit.Kind, uint64, []uint64) {
	if _, ok := g.(implicit.Symmetric); !ok {
		return implicit.ClassifierOf(g)
	}
	cc, ok := g.(implicit.ClassCounter)
	if !ok {
		return nil
	}
	return func(s uint64, buf []uint64) (implicit.Kind, uint64, []uint64) {
		kind, n := cc.ClassifyClasses(s)
		return kind, n, buf
	}
}

// release gives a large tier's arrays back to the system once it is
// solved, before the next tier's are allocated: the peak is one tier's,
// not two. A small tier's are left to the collector, for a forced
// collection costs milliseconds, more than solving a small tier.
func (s *solver) release(k int) {
	if engine.KindPar.Bytes(s.tiers[k].Size(), s.g.MaxMoves()) >= releaseBytes {
		debug.FreeOSMemory()
	}
}

// releaseBytes is the size of a tier's arrays from which release forces a
// collection.
const releaseBytes = 32 << 20

// open returns the store of solved tier k, opening (and checking) its file
// the first time. Tiers solved at once may open their children at once.
func (s *solver) open(k int) (*store, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stores[k] != nil {
		return s.stores[k], nil
	}
	st, err := openStoreOf(s.l, k, s.tiers[k], s.sym != nil, true)
	if err != nil {
		return nil, err
	}
	s.stores[k] = st
	return st, nil
}

// read opens tier k to be read as a child of a tier being solved, its
// codes in memory (load) until doneReading.
func (s *solver) read(k int) (*store, error) {
	st, err := s.open(k)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.readers == nil {
		s.readers = make([]int, len(s.tiers))
	}
	if s.readers[k]++; s.readers[k] == 1 {
		st.load()
	}
	return st, nil
}

// doneReading says that a tier solved with these children no longer reads
// them: a child no other tier reads gives its memory back until a parent
// solved later reads it again (a whole game's children would otherwise
// stay in memory from their first parent to their last, tiers apart).
func (s *solver) doneReading(children []int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range children {
		if s.readers == nil || s.readers[c] == 0 {
			continue // not read: its open failed
		}
		if s.readers[c]--; s.readers[c] == 0 && s.stores[c] != nil {
			s.stores[c].unloadCodes()
		}
	}
}

// openStoreOf opens the file of tier k (a symmetric tier's entries are
// its classes, as many as its file's bits say), and with verify checks it
// whole.
func openStoreOf(l layout, k int, t implicit.Tier, symmetric bool, verify bool) (*store, error) {
	return openStore(l.path(k, t), l.header(k, t, t.Size(), symmetric), verify)
}

// Solution is a solved tiered game, read from its tiers' files: the value
// and depth of each entry of the whole game's index, numbered as a solve
// in memory numbers them (the classes of a symmetric game in the order of
// implicit.Compact), so that a database written from it is the same file.
type Solution struct {
	g      implicit.Game
	sym    implicit.Symmetric
	tiers  []implicit.Tier
	stores []*store
	first  []uint64 // first[k]: the entry number of tier k's first entry; then the total
	counts [4]uint64
	maxD   uint64
	edges  uint64
}

// openSolution opens the tiers' files, those marked in kept where it is
// not nil (Options.FirstGroupOnly: a game without symmetry, whose tiers'
// entries are their positions).
func openSolution(g implicit.Tiered, tiers []implicit.Tier, l layout, verify bool, kept []bool) (*Solution, error) {
	sol := &Solution{g: g, tiers: tiers, stores: make([]*store, len(tiers)), first: make([]uint64, len(tiers)+1)}
	sol.sym, _ = g.(implicit.Symmetric)
	for k, t := range tiers {
		if kept != nil && !kept[k] {
			sol.first[k+1] = sol.first[k] + t.Size()
			continue
		}
		st, err := openStoreOf(l, k, t, sol.sym != nil, verify)
		if err != nil {
			sol.Close()
			return nil, err
		}
		sol.stores[k] = st
		sol.first[k+1] = sol.first[k] + st.h.entries
		for v, c := range st.h.counts {
			sol.counts[v] += c
		}
		sol.maxD = max(sol.maxD, st.h.maxDepth)
		sol.edges += st.h.edges
	}
	return sol, nil
}

// Close unmaps the tiers' files.
func (sol *Solution) Close() error {
	var err error
	for _, st := range sol.stores {
		if st != nil {
			err = errors.Join(err, st.close())
		}
	}
	return err
}

// Size returns the number of entries: positions, or classes of a symmetric
// game.
func (sol *Solution) Size() uint64 { return sol.first[len(sol.tiers)] }

// Lookup returns the value and depth of entry i.
func (sol *Solution) Lookup(i uint64) (engine.Value, uint64, error) {
	k := sort.Search(len(sol.tiers), func(k int) bool { return sol.first[k+1] > i })
	if k == len(sol.tiers) {
		return engine.Illegal, 0, fmt.Errorf("tier: entry %d of %d", i, sol.Size())
	}
	if sol.stores[k] == nil {
		return engine.Illegal, 0, fmt.Errorf("tier: entry %d: tier %s is not read (Options.FirstGroupOnly)", i, sol.tiers[k].Name)
	}
	return sol.stores[k].Lookup(i - sol.first[k])
}

// Index returns the entry of position s of the game: s itself, or the
// number of its class for a symmetric game.
func (sol *Solution) Index(s uint64) uint64 {
	k := implicit.TierOf(sol.tiers, s)
	if sol.sym == nil {
		return s
	}
	return sol.first[k] + sol.stores[k].classes.Rank(sol.sym.Canonical(s)-sol.tiers[k].Start)
}

// LookupRange stores the values and depths of the entries [lo, hi) in
// vals and depths (engine.RangeValues): the database writer reads the
// solution so, in order, and the pages of a tier whose last entry it has
// read leave the process's memory, so that writing the database does not
// hold every tier's file at once.
func (sol *Solution) LookupRange(lo, hi uint64, vals []engine.Value, depths []uint64) error {
	if hi > sol.Size() || lo > hi {
		return fmt.Errorf("tier: entries [%d, %d) of %d", lo, hi, sol.Size())
	}
	at := lo // entry at is stored at vals[at-lo]
	for k := sort.Search(len(sol.tiers), func(k int) bool { return sol.first[k+1] > lo }); at < hi; k++ {
		st, end := sol.stores[k], min(hi, sol.first[k+1])
		if st == nil {
			return fmt.Errorf("tier: entries [%d, %d): tier %s is not read (Options.FirstGroupOnly)", lo, hi, sol.tiers[k].Name)
		}
		st.decodeRange(at-sol.first[k], end-sol.first[k], vals[at-lo:end-lo], depths[at-lo:end-lo])
		at = end
		if end == sol.first[k+1] {
			dropPages(st.data)
		}
	}
	return nil
}

// ReadsRuns says that LookupRange is the way to read a solution in order.
func (sol *Solution) ReadsRuns() bool { return true }

// Count returns the number of entries of value v.
func (sol *Solution) Count(v engine.Value) uint64 { return sol.counts[v&3] }

// TierMaxDepth returns the largest depth in tier k, 0 for a tier not read.
func (sol *Solution) TierMaxDepth(k int) uint64 {
	if sol.stores[k] == nil {
		return 0
	}
	return sol.stores[k].h.maxDepth
}

// MaxDepth returns the largest depth of a win or a loss.
func (sol *Solution) MaxDepth() uint64 { return sol.maxD }

// Edges returns the predecessor edges the tiers' solves walked.
func (sol *Solution) Edges() uint64 { return sol.edges }

// Directory returns, for a symmetric game, the running counts of classes
// per 512 positions of the whole index that a database keeps
// (implicit.Compact.Counts), and nil otherwise.
func (sol *Solution) Directory() []uint32 {
	if sol.sym == nil {
		return nil
	}
	starts, sets := make([]uint64, len(sol.tiers)), make([]implicit.ClassSet, len(sol.tiers))
	for k, t := range sol.tiers {
		starts[k], sets[k] = t.Start, sol.stores[k].classes
	}
	// A tier's class bits leave the process's memory once counted.
	return implicit.JoinCounts(sol.g.Size(), starts, sets, func(k int) { dropPages(sol.stores[k].data) })
}

// Describe says how much the first end tiers hold on disk, for progress
// lines.
func (sol *Solution) Describe(end int) string {
	n, b := 0, uint64(0)
	for _, st := range sol.stores[:end] {
		if st != nil {
			n, b = n+1, b+uint64(len(st.data))
		}
	}
	return fmt.Sprintf("%d tiers, %s on disk", n, text.HumanBytes(b))
}
