package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// Comm is what the distributed engine needs of a group of processes, its
// ranks, each running the same solve: an all-to-all exchange, reductions
// and a gather to rank 0. Every rank makes the same calls in the same
// order. dist.Local implements it in one process (for tests), dist.MPI
// over MPI.
type Comm interface {
	// Rank returns this process's number, 0 to Ranks()-1.
	Rank() int
	// Ranks returns the number of processes.
	Ranks() int
	// Exchange sends send[r] to rank r, for every r (send[Rank()] included,
	// or empty), and returns recv: recv[r] is what rank r sent to this one.
	// It keeps no part of send: the caller may write its arrays again once
	// it returns.
	Exchange(send [][]uint64) ([][]uint64, error)
	// Sum returns, on every rank, the sum over the ranks of v, element by
	// element; Max their maximum. v has the same length on every rank.
	Sum(v []uint64) ([]uint64, error)
	Max(v []uint64) ([]uint64, error)
	// Gather returns, on rank 0, what every rank passed, in rank order;
	// nil on the others.
	Gather(v []uint64) ([][]uint64, error)
}

// RankRange returns the range [lo, hi) of an index of n that rank r of
// ranks owns: contiguous blocks of ceil(n/ranks), the last one shorter.
func RankRange(n uint64, ranks, r int) (lo, hi uint64) {
	block := rankBlock(n, ranks)
	return min(uint64(r)*block, n), min(uint64(r+1)*block, n)
}

func rankBlock(n uint64, ranks int) uint64 { return max((n+uint64(ranks)-1)/uint64(ranks), 1) }

// DistLevel is what one level of a distributed solve did, summed over the
// ranks (the times: the slowest rank's).
type DistLevel struct {
	Frontier uint64        // positions of the level's frontier
	Edges    uint64        // un-moves walked from them
	Crossing uint64        // of which to a position another rank owns
	Bytes    uint64        // bytes sent to other ranks: 8 per crossing edge, and a lean rank's questions and answers
	Compute  time.Duration // expanding the frontier and applying the updates
	Exchange time.Duration // the all-to-all exchange, waiting for the slowest rank included
}

// DistRecord is a distributed solve's record, on every rank.
type DistRecord struct {
	Ranks  int
	Levels []DistLevel
}

// Totals returns the sum of the levels (the times summed too).
func (st *DistRecord) Totals() DistLevel {
	var t DistLevel
	for _, l := range st.Levels {
		t.Frontier += l.Frontier
		t.Edges += l.Edges
		t.Crossing += l.Crossing
		t.Bytes += l.Bytes
		t.Compute += l.Compute
		t.Exchange += l.Exchange
	}
	return t
}

// Distributed state of a position, one uint32 per position a rank owns:
// the value code in the top two bits (0 unresolved, then Win, Loss,
// Illegal), below it the count of moves not yet known to reach a win while
// unresolved, and the depth once resolved.
const (
	distShift   = 30
	distPayload = 1<<distShift - 1
)

