package engine

import (
	"cmp"
	"context"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sync/errgroup"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/prefetch"
	"github.com/retro-solver/retro/parallel"
)

// Propagation blocking: how the parallel engine expands a large push level
// when its lanes are far larger than a core's cache.
//
// expandLevel updates each predecessor's lane where it finds it, a random
// read-modify-write over the whole lane array per edge: a cache miss each,
// and most of a level's time. A blocked level does the same work in
// rounds of two phases instead:
//
//  1. Scatter: workers walk the frontier in index order when it is dense
//     (so that the frontier's own lanes and, for many games, their
//     predecessors' data are read in order), store each position's depth,
//     and write an entry for each predecessor into the list of its block,
//     a range of lanes that fits in a core's L2 cache (128 KiB of them):
//     the predecessor's offset in the block and one bit for the update,
//     claim a win (the position is a loss) or take a move off the count
//     (it is a win). The writes are sequential. A game whose un-moves are
//     read from memory (a graph's in-edges) is asked for them some
//     positions ahead (lookahead), so that their misses overlap.
//  2. Apply: each block is given to one worker, which applies every
//     worker's entries for that block in turn. Its lanes are in cache
//     (read in order first, warm, where its entries are many), and no
//     other worker touches them in this phase, so plain loads and stores
//     suffice.
//
// The updates of one level commute (doc.go: a win claimed at this level
// keeps a move to a loss, so decrements never bring it to zero), so
// applying them block by block gives the same values and depths as
// expandLevel.
//
// A worker's lists are chains of small segments cut from a pool that the
// workers share: a round ends when the pool is used up, so their memory
// stays fixed however the predecessors fall among the blocks, and a
// round's segments are all free again once it is applied. A game whose
// counts are lazy (implicit.MoveProber) has them taken after the apply,
// by all the workers (lazyDefer), so that a block's apply costs about as
// much as its entries.

// defaultBlockBytes is the size of a block when Options.BlockBytes is 0:
// measured on police 64x64 and a random graph of 10^7 vertices (the
// engine's benchmarks), 64 to 256 KiB are equal within noise and 512 KiB is
// slower with 2 workers (this machine's cores have 1 MiB of L2 each).
// blockedMinBytes is then the smallest lane array whose push levels are
// blocked: below it the lanes stay in the caches, and direct updates cost
// less than the lists. Levels whose frontier is a list (at most n/1024
// positions) are then left direct too.
const (
	defaultBlockBytes = 128 << 10
	blockedMinBytes   = 8 << 20
)

// segment is the number of entries in a segment of a list.
const segment = 32

// roundEntries is the entries of a round, all workers together: n/32, and
// at least 2^16 or 16 blocks' lanes, whichever is less, and at most
// maxRoundEntries. More entries a round make fewer loads of each block's
// lines an entry, fewer make less memory: on the engine's benchmarks
// (police 64x64, a random graph of 10^7 vertices), n/8 and rounds of a
// fixed 2^20 entries were 0-10% faster than n/32, within this machine's
// noise.
func roundEntries(n uint64, shift uint) uint64 {
	return min(max(n/32, min(1<<16, uint64(16)<<shift)), maxRoundEntries)
}

// maxRoundEntries caps a round at 4 MiB of entries: on a chess tier of
// 2.4e8 positions, rounds of n/32 (7.6e6 entries, 30 MiB) wrote their
// entries out to memory, where 2^20 stay in the last-level cache until
// they are applied, and since warm streams a block's lines in, the more
// loads of them cost little: the KQRvKR tier 3.0% faster (4 runs
// alternated, every one faster) in 10 MiB less.
const maxRoundEntries = 1 << 20

// blockedBytesPerIndex is what the blocked levels add to the engine's
// memory per index: rounds of n/32 entries of 4 bytes (fewer above 2^25
// positions: maxRoundEntries; the estimate keeps n/32, a bound), and the
// segments that each worker's lists leave partly filled (a segment a
// block, and a block is at least 2^15 lanes by default: 0.04 is 10 to 16
// workers). The lazy counts deferred (deferLazy: 2 bytes a round's entry,
// n/16 bytes at most) and the workers' reserves (32 KiB each) are not in
// it: they are released, with the lists, before the values that
// parBytesPerIndex counts (n/4 bytes) are made.
const blockedBytesPerIndex = 4.0/32 + 0.04

