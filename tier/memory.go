package tier

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// Plan is a tiered solve's memory estimate: the peak of each tier's solve
// (the engine's arrays for its entries, its depths past its lanes, a symmetric
// tier's class bits and positions, and the codes of its children, read
// all over, or the part its moves reach where the game says which:
// implicit.ChildReacher), and the largest, where small tiers solved side
// by side count as many times as there are workers; and the size of each
// tier's file.
type Plan struct {
	Tiers   []uint64 // Tiers[k]: bytes at the peak of tier k's solve
	Entries []uint64 // Entries[k]: tier k's entries (classes are estimated)
	Disk    []uint64 // Disk[k]: bytes of tier k's file, with one-byte codes
	Edges   []uint64 // Edges[k]: tier k's moves, estimated from a sample (the work of its solve)
	Peak    uint64
	Largest int // the tier of the peak
	// Together is the number of tiers solved at once at the peak: 1, or
	// SideBySide when as many small tiers as the largest weigh the most.
	Together int
	// SideBySide is the most small tiers solved at once: the workers, or
	// fewer where Within keeps the peak within a limit (tier.Options).
	SideBySide int
	// Split[k], in a plan of SolveShared's ranks (Shared), says that tier
	// k is split across them: Tiers[k] is then one rank's share.
	Split []bool
	Ranks int
	// Done, where it is not nil, marks the tiers whose files a solve
	// finds finished (Finished): read, not solved, they are left out of
	// Peak.
	Done []bool
}

// planWidth is the code width Plan.Disk assumes: one byte holds depths up
// to 126, and a tier with a few deeper entries keeps those in its overflow
// (see the tier file's layout), so only a tier with many passes it.
const planWidth = 1

// classSamples is the number of positions of a tier tested to estimate its
// share of canonical positions.
const classSamples = 4096

// Estimate returns the memory plan of a tiered solve of g with the given
// number of workers (0: one per core). The classes of a symmetric game's
// tiers are estimated from a sample of each, generously (four standard
// deviations above the share found); other games' entries are exact.
func Estimate(g implicit.Tiered, workers int) Plan {
	workers = parallel.Workers(workers)
	tiers := g.Tiers()
	sym, _ := g.(implicit.Symmetric)
	p := Plan{Tiers: make([]uint64, len(tiers)), Entries: make([]uint64, len(tiers)),
		Disk: make([]uint64, len(tiers)), Edges: make([]uint64, len(tiers))}
	r := rand.New(rand.NewPCG(uint64(len(tiers)), g.Size()))
	for k, t := range tiers {
		p.Entries[k] = t.Size()
		if sym != nil {
			p.Entries[k] = implicit.EstimateClasses(sym, t.Start, t.End, classSamples, r)
		}
		p.Edges[k] = uint64(movesPerEntry(g, sym, t, rand.New(rand.NewPCG(uint64(k), t.Start))) * float64(p.Entries[k]))
	}
	for k, t := range tiers {
		h := storeHeader{entries: p.Entries[k], positions: t.Size(), width: planWidth, symmetric: sym != nil}
		p.Disk[k] = h.fileSize()
	}
	p.Split, p.Ranks, p.SideBySide = make([]bool, len(tiers)), 1, workers
	p.peaks(g, workers)
	return p
}

// Within returns the plan with as few small tiers side by side as bring
// its peak within limit bytes, down to one at a time: a solve that does
// not fit with every worker on a small tier of its own runs fewer at once
// (or the tiers one after the other, each on every worker) rather than
// being refused.
func (p Plan) Within(g implicit.Tiered, workers int, limit uint64) Plan {
	workers = parallel.Workers(workers)
	q := p
	q.Tiers = make([]uint64, len(p.Tiers))
	for q.peaks(g, workers); q.Peak > limit && q.SideBySide > 1; q.peaks(g, workers) {
		q.SideBySide--
	}
	return q
}

// Skipping returns the plan of a solve that finds the tiers marked in
// done finished (Finished): its peak is that of the tiers it solves.
func (p Plan) Skipping(g implicit.Tiered, workers int, done []bool) Plan {
	q := p
	q.Tiers, q.Done = make([]uint64, len(p.Tiers)), done
	q.peaks(g, parallel.Workers(workers))
	return q
}

