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
	took := onEach(workers, func(w int) { sums[w*8] = chains(w, per) })
	return float64(per*8*uint64(workers)) / took.Seconds()
}

// chains runs ALURate's loop of eight independent chains iters times, for
// worker w, and returns what they end at.
func chains(w int, iters uint64) uint64 {
	a, b, c, d := uint64(w), uint64(w+1), uint64(w+2), uint64(w+3)
	e, f, g, h := uint64(w+4), uint64(w+5), uint64(w+6), uint64(w+7)
	for range iters {
		a = a*6364136223846793005 + 1
		b = b*6364136223846793005 + 3
		c = c*6364136223846793005 + 5
		d = d*6364136223846793005 + 7
		e ^= e << 13
		f ^= f >> 7
		g += g << 3
		h -= h >> 5
	}
	return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h
}

// PhaseRate is ALURate in phases, as a parallel solve's levels run: each
// phase starts a goroutine for each worker, which does perPhase
// operations, and waits for all of them to return; phases of them in all.
// It returns the operations per second. The work is the same on each
// worker, so what the threads lose against ALURate's is the phases'
// starts and ends: waking the goroutines, and waiting for the last.
func PhaseRate(workers int, perPhase uint64, phases int) float64 {
	workers, phases = max(workers, 1), max(phases, 1)
	per := max(perPhase/8, 1)
	sums := make([]uint64, workers*8)
	var took time.Duration
	for range phases {
		took += onEach(workers, func(w int) { sums[w*8] += chains(w, per) })
	}
	return float64(per*8*uint64(workers)*uint64(phases)) / took.Seconds()
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

// PhaseScaling returns how many times one thread's integer work
// (ALURate, without phases) the given number of threads do in phases of
// the given length (PhaseRate), 200 phases a round: the most that a solve
// whose levels' phases are that long can gain from its workers here, with
// no imbalance of its own. The median of rounds ratios, as CoreScaling. On
// 2026-12-02 this machine's 2 virtual cores did 1.81x to 1.83x one's work
// in phases of 0.55 ms, and 1.87x to 1.93x in phases of 5 ms, where
// without phases they did 1.9x to 2.0x; workers that stay and spin
// between phases did 1.93x to 1.95x at 0.55 ms (a throwaway program).
func PhaseScaling(workers int, phase time.Duration, rounds int) float64 {
	perPhase := uint64(ALURate(1, 1<<24) * phase.Seconds())
	return medianRatio(rounds, func() float64 { return ALURate(1, perPhase*200) },
		func() float64 { return PhaseRate(workers, perPhase, 200) })
}

// CoreScalingLines returns CoreScaling, MemoryScaling (over 256 MiB) and
// PhaseScaling (phases of a millisecond: a Quixo 4 x 4 level's phases take
// 0.5 to 3 ms with 2 workers) as lines of a report: five rounds of about a
// tenth of a second each way, each.
func CoreScalingLines(workers int) []string {
	return []string{
		fmt.Sprintf("cores now: %d threads do %.2fx the integer work of one", workers, CoreScaling(workers, 1<<28, 5)),
		fmt.Sprintf("memory now: %d threads do %.2fx the random read-modify-writes of one over 256 MiB", workers, MemoryScaling(workers, 256<<20, 1<<22, 5)),
		fmt.Sprintf("phases now: %d threads do %.2fx the integer work of one in phases of 1 ms, a goroutine each a phase", workers, PhaseScaling(workers, time.Millisecond, 5)),
	}
}