// Distributed solves g on comm's ranks, each owning a contiguous range of
// the index (RankRange) and running opt.Workers goroutines on it, and
// returns on rank 0 exactly what Sequential returns (nil on the others),
// and on every rank the record of its levels.
//
// It is Parallel's level-synchronous pass with the lanes cut into ranges
// (Parallel's comment says why the result does not depend on the order of
// a level's updates): at level d every rank expands its frontier's
// un-moves (its positions resolved at depth d, a bit each in a bitset of
// its range), applies the updates to its own positions at once and sends the
// others, batched per rank, in exchanges of about opt.RoundBytes; a message
// is a predecessor's index and one bit, "a move to a loss" (a win claim)
// or "a move to a win" (a decrement). The ranks then agree on the size of
// the next frontier, and stop when it is empty everywhere. The ranks then
// agree on the counts and statistics (DistResult.finish); no rank sends
// its values to another. With opt.Checkpoint every rank saves its part at
// the same level barriers and a solve goes on from the deepest level all
// saved (dist_checkpoint.go). An ExitGame (a tier split across the ranks
// of tier.SolveShared) has its exits applied by their owners
// (dist_exits.go).
func Distributed(ctx context.Context, g implicit.Game, comm Comm, opt Options) (*DistResult, error) {
	if g.MaxMoves() >= distPayload { // an ExitGame's exits count one more
		return nil, fmt.Errorf("engine: %d moves per position are too many for the distributed engine", g.MaxMoves())
	}
	n := g.Size()
	ranks := comm.Ranks()
	lo, hi, err := distRange(g, comm, opt, DistBytesPerIndex+exitBytesPerIndex(g, false), true)
	if err != nil {
		return nil, err
	}
	d := &distSolver{g: g, comm: comm, n: n, lo: lo, block: rankBlock(n, ranks), ranks: ranks,
		workers: parallel.Workers(opt.Workers), roundBytes: roundBytes(opt, uint64(DistBytesPerIndex*float64(hi-lo)))}
	d.state, d.stateMem = newStates(hi - lo)
	if eg, ok := g.(ExitGame); ok {
		d.exits = newDistExits(eg, hi-lo)
	}
	d.stats.Ranks = ranks
	prog := StartProgress(opt, hi-lo)
	defer prog.Stop()
	ck := opt.Checkpoint
	var first, maxDepth uint64
	resumed := false
	if ck != nil {
		var err error
		if first, maxDepth, d.edgesBefore, resumed, err = d.resume(ck); err != nil {
			return nil, err
		}
		ck.last = time.Now()
		if resumed {
			prog.Resumed(d.resolvedBefore(first))
		}
	}
	if !resumed {
		prog.SetPhase("classifying")
		if err := d.classify(ctx, prog); err != nil {
			return nil, err
		}
		prog.SetPhase("")
	}
	if err := d.agreeExits(); err != nil {
		return nil, err
	}
	// The frontier's size over all ranks: here, then from each level's
	// reduction of its counts.
	size, err := comm.Sum([]uint64{d.atDepth(first)})
	if err != nil {
		return nil, err
	}
	next := size[0]
	// A level with an empty frontier everywhere may still have exit
	// actions (an ExitGame's).
	for depth := first; next != 0 || depth < d.exitLevels; depth++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if depth > distPayload-1 {
			return nil, fmt.Errorf("engine: depth %d is too deep for the distributed engine", depth)
		}
		if next != 0 {
			maxDepth = depth
		}
		prog.Level(depth, next)
		var save bool
		if next, save, err = d.level(ctx, depth, next, ck != nil && comm.Rank() == 0 && ck.due()); err != nil {
			return nil, err
		}
		if save && (next != 0 || depth+1 < d.exitLevels) {
			if err := d.save(ck, depth+1, maxDepth, d.edges()); err != nil {
				return nil, err
			}
		}
	}
	prog.SetPhase("counting")
	r := &DistResult{Record: d.stats, Lo: lo, Hi: hi, comm: comm, n: n, own: wordValues{d.state, d.stateMem}, maxDepth: maxDepth, edges: d.edges()}
	if err := r.finish(tallyWords(d.state, lo, maxDepth), opt.Keep); err != nil {
		return nil, err
	}
	return r, nil
}

// distRange returns this rank's range of g's index for a distributed
// engine of bytesPerIndex, or why the engine cannot solve g with opt: a
// tier where it has no exits, ReachableFrom, a range over opt.MaxMemory, a
// position to keep out of the index.
func distRange(g implicit.Game, comm Comm, opt Options, bytesPerIndex float64, exits bool) (lo, hi uint64, err error) {
	if _, ok := g.(ExitGame); ok && !exits {
		return 0, 0, errors.New("engine: the lean distributed engine does not solve tiers; the 4-byte one does")
	}
	if len(opt.ReachableFrom) > 0 {
		return 0, 0, errors.New("engine: the distributed engine does not restrict a solve to the reachable positions")
	}
	n := g.Size()
	lo, hi = RankRange(n, comm.Ranks(), comm.Rank())
	if err := opt.CheckMemory(hi-lo, bytesPerIndex); err != nil {
		return 0, 0, err
	}
	for _, k := range opt.Keep {
		if k >= n {
			return 0, 0, fmt.Errorf("position %d to keep is out of range: the game has %d indices", k, n)
		}
	}
	return lo, hi, nil
}

// DistBytesPerIndex is the distributed engine's memory per index a rank
// owns, besides the messages of a level: a 4-byte state, and a bit in
// each of two frontiers.
const DistBytesPerIndex = 4.25