// Shared returns the plan of SolveShared on the given number of ranks
// with the tiers of at least splitFrom positions split across them (0:
// none): a split tier's memory is one rank's share, and the peak is one
// rank's.
func (p Plan) Shared(g implicit.Tiered, workers, ranks int, splitFrom uint64) Plan {
	q := p
	q.Tiers, q.Split, q.Ranks = make([]uint64, len(p.Tiers)), make([]bool, len(p.Tiers)), max(ranks, 1)
	for k, t := range g.Tiers() {
		q.Split[k] = splitFrom > 0 && t.Size() >= splitFrom
	}
	q.peaks(g, parallel.Workers(workers))
	return q
}

// peaks fills Tiers, Peak, Largest and Together from the entries.
func (p *Plan) peaks(g implicit.Tiered, workers int) {
	tiers := g.Tiers()
	_, symmetric := g.(implicit.Symmetric)
	reacher, _ := g.(implicit.ChildReacher)
	p.Peak = 0
	for k, t := range tiers {
		n := p.Entries[k]
		var b uint64
		switch {
		case p.Split[k]:
			// A rank's states and messages, and its exit actions; its
			// classes' positions come from the class bits.
			b = engine.DistBytes(n, g.MaxMoves()+1, p.Ranks, false) + n/uint64(p.Ranks) + 1
		case t.NoMovesInside:
			to, ok := g.(implicit.TierOrderer)
			b = engine.OnePassBytes(n, ok && to.TierParts(k) > 0)
		default:
			b = engine.ExitGameBytes(n, maxMoves(g, k))
		}
		if symmetric {
			b += t.Size() / 8 // the class bits, the whole tier's
			if !p.Split[k] {
				b += 4 * n // each class's position
			}
		}
		for _, c := range t.Children {
			// A code per entry, mostly one byte, of the part of the child
			// the tier's moves reach, read through the file's mapping or,
			// for a large child, from a copy of what they read in huge
			// pages (hugeCodes), which holds more (childBytes).
			reach := p.Entries[c]
			if reacher != nil {
				reach = min(reach, reacher.ChildReach(k, c))
			}
			b += childBytes(p.Entries[c], reach)
			if symmetric {
				b += tiers[c].Size() / 8
			}
		}
		p.Tiers[k] = b
		if p.Done != nil && p.Done[k] {
			continue
		}
		together := 1
		if small(g, t, workers, p.SideBySide) && !p.Split[k] {
			together = p.SideBySide
		}
		if b*uint64(together) > p.Peak {
			p.Peak, p.Largest, p.Together = b*uint64(together), k, together
		}
	}
}

// movesPerEntry returns the mean number of moves of t's entries (its
// canonical positions for a symmetric game, illegal ones counting none),
// from a sample of classSamples positions, or all of them in a small tier.
func movesPerEntry(g implicit.Game, sym implicit.Symmetric, t implicit.Tier, r *rand.Rand) float64 {
	var buf []uint64
	entries, moves := 0, 0
	visit := func(s uint64) {
		if sym != nil && !sym.IsCanonical(s) {
			return
		}
		entries++
		if g.Classify(s) == implicit.Inner {
			buf = g.Moves(s, buf[:0])
			moves += len(buf)
		}
	}
	if n := t.Size(); n <= classSamples {
		for s := t.Start; s < t.End; s++ {
			visit(s)
		}
	} else {
		for range classSamples {
			visit(t.Start + r.Uint64N(n))
		}
	}
	if entries == 0 {
		return 0
	}
	return float64(moves) / float64(entries)
}

// DescribePeak says what is solved at the peak: a tier, or several small
// ones side by side.
func (p Plan) DescribePeak(tiers []implicit.Tier) string {
	if p.Peak == 0 && p.Done != nil && !slices.Contains(p.Done, false) {
		return "none: every tier is solved already"
	}
	t := tiers[p.Largest]
	what := fmt.Sprintf("tier %s (%d positions, about %d entries)", t.Name, t.Size(), p.Entries[p.Largest])
	if p.Split[p.Largest] {
		return fmt.Sprintf("a rank's share of %s, split across %d ranks", what, p.Ranks)
	}
	if p.Together > 1 {
		return fmt.Sprintf("%d small tiers side by side, the largest %s", p.Together, what)
	}
	return what
}
