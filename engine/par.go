package engine

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// Parallel solves g on opt.Workers goroutines, level by level, and returns
// exactly what Sequential returns, whatever the number of workers.
//
// Each position's whole solving state sits in one lane of a packed counter
// array (16 bits, or 32 when moves or depths need it): the top two bits hold
// its value code (0 unresolved, 1 win, 2 loss, 3 illegal), the others the
// count of its moves not yet known to reach a win while it is unresolved,
// and its depth once it is resolved. So an edge of the retrograde pass
// touches one cache line. An ExitGame (a tier) keeps its exits' actions in
// lists on disk (exitLists) and its lanes narrow: a byte each where its
// moves are fewer than 63, its depths halved where the game alternates,
// and those that do not fit in a lane of their own (see storeDepth).
//
//  1. One parallel pass classifies every index and stores its code or its
//     number of moves; terminal positions form the frontier of depth 0.
//  2. Level d: workers expand the frontier's positions (all of depth d)
//     through their un-moves. A predecessor of a loss is claimed as a win by
//     an atomic OR of its code, and only the claiming worker emits it; a
//     predecessor of a win has its count decremented atomically and is a
//     loss when the count reaches zero. The emitted positions are the
//     frontier of depth d+1. A position claimed as a win may still see
//     decrements during the same level (it has a loss among its moves, so
//     its count never reaches zero), so its depth is written only when it
//     is expanded at the next level, after the barrier between levels.
//  3. When a frontier is empty, every unresolved position is a draw.
//
// Why the result is independent of the schedule: the set of positions
// resolved at each level, and their values, are fixed by the previous
// levels alone (doc.go: W_d and L_d), and within a level
// every claim is exclusive.
func Parallel(ctx context.Context, g implicit.Game, opt Options) (*Result, error) {
	width, err := parLaneWidth(g)
	if err != nil {
		return nil, err
	}
	if err := opt.CheckMemory(g.Size(), parBytesPerIndex(width)+opt.reachBytesPerIndex()+parExitBytesPerIndex(g)); err != nil {
		return nil, err
	}
	if g, err = restrict(ctx, g, opt); err != nil {
		return nil, err
	}
	s, err := newParSolver(g, width, opt)
	if err != nil {
		return nil, err
	}
	defer s.close()
	s.prog = StartProgress(opt, s.n)
	defer s.prog.Stop()
	return s.solve(ctx)
}

// maxCount bounds the count a lane starts with: a position's moves, and
// one more for an ExitGame's exits.
func maxCount(g implicit.Game) uint64 {
	if _, ok := g.(ExitGame); ok {
		return g.MaxMoves() + 1
	}
	return g.MaxMoves()
}

// parLaneWidth returns the width of g's lanes in the parallel engine:
// enough for its counts, and its depths unless it is an ExitGame.
func parLaneWidth(g implicit.Game) (uint, error) {
	if _, ok := g.(ExitGame); ok {
		return countWidth(maxCount(g))
	}
	return laneWidth(maxCount(g), 2)
}

// countWidth returns the width of lanes that hold a code and counts up to
// maxCount, but no depth: an ExitGame's.
func countWidth(maxCount uint64) (uint, error) {
	if maxCount < 1<<6 {
		return 8, nil
	}
	return laneWidth(maxCount, 2)
}

// parBytesPerIndex is the parallel engine's peak memory per index: the lanes,
// two frontiers (a bit set and at most n/1024 list entries, twice, each),
// the lists of blocked levels, and the 2-bit values built at the end.
func parBytesPerIndex(width uint) float64 {
	return float64(width)/8 + 0.25 + 0.04 + 0.25 + blockedBytesPerIndex
}

