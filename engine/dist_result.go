package engine

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/retro-solver/retro/bitset"
)

// DistResult is what a distributed solve leaves on one rank: the values
// and depths of the rank's own range of the index, and what the whole
// solve found, which every rank agrees on (the counts, the largest depth,
// the depth histograms, the longest positions and the positions asked for
// in Options.Keep). No rank holds another rank's values: the database is
// written a rank's blocks at a time (Share, then db.WritePart), and the
// answer and the statistics come from the Summary.
type DistResult struct {
	Record DistRecord // the levels: frontier, edges and bytes, times
	// Lo and Hi bound the rank's own range of the index (RankRange).
	Lo, Hi uint64

	comm     Comm
	n        uint64
	own      rankValues // the rank's range, by index from Lo
	counts   [4]uint64
	maxDepth uint64
	edges    uint64
	stats    DepthStats
	kept     map[uint64]uint32 // the words of Options.Keep's positions
	// tail holds the words of the indices from Hi on that Share received:
	// the rest of the last block that starts in the rank's range.
	tail []uint32
}

// rankValues is a rank's own values and depths, by index from its range's
// start: a distributed solve's 4-byte words (wordValues), or a lean rank's
// nibbles and depths on disk (a Result of the range).
type rankValues interface {
	Lookup(j uint64) (Value, uint64, error)
	LookupRange(lo, hi uint64, vals []Value, depths []uint64) error
	ReadsRuns() bool
}

// wordValues are the distributed engine's states once solved: the value
// code in the top two bits (unresolved: a draw), the depth below.
type wordValues struct {
	w    []uint32
	keep any // what holds w's memory (newStates)
}

func (w wordValues) Lookup(j uint64) (Value, uint64, error) { return wordValue(w.w[j]) }

func (w wordValues) LookupRange(lo, hi uint64, vals []Value, depths []uint64) error {
	for j := lo; j < hi; j++ {
		vals[j-lo], depths[j-lo], _ = wordValue(w.w[j])
	}
	return nil
}

func (w wordValues) ReadsRuns() bool { return false }

// word returns index i's value and depth as a state word (wordValue's
// inverse), or false if this rank has neither for it.
func (r *DistResult) word(i uint64) (uint32, bool, error) {
	switch {
	case i >= r.Lo && i < r.Hi:
		v, depth, err := r.own.Lookup(i - r.Lo)
		return uint32(v)<<distShift | uint32(depth), true, err
	case i >= r.Hi && i-r.Hi < uint64(len(r.tail)):
		return r.tail[i-r.Hi], true, nil
	}
	return 0, false, nil
}

// Size returns the number of indices of the whole game.
func (r *DistResult) Size() uint64 { return r.n }

// Lookup returns the value and depth of index i, one of the rank's own
// range or of the tail that Share brought it (engine.Values, for the
// database writer); another index is an error.
func (r *DistResult) Lookup(i uint64) (Value, uint64, error) {
	if i >= r.Lo && i < r.Hi {
		return r.own.Lookup(i - r.Lo)
	}
	w, ok, _ := r.word(i)
	if !ok {
		return 0, 0, fmt.Errorf("engine: index %d belongs to another rank than [%d, %d)", i, r.Lo, r.Hi)
	}
	return wordValue(w)
}

// LookupRange stores the values and depths of [lo, hi), indices this rank
// can look up (RangeValues, for the database writer).
func (r *DistResult) LookupRange(lo, hi uint64, vals []Value, depths []uint64) error {
	if mid := min(hi, r.Hi); lo >= r.Lo && mid > lo {
		if err := r.own.LookupRange(lo-r.Lo, mid-r.Lo, vals, depths); err != nil {
			return err
		}
		vals, depths, lo = vals[mid-lo:], depths[mid-lo:], mid
	}
	for i := lo; i < hi; i++ {
		var err error
		if vals[i-lo], depths[i-lo], err = r.Lookup(i); err != nil {
			return err
		}
	}
	return nil
}

// ReadsRuns reports whether the rank's values are read faster a run at a
// time (a lean rank's depths on disk).
func (r *DistResult) ReadsRuns() bool { return r.own.ReadsRuns() }

var _ RangeValues = (*DistResult)(nil)

// wordValue decodes a distributed state word once solved: unresolved is a
// draw, of depth 0.
func wordValue(w uint32) (Value, uint64, error) {
	v := Value(w >> distShift)
	if v == Draw || v == Illegal {
		return v, 0, nil
	}
	return v, uint64(w & distPayload), nil
}

// Count returns the number of indices of value v over all ranks.
func (r *DistResult) Count(v Value) uint64 { return r.counts[v&3] }

// MaxDepth returns the largest depth of any win or loss over all ranks.
func (r *DistResult) MaxDepth() uint64 { return r.maxDepth }

// Edges returns the un-moves every rank walked.
func (r *DistResult) Edges() uint64 { return r.edges }

