package engine

import (
	"context"
	"fmt"
	"math/bits"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// DistLeanBytesPerIndex is a lean rank's memory per index of its range: a
// nibble, as Lean's.
const DistLeanBytesPerIndex = 0.5

// DistLeanBytes returns the memory of DistributedLean's largest rank
// solving a game of n indices with up to maxMoves moves a position on the
// given ranks: its range's nibbles (rounded up to the 2 MiB pages they are
// mapped in), its depths' file's directory, the messages of a round (as
// DistBytes counts them) and the questions of a round of checks with their
// candidates' slots (half as much again); with gather, rank 0 also holds
// what Distributed's gather takes.
func DistLeanBytes(n, maxMoves uint64, ranks int, gather bool) uint64 {
	own := n/uint64(max(ranks, 1)) + 1
	state := uint64(float64(own) * DistLeanBytesPerIndex)
	round := min(roundBytes(Options{}, state), 8*max(maxMoves, 1)*own)
	b := state + 2<<20 + DepthLogBytes(own) + 3*round + round*3/2
	if gather {
		b += 4*n + n/4 + 2*n
	}
	return b
}

// DistributedLean solves g on comm's ranks like Distributed, in half a
// byte per index of a rank's range (Lean's nibbles) instead of four, and
// returns the same DistResult: the values are Sequential's, and every
// depth is kept in a file per rank (in Options.DepthDir, going with the
// result; with a Checkpoint, beside it). With Options.Checkpoint every
// rank saves its part at the same level barriers and a solve goes on from
// the deepest level all saved (dist_lean_checkpoint.go).
//
// It is Lean's level by level pass with the ranges cut among the ranks, in
// two phases a level:
//
//  1. Expand: every rank scans its range for the level's frontier and
//     walks each position's un-moves. A predecessor of a loss is claimed
//     as a win (Lean's atomic OR of the code and the next frontier bit);
//     a predecessor of a win is marked a candidate (the next frontier bit
//     alone, code 0). Predecessors another rank owns go to it in messages
//     (index and one bit), batched per rank and exchanged in rounds of
//     about Options.RoundBytes.
//  2. Check: every rank scans its range for candidates. A candidate is a
//     loss if every move reaches a win of this level or an earlier one (a
//     win code without the next bit): moves to its own positions are read
//     at once, moves to others' are asked of their owners in a second
//     exchange, answered by a third. A loss keeps its next bit and gets
//     its code; another candidate loses its mark.
//
// All win claims of a level are applied before any check, so a check
// never counts a win of the level being built, and the sets resolved at
// each level are Lean's (doc.go: W_d and L_d), whatever the ranks and the
// order of the messages. Each candidate is checked once, where Lean checks
// a predecessor once per win it reaches.
func DistributedLean(ctx context.Context, g implicit.Game, comm Comm, opt Options) (*DistResult, error) {
	n := g.Size()
	ranks, rank := comm.Ranks(), comm.Rank()
	lo, hi, err := distRange(g, comm, opt, DistLeanBytesPerIndex, false)
	if err != nil {
		return nil, err
	}
	workers := parallel.Workers(opt.Workers)
	s := &leanRank{g: g, comm: comm, n: n, lo: lo, hi: hi, block: rankBlock(n, ranks), ranks: ranks, me: rank,
		workers: workers, nibs: bitset.NewNibbles(hi - lo), bufs: make([]leanRankBuf, workers),
		roundBytes: roundBytes(opt, uint64(float64(hi-lo)*DistLeanBytesPerIndex))}
	// A chunk's messages: at most 16 positions a word, each with up to
	// MaxMoves predecessors of 8 bytes.
	s.chunk = min(max(s.roundBytes/(16*8*max(g.MaxMoves(), 1)), 1), roundChunk)
	s.stats.Ranks = ranks
	prog := StartProgress(opt, hi-lo)
	defer prog.Stop()
	t := rankTally{}
	var depth uint64
	resumed := false
	ck := opt.Checkpoint
	if ck != nil {
		// The depths' file is beside the checkpoint, so that a solve that
		// goes on finds the levels written before.
		var err error
		if depth, resumed, err = s.resume(ck, &t); err != nil {
			return nil, err
		}
		ck.last = time.Now()
		if resumed {
			var before uint64
			for d := range t.wins {
				before += t.wins[d] + t.losses[d]
			}
			prog.Resumed(before)
		}
	} else {
		var err error
		if s.log, err = newDepthLog(opt.DepthDir); err != nil {
			return nil, err
		}
	}
	if !resumed {
		prog.SetPhase("classifying")
		if err := s.classify(ctx, prog); err != nil {
			return nil, err
		}
		prog.SetPhase("")
	}
	log := s.log
	for ; ; depth++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// The level's size over the ranks and on the largest (its rounds),
		// and whether rank 0 asks for a checkpoint at this barrier.
		save := uint64(0)
		if ck != nil && rank == 0 && ck.due() {
			save = 1
		}
		sizes, err := comm.Sum([]uint64{s.claimed(), save})
		if err != nil {
			return nil, err
		}
		if sizes[0] == 0 {
			break
		}
		if sizes[1] != 0 && !(resumed && len(s.stats.Levels) == 0) {
			if err := s.save(ck, depth, &t); err != nil {
				return nil, err
			}
		}
		prog.Level(depth, s.claimed())
		if err := s.level(ctx, depth, sizes[0], &t); err != nil {
			return nil, err
		}
	}
	if err := log.finish(); err != nil {
		return nil, err
	}
	var maxDepth uint64
	if depth > 0 {
		maxDepth = depth - 1
	}
	t.wins, t.losses = t.wins[:min(uint64(len(t.wins)), maxDepth+1)], t.losses[:min(uint64(len(t.losses)), maxDepth+1)]
	own := &Result{n: hi - lo, values: s.nibs.LowPairs(), lean: &leanDepths{known: map[uint64]uint64{}, disk: log}}
	own.countValues()
	t.counts = own.counts
	prog.SetPhase("counting")
	r := &DistResult{Record: s.stats, Lo: lo, Hi: hi, comm: comm, n: n, own: own, maxDepth: maxDepth, edges: s.edgesBefore + s.edges()}
	if err := r.finish(t, opt.Keep); err != nil {
		return nil, err
	}
	return r, nil
}