type parSolver struct {
	g           implicit.Game
	n           uint64
	workers     int
	lanes       bitset.Counters
	codeShift   uint   // the shift of the value code in a lane: width - 2
	payloadMask uint64 // the bits of a lane below the code
	// A resolved position's lane holds its depth shifted right by halve
	// (1 for an ExitGame that alternates: its wins' depths are odd, its
	// losses' even), up to deepFrom; from deepFrom on (an ExitGame's,
	// whose lanes are never widened) the payload is all ones and deep
	// holds the depth. See storeDepth.
	halve     uint
	deepFrom  uint64
	deep      *deepDepths
	cur, next *parallel.Frontier
	bufs      []workerBuf
	ws        *Workspace // nil, or where the arrays come from and go back to
	prog      *Progress
	exits     *exitLists  // the exits' actions, for an ExitGame
	ckpt      *Checkpoint // nil, or where the state is saved at level barriers
	// resumedFrontier counts the frontier loaded from the checkpoint.
	resumedFrontier uint64
	direction       Direction   // how levels are expanded: Auto, or one way only
	sampleHits      uint64      // see samplePull
	blockBytes      uint64      // Options.BlockBytes
	blocks          *pushBlocks // the lists of blocked push levels, once one has run (par_blocked.go)
	classified      []tally     // the census that the classification counted, until census takes it
	// For a MoveProber (implicit.MoveProberOf), probe classifies and an
	// unresolved position's lane holds the lazy marker, the largest
	// payload, instead of its count of moves until a move of it first
	// reaches a win, when count counts them (uncount, applyEntries,
	// pullLevel): the positions that a loss makes wins before that are
	// never counted. Both nil otherwise.
	probe func(s uint64) (implicit.Kind, bool)
	count func(s uint64) uint64
}

// edges returns the predecessor edges the workers have walked so far.
func (s *parSolver) edges() uint64 {
	var e uint64
	for i := range s.bufs {
		e += s.bufs[i].edges
	}
	return e
}

// workerBuf is one worker's buffers, a cache line apart from the others':
// moves for classification, and the batch of frontier positions being
// expanded with their predecessors.
type workerBuf struct {
	buf   []uint64 // moves, while classifying
	batch []uint64 // frontier positions waiting to be expanded
	preds []uint64 // their predecessors, batch position after position
	ends  []int    // ends[j]: the end of batch[j]'s predecessors in preds
	codes []uint8  // the value code each predecessor had when loaded
	edges uint64   // predecessor edges this worker walked
	_     [64 - 32]byte
}

// batchSize is how many frontier positions a worker expands at once: enough
// predecessors to keep a core's memory requests in flight together.
const batchSize = 64

// newParSolver returns a solver of g in lanes of the given width; the
// caller closes it.
func newParSolver(g implicit.Game, width uint, opt Options) (*parSolver, error) {
	n := g.Size()
	w := parallel.Workers(opt.Workers)
	// Frontiers stay lists up to n/1024 entries. Measured on police 64x64
	// and a random graph of 10^7 vertices with 2 workers: n/16 is 40%
	// slower (lists in emission order lose the index order's locality),
	// n/128 to n/4096 are equal within noise, and n/1024 keeps the lists'
	// memory small.
	limit := max(n/1024, 1024)
	ws := opt.Workspace
	s := &parSolver{
		g:          g,
		n:          n,
		workers:    w,
		ws:         ws,
		lanes:      ws.newLanes(n, width),
		bufs:       ws.newBufs(w),
		ckpt:       opt.Checkpoint,
		direction:  opt.Direction,
		blockBytes: opt.BlockBytes,
	}
	s.cur, s.next = ws.newFrontiers(n, w, limit)
	if eg, ok := g.(ExitGame); ok {
		// The exits' spool beside the checkpoint, where the solve keeps
		// its files.
		dir := ""
		if opt.Checkpoint != nil {
			dir = filepath.Dir(opt.Checkpoint.Path)
		}
		var err error
		if s.exits, err = newExitLists(dir, w, implicit.Alternates(eg)); err != nil {
			return nil, err
		}
	}
	s.setWidth(width)
	if s.exits == nil {
		if probe, count, ok := implicit.MoveProberOf(g); ok && g.MaxMoves() < s.payloadMask {
			s.probe, s.count = probe, count // the marker is no count
		}
	}
	return s, nil
}

// close releases what the solver holds outside memory: the exits' spool.
func (s *parSolver) close() {
	if s.exits != nil {
		s.exits.close()
	}
}

// setWidth sets the fields that follow from the lanes' width.
func (s *parSolver) setWidth(width uint) {
	s.codeShift = width - 2
	s.payloadMask = 1<<s.codeShift - 1
	s.halve, s.deepFrom = 0, noDeep
	if s.exits != nil {
		if s.exits.codes.alternate {
			s.halve = 1
		}
		s.deepFrom = s.payloadMask << s.halve
		s.deep = newDeepDepths(s.n, s.deepFrom)
	}
}

