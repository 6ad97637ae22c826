package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// LeanBytesPerIndex is the lean engine's memory per index: a nibble (and,
// for the lists of small levels and of candidate losses, 3n/128 bytes in
// all; see Kind.Bytes).
const LeanBytesPerIndex = 0.5

// Lean solves g like Parallel in half a byte per index, for games too
// large for the 2 to 4 bytes the parallel engine takes, and returns the
// same values; of the depths it keeps only those of the positions in
// opt.Keep and of the longest win and loss (see Result.Depth), with the
// depth histogram.
//
// Each index has a nibble: its value code (0 unresolved, 1 win, 2 loss, 3
// illegal) and two frontier bits, which serve as this level's frontier and
// the next level's by turns. No move count is stored; it is recomputed:
//
//  1. One parallel pass classifies every index; the terminal positions, and
//     the inner ones with no move, form the frontier of depth 0.
//  2. Level d: workers scan the nibbles for the frontier's bit, in index
//     order (or take the list of its positions, for a small level), and
//     walk each frontier position's un-moves. A predecessor of a loss is
//     claimed as a win. An unresolved predecessor of a win is a candidate
//     loss: a loss if all its moves reach wins of depth d or less, which
//     it checks by listing them. A claim is one atomic OR of the value
//     code and the next frontier bit together, so a win claimed at this
//     level (code set, next bit set) is never taken for a win of an
//     earlier one (code set, next bit clear), and only the worker whose OR
//     found the code 0 counts the claim.
//  3. When a frontier is empty, every unresolved position is a draw.
//
// A candidate is tested once a level where its moves cost CheapList steps
// or more to list (ListCost): the level marks it (its next frontier bit
// set, its code left 0), and once the level's un-moves are walked, each
// one marked and still unresolved is tested, and is a loss or loses its
// mark, as DistributedLean's ranks check theirs and Syzygy's generator
// tests a position it marked as changed.
// Where moves are cheap to list it is tested where it is reached, each
// time: the test then finds its own nibble and its successors' in the
// cache, which a later pass does not. Measured on this 2-core guest
// (2026-11-28; candidates over (win, predecessor) pairs, and the time
// marked against tested at once): Quixo 4 x 4 88 million over 397, 2
// workers 4.1 s against 10.5; Teeko 27.2 s against 60.8; police 96 x 96
// 71 million over 550, yet 1.0 to 1.3 times as long, police 64 x 64 1.35
// times, pawns 16 x 16 1.2 times. A random graph of 10^7 vertices and 2 x
// 10^7 edges gains (2.4 to 3.5 s marked, 4.1 to 5.0 at once, 1 worker),
// but ListCost, which lists runs of consecutive indices, finds its lists
// as cheap as police's (7 steps: their edges lie together in memory), and
// it is tested at once.
//
// The sets of positions resolved at each level are those of Parallel
// (doc.go: W_d and L_d), whichever way a candidate is tested, so the
// values, the depths kept and the counts are the same; the loss test costs
// a listing of moves per candidate, which is what saves the counter. Lean
// solves plain games: not an ExitGame (tiers), and without ReachableFrom.
// With opt.Checkpoint it saves its state at level barriers and goes on
// from the state saved, as Parallel does (see lean_checkpoint.go).
func Lean(ctx context.Context, g implicit.Game, opt Options) (*Result, error) {
	if len(opt.ReachableFrom) > 0 {
		return nil, errors.New("the lean engine does not restrict a solve to the reachable positions")
	}
	if _, ok := g.(ExitGame); ok {
		return nil, errors.New("the lean engine does not solve tiers")
	}
	n := g.Size()
	for _, k := range opt.Keep {
		if k >= n {
			return nil, fmt.Errorf("position %d to keep is out of range: the game has %d indices", k, n)
		}
	}
	if err := opt.CheckMemory(n, float64(KindLean.Bytes(n, 0))/float64(max(n, 1))); err != nil {
		return nil, err
	}
	s := &leanSolver{
		g:       g,
		n:       n,
		workers: parallel.Workers(opt.Workers),
		nibs:    bitset.NewNibbles(n),
		keep:    opt.Keep,
		known:   map[uint64]uint64{},
		ckpt:    opt.Checkpoint,
		wantLog: opt.DepthsOnDisk,
		atOnce:  ListCost(g) < leanCheapList,
	}
	s.bufs = make([]leanBuf, s.workers)
	// Levels of up to n/1024 positions are also listed, so that the next
	// level expands the list instead of scanning every nibble: the long
	// tails of small levels (police 256x256: 250 levels at the end, 64 s of
	// scans) cost next to nothing.
	perWorker := max(n/1024/uint64(s.workers), leanListMin)
	for w := range s.bufs {
		s.bufs[w].list = make([]uint64, 0, perWorker)
		if !s.atOnce {
			s.bufs[w].cands = make([]uint64, 0, perWorker)
		}
	}
	s.listed = make([]uint64, 0, perWorker*uint64(s.workers))
	if opt.DepthsOnDisk && s.ckpt == nil { // with a checkpoint, the file is made beside it (start)
		var err error
		if s.log, err = newDepthLog(opt.DepthDir); err != nil {
			return nil, err
		}
	}
	s.prog = StartProgress(opt, n)
	defer s.prog.Stop()
	return s.solve(ctx)
}

