package parallel

import (
	"math/bits"
	"sync/atomic"

	"github.com/retro-solver/retro/bitset"
)

// Frontier collects the indices that workers emit during one round of a
// parallel pass, such as the positions resolved at one level of a retrograde
// solve, each index at most once. Small rounds stay sparse: each worker
// appends to its own list. Once the lists together would pass the limit, the
// round turns dense: every index goes into a shared bit set with an atomic
// OR, and the lists are poured into it at the end. Either way the result
// needs no locks, and its memory stays within one bit per index plus the limit's
// list entries.
//
// Use: Reset, then Emit from the workers (worker w only from one goroutine at
// a time), then Close; afterwards Dense says which form holds the round, and
// List or Set return it.
type Frontier struct {
	perWorker uint64 // list entries a worker keeps before the round turns dense
	set       bitset.Set
	lists     []workerList
	dense     atomic.Bool
	merged    []uint64
	isDense   bool
}

type workerList struct {
	items []uint64
	count uint64 // indices this worker emitted this round, whatever the form
	_     [64 - 32]byte
}

// NewFrontier returns a frontier for indices [0, n) and the given number of
// workers; limit is the most list entries it keeps before it turns dense.
// All the list storage is allocated here, so that the lists never grow
// (and leave garbage behind) during a solve.
func NewFrontier(n uint64, workers int, limit uint64) *Frontier {
	w := Workers(workers)
	f := &Frontier{
		perWorker: max(1, limit/uint64(w)),
		set:       bitset.NewSet(n),
		lists:     make([]workerList, w),
	}
	for i := range f.lists {
		f.lists[i].items = make([]uint64, 0, f.perWorker)
	}
	f.merged = make([]uint64, 0, f.perWorker*uint64(w))
	return f
}

// Resized makes f a frontier for indices [0, n) with the same workers and
// lists, reusing its bit set, and reports whether its storage had room.
func (f *Frontier) Resized(n uint64) bool {
	set, ok := f.set.Resized(n)
	if ok {
		f.set = set
		f.isDense = false
		f.Reset()
	}
	return ok
}

// Workers returns the number of workers f serves.
func (f *Frontier) Workers() int { return len(f.lists) }

// Reset empties the frontier for a new round. A dense round's bit set is
// cleared here unless its consumer already did (see MarkCleared).
func (f *Frontier) Reset() {
	if f.isDense {
		f.set.Clear()
	}
	for i := range f.lists {
		f.lists[i].items = f.lists[i].items[:0]
		f.lists[i].count = 0
	}
	f.merged = f.merged[:0]
	f.dense.Store(false)
	f.isDense = false
}

// Emit records index i for worker w.
func (f *Frontier) Emit(w int, i uint64) {
	l := &f.lists[w]
	l.count++
	if !f.dense.Load() {
		if uint64(len(l.items)) < f.perWorker {
			l.items = append(l.items, i)
			return
		}
		f.dense.Store(true)
	}
	if len(l.items) > 0 {
		f.pour(l)
	}
	f.set.AtomicAdd(i)
}

// EmitWords records for worker w the indices set in words, word j holding
// the indices 64(first+j) to 64(first+j)+63, and clears words. marks has
// bit j%64 of its word j/64 set for each nonzero word j (and may have
// others set); only those words are read, and marks is cleared too. A
// dense round takes each nonzero word with one atomic OR, so a caller
// that gathers what it finds in a range of indices (a block of lanes)
// pays an atomic update per word where Emit pays one per index, and
// nothing for the words it left empty.
func (f *Frontier) EmitWords(w int, first uint64, words, marks []uint64) {
	l := &f.lists[w]
	for m, mark := range marks {
		if mark == 0 {
			continue
		}
		marks[m] = 0
		for ; mark != 0; mark &= mark - 1 {
			j := m<<6 | bits.TrailingZeros64(mark)
			x := words[j]
			if x == 0 {
				continue
			}
			words[j] = 0
			f.emitWord(l, first+uint64(j), x)
		}
	}
}

// emitWord records the indices set in x, word k of the bit set, for
// worker list l (EmitWords).
func (f *Frontier) emitWord(l *workerList, k, x uint64) {
	l.count += uint64(bits.OnesCount64(x))
	if !f.dense.Load() {
		for ; x != 0 && uint64(len(l.items)) < f.perWorker; x &= x - 1 {
			l.items = append(l.items, k<<6|uint64(bits.TrailingZeros64(x)))
		}
		if x == 0 {
			return
		}
		f.dense.Store(true)
	}
	if len(l.items) > 0 {
		f.pour(l)
	}
	f.set.AtomicAddWord(k, x)
}

// Preload loads, once the round has turned dense, the words of the bit set
// that Emit would set for the indices is, so that the Emits that follow
// find them in cache: a caller that loads its targets' state ahead of
// updating it, for the cache misses to overlap, passes the same targets.
// On a sparse round it does nothing.
func (f *Frontier) Preload(is []uint64) {
	if !f.dense.Load() {
		return
	}
	words := f.set.Words()
	for _, i := range is {
		atomic.LoadUint64(&words[i>>6])
	}
}

func (f *Frontier) pour(l *workerList) {
	for _, j := range l.items {
		f.set.AtomicAdd(j)
	}
	l.items = l.items[:0]
}

// Close ends the round, after all Emit calls have returned, and returns the
// number of indices emitted.
func (f *Frontier) Close() uint64 {
	f.isDense = f.dense.Load()
	var n uint64
	for i := range f.lists {
		l := &f.lists[i]
		n += l.count
		if f.isDense {
			f.pour(l)
		} else {
			f.merged = append(f.merged, l.items...)
		}
	}
	return n
}

// Dense reports whether the closed round is held in the bit set.
func (f *Frontier) Dense() bool { return f.isDense }

// List returns the indices of a closed sparse round, in no particular order.
// The slice is reused by the next round.
func (f *Frontier) List() []uint64 { return f.merged }

// Set returns the bit set of a closed dense round.
func (f *Frontier) Set() bitset.Set { return f.set }

// MakeDense turns a closed sparse round into a dense one, its list poured
// into the bit set, for a consumer that tests indices for membership; a
// dense round is left as it is. It runs on one goroutine: a sparse round
// has at most the limit's entries.
func (f *Frontier) MakeDense() {
	if f.isDense {
		return
	}
	for _, i := range f.merged {
		f.set.Add(i)
	}
	f.merged = f.merged[:0]
	f.isDense = true
}

// Release empties the frontier, as Reset does, and gives its bit set's
// memory back to the system until the next dense round writes it.
func (f *Frontier) Release() {
	f.set.Release()
	f.isDense = false
	f.Reset()
}

// MarkCleared tells the frontier that its consumer has cleared a dense round's
// words while reading them (each worker its own words), so Reset need not
// clear them again.
func (f *Frontier) MarkCleared() { f.isDense = false }