// noDeep is deepFrom where no depth goes to the deep lane: a game without
// exits, whose lanes are widened instead.
const noDeep = ^uint64(0)

func (s *parSolver) solve(ctx context.Context) (*Result, error) {
	var depth, maxDepth uint64
	resumed := false
	if s.ckpt != nil {
		var err error
		s.prog.SetPhase("reading the checkpoint")
		switch depth, maxDepth, err = s.resume(); {
		case err == nil:
			resumed = true
		case err != errNoCheckpoint:
			return nil, err
		}
		s.ckpt.last = time.Now()
	}
	if !resumed {
		s.prog.SetPhase("classifying")
		if err := s.classify(ctx); err != nil {
			return nil, err
		}
	}
	// The positions unresolved before each level, and the measured costs of
	// pushing and pulling, choose each level's direction.
	s.prog.SetPhase("counting moves")
	unresolved, moves, illegal, err := s.census(ctx)
	if err != nil {
		return nil, err
	}
	if resumed {
		// Resolved before the checkpoint: neither unresolved, nor illegal,
		// nor in the frontier about to be expanded (Level counts those).
		s.prog.Resumed(s.n - unresolved - illegal - s.resumedFrontier)
	}
	s.prog.SetPhase("")
	dir := newDirections(s.g, s.direction, float64(moves)/float64(max(unresolved, 1)))
	first := true
	// The last level at which an exit acts: levels go on until it, even
	// through empty frontiers.
	lastExit, anyExit := uint64(0), false
	if s.exits != nil {
		lastExit, anyExit = s.exits.lastLevel()
	}
	for {
		count := s.cur.Close()
		if !first {
			unresolved -= count // the census counted them as unresolved
		}
		first = false
		if count == 0 && (!anyExit || depth > lastExit) {
			break
		}
		if count != 0 {
			maxDepth = depth
		}
		if s.ckpt != nil && s.ckpt.due() {
			if err := s.save(depth, maxDepth); err != nil {
				return nil, err
			}
		}
		s.prog.Level(depth, count)
		if err := s.makeRoom(ctx, depth, count); err != nil {
			return nil, err
		}
		s.next.Reset()
		pull := s.pull(dir, count, unresolved)
		edges, start := s.edges(), time.Now()
		if pull {
			err = s.pullLevel(ctx, depth)
		} else {
			err = s.expandLevel(ctx, depth)
		}
		if err != nil {
			return nil, err
		}
		dir.record(pull, count, s.edges()-edges, time.Since(start))
		if s.exits != nil {
			if err := s.expandExits(ctx, depth); err != nil {
				return nil, err
			}
		}
		s.cur, s.next = s.next, s.cur
		depth++
	}
	// The frontiers' memory goes before the values' comes: their bit sets
	// at once, the blocked levels' lists with a collection.
	s.cur.Release()
	s.next.Release()
	if s.blocks != nil {
		s.blocks = nil
		runtime.GC()
	}
	s.cur, s.next = nil, nil
	s.prog.SetPhase("collecting values")
	return s.result(ctx, maxDepth)
}

// classify stores every index's code or move count and emits the terminal
// positions as the frontier of depth 0. Chunks start on multiples of 64, so
// no two workers share a word of the lanes and plain stores suffice.
func (s *parSolver) classify(ctx context.Context) error {
	s.cur.Reset()
	chunk := parallel.ChunkFor(s.n, s.workers, 4096)
	if eg, ok := s.g.(ExitGame); ok {
		if err := s.classifyExits(ctx, eg, chunk); err != nil {
			return err
		}
		return s.exits.finish()
	}
	if s.probe != nil {
		return s.classifyProbed(ctx, chunk)
	}
	if rc, ok := s.g.(implicit.RangeCounter); ok {
		// Lanes the machine cannot address one by one take the plain path.
		if l, ok := s.lanes.Lanes16(); ok {
			return classifyRanges(ctx, s, rc, chunk, l)
		}
		if l, ok := s.lanes.Lanes32(); ok {
			return classifyRanges(ctx, s, rc, chunk, l)
		}
	}
	classify := implicit.ClassifierOf(s.g)
	set := storer(s.lanes)
	tallies := make([]tally, s.workers)
	err := parallel.For(ctx, s.workers, s.n, chunk, func(w int, lo, hi uint64) error {
		buf := s.bufs[w].buf
		t := &tallies[w]
		var kind implicit.Kind
		var k uint64
		for i := lo; i < hi; i++ {
			kind, k, buf = classify(i, buf)
			t.add(s.start(w, set, i, kind, k), k)
		}
		s.bufs[w].buf = buf
		s.prog.Advance(hi - lo)
		return nil
	})
	return s.tallied(tallies, err)
}