// leanRank is one rank of DistributedLean.
type leanRank struct {
	g          implicit.Game
	comm       Comm
	n, lo, hi  uint64
	block      uint64 // the ranks' block: index p belongs to rank p / block
	ranks, me  int
	workers    int
	nibs       bitset.Nibbles // the range, by index from lo (Lean's nibble bits)
	log        *depthLog
	bufs       []leanRankBuf
	sendBuf    []uint64 // a round's messages by rank, kept from round to round
	stats      DistRecord
	roundBytes uint64
	sent       atomic.Uint64 // bytes of messages made in this round
	chunk      uint64        // the words a worker takes at a time in a round
	askBytes   uint64        // the bytes of the questions and answers of a level's checks
	// edgesBefore counts the un-moves all ranks walked before the
	// checkpoint this solve went on from.
	edgesBefore uint64
}

// leanRankBuf is one worker's buffers and tallies, a cache line apart.
type leanRankBuf struct {
	preds, moves []uint64
	ends         []implicit.End // the ends of a run, as an EndLister lists them
	out          []uint64       // this round's messages to other ranks, any rank's
	edges        uint64         // un-moves walked, all levels
	claims       uint64         // positions claimed for the next level
	candidates   uint64         // positions marked as candidates at this level
	crossing     uint64         // messages of this level
	run          depthRun
	_            [64 - 8]byte
}

// edges returns the un-moves all ranks walked at the levels of this run.
func (s *leanRank) edges() uint64 {
	var e uint64
	for _, l := range s.stats.Levels {
		e += l.Edges
	}
	return e
}

// claimed returns the positions this rank claimed for the next level, and
// counts them off.
func (s *leanRank) claimed() uint64 {
	var c uint64
	for w := range s.bufs {
		c += s.bufs[w].claims
	}
	return c
}

// owner returns the rank that owns index p.
func (s *leanRank) owner(p uint64) int { return int(p / s.block) }