// rankTally is what a rank counted of its own range: its values, its wins
// and losses by depth (up to the solve's largest depth, or fewer), and
// for each of win and loss the largest depth plus one (0: none) and the
// lowest index at it.
type rankTally struct {
	counts          [4]uint64
	wins, losses    []uint64
	longest, lowest [2]uint64
}

// tallyWords counts a rank's 4-byte states, of depths up to maxDepth.
func tallyWords(state []uint32, lo, maxDepth uint64) rankTally {
	t := rankTally{wins: make([]uint64, maxDepth+1), losses: make([]uint64, maxDepth+1)}
	for j, w := range state {
		v, depth, _ := wordValue(w)
		t.counts[v]++
		if v != Win && v != Loss {
			continue
		}
		k, by := 0, t.wins
		if v == Loss {
			k, by = 1, t.losses
		}
		by[depth]++
		if depth+1 > t.longest[k] {
			t.longest[k], t.lowest[k] = depth+1, lo+uint64(j)
		}
	}
	return t
}

// finish agrees with the other ranks on what the whole solve found, from
// each rank's tally: the counts, the depth histograms, the longest win
// and loss (the lowest index at the largest depth of its value) and the
// words of the positions to keep. Every rank calls it.
func (r *DistResult) finish(t rankTally, keep []uint64) error {
	d := r.maxDepth + 1
	if uint64(len(t.wins)) > d || uint64(len(t.losses)) > d {
		return fmt.Errorf("engine: a rank counted depths up to %d, beyond the largest %d", max(len(t.wins), len(t.losses))-1, r.maxDepth)
	}
	// The counts, then the histograms of wins and losses, summed.
	local := make([]uint64, 4+2*d)
	copy(local, t.counts[:])
	copy(local[4:], t.wins)
	copy(local[4+d:], t.losses)
	sums, err := r.comm.Sum(local)
	if err != nil {
		return err
	}
	copy(r.counts[:], sums)
	r.stats.Wins, r.stats.Losses = sums[4:4+d], sums[4+d:]
	deepest, err := r.comm.Max(t.longest[:])
	if err != nil {
		return err
	}
	// The lowest index at the deepest depth, as the largest complement.
	var firsts [2]uint64
	for k := range 2 {
		if t.longest[k] == deepest[k] && deepest[k] > 0 {
			firsts[k] = ^t.lowest[k]
		}
	}
	first, err := r.comm.Max(firsts[:])
	if err != nil {
		return err
	}
	if r.stats.HasLongestWin = deepest[0] > 0; r.stats.HasLongestWin {
		r.stats.LongestWin = ^first[0]
	}
	if r.stats.HasLongestLoss = deepest[1] > 0; r.stats.HasLongestLoss {
		r.stats.LongestLoss = ^first[1]
	}
	if len(keep) == 0 {
		return nil
	}
	// Each kept position's word from its owner, as the word plus one (0:
	// not this rank's).
	words := make([]uint64, len(keep))
	for k, p := range keep {
		if p >= r.Lo && p < r.Hi {
			w, _, err := r.word(p)
			if err != nil {
				return err
			}
			words[k] = uint64(w) + 1
		}
	}
	if words, err = r.comm.Sum(words); err != nil {
		return err
	}
	r.kept = make(map[uint64]uint32, len(keep))
	for k, p := range keep {
		if words[k] == 0 {
			return fmt.Errorf("engine: no rank holds position %d to keep (the game has %d indices)", p, r.n)
		}
		r.kept[p] = uint32(words[k] - 1)
	}
	return nil
}

// Stats returns the depth histograms and the longest positions of the
// whole solve.
func (r *DistResult) Stats() DepthStats { return r.stats }

// Summary returns a Result that knows the whole solve's counts, largest
// depth, edges and statistics, and the value and depth of the positions
// kept (Options.Keep) and of the longest win and loss only: Value panics
// for another index. It holds no
// array of the game's size, so that rank 0 prints the answer without
// gathering the others' values.
func (r *DistResult) Summary() *Result {
	s := &Result{n: r.n, counts: r.counts, maxDepth: r.maxDepth, edges: r.edges,
		only: make(map[uint64]Value, len(r.kept)),
		lean: &leanDepths{stats: r.stats, known: make(map[uint64]uint64, len(r.kept))}}
	for p, w := range r.kept {
		v, depth, _ := wordValue(w)
		s.only[p] = v
		if v == Win || v == Loss {
			s.lean.known[p] = depth
		}
	}
	// The longest win and loss, which the statistics name.
	for _, l := range []struct {
		has   bool
		p     uint64
		v     Value
		count []uint64
	}{{r.stats.HasLongestWin, r.stats.LongestWin, Win, r.stats.Wins}, {r.stats.HasLongestLoss, r.stats.LongestLoss, Loss, r.stats.Losses}} {
		if l.has {
			depth := uint64(len(l.count) - 1)
			for l.count[depth] == 0 {
				depth--
			}
			s.only[l.p], s.lean.known[l.p] = l.v, depth
		}
	}
	return s
}