// rangeRun is the number of counts a RangeCounter gives at a time: 16 KiB
// on the worker's stack.
const rangeRun = 4096

// classifyRanges is classify for a RangeCounter, every position inner,
// into s's lanes (of one width): the counts come a run at a time and go
// straight into the lanes, a count as it is, none as a loss at depth 0
// (the code in the lane's top bits), of the first frontier.
func classifyRanges[L uint16 | uint32](ctx context.Context, s *parSolver, rc implicit.RangeCounter, chunk uint64, lanes []L) error {
	loss := L(Loss) << s.codeShift
	tallies := make([]tally, s.workers)
	err := parallel.For(ctx, s.workers, s.n, chunk, func(w int, lo, hi uint64) error {
		var counts [rangeRun]uint32
		t := &tallies[w]
		for at := lo; at < hi; at += rangeRun {
			run := counts[:min(rangeRun, hi-at)]
			rc.CountMoves(at, run)
			l := lanes[at : at+uint64(len(run))]
			var u, m uint64 // unresolved, their moves
			for j, k := range run {
				if k == 0 {
					l[j] = loss
					continue
				}
				l[j] = L(k)
				u++
				m += uint64(k)
			}
			t.u, t.m = t.u+u, t.m+m
			if u < uint64(len(run)) {
				for j, k := range run {
					if k == 0 {
						s.cur.Emit(w, at+uint64(j))
					}
				}
			}
		}
		s.prog.Advance(hi - lo)
		return nil
	})
	return s.tallied(tallies, err)
}

// classifyProbed is classify for a MoveProber: an unresolved position's
// lane holds the lazy marker (the payload mask) instead of its count, and
// the census counts no moves for it: only the choice of pulling reads
// them, which a lazy solve never makes (parSolver.pull).
func (s *parSolver) classifyProbed(ctx context.Context, chunk uint64) error {
	set := storer(s.lanes)
	tallies := make([]tally, s.workers)
	err := parallel.For(ctx, s.workers, s.n, chunk, func(w int, lo, hi uint64) error {
		t := &tallies[w]
		for i := lo; i < hi; i++ {
			kind, has := s.probe(i)
			if kind != implicit.Inner || !has {
				t.add(s.start(w, set, i, kind, 0), 0)
				continue
			}
			set(i, s.payloadMask)
			t.add(Draw, 0)
		}
		s.prog.Advance(hi - lo)
		return nil
	})
	return s.tallied(tallies, err)
}

// uncount puts the count of p's moves in its lane in place of the lazy
// marker, if the lane holds it: before a move of p to a win is taken off,
// by whichever worker gets there first.
func (s *parSolver) uncount(p uint64) {
	for {
		l := s.lanes.AtomicGet(p)
		if l&s.payloadMask != s.payloadMask {
			return
		}
		if s.lanes.CompareAndSwap(p, l, l&^s.payloadMask|s.count(p)) {
			return
		}
	}
}

// tallied keeps the census that a classification counted, tallies, for
// census to take, unless it failed with err; it returns err.
func (s *parSolver) tallied(tallies []tally, err error) error {
	if err == nil {
		s.classified = tallies
	}
	return err
}

// start stores index i's initial value code, or its count k of moves while
// it is unresolved, in its lane with set (storer's: a lane's own store,
// where a read-modify-write of its word would wait on the store to the
// lane before it); worker w emits the positions resolved at depth 0
// (initial) as the first frontier. It returns the initial value, Draw for
// an unresolved position.
func (s *parSolver) start(w int, set func(i, v uint64), i uint64, kind implicit.Kind, k uint64) Value {
	v, frontier := initial(kind, k)
	if v == Draw {
		set(i, k)
	} else {
		set(i, uint64(v)<<s.codeShift)
	}
	if frontier {
		s.cur.Emit(w, i)
	}
	return v
}