// pushBlocks is the blocked levels' state. The workers' segments come
// from one pool, handed out a batch at a time, so that a round ends when
// the pool is used up, whichever worker used it: with a pool of its own
// for each worker, the first to fill its own waited for the others to fill
// theirs (a quarter of a scatter phase on Quixo 4 x 4 with 2 workers,
// where the frontier's chunks hold unlike numbers of predecessors).
type pushBlocks struct {
	shift   uint          // log2 of the lanes per block
	blocks  uint64        // the number of blocks
	pool    []uint32      // segments of entries offset<<1 | decrement: the shared ones, then each worker's reserve
	next    []uint32      // next[j]: the segment after segment j in its list, +1 (0: none)
	shared  uint32        // the segments handed out in batches
	reserve uint32        // the segments of each worker's reserve, after the shared ones
	claimed atomic.Uint32 // the shared segments claimed this round (past shared once they are used up)
	workers []blockWorker
}

// batchSegments is how many segments a worker claims from the shared pool
// at a time: 512 entries, so that the claims' atomic additions are few and
// the workers stop within a batch of each other when the pool is used up.
const batchSegments = 16

// reserveSegments is the least reserve of a worker: the segments that
// finish the position it is scattering when the shared pool is used up
// meanwhile (a segment a predecessor at most); a position with more
// predecessors makes it larger, between two rounds.
const reserveSegments = 256

// blockWorker is one worker's lists and what is left of the part of the
// frontier it claimed.
type blockWorker struct {
	seg, segEnd uint32     // the segments of its batch not yet used
	res         uint32     // its reserve's first segment
	need        uint32     // the predecessors of a position that its reserve could not take: grown before the next round
	first       []uint32   // first[k]: the first segment of block k's list, +1 (0: empty)
	end         []uint32   // end[k]: where block k's next entry goes in pool; on a segment's boundary, in a new segment
	found       []uint64   // the positions of the block being applied that it resolved, a bit each
	marks       []uint64   // a bit for each word of found that it set (Frontier.EmitWords)
	lo, hi      uint64     // the part of a claimed chunk of the frontier not yet scattered
	lazy        *lazyDefer // the lazy counts its applies defer (nil: none)
}

// blockShift returns log2 of the lanes per block for lanes of the given
// width: bytes of them (a power of two), and at least 64 lanes, so that no
// two blocks share a word of the lanes or of a frontier's bit set.
func blockShift(bytes uint64, width uint) uint {
	return uint(bits.Len64(max(bytes*8/uint64(width), 64)) - 1)
}

// useBlocked reports whether the push level over the current frontier is
// blocked: with Options.BlockBytes set, every one; by default, a dense
// frontier's over lanes of blockedMinBytes or more.
func (s *parSolver) useBlocked() bool {
	if s.blockBytes != 0 {
		return true
	}
	return s.cur.Dense() && uint64(len(s.lanes.Words()))*8 >= blockedMinBytes
}

// newPushBlocks makes a pool of a round's entries and a segment more for
// each block and worker (the last segments of their lists, partly
// filled), and each worker's reserve.
func newPushBlocks(n uint64, workers int, shift uint) *pushBlocks {
	p := &pushBlocks{shift: shift, blocks: (n + 1<<shift - 1) >> shift, workers: make([]blockWorker, workers)}
	// Half of the segments a uint32 offset reaches, the rest for reserves.
	p.shared = uint32(min(roundEntries(n, shift)/segment+p.blocks*uint64(workers), (1<<32-1)/segment/2))
	if testSharedSegments != 0 {
		p.shared = testSharedSegments
	}
	for w := range p.workers {
		p.workers[w] = blockWorker{
			first: make([]uint32, p.blocks),
			end:   make([]uint32, p.blocks),
			found: make([]uint64, max(1<<shift>>6, 1)),
			marks: make([]uint64, max(1<<shift>>12, 1)),
		}
	}
	p.grow(reserveSegments)
	return p
}

// grow makes each worker's reserve at least segs segments, between two
// rounds (the lists are empty), and readies the pool for the next round.
func (p *pushBlocks) grow(segs uint32) {
	if segs > p.reserve || p.pool == nil {
		p.reserve = max(segs, p.reserve)
		total := uint64(p.shared) + uint64(p.reserve)*uint64(len(p.workers))
		p.pool, p.next = make([]uint32, total*segment), make([]uint32, total)
	}
	p.reset()
}

