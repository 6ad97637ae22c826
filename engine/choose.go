package engine

import (
	"fmt"

	"github.com/retro-solver/retro/implicit"
)

// Kind names one of the engines (doc.go has the table of what each takes
// and honours). The zero value, KindAuto, asks Choose to pick.
type Kind uint8

const (
	KindAuto     Kind = iota // let Choose pick one of the others
	KindPar                  // Parallel: 2 to 4 bytes per index, every depth in memory
	KindLean                 // Lean: half a byte per index, depths of some positions or on disk
	KindSeq                  // Sequential: the reference, one goroutine
	KindDist                 // Distributed: Parallel's pass over the ranks of a Comm
	KindDistLean             // DistributedLean: Lean's pass over the ranks of a Comm
)

var kindNames = [...]string{"auto", "par", "lean", "seq", "dist", "dist-lean"}

// String returns the kind's name as -engine spells it: "auto", "par",
// "lean", "seq", or "dist" and "dist-lean" (which -engine does not take:
// they are par and lean under mpirun).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// ParseKind reads the name of an engine that a user may ask for: auto,
// par, lean or seq.
func ParseKind(s string) (Kind, error) {
	for k, name := range kindNames[:KindDist] {
		if s == name {
			return Kind(k), nil
		}
	}
	return 0, fmt.Errorf("-engine %q: want auto, par, lean or seq", s)
}

// Bytes returns the memory engine k allocates for its own arrays to solve
// a game of n indices whose positions have at most maxMoves moves, without
// what Options add (ReachableFrom, DepthsOnDisk) and without the slack of
// its lists and buffers (see Request.Bytes). KindDist counts KindPar's arrays for
// the whole game, an upper bound of one rank's at 2 ranks or more while it
// solves (Request.Bytes counts DistBytes, rank 0's at the gather); KindAuto
// counts nothing.
func (k Kind) Bytes(n, maxMoves uint64) uint64 {
	switch k {
	case KindPar, KindDist:
		w, err := laneWidth(maxMoves, 2)
		if err != nil {
			w = 32
		}
		return uint64(float64(n) * parBytesPerIndex(w))
	case KindLean, KindDistLean:
		// The nibbles, rounded up to the 2 MiB pages they are mapped in,
		// the lists of small levels and, in one process, of candidate
		// losses (a rank checks its candidates from its own lists).
		lists := n / 64
		if k == KindLean {
			lists = 3 * n / 128
		}
		return uint64(float64(n)*LeanBytesPerIndex) + 2<<20 + lists
	case KindSeq:
		w, err := laneWidth(maxMoves, 0)
		if err != nil {
			w = 32
		}
		return uint64(float64(n) * seqBytesPerIndex(w))
	}
	return 0
}

// Slack is the share by which an engine's peak exceeds the arrays
// Kind.Bytes counts: frontier lists and workers' buffers that grow with the
// levels (measured: 3 to 9% on quixo, police, pawns and teeko).
const Slack = 1.05

// WithSlack returns b grown by Slack: the peak of an engine whose arrays
// take b bytes.
func WithSlack(b uint64) uint64 { return uint64(float64(b) * Slack) }

// CheapList is the most an inner position's moves may cost to list, in
// steps of the core (ListCost), for Choose to pick the lean engine: under
// a cache miss, which is what the parallel engine's counter costs instead
// (about 150 ns, 100 to 160 steps, on both machines ListCost names). 65
// steps is half-way between police and pawns (31 at most) and dobutsu (139
// at least), by ratio: 2.1 either way; since each sample is divided by a
// step of its own, 36 at most and 145 at least on a 2-core AMD EPYC guest,
// 2026-11-29 (police 96 x 96 at one worker on the
// Xeon guest: lean 18.1 s in 81 MiB, par 20.4 s in 322 MiB; dobutsu lean
// takes over 10 minutes against par's 3.6).
const CheapList = 65

// Request is what a solve asks of its engine: the kind asked for, the game,
// and the facts that decide which engines can serve it. Choose picks the
// engine; Refusal says why one cannot serve.
type Request struct {
	Asked Kind          // the -engine asked for; KindAuto lets Choose pick
	Game  implicit.Game // the game to solve; nil while only flags are checked
	// HasStart says the game starts from one position, whose depth every
	// engine keeps (a game without one is answered index by index).
	HasStart bool
	// Reachable asks for the positions reachable from the start only
	// (Options.ReachableFrom), with every depth in memory.
	Reachable bool
	// Tiered says the game is solved tier by tier (package tier), by the
	// parallel engine over each tier.
	Tiered bool
	// Distributed says the solve runs on the ranks of a Comm (mpirun),
	// Ranks of them.
	Distributed bool
	Ranks       int
	// DepthsOnDisk says every depth is needed and may be kept on disk
	// (Options.DepthsOnDisk: a database is written).
	DepthsOnDisk bool
	// ReadBuffers is the memory that reading depths back from disk takes
	// besides the file's directory (the database writer's runs), counted
	// with the lean engine's when DepthsOnDisk.
	ReadBuffers uint64
}