// classify stores the code of each index of the range and marks the
// frontier of depth 0 (chunks of whole words: no two workers share one).
func (s *leanRank) classify(ctx context.Context, prog *Progress) error {
	st := startsOf(s.g)
	cur := frontierBit(0)
	n := s.hi - s.lo
	return parallel.For(ctx, s.workers, n, wordChunk(n, s.workers), func(w int, lo, hi uint64) error {
		b := &s.bufs[w]
		b.ends, b.moves = st.each(s.lo+lo, s.lo+hi, b.ends, b.moves, func(i uint64, v Value, frontier bool) {
			if frontier {
				s.nibs.Set(i-s.lo, uint8(v)|cur)
				b.claims++
				return
			}
			s.nibs.Set(i-s.lo, uint8(v))
		})
		prog.Advance(hi - lo)
		return nil
	})
}

// wordChunk returns a chunk size for n nibbles that keeps chunks on whole
// words of 16 (the range's own index from 0).
func wordChunk(n uint64, workers int) uint64 {
	return max(parallel.ChunkFor(n, workers, 4096)/16*16, 16)
}

// level expands level d (frontier this rank's positions with its bit,
// frontier positions over all ranks), then checks its candidates, and adds
// the level's wins and losses to t. Each phase goes in rounds: the workers
// take the range's words in order, a chunk at a time, until this rank's
// messages of the round reach about Options.RoundBytes, then the ranks
// exchange them; rounds go on while some rank has words left.
func (s *leanRank) level(ctx context.Context, d, frontier uint64, t *rankTally) error {
	words := s.nibs.Words()
	next := frontierBit(d + 1)
	mask := frontierMask(d)
	var wins, losses uint64
	lowest := [2]uint64{^uint64(0), ^uint64(0)}
	var lvl DistLevel
	lvl.Frontier = frontier
	for w := range s.bufs {
		s.bufs[w].claims, s.bufs[w].candidates, s.bufs[w].crossing = 0, 0, 0
	}
	s.askBytes = 0
	// Phase 1.
	tallies := make([][4]uint64, s.workers) // wins, losses, lowest win, lowest loss
	for w := range tallies {
		tallies[w] = [4]uint64{0, 0, ^uint64(0), ^uint64(0)}
	}
	edgesBefore := s.walked()
	for from := uint64(0); ; {
		start := time.Now()
		s.sent.Store(0)
		var err error
		from, err = s.budgeted(ctx, from, func(w int, lo, hi uint64) {
			b := &s.bufs[w]
			tl := &tallies[w]
			before := b.crossing
			for wi := lo; wi < hi; wi++ {
				x := atomic.LoadUint64(&words[wi])
				front := x & mask
				for f := front; f != 0; f &= f - 1 {
					sh := uint64(bits.TrailingZeros64(f)) &^ 3
					j := wi<<4 | sh>>2
					v := Value(x >> sh & leanCode)
					s.log.add(&b.run, d, j)
					if v == Win {
						tl[0]++
						tl[2] = min(tl[2], s.lo+j)
					} else {
						tl[1]++
						tl[3] = min(tl[3], s.lo+j)
					}
					s.expand(b, s.lo+j, v, next)
				}
				if front != 0 {
					atomic.AndUint64(&words[wi], ^front)
				}
			}
			s.sent.Add(8 * (b.crossing - before))
		})
		// A worker's chunks come in increasing order: its record of a
		// segment runs over the round, ended once.
		for w := range s.bufs {
			s.log.end(&s.bufs[w].run)
		}
		if err != nil {
			return err
		}
		if err := s.logError(); err != nil {
			return err
		}
		lvl.Compute += time.Since(start)
		// The messages: a predecessor's index and 1 for a win claim, 0
		// for a candidate.
		recv, took, err := s.exchange()
		if err != nil {
			return err
		}
		lvl.Exchange += took
		start = time.Now()
		if err := s.applyMarks(ctx, recv, next); err != nil {
			return err
		}
		lvl.Compute += time.Since(start)
		if more, err := s.anyLeft(from); err != nil || !more {
			if err != nil {
				return err
			}
			break
		}
	}
	for _, tl := range tallies {
		wins, losses = wins+tl[0], losses+tl[1]
		lowest[0], lowest[1] = min(lowest[0], tl[2]), min(lowest[1], tl[3])
	}
	// Phase 2: the candidates.
	for from := uint64(0); ; {
		var took, wait time.Duration
		var err error
		if from, took, wait, err = s.check(ctx, from, d); err != nil {
			return err
		}
		lvl.Compute += took
		lvl.Exchange += wait
		if more, err := s.anyLeft(from); err != nil || !more {
			if err != nil {
				return err
			}
			break
		}
	}
	// The level's tallies.
	for len(t.wins) <= int(d) {
		t.wins, t.losses = append(t.wins, 0), append(t.losses, 0)
	}
	t.wins[d], t.losses[d] = wins, losses
	if wins > 0 {
		t.longest[0], t.lowest[0] = d+1, lowest[0]
	}
	if losses > 0 {
		t.longest[1], t.lowest[1] = d+1, lowest[1]
	}
	var crossing uint64
	for w := range s.bufs {
		crossing += s.bufs[w].crossing
	}
	sums, err := s.comm.Sum([]uint64{s.walked() - edgesBefore, crossing, s.askBytes})
	if err != nil {
		return err
	}
	times, err := s.comm.Max([]uint64{uint64(lvl.Compute), uint64(lvl.Exchange)})
	if err != nil {
		return err
	}
	lvl.Edges, lvl.Crossing, lvl.Bytes = sums[0], sums[1], 8*sums[1]+sums[2]
	lvl.Compute, lvl.Exchange = time.Duration(times[0]), time.Duration(times[1])
	s.stats.Levels = append(s.stats.Levels, lvl)
	return nil
}