// needed returns the largest reserve that a worker's position needed
// this round (0: none).
func (p *pushBlocks) needed() uint32 {
	var need uint32
	for w := range p.workers {
		need = max(need, p.workers[w].need)
	}
	return need
}

// reset hands the whole pool out again, once a round's lists are applied.
func (p *pushBlocks) reset() {
	p.claimed.Store(0)
	for w := range p.workers {
		bw := &p.workers[w]
		bw.seg, bw.segEnd = 0, 0
		bw.res = p.shared + uint32(w)*p.reserve
		bw.need = 0
	}
}

// usedUp reports whether the shared segments are all claimed this round.
func (p *pushBlocks) usedUp() bool { return p.claimed.Load() >= p.shared }

// expandBlocked is expandLevel, blocked: rounds of scatter and apply until
// the frontier is used up. Workers claim chunks of the frontier (64 words
// of a dense one, in index order, or 64 entries of a list) and scatter
// them until the pool is used up.
func (s *parSolver) expandBlocked(ctx context.Context, depth uint64) error {
	size := cmp.Or(s.blockBytes, defaultBlockBytes)
	if shift := blockShift(size, s.lanes.Width()); s.blocks == nil || s.blocks.shift != shift {
		s.blocks = newPushBlocks(s.n, s.workers, shift)
		s.deferLazy()
	}
	visit, n := s.scatterList, uint64(len(s.cur.List()))
	if s.cur.Dense() {
		visit, n = s.scatterSet, uint64(len(s.cur.Set().Words()))
		defer s.cur.MarkCleared()
	}
	var next atomic.Uint64
	for {
		var pending atomic.Bool
		g, gctx := errgroup.WithContext(ctx)
		for w := range s.blocks.workers {
			g.Go(func() error {
				bw := &s.blocks.workers[w]
				for gctx.Err() == nil {
					if bw.lo == bw.hi {
						c := chunkLeft(n, next.Load(), len(s.blocks.workers))
						lo := next.Add(c) - c
						if lo >= n {
							break
						}
						bw.lo, bw.hi = lo, min(lo+c, n)
					}
					if bw.lo = visit(w, bw.lo, bw.hi, depth); bw.lo < bw.hi {
						pending.Store(true) // the pool is used up, or the position needs a larger reserve
						break
					}
				}
				return gctx.Err()
			})
		}
		if err := g.Wait(); err != nil {
			return err
		}
		if err := s.apply(ctx); err != nil {
			return err
		}
		if err := s.countDeferred(ctx); err != nil {
			return err
		}
		s.blocks.grow(s.blocks.needed())
		if !pending.Load() && next.Load() >= n {
			return nil
		}
	}
}

// deferLazy gives each worker a lazyDefer where the lanes hold lazy counts
// (s.count) and can hold the decrements pending on one: lanes the machine
// addresses one by one, whose payloads go past twice the game's most
// moves. Each defers up to a quarter of a worker's share of a round's
// entries (8 bytes each: half the lists' memory at most); past that, its
// applies count at once. On Quixo 4 x 4, up to half of a round's entries
// were first decrements of lazy counts (Teeko: 29%).
func (s *parSolver) deferLazy() {
	p := s.blocks
	maxMoves := s.g.MaxMoves()
	if s.count == nil || countersOnly || !s.addressable() || maxMoves >= s.payloadMask/2 {
		return
	}
	per := int(max(roundEntries(s.n, p.shift)/4/uint64(len(p.workers)), 64))
	if testLazyDefers != 0 {
		per = testLazyDefers
	}
	for w := range p.workers {
		p.workers[w].lazy = &lazyDefer{above: maxMoves, max: per}
	}
}

// addressable reports whether s's lanes are a slice of one width
// (Lanes8, Lanes16, Lanes32).
func (s *parSolver) addressable() bool {
	_, ok8 := s.lanes.Lanes8()
	_, ok16 := s.lanes.Lanes16()
	_, ok32 := s.lanes.Lanes32()
	return ok8 || ok16 || ok32
}

