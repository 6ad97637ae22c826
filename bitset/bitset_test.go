package bitset

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
)

func TestSetBasics(t *testing.T) {
	s := NewSet(200)
	if s.Len() != 256 {
		t.Fatalf("Len = %d, want 256", s.Len())
	}
	for _, i := range []uint64{0, 1, 63, 64, 127, 199} {
		if s.Test(i) {
			t.Fatalf("%d in empty set", i)
		}
		s.Add(i)
		if !s.Test(i) {
			t.Fatalf("%d missing after Add", i)
		}
	}
	if s.Count() != 6 {
		t.Fatalf("Count = %d, want 6", s.Count())
	}
	var got []uint64
	for i := range s.Len() {
		if s.Test(i) {
			got = append(got, i)
		}
	}
	if want := []uint64{0, 1, 63, 64, 127, 199}; !slices.Equal(got, want) {
		t.Fatalf("members %v, want %v", got, want)
	}
	if s.Count() != 6 {
		t.Fatalf("Count() = %d, want 6", s.Count())
	}
	if s.TestAndAdd(64) {
		t.Fatal("TestAndAdd of a member reported true")
	}
	if !s.TestAndAdd(65) || !s.Test(65) {
		t.Fatal("TestAndAdd of a non-member did not add it")
	}
	s.Clear()
	if s.Count() != 0 {
		t.Fatal("Clear left members")
	}
}

// TestSetTestAndAddConcurrent has many goroutines race to add the same
// integers: each must be won by exactly one of them.
func TestSetTestAndAddConcurrent(t *testing.T) {
	const n, workers = 1 << 14, 8
	s := NewSet(n)
	wins := make([]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for _, i := range r.Perm(n) {
				if s.TestAndAdd(uint64(i)) {
					wins[w]++
				}
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, c := range wins {
		total += c
	}
	if total != n || s.Count() != n {
		t.Fatalf("%d wins and %d members, want %d of each", total, s.Count(), n)
	}
}

func TestTwoBits(t *testing.T) {
	const n = 1000
	p := NewTwoBits(n)
	ref := make([]uint8, n)
	r := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		i, v := r.Uint64N(n), uint8(r.IntN(4))
		p.Set(i, v)
		ref[i] = v
	}
	var counts [4]uint64
	for i := range uint64(n) {
		if p.Get(i) != ref[i] || p.AtomicGet(i) != ref[i] {
			t.Fatalf("value %d = %d, want %d", i, p.Get(i), ref[i])
		}
		counts[ref[i]]++
	}
	for v := range uint8(4) {
		if got := p.Count(v, n); got != counts[v] {
			t.Errorf("Count(%d) = %d, want %d", v, got, counts[v])
		}
	}
	// Values past n (in the last word) must not be counted.
	q := NewTwoBits(33)
	if got := q.Count(0, 33); got != 33 {
		t.Errorf("Count(0) of 33 zero values = %d", got)
	}
}

func TestCounters(t *testing.T) {
	for _, width := range []uint{8, 16, 32} {
		c := NewCounters(101, width)
		if c.Max() != 1<<width-1 || c.Width() != width || c.Len() != 101 {
			t.Fatalf("width %d: Max %d Width %d Len %d", width, c.Max(), c.Width(), c.Len())
		}
		for i := range uint64(101) {
			c.Set(i, i*7%c.Max())
		}
		c.Store(50, c.Max())
		c.Store(51, 0)
		for i := range uint64(101) {
			want := i * 7 % c.Max()
			switch i {
			case 50:
				want = c.Max()
			case 51:
				want = 0
			}
			if c.Get(i) != want || c.AtomicGet(i) != want {
				t.Fatalf("width %d: counter %d = %d, want %d", width, i, c.Get(i), want)
			}
		}
		if got := c.Dec(50); got != c.Max()-1 {
			t.Fatalf("Dec = %d", got)
		}
		if c.Get(49) != 49*7%c.Max() || c.Get(51) != 0 {
			t.Fatal("Dec or Store disturbed a neighbouring lane")
		}
	}
}

// TestCountersGatherHigh checks each width's gather against AtomicGet, at
// every shift that leaves a byte or less, over lanes whose neighbours hold
// other values (a lane's bits must not take its neighbour's).
func TestCountersGatherHigh(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, width := range []uint{8, 16, 32} {
		c := randomCounters(r, 200, width)
		idx := make([]uint64, 500)
		for j := range idx {
			idx[j] = r.Uint64N(200)
		}
		for sh := width - 8; sh < width; sh++ {
			got := make([]uint8, len(idx)+3)
			c.GatherHigh(idx, sh, got)
			for j, i := range idx {
				if want := uint8(c.AtomicGet(i) >> sh); got[j] != want {
					t.Fatalf("width %d, shift %d: counter %d (%#x) gathered as %#x, want %#x", width, sh, i, c.Get(i), got[j], want)
				}
			}
		}
	}
}

// TestCountersRead checks Read against Get over ranges of each width,
// lanes holding values up to their largest.
func TestCountersRead(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, width := range []uint{8, 16, 32} {
		c := randomCounters(r, 150, width)
		for _, span := range [][2]uint64{{0, 150}, {3, 70}, {149, 150}, {64, 64}} {
			got := make([]uint64, span[1]-span[0])
			c.Read(span[0], got)
			for k, x := range got {
				if want := c.Get(span[0] + uint64(k)); x != want {
					t.Fatalf("width %d: Read from %d: counter %d = %d, want %d", width, span[0], span[0]+uint64(k), x, want)
				}
			}
		}
	}
}

// randomCounters returns n counters of the given width holding random
// values, up to the largest a lane holds.
func randomCounters(r *rand.Rand, n uint64, width uint) Counters {
	c := NewCounters(n, width)
	for i := range n {
		c.Set(i, r.Uint64()&c.Max())
	}
	return c
}

func TestCountersDecOfZeroPanics(t *testing.T) {
	c := NewCounters(4, 16)
	defer func() {
		if recover() == nil {
			t.Fatal("Dec of a zero counter did not panic")
		}
	}()
	c.Dec(1)
}

func TestCountersWiden(t *testing.T) {
	c := NewCounters(9, 16)
	for i := range uint64(9) {
		c.Set(i, 65535-i)
	}
	w := c.Widen()
	if w.Width() != 32 || w.Len() != 9 {
		t.Fatalf("Widen: width %d len %d", w.Width(), w.Len())
	}
	for i := range uint64(9) {
		if w.Get(i) != 65535-i {
			t.Fatalf("widened counter %d = %d", i, w.Get(i))
		}
	}
	w.Set(3, 1<<20)
	if w.Get(3) != 1<<20 {
		t.Fatal("a widened counter does not hold 2^20")
	}
}

// TestCountersDecConcurrent hammers all lanes of shared words from many
// goroutines; every counter must end at exactly its start minus its decrements,
// and each must reach zero exactly once.
func TestCountersDecConcurrent(t *testing.T) {
	for _, width := range []uint{8, 16, 32} {
		const n, workers = 64, 8
		per := 500
		if width == 8 {
			per = 31 // 8 x 31 = 248, within a lane
		}
		c := NewCounters(n, width)
		for i := range uint64(n) {
			c.Set(i, uint64(workers*per))
		}
		zeros := make([]int, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range per {
					for i := range uint64(n) {
						if c.Dec(i) == 0 {
							zeros[w]++
						}
					}
				}
			}()
		}
		wg.Wait()
		total := 0
		for _, z := range zeros {
			total += z
		}
		if total != n {
			t.Fatalf("width %d: %d counters reached zero, want %d", width, total, n)
		}
		for i := range uint64(n) {
			if c.Get(i) != 0 {
				t.Fatalf("width %d: counter %d = %d, want 0", width, i, c.Get(i))
			}
		}
	}
}