// roundChunk is the most words of the range a worker takes at a time in
// a round (s.chunk: fewer where a round's messages are few, so that a
// round stops near its bound).
const roundChunk = 256

// budgeted runs body over the words of the range from from on, a chunk of
// s.chunk words at a time taken in order by the workers, until the
// round's messages (s.sent, which body adds to) reach s.roundBytes or the
// words end, and returns where it stopped (takeChunks).
func (s *leanRank) budgeted(ctx context.Context, from uint64, body func(w int, lo, hi uint64)) (uint64, error) {
	return takeChunks(ctx, s.workers, from, uint64(len(s.nibs.Words())), s.chunk, s.roundBytes, &s.sent, body)
}

// takeChunks runs body over [from, n) on the given number of workers, a
// chunk at a time taken in order, until *sent (which body adds to) reaches
// budget or the range ends, and returns where it stopped: every chunk
// before was done, none after. A distributed round ends so, its messages
// about budget whatever the frontier's density.
func takeChunks(ctx context.Context, workers int, from, n, chunk, budget uint64, sent *atomic.Uint64, body func(w int, lo, hi uint64)) (uint64, error) {
	var next atomic.Uint64
	next.Store(from)
	g, ctx := errgroup.WithContext(ctx)
	for w := range workers {
		g.Go(func() error {
			for sent.Load() < budget {
				if err := ctx.Err(); err != nil {
					return err
				}
				lo := next.Add(chunk) - chunk
				if lo >= n {
					return nil
				}
				body(w, lo, min(lo+chunk, n))
			}
			return nil
		})
	}
	err := g.Wait()
	return min(next.Load(), n), err
}

// anyLeft reports whether some rank has words left after from.
func (s *leanRank) anyLeft(from uint64) (bool, error) {
	left := uint64(len(s.nibs.Words())) - from
	most, err := s.comm.Max([]uint64{left})
	if err != nil {
		return false, err
	}
	return most[0] > 0, nil
}

// walked returns the un-moves this rank's workers walked so far.
func (s *leanRank) walked() uint64 {
	var e uint64
	for w := range s.bufs {
		e += s.bufs[w].edges
	}
	return e
}

// expand walks the un-moves of frontier position t of value v: its own
// predecessors are claimed or marked at once, the others' go to their
// owners in worker b's messages.
func (s *leanRank) expand(b *leanRankBuf, t uint64, v Value, next uint8) {
	b.preds = s.g.Unmoves(t, b.preds[:0])
	b.edges += uint64(len(b.preds))
	claim := uint64(0)
	if v == Loss {
		claim = 1
	}
	for _, p := range b.preds {
		if p < s.lo || p >= s.hi {
			b.out = append(b.out, p<<1|claim)
			b.crossing++
			continue
		}
		s.mark(b, p-s.lo, claim, next)
	}
}