// classifyExits is classify for an ExitGame: a position with exits counts
// one more move, which only an exit action of ExitToWins takes back, so
// that its count reaches zero only once its exits are known to all reach
// wins and the level of the deepest has come.
func (s *parSolver) classifyExits(ctx context.Context, g ExitGame, chunk uint64) error {
	if pg, ok := g.(Parted); ok {
		return s.classifyParts(ctx, pg)
	}
	set := storer(s.lanes)
	tallies := make([]tally, s.workers)
	classifiers := exitClassifiers(g, s.workers)
	err := parallel.For(ctx, s.workers, s.n, chunk, func(w int, lo, hi uint64) error {
		buf := s.bufs[w].buf
		defer func() { s.bufs[w].buf = buf }()
		t := &tallies[w]
		classify := classifiers[w]
		for i := lo; i < hi; i++ {
			var kind implicit.Kind
			var k uint64
			var exit Exit
			kind, k, exit, buf = classify(i, buf)
			if kind == implicit.TerminalWin && s.halve != 0 {
				return terminalWin(i)
			}
			if kind == implicit.Inner && exit.Kind != NoExit {
				k++
				if e, ok := s.exits.codes.event(exit); ok {
					s.exits.add(w, i, e)
				}
			}
			if k > s.payloadMask {
				return s.tooManyMoves(i, k)
			}
			t.add(s.start(w, set, i, kind, k), k)
		}
		s.prog.Advance(hi - lo)
		return nil
	})
	return s.tallied(tallies, err)
}

// classifyParts is classifyExits for a Parted game: its parts' positions,
// whose exits' lookups fall close together, are anywhere in the lanes, so
// workers share words. Every lane is first filled with the illegal code
// (the positions of no part), then each part's positions are classified
// and their lanes stored together with plain stores of whole lanes
// (storer), as OnePass does.
func (s *parSolver) classifyParts(ctx context.Context, g Parted) error {
	illegal := uint64(Illegal) << s.codeShift
	var pattern uint64
	for sh := uint(0); sh < 64; sh += s.lanes.Width() {
		pattern |= illegal << sh
	}
	words := s.lanes.Words()
	err := parallel.For(ctx, s.workers, uint64(len(words)), parallel.ChunkFor(uint64(len(words)), s.workers, 4096), func(_ int, lo, hi uint64) error {
		for i := lo; i < hi; i++ {
			words[i] = pattern
		}
		return nil
	})
	if err != nil {
		return err
	}
	setLane := storer(s.lanes)
	tallies := make([]tally, s.workers)
	type classified struct {
		kind implicit.Kind
		k    uint64
		exit Exit
	}
	parts := g.Parts()
	err = parallel.For(ctx, s.workers, parts, parallel.ChunkFor(parts, s.workers, 64), func(w int, lo, hi uint64) error {
		buf := s.bufs[w].buf
		defer func() { s.bufs[w].buf = buf }()
		t := &tallies[w]
		var list []uint64
		var found []classified
		for j := lo; j < hi; j++ {
			list = g.Part(j, list[:0])
			found = found[:0]
			for _, i := range list {
				var c classified
				c.kind, c.k, c.exit, buf = g.ClassifyExits(i, buf)
				found = append(found, c)
			}
			for x, i := range list {
				c := found[x]
				if c.kind == implicit.TerminalWin && s.halve != 0 {
					return terminalWin(i)
				}
				if c.kind == implicit.Inner && c.exit.Kind != NoExit {
					c.k++
					if e, ok := s.exits.codes.event(c.exit); ok {
						s.exits.add(w, i, e)
					}
				}
				if c.k > s.payloadMask {
					return s.tooManyMoves(i, c.k)
				}
				t.add(s.start(w, setLane, i, c.kind, c.k), c.k)
			}
			t.listed += uint64(len(list))
			s.prog.Advance(uint64(len(list)))
		}
		return nil
	})
	// The indices of no part are illegal, their lanes filled above.
	var listed uint64
	for _, t := range tallies {
		listed += t.listed
	}
	tallies[0].i += s.n - min(listed, s.n)
	return s.tallied(tallies, err)
}

// terminalWin is the error for position i of an Alternating game, a
// terminal win, which would take a depth of the wrong parity.
func terminalWin(i uint64) error {
	return fmt.Errorf("position %d: a terminal win, which a game that says it alternates has none of", i)
}