// leanListMin is the fewest positions a worker's lists hold (of a level,
// and of its candidates) before the level is found by a scan: a test
// sets it low, so that small games take the scans too.
var leanListMin uint64 = 1024

// leanCheapList is the cost of a list of moves (ListCost) under which the
// lean engine tests a candidate loss where it reaches it: CheapList, or
// what a test sets, so that a game takes either way.
var leanCheapList float64 = CheapList

type leanSolver struct {
	g       implicit.Game
	n       uint64
	workers int
	nibs    bitset.Nibbles
	keep    []uint64
	bufs    []leanBuf
	prog    *Progress
	ckpt    *Checkpoint // nil, or where the state is saved at level barriers
	wantLog bool        // Options.DepthsOnDisk
	log     *depthLog   // every depth, level by level, with Options.DepthsOnDisk
	// What the levels expanded so far counted: the histogram of depths and
	// the longest positions, and the depths of the positions to keep.
	stats DepthStats
	known map[uint64]uint64
	// The positions of the level being expanded, when they were few enough
	// to list (sparse); otherwise the level is found by a scan.
	listed   []uint64
	sparse   bool
	overflow atomic.Bool // some worker's list was full at this level
	// candOverflow: some worker's list of candidates was full at this
	// level, so that the candidates are found by a scan.
	candOverflow atomic.Bool
	// atOnce: a candidate is tested where it is reached, as many times
	// as it is, for a game whose moves are cheap to list (see Lean).
	atOnce bool
}

// leanBuf is one worker's buffers and tallies, a cache line apart from the
// others'.
type leanBuf struct {
	preds, moves []uint64
	ends         []implicit.End // the ends of a run, as an EndLister lists them
	list         []uint64       // the positions this worker claimed at this level, while they fit
	cands        []uint64       // the candidate losses it marked at this level, while they fit
	edges        uint64
	count        uint64 // positions this worker claimed at this level
	wins, losses uint64 // frontier positions of each value this worker expanded
	firstWin     uint64 // the lowest win index it expanded, or ^0
	firstLoss    uint64
	run          depthRun // this worker's record of the level's positions, with a depth log
	_            [64 - 8]byte
}

// Nibble bits: the value code in the low two, then the two frontier bits.
const (
	leanCode  = 3
	leanFront = 4 // the first frontier bit; the second is leanFront << 1
)

// frontierBit returns the nibble bit that marks level d's frontier.
func frontierBit(d uint64) uint8 { return leanFront << (d & 1) }

// frontierMask has the frontier bit of level d set in every nibble.
func frontierMask(d uint64) uint64 { return 0x4444_4444_4444_4444 << (d & 1) }