// mark claims own position j as a win (claim 1) or marks it a candidate
// loss (claim 0), if it is unresolved, and counts the claims and new
// candidates.
func (s *leanRank) mark(b *leanRankBuf, j, claim uint64, next uint8) {
	old := s.nibs.AtomicGet(j)
	if old&leanCode != 0 || claim == 0 && old&next != 0 {
		return // resolved, claimed at this level, or a candidate already
	}
	if claim == 1 {
		if s.nibs.AtomicOr(j, uint8(Win)|next)&leanCode == 0 {
			b.claims++
		}
		return
	}
	if old := s.nibs.AtomicOr(j, next); old&(leanCode|next) == 0 {
		b.candidates++
	}
}

// exchange sends the workers' messages of a round to their ranks and
// returns what the others sent, with the time it took. The messages go
// from the workers' lists, each in the order made, to one array by rank
// (a counting sort on the owner), which the next round uses again: a
// round's messages take their bytes twice, whatever the ranks.
func (s *leanRank) exchange() ([][]uint64, time.Duration, error) {
	// at[r+1] counts rank r's messages; summed, at[r] is where its first
	// goes, and then where its next goes.
	at := make([]int, s.ranks+1)
	for w := range s.bufs {
		for _, m := range s.bufs[w].out {
			at[s.owner(m>>1)+1]++
		}
	}
	for r := range s.ranks {
		at[r+1] += at[r]
	}
	total := at[s.ranks]
	if cap(s.sendBuf) < total {
		s.sendBuf = make([]uint64, total)
	}
	buf := s.sendBuf[:total]
	send := make([][]uint64, s.ranks)
	for r := range send {
		send[r] = buf[at[r]:at[r+1]:at[r+1]]
	}
	for w := range s.bufs {
		for _, m := range s.bufs[w].out {
			r := s.owner(m >> 1)
			buf[at[r]] = m
			at[r]++
		}
		s.bufs[w].out = s.bufs[w].out[:0]
	}
	start := time.Now()
	recv, err := s.comm.Exchange(send)
	return recv, time.Since(start), err
}

// applyMarks applies the claims and marks other ranks sent.
func (s *leanRank) applyMarks(ctx context.Context, recv [][]uint64, next uint8) error {
	for r, msgs := range recv {
		if r == s.me || len(msgs) == 0 {
			continue
		}
		err := parallel.For(ctx, s.workers, uint64(len(msgs)), parallel.ChunkFor(uint64(len(msgs)), s.workers, 4096), func(w int, lo, hi uint64) error {
			b := &s.bufs[w]
			for _, m := range msgs[lo:hi] {
				p := m >> 1
				if p < s.lo || p >= s.hi {
					return fmt.Errorf("engine: rank %d sent position %d, not this rank's [%d, %d)", r, p, s.lo, s.hi)
				}
				s.mark(b, p-s.lo, m&1, next)
			}
			return nil
		})
		if err != nil {
			return err
		}
		recv[r] = nil
	}
	return nil
}