// Refusal returns why engine k cannot serve r, in words for a user after
// "-engine K: ", or "" if it can. Fields r leaves false or nil (Game, say,
// while only the flags are checked) refuse nothing.
func (r Request) Refusal(k Kind) string {
	switch k {
	case KindLean:
		switch {
		case r.Reachable:
			return "the lean mode solves the whole game (no -reachable)"
		case r.Tiered:
			return "-tiered is another engine"
		case r.Game != nil && !r.HasStart && !r.DepthsOnDisk && !r.Distributed:
			return "the game has no start, and without -db the lean mode keeps no depths but the start's"
		}
	case KindSeq:
		if r.Distributed {
			return "runs in one process, not under mpirun"
		}
	case KindDistLean:
		switch {
		case r.Reachable:
			return "the lean mode solves the whole game (no -reachable)"
		case r.Tiered:
			return "-tiered is another engine"
		}
	}
	return ""
}

// Bytes returns the memory engine k takes at its peak to solve r.Game:
// its arrays (Kind.Bytes; DistBytes and DistLeanBytes, the largest
// rank's, for KindDist and KindDistLean, gathering to rank 0 where the
// game has no start), the set of reached positions with Reachable,
// the depths' directory and ReadBuffers for KindLean with DepthsOnDisk, and
// the Slack of its lists.
func (r Request) Bytes(k Kind) uint64 {
	n := r.Game.Size()
	b := k.Bytes(n, r.Game.MaxMoves())
	switch k {
	case KindDist:
		b = DistBytes(n, r.Game.MaxMoves(), r.Ranks, !r.HasStart)
	case KindDistLean:
		b = DistLeanBytes(n, r.Game.MaxMoves(), r.Ranks, !r.HasStart) + r.ReadBuffers
	}
	if k == KindLean && r.DepthsOnDisk {
		b += DepthLogBytes(n) + r.ReadBuffers
	}
	if r.Reachable {
		b += n / 8
	}
	return WithSlack(b)
}

// A RefusedError says that the engine asked for cannot serve the request.
type RefusedError struct {
	Kind Kind
	Why  string // Request.Refusal's words
}

func (e *RefusedError) Error() string { return fmt.Sprintf("-engine %s: %s", e.Kind, e.Why) }

// Choose returns the engine that solves r, and whether it fell back to the
// lean engine because the parallel one did not fit. fits says whether an
// engine's solve fits in the memory allowed (nil: every one does), and its
// error is returned when the engine chosen does not.
//
// An engine asked for is used if it can serve r (a RefusedError if not);
// under Distributed, KindPar is KindDist and KindLean is KindDistLean.
// KindAuto picks (under Distributed, KindDist for KindPar and KindDistLean
// for KindLean):
//   - KindLean for a game with a start whose positions' moves cost less
//     than CheapList steps to list (ListCost), when nothing asked needs every
//     depth in memory: recounting a position's moves then costs less than
//     the cache miss of keeping a counter (police and pawns solve about
//     twice as fast, in a third of the memory);
//   - KindPar otherwise (moves that need canonical forms, a game without a
//     start), and KindLean instead when KindPar does not fit and KindLean can serve.
func Choose(r Request, fits func(Kind) error) (Kind, bool, error) {
	if fits == nil {
		fits = func(Kind) error { return nil }
	}
	if r.Asked != KindAuto {
		k := r.Asked
		switch {
		case k == KindPar && r.Distributed:
			k = KindDist
		case k == KindLean && r.Distributed:
			k = KindDistLean
		}
		if why := r.Refusal(k); why != "" {
			return 0, false, &RefusedError{r.Asked, why}
		}
		return k, false, fits(k)
	}
	par, lean := KindPar, KindLean
	if r.Distributed {
		par, lean = KindDist, KindDistLean
	}
	leanServes := r.Refusal(lean) == ""
	k := par
	if leanServes && r.HasStart && r.Game != nil && ListCost(r.Game) < CheapList {
		k = lean
	}
	err := fits(k)
	if err == nil || k != par || !leanServes {
		return k, false, err
	}
	if err := fits(lean); err != nil {
		return 0, false, err
	}
	return lean, true, nil
}