func (s *leanSolver) solve(ctx context.Context) (*Result, error) {
	depth, count, err := s.start(ctx)
	if err != nil {
		return nil, err
	}
	s.prog.SetPhase("")
	st, known := &s.stats, s.known
	for ; count > 0; depth++ {
		if s.ckpt != nil && s.ckpt.due() {
			if err := s.save(depth, count); err != nil {
				return nil, err
			}
		}
		s.prog.Level(depth, count)
		cur := frontierBit(depth)
		for _, k := range s.keep {
			if s.nibs.Get(k)&cur != 0 {
				known[k] = depth
			}
		}
		if count, err = s.expand(ctx, depth); err != nil {
			return nil, err
		}
		var wins, losses uint64
		firstWin, firstLoss := ^uint64(0), ^uint64(0)
		for w := range s.bufs {
			b := &s.bufs[w]
			wins, losses = wins+b.wins, losses+b.losses
			firstWin, firstLoss = min(firstWin, b.firstWin), min(firstLoss, b.firstLoss)
		}
		st.Wins, st.Losses = append(st.Wins, wins), append(st.Losses, losses)
		if wins > 0 {
			st.LongestWin, st.HasLongestWin = firstWin, true
			known[firstWin] = depth
		}
		if losses > 0 {
			st.LongestLoss, st.HasLongestLoss = firstLoss, true
			known[firstLoss] = depth
		}
	}
	if len(st.Wins) == 0 { // no level: the histogram of depth 0, as ComputeDepthStats has it
		st.Wins, st.Losses = []uint64{0}, []uint64{0}
	}
	var edges uint64
	for w := range s.bufs {
		edges += s.bufs[w].edges
	}
	s.prog.SetPhase("collecting values")
	if s.log != nil {
		if err := s.log.finish(); err != nil {
			return nil, err
		}
	}
	r := &Result{n: s.n, values: s.nibs.LowPairs(), edges: edges, lean: &leanDepths{stats: *st, known: known, disk: s.log}}
	if depth > 0 {
		r.maxDepth = depth - 1
	}
	r.countValues()
	return r, nil
}

// classify stores the code of every index that starts resolved or
// illegal, and marks the frontier of depth 0 (the other nibbles stay 0,
// unresolved); chunks start on multiples of 64, so no two workers share a
// word.
func (s *leanSolver) classify(ctx context.Context) (uint64, error) {
	st := startsOf(s.g)
	cur := frontierBit(0)
	err := parallel.For(ctx, s.workers, s.n, parallel.ChunkFor(s.n, s.workers, 4096), func(w int, lo, hi uint64) error {
		b := &s.bufs[w]
		b.ends, b.moves = st.each(lo, hi, b.ends, b.moves, func(i uint64, v Value, frontier bool) {
			if frontier {
				s.nibs.Set(i, uint8(v)|cur)
				s.note(b, i)
				return
			}
			s.nibs.Set(i, uint8(v))
		})
		s.prog.Advance(hi - lo)
		return nil
	})
	return s.claimed(), err
}

// note counts position i, claimed for the next level by worker b, and
// lists it while the lists have room.
func (s *leanSolver) note(b *leanBuf, i uint64) {
	b.count++
	listWhileRoom(&b.list, &s.overflow, i)
}

// listWhileRoom appends i to a worker's list unless the lists of its kind
// have overflowed (full), and marks them overflowed where it is full.
func listWhileRoom(list *[]uint64, full *atomic.Bool, i uint64) {
	if full.Load() {
		return
	}
	if len(*list) == cap(*list) {
		full.Store(true)
		return
	}
	*list = append(*list, i)
}