// Share brings this rank the values of the indices after its range up to
// the end of the last block of blockSize indices that starts in its range,
// from the ranks that own them, and returns the blocks [first, last) that
// start in its range: with them, each rank writes whole blocks of a
// database and no block is written twice. A rank sends at most the
// indices before its first block's start. Every rank calls it, with the
// same blockSize.
func (r *DistResult) Share(blockSize uint64) (first, last uint64, err error) {
	if blockSize == 0 {
		return 0, 0, errors.New("engine: Share: a block of no index")
	}
	ranks, me := r.comm.Ranks(), r.comm.Rank()
	send := make([][]uint64, ranks)
	if head := r.Lo % blockSize; head != 0 && r.Lo < r.Hi {
		owner := int((r.Lo - head) / rankBlock(r.n, ranks))
		end := min(r.Hi, r.Lo-head+blockSize)
		words, err := r.words(r.Lo, end)
		if err != nil {
			return 0, 0, err
		}
		send[owner] = words
	}
	recv, err := r.comm.Exchange(send)
	if err != nil {
		return 0, 0, err
	}
	r.tail = nil
	for from := me + 1; from < ranks; from++ {
		lo, hi := RankRange(r.n, ranks, from)
		if len(recv[from]) == 0 {
			continue
		}
		if lo != r.Hi+uint64(len(r.tail)) {
			return 0, 0, fmt.Errorf("engine: Share: rank %d sent the values from %d, want %d", from, lo, r.Hi+uint64(len(r.tail)))
		}
		end := min(hi, lo-lo%blockSize+blockSize)
		if uint64(len(recv[from])) != (end-lo+1)/2 {
			return 0, 0, fmt.Errorf("engine: Share: rank %d sent %d words, want %d", from, len(recv[from]), (end-lo+1)/2)
		}
		for j := lo; j < end; j++ {
			r.tail = append(r.tail, uint32(recv[from][(j-lo)/2]>>(32*((j-lo)%2))))
		}
	}
	first = (r.Lo + blockSize - 1) / blockSize
	last = max((r.Hi+blockSize-1)/blockSize, first)
	if want := min(last*blockSize, r.n); last > first && r.Hi+uint64(len(r.tail)) != want {
		return 0, 0, fmt.Errorf("engine: Share: the values reach %d, the last block ends at %d", r.Hi+uint64(len(r.tail)), want)
	}
	return first, last, nil
}

// words returns the values and depths of [lo, hi), this rank's own
// indices, two to a word: in each half the code in bits 30-31 and the
// depth below.
func (r *DistResult) words(lo, hi uint64) ([]uint64, error) {
	words := make([]uint64, (hi-lo+1)/2)
	const run = 1 << 16
	vals, depths := make([]Value, run), make([]uint64, run)
	for at := lo; at < hi; at += run {
		end := min(at+run, hi)
		if err := r.own.LookupRange(at-r.Lo, end-r.Lo, vals, depths); err != nil {
			return nil, err
		}
		for i := at; i < end; i++ {
			w := uint64(vals[i-at])<<distShift | depths[i-at]
			words[(i-lo)/2] |= w << (32 * ((i - lo) % 2))
		}
	}
	return words, nil
}

// Gather sends every rank's values and depths to rank 0, which returns
// the whole Result; the other ranks return nil. Rank 0 then holds every
// value (4 bytes per index while it gathers): it is for games whose answer
// is every position's value (a graph), which rank 0 prints. The ranks'
// own values are dropped.
func (r *DistResult) Gather() (*Result, error) {
	words, err := r.words(r.Lo, r.Hi)
	if err != nil {
		return nil, err
	}
	// The words say all the state does: rank 0's peak, at the gather, is
	// its words, every rank's and the Result (DistBytes), not the state too,
	// collected now rather than when the heap has doubled.
	r.own, r.tail = nil, nil
	runtime.GC()
	parts, err := r.comm.Gather(words)
	if err != nil || r.comm.Rank() != 0 {
		return nil, err
	}
	width := uint(16)
	if r.maxDepth >= 1<<16 {
		width = 32
	}
	res := &Result{n: r.n, values: bitset.NewTwoBits(r.n), depths: bitset.NewCounters(r.n, width),
		depthMask: 1<<width - 1, maxDepth: r.maxDepth, edges: r.edges}
	ranks := r.comm.Ranks()
	for rank, part := range parts {
		lo, hi := RankRange(r.n, ranks, rank)
		if uint64(len(part)) != (hi-lo+1)/2 {
			return nil, fmt.Errorf("engine: rank %d sent %d words of values, want %d", rank, len(part), (hi-lo+1)/2)
		}
		for i := lo; i < hi; i++ {
			j := i - lo
			s := uint32(part[j/2] >> (32 * (j % 2)))
			res.values.Set(i, uint8(s>>distShift))
			res.depths.Set(i, uint64(s&distPayload))
		}
		parts[rank] = nil // its memory goes as the Result grows
	}
	res.countValues()
	return res, nil
}