// tooManyMoves is the error for position i, whose count k (its moves, and
// one for its exits) does not fit in its lane: more moves than the game's
// MaxMoves said, which chose the lanes' width.
func (s *parSolver) tooManyMoves(i, k uint64) error {
	return fmt.Errorf("position %d: %d moves (its exits counted as one), more than the game's bound of %d moves allows", i, k, s.g.MaxMoves())
}

// storer returns a function that stores counter i of c while other
// goroutines store other counters of its word: a plain store of the lane
// where the machine allows it (Lanes16, Lanes32), an atomic one otherwise.
func storer(c bitset.Counters) func(i, v uint64) {
	if l, ok := c.Lanes8(); ok {
		return func(i, v uint64) { l[i] = uint8(v) }
	}
	if l, ok := c.Lanes16(); ok {
		return func(i, v uint64) { l[i] = uint16(v) }
	}
	if l, ok := c.Lanes32(); ok {
		return func(i, v uint64) { l[i] = uint32(v) }
	}
	return c.Store
}

// expandLevel expands every position of the current frontier, all of the
// given depth, into the next frontier.
func (s *parSolver) expandLevel(ctx context.Context, depth uint64) error {
	if s.useBlocked() {
		return s.expandBlocked(ctx, depth)
	}
	if !s.cur.Dense() {
		list := s.cur.List()
		chunk := parallel.ChunkFor(uint64(len(list)), s.workers, 64)
		return parallel.For(ctx, s.workers, uint64(len(list)), chunk, func(w int, lo, hi uint64) error {
			for _, t := range list[lo:hi] {
				s.add(w, t, depth)
			}
			s.flush(w, depth)
			return nil
		})
	}
	words := s.cur.Set().Words()
	chunk := parallel.ChunkFor(uint64(len(words)), s.workers, 64)
	err := parallel.For(ctx, s.workers, uint64(len(words)), chunk, func(w int, lo, hi uint64) error {
		for wi := lo; wi < hi; wi++ {
			for x := words[wi]; x != 0; x &= x - 1 {
				s.add(w, wi<<6|uint64(bits.TrailingZeros64(x)), depth)
			}
			words[wi] = 0
		}
		s.flush(w, depth)
		return nil
	})
	s.cur.MarkCleared()
	return err
}

// add queues frontier position t for worker w, expanding the batch when it
// is full.
func (s *parSolver) add(w int, t, depth uint64) {
	b := &s.bufs[w]
	b.batch = append(b.batch, t)
	if len(b.batch) == batchSize {
		s.flush(w, depth)
	}
}

// flush expands worker w's batch: it writes each position's depth into its
// lane and resolves what the position's value decides among its
// predecessors. All predecessors' lanes are loaded first, with plain loads
// that do not depend on each other, so that their cache misses overlap;
// the atomic updates that follow find the lines in cache. A code loaded as
// 0 may have become a win since, by another worker at this level: then a
// decrement is harmless (a position with a loss among its moves never
// reaches zero), and a win claim is settled by the atomic OR.
func (s *parSolver) flush(w int, depth uint64) {
	b := &s.bufs[w]
	lanes, code := s.lanes, s.codeShift
	b.preds, b.ends = b.preds[:0], b.ends[:0]
	for _, t := range b.batch {
		b.preds = s.g.Unmoves(t, b.preds)
		b.ends = append(b.ends, len(b.preds))
	}
	b.edges += uint64(len(b.preds))
	b.codes = slices.Grow(b.codes[:0], len(b.preds))[:len(b.preds)]
	lanes.GatherHigh(b.preds, code, b.codes)
	s.next.Preload(b.preds)
	start := 0
	for j, t := range b.batch {
		v := lanes.AtomicGet(t) >> code
		s.storeDepth(t, v, depth)
		preds, codes := b.preds[start:b.ends[j]], b.codes[start:b.ends[j]]
		start = b.ends[j]
		if Value(v) == Loss {
			for i, p := range preds {
				if codes[i] == 0 && lanes.Or(p, uint64(Win)<<code)>>code == 0 {
					s.next.Emit(w, p)
				}
			}
			continue
		}
		for i, p := range preds {
			if codes[i] != 0 {
				continue
			}
			if s.count != nil {
				s.uncount(p)
			}
			if lanes.Dec(p) == 0 {
				lanes.Or(p, uint64(Loss)<<code)
				s.next.Emit(w, p)
			}
		}
	}
	b.batch = b.batch[:0]
}