// claimed returns the positions the workers claimed since the last call,
// and makes them the level to expand next: listed if no list overflowed.
func (s *leanSolver) claimed() uint64 {
	var c uint64
	s.listed = s.listed[:0]
	s.sparse = !s.overflow.Load()
	for w := range s.bufs {
		b := &s.bufs[w]
		c += b.count
		if s.sparse {
			s.listed = append(s.listed, b.list...)
		}
		b.count, b.list = 0, b.list[:0]
	}
	s.overflow.Store(false)
	return c
}

// expand expands level d: each worker scans its chunks' nibble words for
// the frontier bit, expands those positions, and clears the bits of each
// word it has scanned (an atomic AND: other workers may be claiming
// positions of the same word for the next level); then the candidate
// losses are tested. It returns the number of positions claimed for
// level d+1.
func (s *leanSolver) expand(ctx context.Context, d uint64) (uint64, error) {
	err := s.expandFrontier(ctx, d)
	if err == nil && !s.atOnce {
		err = s.testCandidates(ctx, d)
	}
	return s.claimed(), err
}

// expandFrontier walks the un-moves of level d's positions (expand).
func (s *leanSolver) expandFrontier(ctx context.Context, d uint64) error {
	for w := range s.bufs {
		b := &s.bufs[w]
		b.wins, b.losses = 0, 0
		b.firstWin, b.firstLoss = ^uint64(0), ^uint64(0)
	}
	words := s.nibs.Words()
	next := frontierBit(d + 1)
	if s.sparse {
		cur := uint64(frontierBit(d))
		list := s.listed
		if s.log != nil {
			slices.Sort(list) // a worker's records list increasing indices
		}
		err := parallel.For(ctx, s.workers, uint64(len(list)), parallel.ChunkFor(uint64(len(list)), s.workers, 64), func(w int, lo, hi uint64) error {
			b := &s.bufs[w]
			for _, t := range list[lo:hi] {
				sh := (t & 15) * 4
				x := atomic.LoadUint64(&words[t>>4])
				s.logDepth(b, d, t)
				s.expandOne(b, t, Value(x>>sh&leanCode), next)
				atomic.AndUint64(&words[t>>4], ^(cur << sh))
			}
			s.endDepths(b)
			return nil
		})
		if err == nil {
			err = s.logError()
		}
		return err
	}
	mask := frontierMask(d)
	err := parallel.For(ctx, s.workers, uint64(len(words)), parallel.ChunkFor(uint64(len(words)), s.workers, 64), func(w int, lo, hi uint64) error {
		b := &s.bufs[w]
		for wi := lo; wi < hi; wi++ {
			x := atomic.LoadUint64(&words[wi])
			front := x & mask
			if front == 0 {
				continue
			}
			for f := front; f != 0; f &= f - 1 {
				sh := uint64(bits.TrailingZeros64(f)) &^ 3
				t := wi<<4 | sh>>2
				s.logDepth(b, d, t)
				s.expandOne(b, t, Value(x>>sh&leanCode), next)
			}
			atomic.AndUint64(&words[wi], ^front)
		}
		s.endDepths(b)
		s.prog.Advance(0)
		return nil
	})
	if err == nil {
		err = s.logError()
	}
	return err
}

