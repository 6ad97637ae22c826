package tier

import (
	"math/rand/v2"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
)

// Plan is a tiered solve's memory estimate: the peak of each tier's solve
// (the engine's arrays for its entries, the exits' lanes, a symmetric
// tier's class bits and positions, and the files of its children, read
// all over), and the largest.
type Plan struct {
	Tiers   []uint64 // Tiers[k]: bytes at the peak of tier k's solve
	Entries []uint64 // Entries[k]: tier k's entries (classes are estimated)
	Peak    uint64
	Largest int // the tier of the peak
}

// classSamples is the number of positions of a tier tested to estimate its
// share of canonical positions.
const classSamples = 4096

// Estimate returns the memory plan of a tiered solve of g. The classes of a
// symmetric game's tiers are estimated from a sample of each, generously
// (four standard deviations above the share found); other games' entries
// are exact.
func Estimate(g implicit.Tiered) Plan {
	tiers := g.Tiers()
	sym, _ := g.(implicit.Symmetric)
	p := Plan{Tiers: make([]uint64, len(tiers)), Entries: make([]uint64, len(tiers))}
	r := rand.New(rand.NewPCG(uint64(len(tiers)), g.Size()))
	for k, t := range tiers {
		p.Entries[k] = t.Size()
		if sym != nil {
			p.Entries[k] = implicit.EstimateClasses(sym, t.Start, t.End, classSamples, r)
		}
	}
	for k, t := range tiers {
		n := p.Entries[k]
		b := engine.MemoryNeeded(n, g.MaxMoves()+1) + 2*n
		if sym != nil {
			b += t.Size()/8 + 4*n // class bits, and each class's position
		}
		for _, c := range t.Children {
			b += p.Entries[c] // a code per entry, mostly one byte
			if sym != nil {
				b += tiers[c].Size() / 8
			}
		}
		p.Tiers[k] = b
		if b > p.Peak {
			p.Peak, p.Largest = b, k
		}
	}
	return p
}