// TestCountersCompareAndSwap has workers raise every counter by one with
// CompareAndSwap, retrying each lost race, while odd lanes of the same words
// are decremented: every raise lands once, and a swap from a value the
// counter does not hold fails and leaves it.
func TestCountersCompareAndSwap(t *testing.T) {
	for _, width := range []uint{8, 16, 32} {
		const n, workers = 64, 4
		per := 50 // 4 x 50 = 200, within a lane of 8 bits
		c := NewCounters(n, width)
		for i := uint64(1); i < n; i += 2 {
			c.Set(i, workers*uint64(per))
		}
		var wg sync.WaitGroup
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range per {
					for i := uint64(0); i < n; i++ {
						if i%2 == 1 {
							c.Dec(i)
							continue
						}
						for old := c.AtomicGet(i); !c.CompareAndSwap(i, old, old+1); old = c.AtomicGet(i) {
						}
					}
				}
			}()
		}
		wg.Wait()
		for i := range uint64(n) {
			want := uint64(workers * per)
			if i%2 == 1 {
				want = 0
			}
			if c.Get(i) != want {
				t.Fatalf("width %d: counter %d = %d, want %d", width, i, c.Get(i), want)
			}
		}
		if c.CompareAndSwap(0, 7, 9) || c.Get(0) != uint64(workers*per) {
			t.Fatalf("width %d: a swap from a value not held changed the counter to %d", width, c.Get(0))
		}
	}
}

