package bitset

import (
	"fmt"
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// Counters is a packed array of unsigned counters of 8, 16 or 32 bits,
// several to a 64-bit word. The zero value has length 0; NewCounters makes one.
//
// The atomic methods update one lane with a single atomic add on its word:
// Dec needs the lane to be positive, so it cannot borrow from the lane above,
// and Store adds the difference between the new and the old value, which
// stays inside the lane. Neighbouring lanes may be updated concurrently.
type Counters struct {
	words []uint64
	mem   *mapping // keeps mapped words alive
	n     uint64   // number of counters
	shift uint     // log2 of the lanes per word: 3 for 8-bit lanes, 2 for 16-bit, 1 for 32-bit
	width uint     // bits per lane
	max   uint64   // largest value a lane holds
}

// NewCounters returns n counters of the given width in bits (8, 16 or
// 32), all zero.
func NewCounters(n uint64, width uint) Counters {
	var shift uint
	switch width {
	case 8:
		shift = 3
	case 16:
		shift = 2
	case 32:
		shift = 1
	default:
		panic(fmt.Sprintf("bitset: counter width %d, want 8, 16 or 32", width))
	}
	lanes := uint64(1) << shift
	w, m := allocWords((n + lanes - 1) / lanes)
	return Counters{
		words: w,
		mem:   m,
		n:     n,
		shift: shift,
		width: width,
		max:   1<<width - 1,
	}
}

// Resized returns n zero counters of width bits that share c's storage,
// and whether c had room for them; c must no longer be used.
func (c Counters) Resized(n uint64, width uint) (Counters, bool) {
	fresh := NewCounters(0, width) // the lane layout for that width
	lanes := uint64(1) << fresh.shift
	need := (n + lanes - 1) / lanes
	if need > uint64(cap(c.words)) {
		return c, false
	}
	fresh.words, fresh.mem, fresh.n = c.words[:need], c.mem, n
	clear(fresh.words)
	return fresh, true
}

// Release zeroes c and gives the whole pages of its words back to the
// system where it maps them apart from the Go heap, as Set.Release does.
func (c Counters) Release() { zeroRelease(c.words, c.mem) }

// Words returns the backing words: counter i is bits width*(i%lanes) and up
// of word i/lanes, lanes = 64/width. They stay valid while c (or a copy) is
// reachable.
func (c Counters) Words() []uint64 { return c.words }

// Len returns the number of counters.
func (c Counters) Len() uint64 { return c.n }

// Lanes8 is Lanes16 for 8-bit counters.
func (c Counters) Lanes8() ([]uint8, bool) {
	if c.width != 8 || !littleEndian || len(c.words) == 0 {
		return nil, false
	}
	return unsafe.Slice((*uint8)(unsafe.Pointer(&c.words[0])), c.n), true
}

// Lanes16 returns 16-bit counters as a slice, counter i at index i, for
// plain stores: two goroutines may store to two counters of one word at
// once, as to two elements of any slice. It returns false for 32-bit
// counters, and on a big-endian machine, where the lanes of a word are in
// the other order.
func (c Counters) Lanes16() ([]uint16, bool) {
	if c.width != 16 || !littleEndian || len(c.words) == 0 {
		return nil, false
	}
	return unsafe.Slice((*uint16)(unsafe.Pointer(&c.words[0])), c.n), true
}

// Lanes32 is Lanes16 for 32-bit counters.
func (c Counters) Lanes32() ([]uint32, bool) {
	if c.width != 32 || !littleEndian || len(c.words) == 0 {
		return nil, false
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&c.words[0])), c.n), true
}

// littleEndian says whether the machine stores a word's low byte first.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// Width returns the number of bits in each counter: 8, 16 or 32.
func (c Counters) Width() uint { return c.width }

// Max returns the largest value a counter holds.
func (c Counters) Max() uint64 { return c.max }

func (c Counters) locate(i uint64) (*uint64, uint) {
	lane := i & (1<<c.shift - 1)
	return &c.words[i>>c.shift], uint(lane) * c.width
}

// Get returns counter i.
func (c Counters) Get(i uint64) uint64 {
	w, sh := c.locate(i)
	return *w >> sh & c.max
}

