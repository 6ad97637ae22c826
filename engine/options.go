package engine

import (
	"fmt"
	"io"
	"time"

	"github.com/retro-solver/retro/internal/text"
)

// Options tune a solve. The zero value is valid: all cores, no progress
// lines, memory limited by the machine. The first fields serve every engine;
// the others say which engines honour them (doc.go has the table), and the
// other engines ignore them.
type Options struct {
	// Progress, if not nil, receives a line about every ProgressEvery
	// (default one second) while a solve runs.
	Progress      io.Writer
	ProgressEvery time.Duration
	// MaxMemory bounds the bytes a solve may allocate for its own state; a
	// game that needs more is refused before anything is allocated. 0 means
	// the machine's physical memory.
	MaxMemory uint64

	// Workers is the number of goroutines of Parallel, Lean and
	// Distributed (on each rank); 0 means GOMAXPROCS.
	Workers int
	// Checkpoint, if not nil, has Parallel, Lean or Distributed save their
	// state at level barriers and start from the state saved there, if
	// any. Sequential refuses it.
	Checkpoint *Checkpoint
	// ReachableFrom, if not empty, has Parallel or Sequential solve only
	// the positions reachable from these by moves, found by a forward pass
	// first: the others come out Illegal, and the values of the reached
	// ones are those of the whole game. It costs one bit per index more
	// (three during the forward pass, before the solver's arrays exist).
	// Lean and Distributed refuse it.
	ReachableFrom []uint64

	// Workspace, if not nil, lends Parallel arrays from earlier solves and
	// keeps this solve's for later ones (see Workspace).
	Workspace *Workspace
	// Direction says how Parallel expands its levels: Auto (the zero value)
	// chooses per level; PushOnly, PullOnly and Alternate are for tests and
	// measurements. The result is the same whichever.
	Direction Direction
	// BlockBytes, if not 0, is the size of the blocks of Parallel's
	// blocked push levels (par_blocked.go), rounded down to a power of two
	// of at least 64 lanes, and has every push level blocked, for tests and
	// measurements; 0 blocks the levels of dense frontiers over lanes of 8
	// MiB or more, in blocks of 128 KiB. The result is the same whichever.
	BlockBytes uint64

	// Keep lists the positions whose depths a Lean solve keeps (the start,
	// say); the other engines keep every depth.
	Keep []uint64
	// DepthsOnDisk has a Lean solve keep every depth, in a file in folder
	// DepthDir (the system's temporary folder if ""), written level by level
	// and read back by the Result: about a byte per win or loss on disk,
	// nothing more in memory but a directory of the file (24 bytes per
	// 2^18 indices a level touches). The file has no name: it goes when the
	// Result does, or with the process; with a Checkpoint it is
	// Checkpoint.DepthsPath instead, so that a resumed solve finds it.
	DepthsOnDisk bool
	DepthDir     string

	// RoundBytes bounds the messages a rank of Distributed sends in one
	// round of a level (if 0, a 256th of the rank's state, from 64 KiB to
	// DistRoundBytes): the memory of the messages against the number of
	// exchanges.
	RoundBytes uint64
}

// reachBytesPerIndex is the memory per index that ReachableFrom adds to a
// solve: the set of reached positions.
func (o Options) reachBytesPerIndex() float64 {
	if len(o.ReachableFrom) == 0 {
		return 0
	}
	return 1.0 / 8
}

// laneWidth returns the counter width, 16 or 32 bits, for positions with up
// to maxMoves moves when spare bits of each lane are reserved.
func laneWidth(maxMoves uint64, spare uint) (uint, error) {
	switch {
	case maxMoves < 1<<(16-spare):
		return 16, nil
	case maxMoves < 1<<(32-spare):
		return 32, nil
	}
	return 0, fmt.Errorf("a position has %d moves: at most %d are supported", maxMoves, uint64(1)<<(32-spare)-1)
}

// CheckMemory refuses a solve of n positions taking bytesPerIndex bytes each
// when that is more than o.MaxMemory (or the machine's memory), with an
// error that says both.
func (o Options) CheckMemory(n uint64, bytesPerIndex float64) error {
	need := uint64(float64(n) * bytesPerIndex)
	limit := o.MaxMemory
	if limit == 0 {
		limit = PhysicalMemory()
	}
	if limit != 0 && need > limit {
		return fmt.Errorf("solving %d positions needs about %s, more than the %s allowed (see -max-memory)",
			n, text.HumanBytes(need), text.HumanBytes(limit))
	}
	return nil
}

// DepthLogBytes estimates the memory of a lean solve's depths on disk
// (Options.DepthsOnDisk) for n indices: the directory of the file, a
// record of 24 bytes per segment of 2^18 indices for each of about 64
// levels that touch it, and the workers' records in the making.
func DepthLogBytes(n uint64) uint64 {
	return (n>>depthSegShift+1)*64*24 + 1<<20
}