// countDeferred takes the counts that a round's applies deferred
// (lazyDefer), all the workers together, 64 positions at a time: a
// position that no win claimed meanwhile keeps its count less the
// decrements it had, and is a loss if none is left.
func (s *parSolver) countDeferred(ctx context.Context) error {
	var lists [][]uint64
	var total uint64
	for w := range s.blocks.workers {
		if d := s.blocks.workers[w].lazy; d != nil && len(d.pos) > 0 {
			lists = append(lists, d.pos)
			total += uint64(len(d.pos))
			d.pos = d.pos[:0]
		}
	}
	if total == 0 {
		return nil
	}
	if l, ok := s.lanes.Lanes16(); ok {
		return countLazies(ctx, s, l, lists, total)
	}
	if l, ok := s.lanes.Lanes32(); ok {
		return countLazies(ctx, s, l, lists, total)
	}
	l, _ := s.lanes.Lanes8() // deferLazy defers nothing in other lanes
	return countLazies(ctx, s, l, lists, total)
}

// countLazies is countDeferred in lanes of one width, of the positions of
// lists, total in all.
func countLazies[L uint8 | uint16 | uint32](ctx context.Context, s *parSolver, lanes []L, lists [][]uint64, total uint64) error {
	code, loss := s.codeShift, L(Loss)<<s.codeShift
	return parallel.For(ctx, s.workers, total, 64, func(w int, lo, hi uint64) error {
		for _, list := range lists { // [lo, hi) of the lists one after another
			n := uint64(len(list))
			for _, p := range list[min(lo, n):min(hi, n)] {
				l := lanes[p]
				if l>>code != 0 {
					continue // claimed as a win after its decrements
				}
				taken := s.payloadMask - uint64(l) // the lazy marker is the payload mask
				if c := s.count(p); c > taken {
					lanes[p] = L(c - taken)
					continue
				}
				lanes[p] = loss
				s.next.Emit(w, p)
			}
			lo, hi = lo-min(lo, n), hi-min(hi, n)
		}
		return nil
	})
}

// chunkLeft is the size of the next chunk a worker claims of a frontier
// of n words or entries, claimed up to next: 64, and less near the end (a
// quarter of a worker's share of what is left, at least 1), so that the
// workers finish a level's last round together. A chunk of 64 words of a
// dense frontier is 4096 positions; on Quixo 4 x 4 with 2 workers, one
// worker scattered alone for about a chunk's time at the end of each level.
func chunkLeft(n, next uint64, workers int) uint64 {
	if next >= n {
		return 64
	}
	return min(max((n-next)/uint64(4*workers), 1), 64)
}

// scatterSet and scatterList scatter the frontier positions of [lo, hi)
// for worker w: they store each position's depth and write an entry per
// predecessor into the worker's lists, a win claim for each if the
// position is a loss and a decrement if it is a win. They stop before a
// position whose entries might not fit, and return where they stopped (hi when done). A position
// stopped at may have its depth stored already; storing it again changes
// nothing.
//
// scatterSet scatters a dense frontier: [lo, hi) are words of its bit set,
// whose bits are cleared as their positions are scattered. Each frontier
// word covers whole words of the lanes, and a worker alone holds it, so
// plain stores suffice: scatterLanes makes them to the lanes of one width,
// as a slice.
func (s *parSolver) scatterSet(w int, lo, hi, depth uint64) uint64 {
	if !countersOnly {
		if l, ok := s.lanes.Lanes16(); ok {
			return scatterLanes(s, l, w, lo, hi, depth)
		}
		if l, ok := s.lanes.Lanes32(); ok {
			return scatterLanes(s, l, w, lo, hi, depth)
		}
		if l, ok := s.lanes.Lanes8(); ok {
			return scatterLanes(s, l, w, lo, hi, depth)
		}
	}
	return scatterLanes[uint8](s, nil, w, lo, hi, depth)
}

// testSharedSegments and testLazyDefers, set by the tests, make the
// shared pool of blocked levels and the lazyDefers that small, so that
// rounds end in the middle of a position's predecessors (the reserves) and
// lazy counts are also taken where the apply finds them.
var (
	testSharedSegments uint32
	testLazyDefers     int
)

// countersOnly, set by the tests, has blocked levels read and write the
// lanes through bitset.Counters, as on a machine that cannot address them
// one by one (a big-endian one).
var countersOnly bool

