package parallel

import (
	"context"
	"errors"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestForCoversRangeOnce(t *testing.T) {
	for _, n := range []uint64{0, 1, 63, 64, 65, 1000, 100003} {
		for _, workers := range []int{1, 2, 3, 8} {
			for _, chunk := range []uint64{1, 64, 100, 4096} {
				hits := make([]atomic.Int32, n)
				var calls atomic.Int64
				err := For(context.Background(), workers, n, chunk, func(w int, lo, hi uint64) error {
					if w < 0 || w >= workers {
						t.Errorf("worker %d out of range", w)
					}
					if lo%64 != 0 || (hi != n && hi%64 != 0) {
						t.Errorf("chunk [%d, %d) not on 64-boundaries", lo, hi)
					}
					calls.Add(1)
					for i := lo; i < hi; i++ {
						hits[i].Add(1)
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				for i := range hits {
					if hits[i].Load() != 1 {
						t.Fatalf("n=%d workers=%d chunk=%d: index %d visited %d times", n, workers, chunk, i, hits[i].Load())
					}
				}
			}
		}
	}
}

// TestForWorkerExclusive checks that a worker id never runs twice at once.
func TestForWorkerExclusive(t *testing.T) {
	busy := make([]atomic.Bool, 4)
	err := For(context.Background(), 4, 1<<16, 64, func(w int, lo, hi uint64) error {
		if busy[w].Swap(true) {
			t.Errorf("worker %d runs twice at once", w)
		}
		busy[w].Store(false)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestForError checks that an error stops the loop: For returns it, and the
// other workers claim few chunks after it. Only chunks that begin after the
// failing body has run are counted (a worker may run far ahead before the
// failing chunk is reached when the scheduler stalls the other one), and each
// sleeps a millisecond, so a count near the limit would mean the workers went on
// for a second after the error instead of stopping at their next chunk.
func TestForError(t *testing.T) {
	boom := errors.New("boom")
	var failed atomic.Bool
	var after atomic.Int64
	err := For(context.Background(), 2, 1<<20, 64, func(w int, lo, hi uint64) error {
		if lo == 64*10 {
			failed.Store(true)
			return boom
		}
		if failed.Load() {
			after.Add(1)
			time.Sleep(time.Millisecond)
		}
		return nil
	})
	if err != boom {
		t.Fatalf("For returned %v, want boom", err)
	}
	if after.Load() > 1000 {
		t.Fatalf("%d chunks began after the error", after.Load())
	}
}

func TestForCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	err := For(ctx, 2, 1000, 64, func(int, uint64, uint64) error { ran = true; return nil })
	if err != context.Canceled || ran {
		t.Fatalf("For on a cancelled context: err %v, ran %v", err, ran)
	}
}

// TestEach checks that Each calls its body once per item, on workers in
// range and never twice at once, and stops at an error.
func TestEach(t *testing.T) {
	checkEachOnce(t, Each)
	boom := errors.New("boom")
	var calls atomic.Int64
	err := Each(context.Background(), 1, 100, func(_ int, i uint64) error {
		calls.Add(1)
		if i == 10 {
			return boom
		}
		return nil
	})
	if err != boom || calls.Load() != 11 {
		t.Fatalf("Each returned %v after %d calls, want boom after 11", err, calls.Load())
	}
}

// checkEachOnce checks that each (Each or EachStretch) calls its body once
// per item, on workers in range and never twice at once.
func checkEachOnce(t *testing.T, each func(context.Context, int, uint64, func(int, uint64) error) error) {
	t.Helper()
	for _, n := range []uint64{0, 1, 2, 5, 1000} {
		for _, workers := range []int{1, 2, 3, 8} {
			hits := make([]atomic.Int32, n)
			busy := make([]atomic.Bool, workers)
			err := each(context.Background(), workers, n, func(w int, i uint64) error {
				if w < 0 || w >= workers || busy[w].Swap(true) {
					t.Errorf("worker %d out of range or running twice at once", w)
					return nil
				}
				hits[i].Add(1)
				busy[w].Store(false)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for i := range hits {
				if hits[i].Load() != 1 {
					t.Fatalf("n=%d workers=%d: item %d visited %d times", n, workers, i, hits[i].Load())
				}
			}
		}
	}
}

// TestEachStretch checks that EachStretch visits each item once, on one
// worker at a time, that each worker starts with its own stretch and
// takes its items in order, and that an error stops it.
func TestEachStretch(t *testing.T) {
	checkEachOnce(t, EachStretch)
	// Items that each wait for every worker to have started: each
	// worker's first item is its stretch's first.
	const workers, n = 3, 30
	var started sync.WaitGroup
	started.Add(workers)
	var once [workers]sync.Once
	took := make([][]uint64, workers)
	err := EachStretch(context.Background(), workers, n, func(w int, i uint64) error {
		once[w].Do(started.Done)
		started.Wait()
		took[w] = append(took[w], i)
		time.Sleep(100 * time.Microsecond)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for w := range workers {
		first, end := uint64(w)*n/workers, uint64(w+1)*n/workers
		own := slices.DeleteFunc(slices.Clone(took[w]), func(i uint64) bool { return i < first || i >= end })
		if len(took[w]) == 0 || took[w][0] != first || !slices.IsSorted(own) {
			t.Errorf("worker %d took %v, want its stretch [%d, %d) first, in order", w, took[w], first, end)
		}
	}
	boom := errors.New("boom")
	var calls atomic.Int64
	err = EachStretch(context.Background(), 2, 100, func(_ int, i uint64) error {
		calls.Add(1)
		if i == 10 {
			return boom
		}
		return nil
	})
	if err != boom || calls.Load() > 100 {
		t.Fatalf("EachStretch returned %v after %d calls, want boom", err, calls.Load())
	}
}

func TestChunkFor(t *testing.T) {
	for _, tc := range []struct {
		n        uint64
		workers  int
		minChunk uint64
	}{{0, 1, 1}, {100, 2, 64}, {1 << 30, 16, 4096}, {5000, 3, 100}} {
		c := ChunkFor(tc.n, tc.workers, tc.minChunk)
		if c%64 != 0 || c < tc.minChunk || c == 0 {
			t.Errorf("ChunkFor(%d, %d, %d) = %d", tc.n, tc.workers, tc.minChunk, c)
		}
	}
}

// emitAll has workers emit disjoint shares of the given indices into f.
func emitAll(t *testing.T, f *Frontier, workers int, items []uint64) {
	t.Helper()
	f.Reset()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := w; k < len(items); k += workers {
				f.Emit(w, items[k])
			}
		}()
	}
	wg.Wait()
	if got := f.Close(); got != uint64(len(items)) {
		t.Fatalf("Close = %d, want %d", got, len(items))
	}
}

func members(f *Frontier) []uint64 {
	var got []uint64
	if f.Dense() {
		for i := range f.Set().Len() {
			if f.Set().Test(i) {
				got = append(got, i)
			}
		}
	} else {
		got = slices.Clone(f.List())
		slices.Sort(got)
	}
	return got
}

func TestFrontierSparseAndDense(t *testing.T) {
	const n, workers = 10000, 4
	f := NewFrontier(n, workers, 100)
	small := []uint64{5, 17, 9000, 64, 63}
	for round := range 3 {
		emitAll(t, f, workers, small)
		if f.Dense() {
			t.Fatalf("round %d: 5 indices made the frontier dense", round)
		}
		want := slices.Sorted(slices.Values(small))
		if got := members(f); !slices.Equal(got, want) {
			t.Fatalf("round %d: sparse members %v, want %v", round, got, want)
		}

		var big []uint64
		for i := uint64(0); i < n; i += 3 {
			big = append(big, i)
		}
		emitAll(t, f, workers, big)
		if !f.Dense() {
			t.Fatalf("round %d: %d indices left the frontier sparse", round, len(big))
		}
		if got := members(f); !slices.Equal(got, big) {
			t.Fatalf("round %d: dense frontier has %d members, want %d", round, len(got), len(big))
		}
		if round == 1 {
			// Consume the dense round the way the engine does: read and
			// clear the words, then say so.
			f.Set().Clear()
			f.MarkCleared()
		}
	}
}

// TestFrontierMakeDense checks that a sparse round made dense has exactly
// its members in the bit set, and that the next round starts empty.
func TestFrontierMakeDense(t *testing.T) {
	const n, workers = 5000, 3
	f := NewFrontier(n, workers, 300)
	for round, items := range [][]uint64{{4999, 0, 64, 65, 1000}, {7, 8}} {
		emitAll(t, f, workers, items)
		if f.Dense() {
			t.Fatalf("round %d: %d indices made the frontier dense", round, len(items))
		}
		f.MakeDense()
		if !f.Dense() {
			t.Fatalf("round %d: MakeDense left the frontier sparse", round)
		}
		if got, want := members(f), slices.Sorted(slices.Values(items)); !slices.Equal(got, want) {
			t.Fatalf("round %d: dense members %v, want %v", round, got, want)
		}
	}
}

// TestFrontierEmitWords checks EmitWords against its indices: workers each
// emit the words of their own blocks of 256 indices, mixed with Emit, in
// rounds small enough to stay sparse, large enough to turn dense in the
// middle of a word (a worker's list full part-way), and dense from the
// start; the members and the count are the indices emitted, and the
// words and marks given are cleared. The marks name every nonzero word
// and some empty ones.
func TestFrontierEmitWords(t *testing.T) {
	const n, workers, block = 10000, 3, 256
	f := NewFrontier(n, workers, 60)
	r := rand.New(rand.NewPCG(5, 6))
	for _, density := range []float64{0.002, 0.03, 0.5} {
		f.Reset()
		var want []uint64
		most := 0 // the most indices one worker emits
		var mu sync.Mutex
		var wg sync.WaitGroup
		for w := range workers {
			var mine []uint64
			var blocks [][]uint64
			for b := uint64(w); b*block < n; b += workers {
				words := make([]uint64, block/64)
				for i := b * block; i < min(b*block+block, n); i++ {
					if r.Float64() < density {
						words[(i-b*block)/64] |= 1 << (i % 64)
						mine = append(mine, i)
					}
				}
				blocks = append(blocks, words)
			}
			mu.Lock()
			want = append(want, mine...)
			most = max(most, len(mine))
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k, words := range blocks {
					b := uint64(w) + uint64(k)*workers
					if k%4 == 3 { // this block by Emit, an index at a time
						for j, x := range words {
							for ; x != 0; x &= x - 1 {
								f.Emit(w, b*block+uint64(j)*64+uint64(bits.TrailingZeros64(x)))
							}
							words[j] = 0
						}
						continue
					}
					marks := []uint64{0}
					for j, x := range words {
						if x != 0 || j%3 == 0 {
							marks[0] |= 1 << j
						}
					}
					f.EmitWords(w, b*block/64, words, marks)
					for j, x := range words {
						if x != 0 {
							t.Errorf("word %d of block %d left %x", j, b, x)
						}
					}
					if marks[0] != 0 {
						t.Errorf("block %d left marks %x", b, marks[0])
					}
				}
			}()
		}
		wg.Wait()
		if got := f.Close(); got != uint64(len(want)) {
			t.Fatalf("density %v: Close = %d, want %d", density, got, len(want))
		}
		slices.Sort(want)
		if got := members(f); !slices.Equal(got, want) {
			t.Fatalf("density %v: %d members, want %d (dense %v)", density, len(got), len(want), f.Dense())
		}
		// A worker keeps 60/3 indices in its list before the round turns dense.
		if wantDense := most > 20; f.Dense() != wantDense {
			t.Errorf("density %v: at most %d indices a worker, dense %v", density, most, f.Dense())
		}
	}
}