// DistBytes returns the memory of the distributed engine's largest rank
// solving a game of n indices with up to maxMoves moves a position on the
// given ranks: its range's 4-byte words and frontier bits, and the messages of a round (those
// the workers made, the same put together for the exchange, and those
// received: three times roundBytes at most). With gather (a game whose
// answer is every position's value, DistResult.Gather), rank 0 also holds
// every rank's words (4 bytes per index of the game) and the Result it
// builds from them (2 bits and a 16-bit depth per index).
func DistBytes(n, maxMoves uint64, ranks int, gather bool) uint64 {
	own := n/uint64(max(ranks, 1)) + 1
	state := uint64(DistBytesPerIndex * float64(own))
	b := state + 3*min(roundBytes(Options{}, state), 8*max(maxMoves, 1)*own)
	if gather {
		b += 4*n + n/4 + 2*n
	}
	return b
}

type distSolver struct {
	g       implicit.Game
	comm    Comm
	n, lo   uint64
	block   uint64 // the ranks' block: index p belongs to rank p / block
	ranks   int
	workers int
	// state holds this rank's positions' states (outside the Go heap
	// where large: stateMem keeps its mapping).
	state    []uint32
	stateMem any
	// cur and next have a bit per position of the range: this level's
	// frontier, and the next's.
	cur, next []uint64
	// roundBytes bounds the messages of a round (Options.RoundBytes).
	roundBytes uint64
	stats      DistRecord
	// edgesBefore counts the un-moves walked, by all ranks, before the
	// checkpoint this solve went on from.
	edgesBefore uint64
	// exits, for an ExitGame, holds the exit actions of this rank's
	// positions (dist_exits.go); exitLevels is the number of levels with an
	// action on some rank.
	exits      *exitEvents
	exitLevels uint64
}

// edges returns the un-moves walked so far by all ranks.
func (d *distSolver) edges() uint64 {
	e := d.edgesBefore
	for _, l := range d.stats.Levels {
		e += l.Edges
	}
	return e
}

// resolvedBefore counts the positions of this rank's range that levels
// before depth resolved (for the progress lines of a resumed solve).
func (d *distSolver) resolvedBefore(depth uint64) uint64 {
	var k uint64
	for _, x := range d.state {
		if v := Value(x >> distShift); (v == Win || v == Loss) && uint64(x&distPayload) < depth {
			k++
		}
	}
	return k
}

// atDepth counts this rank's positions resolved at depth, the frontier of
// that level, and sets their bits in cur.
func (d *distSolver) atDepth(depth uint64) uint64 {
	words := (uint64(len(d.state)) + 63) / 64
	d.cur, d.next = make([]uint64, words), make([]uint64, words)
	var k uint64
	for j, x := range d.state {
		if inFrontier(x, depth) {
			k++
			d.cur[j/64] |= 1 << (j % 64)
		}
	}
	return k
}

// inFrontier says whether state x is of a position resolved at depth.
func inFrontier(x uint32, depth uint64) bool {
	v := Value(x >> distShift)
	return (v == Win || v == Loss) && uint64(x&distPayload) == depth
}

// newStates returns n zero states, mapped apart from the Go heap where
// they are large (bitset's huge pages), and what holds the mapping.
func newStates(n uint64) ([]uint32, any) {
	c := bitset.NewCounters(n, 32)
	if s, ok := c.Lanes32(); ok {
		return s, c
	}
	return make([]uint32, n), nil
}

// classify stores the kind or move count of each of this rank's positions;
// the terminal ones (and inner ones without a move, losses) are the
// frontier of depth 0, in index order.
func (d *distSolver) classify(ctx context.Context, prog *Progress) error {
	if eg, ok := d.g.(ExitGame); ok {
		return d.classifyExits(ctx, eg, prog)
	}
	n := uint64(len(d.state))
	classify := implicit.ClassifierOf(d.g)
	return parallel.For(ctx, d.workers, n, parallel.ChunkFor(n, d.workers, 4096), func(_ int, lo, hi uint64) error {
		var buf []uint64
		for j := lo; j < hi; j++ {
			var kind implicit.Kind
			var k uint64
			kind, k, buf = classify(d.lo+j, buf)
			d.start(j, kind, k)
		}
		prog.Advance(hi - lo)
		return nil
	})
}

// start stores the state of this rank's j-th position, of the given kind
// and number of moves: the terminal ones (and inner ones without a move,
// losses) are resolved at depth 0, the frontier of level 0.
func (d *distSolver) start(j uint64, kind implicit.Kind, moves uint64) {
	if v, _ := initial(kind, moves); v == Draw {
		d.state[j] = uint32(moves)
	} else {
		d.state[j] = uint32(v) << distShift
	}
}