// scatterLanes is scatterSet with s's lanes as a slice of one width (nil
// where the machine cannot address them one by one: a big-endian one).
// Through bitset.Counters's Get and Set, a position's lane took 36
// instructions of a random graph's 395 a frontier position; as a slice,
// the whole solve took 27 fewer a frontier position (callgrind,
// 2026-11-29).
func scatterLanes[L uint8 | uint16 | uint32](s *parSolver, lanes []L, w int, lo, hi, depth uint64) uint64 {
	words := s.cur.Set().Words()
	sp := s.spreader(w)
	defer sp.done()
	ahead := newLookahead(words, lo, hi, sp.off != nil)
	for range lookaheadDistance {
		if a, ok := ahead.next(); ok {
			sp.prefetch(a)
		}
	}
	code := s.codeShift
	plain := lanes != nil && depth < s.deepFrom // the depth goes to lanes alone
	half := depth >> s.halve
	for wi := lo; wi < hi; wi++ {
		for x := words[wi]; x != 0; x &= x - 1 {
			t := wi<<6 + uint64(bits.TrailingZeros64(x))
			if a, ok := ahead.next(); ok {
				sp.prefetch(a)
			}
			// The payload may hold a count (a win claimed by a pull level
			// keeps it), which the depth replaces (storeDepth).
			var v uint64
			if plain {
				v = uint64(lanes[t]) >> code
				lanes[t] = L(v<<code | half)
			} else {
				v = s.lanes.Get(t) >> code
				s.storeDepth(t, v, depth)
			}
			if !sp.spread(t, Value(v)) {
				words[wi] = x
				return wi
			}
		}
		words[wi] = 0
	}
	return hi
}

// lookaheadDistance is how many frontier positions ahead of the one
// walked back scatterLanes asks for an InEdger's list of un-moves.
const lookaheadDistance = 16

// lookahead walks a dense frontier's positions in [lo, hi) (words of its
// bit set) ahead of scatterLanes, which asks for each one's un-moves as it
// comes. It reads the words only, which scatterLanes clears behind it.
type lookahead struct {
	words  []uint64
	wi, hi uint64
	x      uint64 // the bits of words[wi] not yet walked
}

// newLookahead returns the lookahead of [lo, hi), or, where on is false, one
// that walks nothing.
func newLookahead(words []uint64, lo, hi uint64, on bool) lookahead {
	if !on || lo >= hi {
		return lookahead{}
	}
	return lookahead{words: words, wi: lo, hi: hi, x: words[lo]}
}

// next returns the next frontier position, and false once there is none.
func (a *lookahead) next() (uint64, bool) {
	for a.x == 0 {
		if a.wi+1 >= a.hi {
			return 0, false
		}
		a.wi++
		a.x = a.words[a.wi]
	}
	t := a.wi<<6 + uint64(bits.TrailingZeros64(a.x))
	a.x &= a.x - 1
	return t, true
}

// scatterList scatters a frontier list, [lo, hi) being indices in the
// list. Its positions are in any order, and two workers may store depths
// in one word of the lanes, so the stores are atomic.
func (s *parSolver) scatterList(w int, lo, hi, depth uint64) uint64 {
	sp := s.spreader(w)
	defer sp.done()
	for _, t := range s.cur.List()[lo:hi] {
		v := s.lanes.AtomicGet(t) >> s.codeShift
		s.storeDepth(t, v, depth)
		if !sp.spread(t, Value(v)) {
			return lo
		}
		lo++
	}
	return hi
}

// A spreader writes the entries of worker w's frontier positions into its
// lists (spread), with what every position's entries need at hand: made
// by scatterLanes and scatterList for each stretch of the frontier they
// scatter, and done at its end.
type spreader struct {
	g        implicit.Game
	off, src []uint32 // an InEdger's table of un-moves (off nil: g is none)
	p        *pushBlocks
	bw       *blockWorker
	buf      *workerBuf // its preds hold the un-moves of other games
	shift    uint       // the blocks' log2 lanes
	mask     uint64     // an offset's bits in a block
	edges    uint64     // the predecessors written, for buf.edges at done
}