// check decides level d's candidates in a round of words of the range
// from from on (budgeted): a loss if every move reaches an old win, here
// or on another rank (asked in one exchange, answered in another). It
// returns where the round stopped and the time spent computing and
// exchanging.
func (s *leanRank) check(ctx context.Context, from, d uint64) (uint64, time.Duration, time.Duration, error) {
	start := time.Now()
	words := s.nibs.Words()
	next, mask := frontierBit(d+1), frontierMask(d+1) // the candidates' marks
	// Each chunk lists the candidates it could not decide alone: their
	// own index, and for each rank the moves to ask it about, with the
	// candidate's slot for each.
	type pending struct {
		cands []uint64   // own indices (from lo) of the undecided candidates
		ask   [][]uint64 // per rank: the moves asked about
		slot  [][]uint32 // per rank: the candidate each move belongs to
	}
	n := uint64(len(words))
	// A chunk's pending candidates, nil where it has none (most chunks).
	parts := make([]*pending, (n-from+s.chunk-1)/s.chunk)
	s.sent.Store(0)
	to, err := s.budgeted(ctx, from, func(w int, lo, hi uint64) {
		b := &s.bufs[w]
		var pd *pending
		var asked uint64
		for wi := lo; wi < hi; wi++ {
			x := atomic.LoadUint64(&words[wi])
			// Candidates: the next bit without a code.
			for f := x & mask; f != 0; f &= f - 1 {
				sh := uint64(bits.TrailingZeros64(f)) &^ 3
				if x>>sh&leanCode != 0 {
					continue
				}
				j := wi<<4 | sh>>2
				b.moves = s.g.Moves(s.lo+j, b.moves[:0])
				ok, remote := true, false
				for _, m := range b.moves {
					if m >= s.lo && m < s.hi {
						if s.nibs.AtomicGet(m-s.lo)&(leanCode|next) != uint8(Win) {
							ok = false
							break
						}
						continue
					}
					remote = true
				}
				switch {
				case !ok:
					s.unmark(j, next)
				case !remote:
					s.nibs.AtomicOr(j, uint8(Loss))
					b.claims++
				default:
					if pd == nil {
						pd = &pending{ask: make([][]uint64, s.ranks), slot: make([][]uint32, s.ranks)}
					}
					slot := uint32(len(pd.cands))
					pd.cands = append(pd.cands, j)
					for _, m := range b.moves {
						if m < s.lo || m >= s.hi {
							r := s.owner(m)
							pd.ask[r] = append(pd.ask[r], m)
							pd.slot[r] = append(pd.slot[r], slot)
							asked++
						}
					}
				}
			}
		}
		parts[(lo-from)/s.chunk] = pd
		s.sent.Add(12 * asked)
	})
	if err != nil {
		return 0, 0, 0, err
	}
	parts = parts[:(to-from+s.chunk-1)/s.chunk]
	// The questions, in the order of the parts.
	send := joinSends(s.ranks, s.me, len(parts), func(k, r int) []uint64 {
		if parts[k] == nil {
			return nil
		}
		return parts[k].ask[r]
	})
	for r := range send {
		s.askBytes += 8 * uint64(len(send[r]))
	}
	computed := time.Since(start)
	t0 := time.Now()
	asked, err := s.comm.Exchange(send)
	if err != nil {
		return 0, 0, 0, err
	}
	send = nil
	waited := time.Since(t0)
	start = time.Now()
	// The answers: a bit per question, whether it is an old win.
	answers := make([][]uint64, s.ranks)
	for r, qs := range asked {
		if r == s.me || len(qs) == 0 {
			continue
		}
		a := make([]uint64, (len(qs)+63)/64)
		for k, m := range qs {
			if m < s.lo || m >= s.hi {
				return 0, 0, 0, fmt.Errorf("engine: rank %d asked about position %d, not this rank's [%d, %d)", r, m, s.lo, s.hi)
			}
			if s.nibs.AtomicGet(m-s.lo)&(leanCode|next) == uint8(Win) {
				a[k/64] |= 1 << (k % 64)
			}
		}
		answers[r] = a
		s.askBytes += 8 * uint64(len(a))
		asked[r] = nil
	}
	computed += time.Since(start)
	t0 = time.Now()
	got, err := s.comm.Exchange(answers)
	if err != nil {
		return 0, 0, 0, err
	}
	waited += time.Since(t0)
	start = time.Now()
	// A candidate is a loss if every answer about it is yes.
	at := make([]int, s.ranks) // the next answer from each rank
	for _, pd := range parts {
		if pd == nil {
			continue
		}
		no := make([]bool, len(pd.cands))
		for r := range pd.ask {
			for k, slot := range pd.slot[r] {
				i := at[r] + k
				if i/64 >= len(got[r]) || got[r][i/64]>>(i%64)&1 == 0 {
					no[slot] = true
				}
			}
			at[r] += len(pd.ask[r])
		}
		for k, j := range pd.cands {
			if no[k] {
				s.unmark(j, next)
			} else {
				s.nibs.AtomicOr(j, uint8(Loss))
				s.bufs[0].claims++
			}
		}
	}
	return to, computed + time.Since(start), waited, nil
}

// unmark clears own position j's candidate mark.
func (s *leanRank) unmark(j uint64, next uint8) {
	atomic.AndUint64(&s.nibs.Words()[j>>4], ^(uint64(next) << ((j & 15) * 4)))
}

// logError returns the depth log's first write error, if any.
func (s *leanRank) logError() error {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	return s.log.err
}