// testCandidates tests each candidate loss that level d marked and no
// win claimed since: a loss of depth d+1 if all its moves reach wins of
// depth d or less (then it keeps its next frontier bit, and is counted),
// otherwise unmarked. The candidates are the workers' lists, or where
// one was full, the nibbles of code 0 with the next frontier bit. No
// claim is made meanwhile, so a test sees the same nibbles whatever the
// order.
func (s *leanSolver) testCandidates(ctx context.Context, d uint64) error {
	next := frontierBit(d + 1)
	words := s.nibs.Words()
	if !s.candOverflow.Load() {
		list := s.listed[:0]
		for w := range s.bufs {
			list = append(list, s.bufs[w].cands...)
			s.bufs[w].cands = s.bufs[w].cands[:0]
		}
		s.listed = list
		return parallel.For(ctx, s.workers, uint64(len(list)), parallel.ChunkFor(uint64(len(list)), s.workers, 64), func(w int, lo, hi uint64) error {
			b := &s.bufs[w]
			for _, p := range list[lo:hi] {
				if s.nibs.AtomicGet(p)&leanCode == 0 {
					s.testCandidate(b, p, next, words)
				}
			}
			return nil
		})
	}
	for w := range s.bufs {
		s.bufs[w].cands = s.bufs[w].cands[:0]
	}
	s.candOverflow.Store(false)
	mask := frontierMask(d + 1)
	up := 2 + (d+1)&1 // from a nibble's low bit to its next frontier bit
	return parallel.For(ctx, s.workers, uint64(len(words)), parallel.ChunkFor(uint64(len(words)), s.workers, 64), func(w int, lo, hi uint64) error {
		b := &s.bufs[w]
		for wi := lo; wi < hi; wi++ {
			x := atomic.LoadUint64(&words[wi])
			coded := (x | x>>1) & 0x1111_1111_1111_1111 // the low bit of each nibble whose code is not 0
			for f := x & mask &^ (coded << up); f != 0; f &= f - 1 {
				s.testCandidate(b, wi<<4|uint64(bits.TrailingZeros64(f))>>2, next, words)
			}
		}
		s.prog.Advance(0)
		return nil
	})
}

// testCandidate resolves candidate p as a loss, or clears its mark.
func (s *leanSolver) testCandidate(b *leanBuf, p uint64, next uint8, words []uint64) {
	if s.allOldWins(b, p, next) {
		s.nibs.AtomicOr(p, uint8(Loss))
		s.note(b, p)
		return
	}
	atomic.AndUint64(&words[p>>4], ^(uint64(next) << ((p & 15) * 4)))
}

// logDepth notes frontier position t's depth d in the depth log, if the
// solve keeps one.
func (s *leanSolver) logDepth(b *leanBuf, d, t uint64) {
	if s.log != nil {
		s.log.add(&b.run, d, t)
	}
}

// endDepths writes worker b's record of a chunk's positions to the log.
func (s *leanSolver) endDepths(b *leanBuf) {
	if s.log != nil {
		s.log.end(&b.run)
	}
}

// logError returns the depth log's first write error, if any.
func (s *leanSolver) logError() error {
	if s.log == nil {
		return nil
	}
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	return s.log.err
}

// expandOne resolves what frontier position t, of value v, decides among
// its predecessors.
func (s *leanSolver) expandOne(b *leanBuf, t uint64, v Value, next uint8) {
	if v == Win {
		b.wins++
		b.firstWin = min(b.firstWin, t)
	} else {
		b.losses++
		b.firstLoss = min(b.firstLoss, t)
	}
	b.preds = s.g.Unmoves(t, b.preds[:0])
	b.edges += uint64(len(b.preds))
	for _, p := range b.preds {
		x := s.nibs.AtomicGet(p)
		if x&leanCode != 0 {
			continue // resolved, or claimed at this level
		}
		if v == Win {
			switch {
			case s.atOnce:
				if s.allOldWins(b, p, next) && s.nibs.AtomicOr(p, uint8(Loss)|next)&leanCode == 0 {
					s.note(b, p)
				}
			case x&next == 0 && s.nibs.AtomicOr(p, next)&(leanCode|next) == 0:
				listWhileRoom(&b.cands, &s.candOverflow, p)
			}
			continue
		}
		if s.nibs.AtomicOr(p, uint8(Win)|next)&leanCode == 0 {
			s.note(b, p)
		}
	}
}

// allOldWins reports whether every move of p reaches a win of this level
// or an earlier one: a win whose next-frontier bit is clear.
func (s *leanSolver) allOldWins(b *leanBuf, p uint64, next uint8) bool {
	b.moves = s.g.Moves(p, b.moves[:0])
	for _, m := range b.moves {
		if s.nibs.AtomicGet(m)&(leanCode|next) != uint8(Win) {
			return false
		}
	}
	return true
}