// spreader returns worker w's spreader.
func (s *parSolver) spreader(w int) spreader {
	sp := spreader{
		g: s.g, p: s.blocks, bw: &s.blocks.workers[w], buf: &s.bufs[w],
		shift: s.blocks.shift, mask: uint64(1)<<s.blocks.shift - 1,
	}
	if ie, ok := s.g.(implicit.InEdger); ok {
		sp.off, sp.src = ie.InEdges()
	}
	return sp
}

// done counts the predecessors written in the worker's edges.
func (sp *spreader) done() { sp.buf.edges += sp.edges }

// prefetch asks for the first line of an InEdger's list of t's un-moves
// (a prefetch instruction, which never faults: the list's place needs no
// bounds check).
func (sp *spreader) prefetch(t uint64) {
	prefetch.Line(uintptr(unsafe.Pointer(unsafe.SliceData(sp.src))) + uintptr(sp.off[t])*4)
}

// spread writes an entry for each predecessor of frontier position t,
// whose value is v, into the worker's lists, and reports whether it did:
// not where the pool is used up (the round ends), nor where the position
// has more predecessors than the worker's reserve could finish (it grows
// before the next round). An InEdger's list is walked where it
// lies; other games' un-moves are listed into the worker's buffer.
func (sp *spreader) spread(t uint64, v Value) bool {
	var dec uint32
	if v != Loss {
		dec = 1
	}
	if sp.off != nil {
		return spreadPreds(sp, sp.src[sp.off[t]:sp.off[t+1]], dec)
	}
	sp.buf.preds = sp.g.Unmoves(t, sp.buf.preds[:0])
	return spreadPreds(sp, sp.buf.preds, dec)
}

// spreadPreds is spread of the predecessors preds, dec the entries' update
// bit: appendEntries writes them, and a new segment, once in 32 entries,
// is linked in between.
func spreadPreds[P uint32 | uint64](sp *spreader, preds []P, dec uint32) bool {
	p, bw := sp.p, sp.bw
	if uint64(len(preds)) > uint64(p.reserve) {
		bw.need = max(bw.need, uint32(min(len(preds), 1<<31)))
		return false
	}
	if p.usedUp() {
		return false
	}
	sp.edges += uint64(len(preds))
	shift, mask, pool := sp.shift, sp.mask, p.pool
	for i := 0; i < len(preds); i++ {
		i += appendEntries(pool, bw.end, preds[i:], shift, mask, dec)
		if i == len(preds) {
			break
		}
		q := uint64(preds[i]) // its list is empty or its last segment full
		k := q >> shift
		e := p.newSegment(bw, k, bw.end[k])
		pool[e] = uint32(q&mask)<<1 | dec
		bw.end[k] = e + 1
	}
	return true
}

// appendEntries writes the entries of preds (of the blocks of the given
// shift, mask the offset's bits in a block, dec the update) into the
// last segments of their lists (ends in end), up to the first that has no
// room there, and returns how many it wrote. It calls nothing, so that
// the compiler keeps its slices in registers (with the segments'
// bookkeeping in the loop, it spilled and reloaded them at every entry:
// 35 instructions an entry, 2026-11-29; inlined in spreadPreds, as the
// compiler does, about 25, and kept out of line 5% more in all on a random
// graph, whose positions have two un-moves each).
func appendEntries[P uint32 | uint64](pool, end []uint32, preds []P, shift uint, mask uint64, dec uint32) int {
	for i, p := range preds {
		k := uint64(p) >> (shift & 63) // the mask spares a test of shift < 64
		e := end[k]
		if e%segment == 0 {
			return i
		}
		pool[e] = uint32(uint64(p)&mask)<<1 | dec
		end[k] = e + 1
	}
	return len(preds)
}

// newSegment links a free segment to the end of worker bw's list of block
// k, whose next entry would go to e (0: the list is empty), and returns
// where that entry goes now: the new segment's start. The segment is the
// next of bw's batch, or of a batch it claims, or, once the shared ones
// are used up, of its reserve (spreadPreds starts no position that the
// reserve could not finish). It runs once in 32 entries, and is kept out
// of line so that its slices do not join the values that spreadPreds's
// loop holds.
//
//go:noinline
func (p *pushBlocks) newSegment(bw *blockWorker, k uint64, e uint32) uint32 {
	if bw.seg == bw.segEnd {
		if a := p.claimed.Add(batchSegments) - batchSegments; a < p.shared {
			bw.seg, bw.segEnd = a, min(a+batchSegments, p.shared)
		} else {
			bw.seg, bw.segEnd = bw.res, bw.res+p.reserve
		}
	}
	seg := bw.seg
	bw.seg++
	if e == 0 {
		bw.first[k] = seg + 1
	} else {
		p.next[(e-1)/segment] = seg + 1
	}
	p.next[seg] = 0
	return seg * segment
}