// DistRoundBytes bounds the messages one rank sends in a round of a
// level: a level whose frontier would send more is expanded in rounds of
// part of the frontier, each with its own exchange, so that a rank holds
// about this much of messages to send and as much received, whatever the
// size of the level. A rank of a small range sends less a round
// (roundBytes).
const DistRoundBytes = 1 << 20

// minRoundBytes is the least a round's messages are bounded to: below,
// an exchange's fixed cost would outweigh its bytes.
const minRoundBytes = 64 << 10

// roundBytes returns the bound of a rank's messages in a round
// (Options.RoundBytes, if set) for a rank whose range's state takes
// state bytes: a 256th of it, from minRoundBytes to DistRoundBytes. A
// round's messages are held about four times over (made, sorted by rank,
// received, and the garbage collector's slack), so they stay within a
// few percent of the rank's memory however few positions it owns.
func roundBytes(opt Options, state uint64) uint64 {
	return cmp.Or(opt.RoundBytes, min(max(state/256, minRoundBytes), DistRoundBytes))
}

// level expands the frontier of the given depth, whose size over all
// ranks is frontier: the un-moves of each of its positions update this
// rank's own positions at once (atomically, as Parallel does) and become
// messages to the other ranks' owners, applied after the exchange. The
// frontier goes in rounds: the workers scan the range in order, a chunk at
// a time, until this rank's messages reach about Options.RoundBytes, then
// the ranks exchange them; rounds go on while some rank has positions
// left. It returns the size over all ranks of the next frontier (the
// positions resolved), and whether a checkpoint is to be saved before the
// next level (some rank asked, with wantSave).
func (d *distSolver) level(ctx context.Context, depth, frontier uint64, wantSave bool) (uint64, bool, error) {
	var walked, crossing, resolved uint64
	var computed, exchanged time.Duration
	for from := uint64(0); ; {
		to, w, c, r, comp, exch, err := d.round(ctx, from, depth)
		if err != nil {
			return 0, false, err
		}
		walked, crossing, resolved = walked+w, crossing+c, resolved+r
		computed, exchanged = computed+comp, exchanged+exch
		from = to
		left, err := d.comm.Max([]uint64{uint64(len(d.state)) - from})
		if err != nil {
			return 0, false, err
		}
		if left[0] == 0 {
			break
		}
	}
	if d.exits != nil {
		start := time.Now()
		var k atomic.Uint64
		if err := d.applyExits(ctx, depth, &k); err != nil {
			return 0, false, err
		}
		resolved += k.Load()
		computed += time.Since(start)
	}
	d.cur, d.next = d.next, d.cur
	clear(d.next)
	save := uint64(0)
	if wantSave {
		save = 1
	}
	sums, err := d.comm.Sum([]uint64{walked, crossing, resolved, save})
	if err != nil {
		return 0, false, err
	}
	maxes, err := d.comm.Max([]uint64{uint64(computed), uint64(exchanged)})
	if err != nil {
		return 0, false, err
	}
	d.stats.Levels = append(d.stats.Levels, DistLevel{Frontier: frontier, Edges: sums[0], Crossing: sums[1],
		Bytes: 8 * sums[1], Compute: time.Duration(maxes[0]), Exchange: time.Duration(maxes[1])})
	return sums[2], sums[3] != 0, nil
}

