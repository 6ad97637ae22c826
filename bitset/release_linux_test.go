package bitset

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// resident returns the process's resident bytes, from /proc/self/statm.
func resident(t *testing.T) uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip(err)
	}
	pages, err := strconv.ParseUint(strings.Fields(string(b))[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return pages * uint64(os.Getpagesize())
}

// TestLowPairsReleases checks that LowPairs of nibbles mapped apart from
// the Go heap keeps every value and gives the half it no longer uses back
// to the system.
func TestLowPairsReleases(t *testing.T) {
	const n = 1 << 27 // 64 MiB of nibbles, mapped
	p := NewNibbles(n)
	if p.mem == nil {
		t.Skip("the nibbles were not mapped")
	}
	words := p.Words()
	for j := range words {
		words[j] = uint64(j)*0x9e3779b97f4a7c15 | 0x8888_8888_8888_8888 // every page touched
	}
	x := func(i uint64) uint8 { return uint8((i>>4)*0x9e3779b97f4a7c15>>((i&15)*4)) & 3 }
	before := resident(t)
	pairs := p.LowPairs()
	after := resident(t)
	for i := uint64(0); i < n; i += 4093 {
		if pairs.Get(i) != x(i) {
			t.Fatalf("value %d is %d after LowPairs, want %d", i, pairs.Get(i), x(i))
		}
	}
	if freed := int64(before) - int64(after); freed < n/4*3/4 { // a quarter of n bytes, less a margin
		t.Errorf("LowPairs gave back %d bytes of %d nibbles' %d, want about half", freed, n, n/2)
	}
}

// TestSetReleaseGivesBack checks that Release gives a mapped set's pages
// back to the system at once.
func TestSetReleaseGivesBack(t *testing.T) {
	const n = 1 << 29 // 64 MiB of bits, mapped
	s := NewSet(n)
	if s.mem == nil {
		t.Skip("the set was not mapped")
	}
	words := s.Words()
	for j := range words {
		words[j] = ^uint64(0) // every page touched
	}
	before := resident(t)
	s.Release()
	after := resident(t)
	if before < after+n/8/2 {
		t.Fatalf("resident %d bytes before Release, %d after: less than half the set's %d bytes given back", before, after, n/8)
	}
}

// TestCountersAndTwoBitsReleaseGiveBack checks that Release zeroes mapped
// counters and 2-bit values and gives their pages back at once (a tier's
// result, released as its file is written, holds hundreds of megabytes).
func TestCountersAndTwoBitsReleaseGiveBack(t *testing.T) {
	const n = 1 << 26 // 64 MiB of 8-bit counters, 16 MiB of values
	c, p := NewCounters(n, 8), NewTwoBits(n)
	if c.mem == nil || p.mem == nil {
		t.Skip("the arrays were not mapped")
	}
	for _, words := range [][]uint64{c.Words(), p.Words()} {
		for j := range words {
			words[j] = ^uint64(0) // every page touched
		}
	}
	before := resident(t)
	c.Release()
	p.Release()
	after := resident(t)
	if want := uint64(n + n/4); before < after+want/2 {
		t.Fatalf("resident %d bytes before Release, %d after: less than half the arrays' %d bytes given back", before, after, want)
	}
	if c.Get(n-1) != 0 || c.Get(0) != 0 || p.Get(n/2) != 0 {
		t.Fatal("a released array does not read as zero")
	}
}

// TestReleaseZeroesAroundPages checks that Release zeroes every word of a
// mapped array, the words past its last whole page too (zeroRelease clears
// them; the pages before, it gives back).
func TestReleaseZeroesAroundPages(t *testing.T) {
	c := NewCounters(1<<24+1000, 8) // 16 MiB and a part of a page
	if c.mem == nil {
		t.Skip("the counters were not mapped")
	}
	words := c.Words()
	for j := range words {
		words[j] = ^uint64(0)
	}
	c.Release()
	for j, x := range words {
		if x != 0 {
			t.Fatalf("word %d of %d is %#x after Release", j, len(words), x)
		}
	}
}
