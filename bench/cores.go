package bench

import (
	"fmt"
	"slices"
	"sync"
	"time"
)

// ALURate measures the machine's integer throughput: operations per second
// of a loop of eight independent chains of multiplies, shifts and adds, on
// the given number of goroutines, ops in all. The chains keep a core's
// arithmetic units busy, so two threads that share a physical core (two
// hyperthreads, or a guest's two virtual cores that its host runs on one)
// each get about half of it, where a latency-bound loop would hide that.
func ALURate(workers int, ops uint64) float64 {
	workers = max(workers, 1)
	per := max(ops/uint64(workers)/8, 1) // eight operations an iteration
	sums := make([]uint64, workers*8)    // a cache line each
	took := onEach(workers, func(w int) {
		a, b, c, d := uint64(w), uint64(w+1), uint64(w+2), uint64(w+3)
		e, f, g, h := uint64(w+4), uint64(w+5), uint64(w+6), uint64(w+7)
		for range per {
			a = a*6364136223846793005 + 1
			b = b*6364136223846793005 + 3
			c = c*6364136223846793005 + 5
			d = d*6364136223846793005 + 7
			e ^= e << 13
			f ^= f >> 7
			g += g << 3
			h -= h >> 5
		}
		sums[w*8] = a ^ b ^ c ^ d ^ e ^ f ^ g ^ h
	})
	return float64(per*8*uint64(workers)) / took.Seconds()
}

// onEach runs body(w) on a goroutine for each w in [0, workers) and
// returns the time until the last returns.
func onEach(workers int, body func(w int)) time.Duration {
	var wg sync.WaitGroup
	start := time.Now()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body(w)
		}()
	}
	wg.Wait()
	return time.Since(start)
}

// medianRatio returns the median over rounds of all()/one(), one measured
// first in each round, so that a change of the machine's state in the
// middle moves one round only.
func medianRatio(rounds int, one, all func() float64) float64 {
	ratios := make([]float64, max(rounds, 1))
	for i := range ratios {
		o := one()
		ratios[i] = all() / o
	}
	slices.Sort(ratios)
	return ratios[len(ratios)/2]
}

// CoreScaling returns how many times one thread's integer work (ALURate)
// the given number of threads do at this moment, each doing ops: about
// workers where each has a physical core of its own, less where they
// share. A shared guest's answer changes from one minute to the next (on
// 2026-11-28 this machine's 2 virtual cores gave 1.9 to 2.0 times one's
// work, and a few minutes before 1.0), and so does every ratio of 2
// workers to 1: print it beside them. It is the median of rounds ratios
// (medianRatio).
func CoreScaling(workers int, ops uint64, rounds int) float64 {
	return medianRatio(rounds, func() float64 { return ALURate(1, ops) },
		func() float64 { return ALURate(workers, ops*uint64(workers)) })
}

// MemoryScaling returns how many times one thread's random atomic
// read-modify-writes over an array of the given size in bytes (AtomicRate,
// a retrograde pass's roof) the given number of threads do at this moment,
// each doing ops: the median of rounds ratios, as CoreScaling. Where the
// memory is shared with other guests, the answer moves more than the
// cores' (on 2026-11-28 this machine gave 1.04 to 2.01 over 256 MiB, from
// one second to the next).
func MemoryScaling(workers int, bytes, ops uint64, rounds int) float64 {
	words := roofArray(bytes)
	return medianRatio(rounds, func() float64 { return atomicRate(words, 1, ops) },
		func() float64 { return atomicRate(words, workers, ops*uint64(workers)) })
}

// CoreScalingLines returns CoreScaling and MemoryScaling (over 256 MiB) as
// lines of a report: five rounds of about a tenth of a second each way,
// each.
func CoreScalingLines(workers int) []string {
	return []string{
		fmt.Sprintf("cores now: %d threads do %.2fx the integer work of one", workers, CoreScaling(workers, 1<<28, 5)),
		fmt.Sprintf("memory now: %d threads do %.2fx the random read-modify-writes of one over 256 MiB", workers, MemoryScaling(workers, 256<<20, 1<<22, 5)),
	}
}