// round expands the frontier's positions in this rank's range from from
// on, a chunk at a time taken in order by the workers, until their
// messages reach about d.roundBytes, and exchanges the messages. It
// returns where it stopped (every position before was done, none after),
// the un-moves walked, those to other ranks' positions, the positions
// resolved, and the time spent computing and exchanging.
func (d *distSolver) round(ctx context.Context, from, depth uint64) (to, walked, crossing, resolved uint64, computed, exchanged time.Duration, err error) {
	start := time.Now()
	me := d.comm.Rank()
	n := uint64(len(d.state))
	chunk := max(parallel.ChunkFor(n, d.workers, 4096)/64, 1) * 64 // whole words of cur
	// Each chunk fills its own outboxes, so the messages come out in the
	// range's order whatever the workers.
	var boxes [][][]uint64
	var mu sync.Mutex
	var sent, edges, done atomic.Uint64
	bufs := make([][]uint64, d.workers) // each worker's un-moves
	to, err = takeChunks(ctx, d.workers, from, n, chunk, d.roundBytes, &sent, func(w int, lo, hi uint64) {
		out := make([][]uint64, d.ranks)
		buf := bufs[w]
		defer func() { bufs[w] = buf }()
		var walked, resolved, bytes uint64
		for wi := lo / 64; wi < (hi+63)/64; wi++ {
			for f := d.cur[wi]; f != 0; f &= f - 1 {
				j := wi*64 + uint64(bits.TrailingZeros64(f))
				loss := uint64(0)
				if Value(atomic.LoadUint32(&d.state[j])>>distShift) == Loss {
					loss = 1
				}
				buf = d.g.Unmoves(d.lo+j, buf[:0])
				walked += uint64(len(buf))
				for _, p := range buf {
					if r := int(p / d.block); r != me {
						out[r] = append(out[r], p<<1|loss)
						bytes += 8
					} else if d.apply(p, loss, depth+1) {
						resolved++
					}
				}
			}
		}
		k := (lo - from) / chunk
		mu.Lock()
		for uint64(len(boxes)) <= k {
			boxes = append(boxes, nil)
		}
		boxes[k] = out
		mu.Unlock()
		sent.Add(bytes)
		edges.Add(walked)
		done.Add(resolved)
	})
	if err != nil {
		return 0, 0, 0, 0, 0, 0, err
	}
	send := joinSends(d.ranks, me, len(boxes), func(k, r int) []uint64 {
		if boxes[k] == nil {
			return nil
		}
		return boxes[k][r]
	})
	for _, b := range send {
		crossing += uint64(len(b))
	}
	boxes = nil
	computed = time.Since(start)
	start = time.Now()
	recv, err := d.comm.Exchange(send)
	if err != nil {
		return 0, 0, 0, 0, 0, 0, err
	}
	send = nil
	exchanged = time.Since(start)
	start = time.Now()
	for r, msgs := range recv {
		if r == me || len(msgs) == 0 {
			continue
		}
		chunk := parallel.ChunkFor(uint64(len(msgs)), d.workers, 4096)
		err := parallel.For(ctx, d.workers, uint64(len(msgs)), chunk, func(w int, lo, hi uint64) error {
			var k uint64
			for _, m := range msgs[lo:hi] {
				if d.apply(m>>1, m&1, depth+1) {
					k++
				}
			}
			done.Add(k)
			return nil
		})
		if err != nil {
			return 0, 0, 0, 0, 0, 0, err
		}
		recv[r] = nil
	}
	return to, edges.Load(), crossing, done.Load(), computed + time.Since(start), exchanged, nil
}

// joinSends returns what a rank sends each other rank (all but me) in an
// exchange, from parts whose k-th holds part(k, r) for rank r: rank r's
// messages in the order of the parts, the ranks' one after another in one
// array, so that an exchange over MPI sends them from where they are.
func joinSends(ranks, me, parts int, part func(k, r int) []uint64) [][]uint64 {
	var total int
	for r := range ranks {
		if r != me {
			for k := range parts {
				total += len(part(k, r))
			}
		}
	}
	all := make([]uint64, 0, total)
	send := make([][]uint64, ranks)
	for r := range ranks {
		if r == me {
			continue
		}
		at := len(all)
		for k := range parts {
			all = append(all, part(k, r)...)
		}
		send[r] = all[at:len(all):len(all)]
	}
	return send
}

// apply resolves this rank's position p for one of its moves: to a loss
// (loss 1) it makes p a win, to a win it takes one off p's count and makes
// it a loss at zero, both at the given depth, if p is unresolved. It
// reports whether this call resolved p; calls may race, and exactly one
// wins. A position with a move to a loss never reaches zero, so the order
// of a level's updates does not matter.
func (d *distSolver) apply(p, loss, depth uint64) bool {
	lane := &d.state[p-d.lo]
	for {
		s := atomic.LoadUint32(lane)
		if s>>distShift != 0 {
			return false
		}
		next := s - 1
		switch {
		case loss == 1:
			next = uint32(Win)<<distShift | uint32(depth)
		case s == 1:
			next = uint32(Loss)<<distShift | uint32(depth)
		}
		if atomic.CompareAndSwapUint32(lane, s, next) {
			if next>>distShift == 0 {
				return false
			}
			j := p - d.lo
			atomic.OrUint64(&d.next[j/64], 1<<(j%64))
			return true
		}
	}
}