// Set stores v as counter i; v must not exceed Max. It is not safe for
// concurrent use on the same word.
func (c Counters) Set(i, v uint64) {
	w, sh := c.locate(i)
	*w = *w&^(c.max<<sh) | v<<sh
}

// Read sets dst[k] to counter lo+k for each k: Get over a range, the
// lanes read as a slice where the machine allows (Lanes8).
func (c Counters) Read(lo uint64, dst []uint64) {
	hi := lo + uint64(len(dst))
	if l, ok := c.Lanes8(); ok {
		for k, x := range l[lo:hi] {
			dst[k] = uint64(x)
		}
		return
	}
	if l, ok := c.Lanes16(); ok {
		for k, x := range l[lo:hi] {
			dst[k] = uint64(x)
		}
		return
	}
	if l, ok := c.Lanes32(); ok {
		for k, x := range l[lo:hi] {
			dst[k] = uint64(x)
		}
		return
	}
	for k := range dst {
		dst[k] = c.Get(lo + uint64(k))
	}
}

// AtomicGet returns counter i, with an atomic load.
func (c Counters) AtomicGet(i uint64) uint64 {
	w, sh := c.locate(i)
	return atomic.LoadUint64(w) >> sh & c.max
}

// GatherHigh sets dst[j] to the bits of counter idx[j] from bit sh up, as
// AtomicGet(idx[j]) >> sh, for each j, dst as long as idx: a batch of
// loads that do not depend on each other, whose cache misses overlap,
// the lanes' width known once for the batch, not found at each.
func (c Counters) GatherHigh(idx []uint64, sh uint, dst []uint8) {
	dst = dst[:len(idx)]
	words, m := c.words, uint8(c.max>>sh)
	switch c.width {
	case 8:
		for j, i := range idx {
			dst[j] = uint8(atomic.LoadUint64(&words[i>>3])>>(i&7*8+uint64(sh))) & m
		}
	case 16:
		for j, i := range idx {
			dst[j] = uint8(atomic.LoadUint64(&words[i>>2])>>(i&3*16+uint64(sh))) & m
		}
	default:
		for j, i := range idx {
			dst[j] = uint8(atomic.LoadUint64(&words[i>>1])>>(i&1*32+uint64(sh))) & m
		}
	}
}

// Dec subtracts one from counter i and returns the new value; safe for
// concurrent use. The counter must be positive: Dec panics if it was zero,
// after the borrow has already spoiled the lane above.
func (c Counters) Dec(i uint64) uint64 {
	w, sh := c.locate(i)
	v := atomic.AddUint64(w, -(1<<sh)) >> sh & c.max
	if v == c.max {
		panic("bitset: Dec of a zero counter")
	}
	return v
}

// CompareAndSwap sets counter i to v if it holds old, and reports whether
// it did; safe for concurrent use, the other lanes of its word changing
// meanwhile (a change of theirs costs a retry, not a failure). v must not
// exceed Max.
func (c Counters) CompareAndSwap(i, old, v uint64) bool {
	w, sh := c.locate(i)
	for {
		ow := atomic.LoadUint64(w)
		if ow>>sh&c.max != old {
			return false
		}
		if atomic.CompareAndSwapUint64(w, ow, ow&^(c.max<<sh)|v<<sh) {
			return true
		}
	}
}

// Store sets counter i to v atomically, even while other lanes of its word
// change; v must not exceed Max. No other caller may change counter i itself
// at the same time.
func (c Counters) Store(i, v uint64) {
	w, sh := c.locate(i)
	old := atomic.LoadUint64(w) >> sh & c.max
	atomic.AddUint64(w, (v-old)<<sh)
}

// Or sets bits v of counter i with an atomic OR and returns the counter's
// old value; safe for concurrent use. v must not exceed Max.
func (c Counters) Or(i, v uint64) uint64 {
	w, sh := c.locate(i)
	return atomic.OrUint64(w, v<<sh) >> sh & c.max
}

// Widen returns a copy of c with 32-bit counters, the same values, and
// c's storage left to the garbage collector; c itself is returned if it is
// already 32 bits wide.
func (c Counters) Widen() Counters {
	if c.width == 32 {
		return c
	}
	w := NewCounters(c.n, 32)
	for i := uint64(0); i < c.n; i++ {
		w.Set(i, c.Get(i))
	}
	return w
}

func popcount(x uint64) int { return bits.OnesCount64(x) }
