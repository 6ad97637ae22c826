package engine

import (
	"context"
	"math/bits"
	"time"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// Direction says how the parallel engine expands a level.
type Direction uint8

const (
	// Auto pushes or pulls each level, whichever the costs measured on the
	// levels before say is cheaper.
	Auto Direction = iota
	// PushOnly expands every level by pushing through un-moves.
	PushOnly
	// PullOnly expands every level by pulling through moves.
	PullOnly
	// Alternate pulls every third level (2, 5, 8, ...) and pushes the
	// others, for tests: each way then takes over from the other, after
	// levels of wins and after levels of losses (wins have odd depths).
	Alternate
)

var directionNames = [...]string{"auto", "push", "pull", "alternate"}

// String returns "auto", "push", "pull" or "alternate".
func (d Direction) String() string {
	if int(d) < len(directionNames) {
		return directionNames[d]
	}
	return "invalid direction"
}

// A level can be expanded in two directions, as in Beamer's
// direction-optimizing breadth-first search:
//
//   - Push (expandLevel): each frontier position walks its un-moves and
//     updates its predecessors' lanes with atomic operations. The work is
//     the frontier's un-moves, at a random access each.
//   - Pull (pullLevel): each unresolved position walks its moves and looks
//     them up in the frontier's bit set; a move to a loss of this level
//     makes it a win, the moves to wins of this level are taken off its
//     count (each once: a game whose moves are listed with repeats,
//     implicit.RepeatMover, has the few found deduplicated), and at zero it
//     is a loss. Only the position's own lane is
//     written, so no atomic update is needed, the lanes are read in index
//     order, and the random accesses go to the bit set, 16 times smaller
//     than the lanes.
//
// Both resolve the same positions at the same level with the same values,
// and count the same edges (pull counts each frontier position's un-moves
// without walking them), so a solve's result does not depend on the
// directions chosen. Pull pays off when the frontier is a large share of
// the unresolved positions (the first levels of a random graph).

// directions chooses each level's direction by comparing the time each
// would take: pushing costs the frontier's un-moves times the wall time per
// edge measured on the last level pushed; pulling costs what a sample of
// the index just before the choice took (runs spread over the whole range:
// the scan of each index, and the moves of the unresolved positions among
// them) scaled to the whole range, and the count of the frontier's
// un-moves, divided among the workers. Generating a move costs much the
// same as generating an un-move, so for a game whose moves are dear
// (canonical forms under symmetry) pull wins only on the rare levels whose
// frontier holds most of the unresolved positions; for one whose moves are
// cheap (police, graphs) the random accesses that push pays decide. On the
// last levels of a long solve, a few positions left, the scan alone costs
// more than pushing: the sample finds no move there, and its time per
// index still counts.
type directions struct {
	mode    Direction
	pushNs  float64 // wall nanoseconds per edge of the last level pushed; 0 before one
	unmoves float64 // average un-moves of an expanded position
	moves   float64 // average moves of an unresolved position
	counted bool    // the game counts un-moves without listing them
	levels  uint64  // the levels expanded so far
}

// The first level with a frontier is pushed, and timed. Pull is not
// considered when the unresolved positions' moves outnumber the frontier's
// un-moves pullLimit times over, nor when pushing would take less than
// scanning the lanes at minScanNs an index, less than any pull costs (a
// level of a few positions near the end): the sample would make the
// frontier dense (Frontier.MakeDense), and the push that follows would
// then walk its whole bit set.
const (
	pullLimit = 64
	minScanNs = 0.1
)

func newDirections(g implicit.Game, mode Direction, moves float64) *directions {
	_, counted := g.(implicit.UnmoveCounter)
	return &directions{mode: mode, unmoves: moves, moves: moves, counted: counted}
}

// pull reports whether to pull the current level, whose frontier has f
// positions, when u of the indices are unresolved.
func (s *parSolver) pull(d *directions, f, u uint64) bool {
	switch d.mode {
	case PushOnly:
		return false
	case PullOnly:
		return true
	case Alternate:
		return d.levels%3 == 2
	}
	if s.count != nil {
		// Lazy counts (MoveProber): a pull counts the moves of every
		// unresolved position it visits, the work that probing spares, and
		// the pushes' measured cost, which falls as fewer positions are
		// left to count, would make it look cheaper than it is.
		return false
	}
	pushWork := float64(f) * d.unmoves
	pullWork := float64(u) * d.moves
	if f == 0 || d.pushNs == 0 || pushWork*pullLimit < pullWork {
		return false
	}
	if pushWork*d.pushNs < float64(s.n)*minScanNs/float64(s.workers) {
		return false
	}
	s.cur.MakeDense()
	perIndex, perMove := s.samplePull()
	if perMove == 0 {
		perMove = d.pushNs // the sample listed no move: the last push's rate
	}
	countWork := float64(f)
	if !d.counted {
		countWork *= d.unmoves
	}
	pullNs := (perIndex*float64(s.n) + perMove*countWork) / float64(s.workers)
	return pullNs < pushWork*d.pushNs
}

// record notes the wall time of a level that expanded f frontier positions
// with edges un-moves in all.
func (d *directions) record(pulled bool, f, edges uint64, took time.Duration) {
	d.levels++
	if f > 0 {
		d.unmoves = float64(edges) / float64(f)
	}
	if !pulled && edges > 0 {
		d.pushNs = float64(took.Nanoseconds()) / float64(edges)
	}
}

// samplePull times what pulling does, on runs of consecutive indices
// spread over the whole range (so that the lanes are read in order, as a
// pull level reads them): scanning the lanes, generating the moves of the
// unresolved positions and looking them up in the frontier. It returns the
// nanoseconds it took per index scanned and per move listed (0 if it
// listed none), on one worker.
func (s *parSolver) samplePull() (perIndex, perMove float64) {
	set := s.cur.Set()
	b := &s.bufs[0]
	moves, _ := implicit.MovesWithRepeatsOf(s.g) // as pullLevel lists them
	var hits uint64
	perIndex, perMove = sampleRuns(s.n, 16, func(i uint64) uint64 {
		if s.lanes.Get(i)>>s.codeShift != 0 {
			return 0
		}
		b.buf = moves(i, b.buf[:0])
		for _, m := range b.buf {
			if set.Test(m) {
				hits++
			}
		}
		return uint64(len(b.buf))
	})
	s.sampleHits += hits // keeps the lookups from being optimised away
	return perIndex, perMove
}

// sampleRuns calls visit on every index of runs runs of 256 consecutive
// indices spread over [0, n), visit returning the moves it handled, and
// returns the nanoseconds it took per index visited and per move, the
// latter 0 if there was none.
func sampleRuns(n, runs uint64, visit func(i uint64) uint64) (perIndex, perMove float64) {
	const run = 256
	var moves, visited uint64
	start := time.Now()
	for r := range runs {
		lo := r * n / runs
		for i := lo; i < min(lo+run, n); i++ {
			moves += visit(i)
			visited++
		}
	}
	took := float64(time.Since(start).Nanoseconds())
	if visited > 0 {
		perIndex = took / float64(visited)
	}
	if moves > 0 {
		perMove = took / float64(moves)
	}
	return perIndex, perMove
}

// census counts the unresolved positions and their moves (the counts in
// their lanes), and the illegal indices: after classifying, what the
// classification counted as it went (classify, classifyExits,
// classifyParts); after resuming, by a pass over the lanes.
func (s *parSolver) census(ctx context.Context) (unresolved, moves, illegal uint64, err error) {
	if s.classified != nil {
		unresolved, moves, illegal = sumTallies(s.classified)
		s.classified = nil
		return unresolved, moves, illegal, nil
	}
	tallies := make([]tally, s.workers)
	code, mask := s.codeShift, s.payloadMask
	err = parallel.For(ctx, s.workers, s.n, parallel.ChunkFor(s.n, s.workers, 4096), func(w int, lo, hi uint64) error {
		t := &tallies[w]
		for i := lo; i < hi; i++ {
			switch l := s.lanes.Get(i); l >> code {
			case 0:
				t.u++
				if s.count == nil || l != mask { // the lazy marker counts no moves
					t.m += l & mask
				}
			case uint64(Illegal):
				t.i++
			}
		}
		return nil
	})
	unresolved, moves, illegal = sumTallies(tallies)
	return unresolved, moves, illegal, err
}

// tally is one worker's census: unresolved positions, their moves, and
// illegal indices, a cache line apart from the other workers'; and while
// classifying a Parted game, the positions its parts listed.
type tally struct {
	u, m, i uint64
	listed  uint64
	_       [64 - 32]byte
}

// add counts a position classified with the initial value v (Draw while
// unresolved) and count k.
func (t *tally) add(v Value, k uint64) {
	switch v {
	case Draw:
		t.u++
		t.m += k
	case Illegal:
		t.i++
	}
}

func sumTallies(tallies []tally) (unresolved, moves, illegal uint64) {
	for _, t := range tallies {
		unresolved += t.u
		moves += t.m
		illegal += t.i
	}
	return unresolved, moves, illegal
}

// pullLevel expands the current frontier, all of the given depth, by
// pulling: each worker scans a chunk of indices, 64 at a time, and visits
// only the frontier positions and the unresolved ones among them (a mask
// built from the lane words' code bits and the frontier's word). It writes
// the depth of the frontier positions (and counts their un-moves as the
// edges walked), and looks up the moves of the unresolved ones in the
// frontier. Chunks start on multiples of 64, so a lane word has one writer,
// which stores it atomically because other workers load it to read a
// frontier position's code.
func (s *parSolver) pullLevel(ctx context.Context, depth uint64) error {
	s.cur.MakeDense()
	frontier := s.cur.Set().Words()
	lanes, code, mask := s.lanes, s.codeShift, s.payloadMask
	words, width := lanes.Words(), lanes.Width()
	perBlock := width // lane words per 64 indices: 64 / (64 / width)
	unmoves := implicit.UnmoveCounterOf(s.g)
	moves, repeats := implicit.MovesWithRepeatsOf(s.g)
	chunk := parallel.ChunkFor(s.n, s.workers, 4096)
	return parallel.For(ctx, s.workers, s.n, chunk, func(w int, lo, hi uint64) error {
		b := &s.bufs[w]
		buf := b.buf
		for blk := lo >> 6; blk<<6 < hi; blk++ {
			first := blk * uint64(perBlock)
			visit := frontier[blk] | unresolvedLanes(words[first:min(first+uint64(perBlock), uint64(len(words)))], width)
			if last := blk<<6 + 64; last > s.n {
				visit &= 1<<(s.n-blk<<6) - 1 // the lanes past n are zero
			}
			for ; visit != 0; visit &= visit - 1 {
				i := blk<<6 | uint64(bits.TrailingZeros64(visit))
				l := lanes.Get(i)
				if v := l >> code; v != 0 {
					// A frontier position: it takes its depth.
					s.storeDepth(i, v, depth)
					var k uint64
					k, buf = unmoves(i, buf)
					b.edges += k
					continue
				}
				buf = moves(i, buf[:0])
				left, win := l&mask, false
				if s.count != nil && left == mask {
					left = s.count(i) // the lazy marker
				}
				found := 0 // the moves to this level's wins, at the front of buf
				for _, m := range buf {
					if frontier[m>>6]&(1<<(m&63)) == 0 {
						continue
					}
					if Value(lanes.AtomicGet(m)>>code) == Loss {
						win = true
						break
					}
					buf[found] = m
					found++
				}
				if !win {
					if repeats && found > 1 {
						found = len(implicit.Distinct(buf[:found])) // a class counts once
					}
					left -= uint64(found)
				}
				switch {
				case win:
					// The count stays: a win claimed at this level may
					// still see an exit's decrement (see expandExits), and
					// its count is positive, none of its moves taken off.
					lanes.Store(i, uint64(Win)<<code|left)
					s.next.Emit(w, i)
				case left == 0:
					lanes.Store(i, uint64(Loss)<<code)
					s.next.Emit(w, i)
				case left != l&mask:
					lanes.Store(i, left)
				}
			}
		}
		b.buf = buf
		return nil
	})
}

// unresolvedLanes returns the mask of the unresolved lanes (code 0) among
// the 64 lanes held in words, lanes of the given width (8, 16 or 32) with
// the code in their top two bits.
func unresolvedLanes(words []uint64, width uint) uint64 {
	var m uint64
	switch width {
	case 8:
		const codes = 0x8080_8080_8080_8080
		for j, x := range words {
			z := ^(x | x<<1) & codes // bit 8k+7 set where lane k's code is 0
			// Bit 8k+7 to bit k: the products of the multiplication fall on
			// distinct bits, so nothing carries into the top byte.
			m |= (z >> 7 * 0x0102_0408_1020_4080 >> 56) << (8 * j)
		}
		return m
	case 16:
		const codes = 0x8000_8000_8000_8000
		for j, x := range words {
			z := ^(x | x<<1) & codes // bit 16k+15 set where lane k's code is 0
			m |= (z>>15&1 | z>>30&2 | z>>45&4 | z>>60&8) << (4 * j)
		}
		return m
	}
	const codes = 0x8000_0000_8000_0000
	for j, x := range words {
		z := ^(x | x<<1) & codes
		m |= (z>>31&1 | z>>62&2) << (2 * j)
	}
	return m
}