// TestCountersStoreWhileDec stores into even lanes while odd lanes of the same
// words are decremented: neither may disturb the other.
func TestCountersStoreWhileDec(t *testing.T) {
	const n, rounds = 256, 2000
	c := NewCounters(n, 16)
	for i := uint64(1); i < n; i += 2 {
		c.Set(i, rounds)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for range rounds {
			for i := uint64(1); i < n; i += 2 {
				c.Dec(i)
			}
		}
	}()
	go func() {
		defer wg.Done()
		for r := range uint64(rounds) {
			for i := uint64(0); i < n; i += 2 {
				c.Store(i, (r*31+i)&0xffff)
			}
		}
	}()
	wg.Wait()
	for i := uint64(0); i < n; i++ {
		want := uint64(0)
		if i%2 == 0 {
			want = ((rounds-1)*31 + i) & 0xffff
		}
		if c.Get(i) != want {
			t.Fatalf("counter %d = %d, want %d", i, c.Get(i), want)
		}
	}
}

// TestCountersLanes stores through the slices of Lanes8, Lanes16 and
// Lanes32 from workers that share words, and reads the counters back with
// Get.
func TestCountersLanes(t *testing.T) {
	const n, workers = 1001, 3
	for _, width := range []uint{8, 16, 32} {
		c := NewCounters(n, width)
		l8, ok8 := c.Lanes8()
		l16, ok16 := c.Lanes16()
		l32, ok32 := c.Lanes32()
		if ok8 != (width == 8) || ok16 != (width == 16) || ok32 != (width == 32) {
			t.Fatalf("width %d: Lanes8 %v, Lanes16 %v, Lanes32 %v", width, ok8, ok16, ok32)
		}
		var wg sync.WaitGroup
		for w := range uint64(workers) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < n; i += workers {
					switch {
					case ok8:
						l8[i] = uint8(i * 7)
					case ok16:
						l16[i] = uint16(i * 7)
					default:
						l32[i] = uint32(i * 70001)
					}
				}
			}()
		}
		wg.Wait()
		for i := uint64(0); i < n; i++ {
			want := i * 7 & (1<<width - 1)
			if width == 32 {
				want = i * 70001 & 0xffffffff
			}
			if c.Get(i) != want {
				t.Fatalf("width %d: counter %d = %d, want %d", width, i, c.Get(i), want)
			}
		}
	}
}

func TestCountersOr(t *testing.T) {
	c := NewCounters(8, 16)
	c.Set(3, 5)
	if old := c.Or(3, 0xc000); old != 5 {
		t.Fatalf("Or returned %d, want the old value 5", old)
	}
	if c.Get(3) != 0xc005 || c.Get(2) != 0 || c.Get(4) != 0 {
		t.Fatalf("after Or: %x %x %x", c.Get(2), c.Get(3), c.Get(4))
	}
}

// TestLargeArrays covers arrays past hugeMin, which are mapped outside the
// Go heap, and their release once unreachable.
func TestLargeArrays(t *testing.T) {
	for round := range 3 {
		n := uint64(hugeMin*8 + 12345)
		s := NewSet(n)
		c := NewCounters(n/4, 16)
		for i := uint64(0); i < n; i += 4097 {
			s.Add(i)
		}
		c.Set(n/4-1, 777)
		if got, want := s.Count(), (n+4096)/4097; got != want || c.Get(n/4-1) != 777 {
			t.Fatalf("round %d: Count = %d, want %d; counter %d", round, got, want, c.Get(n/4-1))
		}
		runtime.GC()
	}
}

func TestNibbles(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []uint64{0, 1, 15, 16, 17, 31, 32, 33, 100, 1000} {
		p := NewNibbles(n)
		want := make([]uint8, n)
		for i := range n {
			want[i] = uint8(r.IntN(16))
			p.Set(i, want[i])
		}
		for i := range n {
			if p.Get(i) != want[i] || p.AtomicGet(i) != want[i] {
				t.Fatalf("n %d: nibble %d is %d, want %d", n, i, p.Get(i), want[i])
			}
		}
		if n > 0 {
			i := r.Uint64N(n)
			if old := p.AtomicOr(i, 5); old != want[i] {
				t.Fatalf("AtomicOr returned %d, want %d", old, want[i])
			}
			want[i] |= 5
		}
		pairs := p.LowPairs()
		for i := range n {
			if pairs.Get(i) != want[i]&3 {
				t.Fatalf("n %d: LowPairs value %d is %d, want %d", n, i, pairs.Get(i), want[i]&3)
			}
		}
		if got, wantLen := len(pairs.Words()), int((n+31)/32); got != wantLen {
			t.Fatalf("n %d: LowPairs has %d words, want %d", n, got, wantLen)
		}
	}
}

// TestSetRelease: a released set reads as empty, mapped apart from the
// heap or not, and takes new members again.
func TestSetRelease(t *testing.T) {
	for _, n := range []uint64{1000, 1 << 28} { // the second is mapped
		s := NewSet(n)
		for i := uint64(0); i < n; i += n / 100 {
			s.Add(i)
		}
		s.Release()
		if c := s.Count(); c != 0 {
			t.Fatalf("n %d: %d members after Release", n, c)
		}
		s.Add(n - 1)
		if !s.Test(n-1) || s.Count() != 1 {
			t.Fatalf("n %d: the set does not take a member after Release", n)
		}
	}
}