// apply applies every worker's lists, each block on one worker, which
// alone touches the block's lanes, and empties them. The blocks are cut
// into a stretch per worker (parallel.EachStretch): each worker applies
// consecutive blocks, where with blocks handed out one at a time from one
// counter the workers took them by turns. With 2 workers on this 2-core
// guest, 8 alternated pairs of Quixo 4 x 4 took 4% less time (2.15 s
// against 2.25 on average), 5 of police 96 x 96 4% less (4.70 against
// 4.88), 3 of `retro bench -workload graph-1e7x2` 556, 542, 701 ms
// against 597, 591, 676; why is not measured (a goroutine is not held to
// a core from one round to the next). The positions a block
// resolves are gathered in the worker's bits (found) and emitted a word at
// a time once the block is done: an atomic update per word of the next
// frontier, not per position, and none of its cache misses meanwhile. A
// bit for each word it set (marks) spares the reading of the others: a
// block of 8-bit lanes has 2048 words of found, and with a few hundred
// entries a round most of them stay empty (reading every word was 7% of
// the CPU of KQRvKR's tier, 2026-11-28).
func (s *parSolver) apply(ctx context.Context) error {
	p := s.blocks
	err := parallel.EachStretch(ctx, s.workers, p.blocks, func(w int, k uint64) error {
		s.warm(k)
		found, marks := p.workers[w].found, p.workers[w].marks
		for x := range p.workers {
			bw := &p.workers[x]
			for seg := bw.first[k]; seg != 0; seg = p.next[seg-1] {
				start := (seg - 1) * segment
				s.applyList(found, marks, k<<p.shift, p.pool[start:min(start+segment, bw.end[k])], p.workers[w].lazy)
			}
			bw.first[k], bw.end[k] = 0, 0
		}
		s.next.EmitWords(w, k<<p.shift>>6, found, marks)
		return nil
	})
	return err
}

// warm reads block k's lanes in order, a word per cache line, when its
// lists hold at least an entry for every 4 of the block's lines: the
// lines then come in at the memory's streaming rate, which the hardware
// prefetcher keeps up, where the entries would miss them one at a time in
// random order. On BenchmarkParallel's random graph, an entry a line, a
// fourth, an eighth and always were within noise of each other, and two
// entries a line 14% slower (1 worker); below a fourth a block's entries
// touch few of its lines, whose streaming would take the memory's
// bandwidth from the other workers for little.
func (s *parSolver) warm(k uint64) {
	p := s.blocks
	words := s.lanes.Words()
	perBlock := uint64(1) << p.shift * uint64(s.lanes.Width()) / 64
	lo := k * perBlock
	hi := min(lo+perBlock, uint64(len(words)))
	if lo >= hi || !p.hasEntries(k, (hi-lo)/lineWords/4) {
		return
	}
	var sum uint64
	for i := lo; i < hi; i += lineWords {
		sum += words[i]
	}
	warmSink.Add(sum)
}

// lineWords is the words of the lanes in a cache line (64 bytes).
const lineWords = 8

// hasEntries reports whether the workers' lists hold at least want
// entries for block k, counted a segment at a time (the last ones may be
// partly filled) and no further than want.
func (p *pushBlocks) hasEntries(k, want uint64) bool {
	var entries uint64
	for x := range p.workers {
		bw := &p.workers[x]
		for seg := bw.first[k]; seg != 0 && entries < want; seg = p.next[seg-1] {
			entries += segment
		}
	}
	return entries >= want
}

// warmSink keeps warm's loads from being optimised away.
var warmSink atomic.Uint64