// leanDepths is what a lean solve keeps of the depths.
type leanDepths struct {
	stats DepthStats
	known map[uint64]uint64 // the depths kept, by index
	disk  *depthLog         // every depth, with Options.DepthsOnDisk; nil without
}

// depth returns the depth of win or loss i: kept in memory, or read from
// the depth log, or an error if the solve kept neither.
func (l *leanDepths) depth(i uint64) (uint64, error) {
	if d, ok := l.known[i]; ok {
		return d, nil
	}
	if l.disk == nil {
		return 0, fmt.Errorf("index %d: the lean solve kept no depth for it", i)
	}
	var d [1]uint64
	err := l.disk.depths(i, i+1, d[:])
	return d[0], err
}

// ListCost returns what g takes to list an inner position's moves, all
// of them, in steps of this machine's core (coreStep), or 0 if it found no
// inner position: the least of seven samples, each over the inner
// positions of 22 runs of 256 consecutive indices spread over the index
// and divided by a step timed just before it, so that a sample the
// scheduler interrupts does not decide, nor a step timed while the core
// ran faster than it did for the lists (with three samples against the
// least of all steps, pawns 16 x 16 came out anywhere from 15 to past 65
// steps, and chose par in 1 of 8 runs on a 2-core AMD EPYC guest,
// 2026-11-29). In steps, not
// nanoseconds, so that a slower or faster core moves every game alike:
// here (2-core AMD EPYC guest, a step 0.95 ns) police 128 x 128 and pawns
// 16 x 16 list theirs in 12 and 15 ns, dobutsu in 133 to 141; on a 16-core
// Intel Xeon guest (a step 1.34 to 1.52 ns) in 18 to 58 ns and 205 to 283,
// within 1.5 of any threshold in nanoseconds either way. In steps: 13 and
// 16, and 139, here; 12 to 23, 17 to 31, and 153 to 196 there. A
// collection runs to its end first: one still marking what the game's
// construction allocated shares the core with the samples at one worker
// (GOMAXPROCS 1): it made police 128 x 128 list in 19 ns instead of 12
// here, and police 96 x 96 choose par twice in three solves on that Xeon.
//
// The lean engine lists a predecessor's moves where the parallel one
// decrements a counter: it pays where a list costs less than the cache
// miss the counter costs (police, pawns: 5 or 6 moves) and not where moves
// need canonical forms (dobutsu; teeko 275 ns, quixo 4x4 540). A whole
// list, not a move: quixo's moves got four times cheaper (27 ns) while
// each position still lists 17 of them, and timed a move at a time it came
// out lean, 3.4 times slower, on some runs.
func ListCost(g implicit.Game) float64 {
	runtime.GC()
	var buf []uint64
	best := math.Inf(1)
	for range 7 {
		step := coreStep()
		_, ns := sampleRuns(g.Size(), 22, func(i uint64) uint64 {
			if g.Classify(i) != implicit.Inner {
				return 0
			}
			buf = g.Moves(i, buf[:0])
			return 1 // sampleRuns's "moves": the lists timed
		})
		if ns == 0 {
			return 0
		}
		best = min(best, ns/step)
	}
	return best
}

// coreStep returns the nanoseconds one step of a dependent chain of
// integer multiplies and adds takes on this core (steps), the least of
// five runs of 32,768 steps (30 to 50 us each).
func coreStep() float64 {
	const n = 1 << 15
	best := math.Inf(1)
	for range 5 {
		start := time.Now()
		stepSink.Add(steps(n, uint64(start.UnixNano())))
		best = min(best, float64(time.Since(start).Nanoseconds())/n)
	}
	return best
}

// stepSink keeps steps' result alive so that the compiler keeps its loop
// (atomic: solves in one process may time their games at once).
var stepSink atomic.Uint64

// steps runs n steps of a chain in which each step waits for the last: a
// multiply, a shift and an add.
//
//go:noinline
func steps(n int, x uint64) uint64 {
	for range n {
		x = x*0x9E3779B97F4A7C15 + x>>29
	}
	return x
}
