package bench

import "sync/atomic"

// AtomicRate measures the machine's roof for a retrograde pass: atomic
// read-modify-writes (64-bit adds) at uniformly random words of an array of
// the given size in bytes, on the given number of goroutines, ops in all.
// It returns the rate in operations per second. A solver that does one such
// operation per predecessor edge cannot process edges faster than this on
// an index of that size.
func AtomicRate(bytes uint64, workers int, ops uint64) float64 {
	return atomicRate(roofArray(bytes), workers, ops)
}

// roofArray returns an array of the given size in bytes for atomicRate,
// every page faulted in.
func roofArray(bytes uint64) []uint64 {
	words := make([]uint64, max(bytes/8, 1))
	for i := range words {
		words[i] = 1 // fault every page in before the clock starts
	}
	return words
}

// atomicRate is AtomicRate over words.
func atomicRate(words []uint64, workers int, ops uint64) float64 {
	mask := uint64(1)
	for mask < uint64(len(words)) {
		mask <<= 1
	}
	mask--
	n := uint64(len(words))
	per := ops / uint64(workers)
	took := onEach(workers, func(w int) {
		x := uint64(w)*0x9e3779b97f4a7c15 + 1
		for range per {
			// xorshift64: a cheap, statistically adequate random index.
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			i := x & mask
			if i >= n {
				i -= n
			}
			atomic.AddUint64(&words[i], 1)
		}
	})
	return float64(per*uint64(workers)) / took.Seconds()
}