// applyList applies one list of entries for the block starting at lane
// base, on the worker that alone touches the block's lanes in this phase,
// setting the bits of found (the block's positions, from base) of the
// positions it resolves, and in marks those of the words of found it sets.
func (s *parSolver) applyList(found, marks []uint64, base uint64, list []uint32, def *lazyDefer) {
	if countersOnly {
		applyCounters(s.lanes, base, list, s.codeShift, found, marks, s.count)
		return
	}
	if l, ok := s.lanes.Lanes16(); ok {
		applyEntries(l, base, list, s.codeShift, found, marks, s.count, def)
		return
	}
	if l, ok := s.lanes.Lanes32(); ok {
		applyEntries(l, base, list, s.codeShift, found, marks, s.count, def)
		return
	}
	if l, ok := s.lanes.Lanes8(); ok {
		applyEntries(l, base, list, s.codeShift, found, marks, s.count, def)
		return
	}
	applyCounters(s.lanes, base, list, s.codeShift, found, marks, s.count)
}

// applyEntries applies a block's entries to lanes of one width: a win
// claim resolves an unresolved predecessor as a win; a decrement takes a
// move off an unresolved predecessor's count, counted first with count
// where the lane holds the lazy marker (count nil: no lane does), and
// resolves it as a loss when none is left. Each position resolved sets its
// bit in found, the block's positions from base, and its word's in marks.
func applyEntries[L uint8 | uint16 | uint32](lanes []L, base uint64, list []uint32, code uint, found, marks []uint64, count func(uint64) uint64, def *lazyDefer) {
	lanes = lanes[base:]
	win, loss, lazy := L(Win)<<code, L(Loss)<<code, L(1)<<code-1
	above := lazy - 1 // the lanes that wait for a count: the marker alone, unless def defers
	if def != nil {
		above = L(def.above)
	}
	for _, e := range list {
		off := e >> 1
		l := lanes[off]
		if l>>code != 0 {
			continue // resolved already
		}
		if e&1 == 0 {
			lanes[off] = win
			markFound(found, marks, off)
			continue
		}
		if l > above && count != nil {
			if l != lazy || def.add(base+uint64(off)) {
				lanes[off] = l - 1 // a decrement more for countDeferred to take off
				continue
			}
			l = L(count(base + uint64(off)))
		}
		if l--; l == 0 {
			l = loss
			markFound(found, marks, off)
		}
		lanes[off] = l
	}
}

// A lazyDefer is a worker's list of the positions whose first decrement
// found the lazy marker in a round of blocked applies: their counts are
// taken after the round (countDeferred), by all the workers, a few
// positions at a time. Counted where the apply finds them, the counts
// (three quarters of Quixo 4 x 4's applies) made the blocks' times unlike,
// and a block is one worker's: with 2 workers, one applied alone for a
// tenth of the applies' time. Meanwhile such a lane holds the marker less
// the decrements it had, above above (the game's most moves, which no
// count passes).
type lazyDefer struct {
	above uint64
	pos   []uint64
	max   int // the positions it takes; past them, counts are taken at once
}

// add notes position p for countDeferred, and reports whether it did:
// not for a nil lazyDefer (none is deferred) nor a full one.
func (d *lazyDefer) add(p uint64) bool {
	if d == nil || len(d.pos) >= d.max {
		return false
	}
	d.pos = append(d.pos, p)
	return true
}

// markFound sets bit off of found and, where its word was empty, the
// word's bit in marks: a branch on the word just loaded, where setting the
// mark at every bit cost police 64 x 64's applyEntries 6% more
// instructions (callgrind) than the words it spared EmitWords.
func markFound(found, marks []uint64, off uint32) {
	w := off >> 6
	if found[w] == 0 {
		marks[w>>6] |= 1 << (w & 63)
	}
	found[w] |= 1 << (off & 63)
}

// applyCounters is applyEntries for lanes the machine cannot address one
// by one (a big-endian machine).
func applyCounters(lanes bitset.Counters, base uint64, list []uint32, code uint, found, marks []uint64, count func(uint64) uint64) {
	lazy := uint64(1)<<code - 1
	for _, e := range list {
		off := e >> 1
		p := base + uint64(off)
		l := lanes.Get(p)
		if l>>code != 0 {
			continue
		}
		if e&1 == 0 {
			lanes.Set(p, uint64(Win)<<code)
			markFound(found, marks, off)
			continue
		}
		if l == lazy && count != nil {
			l = count(p)
		}
		if l--; l == 0 {
			l = uint64(Loss) << code
			markFound(found, marks, off)
		}
		lanes.Set(p, l)
	}
}