// storeDepth stores the depth of frontier position t, of value code v, as
// it is expanded: in its lane, in place of its count, shifted right by
// s.halve; from s.deepFrom on, the lane's payload all ones and the depth
// in s.deep (its list has it already, from the frontier; its lane, once
// it has one, takes it here). Other workers may store the depths of other
// positions of the same words at once.
func (s *parSolver) storeDepth(t, v, depth uint64) {
	if depth < s.deepFrom {
		s.lanes.Store(t, v<<s.codeShift|depth>>s.halve)
		return
	}
	s.lanes.Store(t, v<<s.codeShift|s.payloadMask)
	if s.deep.store != nil {
		s.deep.store(t, depth-s.deepFrom)
	}
}

// laneDepth returns what a lane's payload p holds as the depth of a
// resolved position t of value code v: p itself, p halved, or for a
// payload of all ones deep's (storeDepth); deep is done.
func laneDepth(p, v uint64, halve uint, deep *deepDepths, t uint64) uint64 {
	if deep != nil && p<<halve >= deep.from {
		return deep.get(t)
	}
	return p<<halve | v&uint64(halve) // a win's depth odd where halved
}

var errTooDeep = errors.New("a depth exceeds 2^30-1 plies, the most the parallel engine stores")

// makeRoom makes room for the depths of level depth, whose frontier holds
// count positions, before it is expanded, where they no longer fit in the
// lanes: the lanes widened, or an ExitGame's deep depths told of it.
func (s *parSolver) makeRoom(ctx context.Context, depth, count uint64) error {
	if depth >= s.deepFrom {
		return s.deep.level(ctx, s.workers, s.cur, count, depth)
	}
	if s.exits == nil && depth > s.payloadMask {
		return s.widen(ctx)
	}
	return nil
}

// widen moves the lanes to 32 bits when a depth no longer fits in 14.
func (s *parSolver) widen(ctx context.Context) error {
	if s.lanes.Width() == 32 {
		return errTooDeep
	}
	old, oldCode, oldMask := s.lanes, s.codeShift, s.payloadMask
	s.lanes = bitset.NewCounters(s.n, 32)
	s.ws.keepLanes(s.lanes)
	s.setWidth(32)
	return parallel.For(ctx, s.workers, s.n, parallel.ChunkFor(s.n, s.workers, 4096), func(_ int, lo, hi uint64) error {
		for i := lo; i < hi; i++ {
			l := old.Get(i)
			if s.count != nil && l == oldMask {
				s.lanes.Set(i, s.payloadMask) // the lazy marker
				continue
			}
			s.lanes.Set(i, l>>oldCode<<s.codeShift|l&(1<<oldCode-1))
		}
		return nil
	})
}

// result turns the lanes into a Result: 2-bit values, and the lanes (and
// deep lane) that hold the depths kept as its depth arrays (storeDepth).
func (s *parSolver) result(ctx context.Context, maxDepth uint64) (*Result, error) {
	if s.deep != nil {
		s.deep.done()
	}
	r := &Result{n: s.n, values: s.ws.newValues(s.n), depths: s.lanes, depthMask: s.payloadMask,
		halve: s.halve, deep: s.deep, maxDepth: maxDepth}
	r.edges = s.edges()
	vw, lw := r.values.Words(), s.lanes.Words()
	width := s.lanes.Width()
	perWord := 64 / width // lanes per lane word
	err := parallel.For(ctx, s.workers, uint64(len(vw)), parallel.ChunkFor(uint64(len(vw)), s.workers, 64), func(_ int, lo, hi uint64) error {
		// Value word i holds the codes of lanes 32i..32i+31: the top two
		// bits of each lane, gathered word by word.
		for i := lo; i < hi; i++ {
			var v uint64
			first := i * 32 / uint64(perWord)
			for j := range 32 / perWord {
				if first+uint64(j) >= uint64(len(lw)) {
					break
				}
				x := lw[first+uint64(j)]
				for l := range perWord {
					v |= (x >> (l*width + s.codeShift) & 3) << (2 * (j*perWord + l))
				}
			}
			vw[i] = v
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.countValues()
	return r, nil
}
