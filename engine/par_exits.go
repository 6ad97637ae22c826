package engine

import (
	"context"
	"fmt"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// ExitKind says what the moves that leave a game (its exits) decide about
// a position, before any move inside the game is known.
type ExitKind uint8

// The kinds of exit.
const (
	// NoExit: the position has no exit.
	NoExit ExitKind = iota
	// ExitToLoss: an exit reaches a loss, the shallowest at Exit.Depth, so
	// the position is a win at depth Exit.Depth+1 unless a move inside
	// makes it a shallower one.
	ExitToLoss
	// ExitToWins: every exit reaches a win, the deepest at Exit.Depth, so
	// the position is a loss, if its moves inside all reach wins too, at a
	// depth of at least Exit.Depth+1.
	ExitToWins
	// ExitToDraw: no exit reaches a loss and one reaches a draw, so the
	// position is never a loss.
	ExitToDraw
)

// Exit sums up a position's exits: their kind and the depth that matters.
type Exit struct {
	Kind  ExitKind
	Depth uint64
}

// ExitGame is a Game some of whose moves leave it for positions already
// solved: a tier of a tiered game, whose moves into its children are
// looked up in their results. Moves and Unmoves list only the moves inside
// the game; ClassifyExits sums up the others. The parallel engine solves
// an ExitGame as if each exit were a move to a position of the known
// value and depth.
type ExitGame interface {
	implicit.Game
	// ClassifyExits returns Classify(s) and, for an Inner s, the number of
	// its moves inside the game and what its exits decide. Where they
	// decide that s is never a loss (ExitToLoss, ExitToDraw), its count is
	// never read down to zero, and any number from the count up to
	// MaxMoves() may stand for it (spared counting), unless the game has
	// no moves inside (OnePass); where none of s's moves, inside or exits,
	// reaches a win, any number from 1 to MaxMoves() may stand for a count
	// that is not 0 (implicit.LossBounder). buf is scratch space for
	// moves, returned (perhaps grown) for the next call.
	ClassifyExits(s uint64, buf []uint64) (implicit.Kind, uint64, Exit, []uint64)
	// MaxExitDepth bounds the Depth of every Exit.
	MaxExitDepth() uint64
}

// ExitRunner is an ExitGame whose positions are classified faster a
// worker's run of consecutive indices at a time: NewExitClassifier returns
// ClassifyExits for one worker, which keeps what an index shares with the
// next, or nil where the game has none.
type ExitRunner interface {
	NewExitClassifier() func(i uint64, buf []uint64) (implicit.Kind, uint64, Exit, []uint64)
}

// exitClassifiers returns g's ClassifyExits for each of the given number
// of workers, which classify chunks of consecutive indices: a classifier
// of each one's own where g has one (ExitRunner).
func exitClassifiers(g ExitGame, workers int) []func(uint64, []uint64) (implicit.Kind, uint64, Exit, []uint64) {
	classifiers := make([]func(uint64, []uint64) (implicit.Kind, uint64, Exit, []uint64), workers)
	r, runs := g.(ExitRunner)
	for w := range classifiers {
		classifiers[w] = g.ClassifyExits
		if !runs {
			continue
		}
		if c := r.NewExitClassifier(); c != nil {
			classifiers[w] = c
		}
	}
	return classifiers
}

// exitEvents is what the distributed engine keeps of an ExitGame's exits
// (the parallel engine keeps lists of them instead: exitLists, which codes
// its actions as these lanes do): for each position whose exits act at
// some level, that level and the action, in a lane of a packed array (0
// for no action, (level+1)<<1 | 0 for a win claim, (level+1)<<1 | 1 for a
// decrement of its count; for an Alternating game level+1, the action told
// by the level's parity: a win claim comes from a loss, of even depth, a
// decrement from a win, of odd depth); and how many actions each level
// has, so that levels without any skip the scan.
type exitEvents struct {
	lanes     bitset.Counters
	store     func(i, v uint64) // stores lane i, while other workers store others
	alternate bool              // the actions are coded as an Alternating game's
	atLevel   []uint64
	// chunkLevels[c] has bit d%256 set where a lane of chunk c (the
	// eventChunk lanes from c*eventChunk) held an action of level d when
	// it was made, at the first scan: a scan passes over the chunks
	// without one. A lane that becomes a depth leaves its bit set, which
	// costs a scan of its chunk and nothing else.
	chunkLevels [][4]uint64
}

// eventChunk is the number of lanes that one mask of levels covers: 32
// bytes for 4096 positions. A level's actions are clustered: on KRPvKR's
// tiers the chunks that held an action of a level were 1% to 40% of them,
// a sixth on average, and the scans of every index took about 4% of the
// solve's time before they passed over the others.
const eventChunk = 4096

// chunkMaskBytes is what the masks of levels add to the memory per index.
const chunkMaskBytes = 32.0 / eventChunk

// chunkWords returns the words of the lanes that a chunk covers.
func (ev *exitEvents) chunkWords() uint64 { return eventChunk * uint64(ev.lanes.Width()) / 64 }

// newExitEvents returns the events of n positions of g, none yet, coded
// as an Alternating game's where alternate is set.
func newExitEvents(g ExitGame, n uint64, alternate bool) *exitEvents {
	ev := &exitEvents{alternate: alternate}
	ev.setLanes(bitset.NewCounters(n, ev.width(g.MaxExitDepth())))
	return ev
}

// setLanes makes lanes the events' lanes.
func (ev *exitEvents) setLanes(lanes bitset.Counters) {
	ev.lanes, ev.store = lanes, storer(lanes)
	ev.chunkLevels = nil
}

// widen doubles the width of the lanes, for a depth that no longer fits
// in them.
func (ev *exitEvents) widen(ctx context.Context, workers int) error {
	if ev.lanes.Width() == 32 {
		return errTooDeep
	}
	wide, err := widened(ctx, workers, ev.lanes)
	ev.setLanes(wide)
	return err
}

// widened returns a copy of c (of 8 or 16 bits) in lanes twice as wide.
func widened(ctx context.Context, workers int, c bitset.Counters) (bitset.Counters, error) {
	n := c.Len()
	wide := bitset.NewCounters(n, 2*c.Width())
	err := parallel.For(ctx, workers, n, parallel.ChunkFor(n, workers, 4096), func(_ int, lo, hi uint64) error {
		for i := lo; i < hi; i++ {
			wide.Set(i, c.Get(i))
		}
		return nil
	})
	return wide, err
}

// exitBytesPerIndex is the memory an ExitGame's events add per index in
// the distributed engine, coded as an Alternating game's where alternate
// is set.
func exitBytesPerIndex(g implicit.Game, alternate bool) float64 {
	eg, ok := g.(ExitGame)
	if !ok {
		return 0
	}
	ev := exitEvents{alternate: alternate}
	return float64(ev.width(eg.MaxExitDepth()))/8 + chunkMaskBytes
}

// parExitBytesPerIndex is the memory an ExitGame's depths add per index
// in the parallel engine, beyond its lanes: a deep lane of 16 bits, the
// depths past what the lanes hold (its actions are on disk: exitLists).
func parExitBytesPerIndex(g implicit.Game) float64 {
	if _, ok := g.(ExitGame); ok {
		return 2
	}
	return 0
}

// ExitGameBytes bounds the parallel engine's memory for an ExitGame of n
// positions of at most maxMoves moves each (inside the game): its lanes,
// which hold its counts and its depths while they fit, and its deep lane
// counted at 16 bits (the depths past them, up to 65535 plies more).
func ExitGameBytes(n, maxMoves uint64) uint64 {
	w, err := countWidth(maxMoves + 1)
	if err != nil {
		w = 32
	}
	return uint64(float64(n) * (parBytesPerIndex(w) + 2))
}

// width returns the lane width for actions of levels up to maxLevel.
func (ev *exitEvents) width(maxLevel uint64) uint {
	switch event := ev.code(maxLevel, true); {
	case event < 1<<8:
		return 8
	case event < 1<<16:
		return 16
	}
	return 32
}

// code returns the lane value of an action at level: a decrement, or a
// win claim.
func (ev *exitEvents) code(level uint64, decrement bool) uint64 {
	if ev.alternate {
		return level + 1
	}
	if decrement {
		return (level+1)<<1 | 1
	}
	return (level + 1) << 1
}

// level returns the level of the action whose lane value is e (not 0).
func (ev *exitEvents) level(e uint64) uint64 {
	if ev.alternate {
		return e - 1
	}
	return e>>1 - 1
}

// event returns the lane value of an exit's action, and false if it has
// none (no exit, or a draw: the position's count is kept above zero). It
// panics on a depth of the wrong parity for an Alternating game.
func (ev *exitEvents) event(e Exit) (uint64, bool) {
	switch e.Kind {
	case ExitToLoss, ExitToWins:
		decrement := e.Kind == ExitToWins
		if ev.alternate && decrement != (e.Depth&1 == 1) {
			reached := "loss"
			if decrement {
				reached = "win"
			}
			panic(fmt.Sprintf("engine: an Alternating game's exit reaches a %s at depth %d", reached, e.Depth))
		}
		return ev.code(e.Depth, decrement), true
	}
	return 0, false
}

// lastLevel returns the last level with an action, and false if none has.
func (ev *exitEvents) lastLevel() (uint64, bool) {
	for d := len(ev.atLevel) - 1; d >= 0; d-- {
		if ev.atLevel[d] != 0 {
			return uint64(d), true
		}
	}
	return 0, false
}

// expandExits applies the exits' actions of level depth, as flush applies
// a frontier's: a win claim is an un-move from a loss of this level, a
// decrement one from a win. Positions resolved by them join the next
// frontier.
func (s *parSolver) expandExits(ctx context.Context, depth uint64) error {
	lanes, code := s.lanes, s.codeShift
	return s.exits.scan(ctx, s.workers, depth, func(w int, p uint64, decrement bool) {
		if lanes.AtomicGet(p)>>code != 0 {
			return
		}
		if !decrement {
			if lanes.Or(p, uint64(Win)<<code)>>code == 0 {
				s.next.Emit(w, p)
			}
		} else if lanes.Dec(p) == 0 {
			lanes.Or(p, uint64(Loss)<<code)
			s.next.Emit(w, p)
		}
	})
}

// scan calls act, on the given number of workers (w: the worker's number),
// for each position whose exits act at level depth: a decrement, or a win
// claim. Levels without an action are skipped at once, and chunks without
// one of this level (chunkLevels, made at the first scan) too.
func (ev *exitEvents) scan(ctx context.Context, workers int, depth uint64, act func(w int, p uint64, decrement bool)) error {
	if depth >= uint64(len(ev.atLevel)) || ev.atLevel[depth] == 0 {
		return nil
	}
	if ev.chunkLevels == nil {
		if err := ev.indexChunks(ctx, workers); err != nil {
			return err
		}
	}
	// An alternating game's actions of a level are all of one kind, told
	// by its parity; another's differ in their low bit, which the match
	// leaves out.
	claim, decrement := ev.code(depth, false), depth&1 == 1
	words := ev.lanes.Words()
	width := ev.lanes.Width()
	perWord := uint64(64 / width)
	perChunk := ev.chunkWords()
	laneMask := uint64(1)<<width - 1
	bit := depth & 255
	// A word holds a lane of this level if some lane, its low bit
	// cleared unless the game alternates, equals claim: one lane of y = 0.
	// The test for a zero lane (any lane's top bit set in (y - ones) &^ y)
	// is exact for the word as a whole, so a word without one is passed
	// over in a few operations.
	ones := ^uint64(0) / laneMask // the low bit of each lane
	tops := ones << (width - 1)
	claims := claim * ones
	low := ones // the bits the match leaves out
	if ev.alternate {
		low = 0
	}
	chunks := uint64(len(ev.chunkLevels))
	return parallel.For(ctx, workers, chunks, parallel.ChunkFor(chunks, workers, 1), func(w int, lo, hi uint64) error {
		for c := lo; c < hi; c++ {
			if ev.chunkLevels[c][bit>>6]&(1<<(bit&63)) == 0 {
				continue
			}
			for wi := c * perChunk; wi < min((c+1)*perChunk, uint64(len(words))); wi++ {
				x := words[wi]
				if y := x&^low ^ claims; (y-ones)&^y&tops == 0 {
					continue
				}
				for l := range perWord {
					e := x >> (l * uint64(width)) & laneMask
					switch {
					case ev.alternate && e == claim:
						act(w, wi*perWord+l, decrement)
					case !ev.alternate && e&^1 == claim:
						act(w, wi*perWord+l, e&1 == 1)
					}
				}
			}
		}
		return nil
	})
}

// indexChunks makes chunkLevels from the lanes: each nonzero lane counts
// as an action (a depth stored in place of one only makes its chunk
// scanned for nothing).
func (ev *exitEvents) indexChunks(ctx context.Context, workers int) error {
	words := ev.lanes.Words()
	width := uint64(ev.lanes.Width())
	perChunk := ev.chunkWords()
	laneMask := uint64(1)<<width - 1
	chunks := (ev.lanes.Len() + eventChunk - 1) / eventChunk
	levels := make([][4]uint64, chunks)
	err := parallel.For(ctx, workers, chunks, parallel.ChunkFor(chunks, workers, 1), func(_ int, lo, hi uint64) error {
		for c := lo; c < hi; c++ {
			var m [4]uint64
			for _, x := range words[c*perChunk : min((c+1)*perChunk, uint64(len(words)))] {
				for ; x != 0; x >>= width {
					if e := x & laneMask; e != 0 {
						d := ev.level(e) & 255
						m[d>>6] |= 1 << (d & 63)
					}
				}
			}
			levels[c] = m
		}
		return nil
	})
	ev.chunkLevels = levels
	return err
}

// recount fills atLevel from the lanes of the positions acting tells
// apart (nil: every lane is an action or 0).
func (ev *exitEvents) recount(acting func(i uint64) bool) {
	ev.atLevel, ev.chunkLevels = ev.atLevel[:0], nil
	for i := range ev.lanes.Len() {
		if e := ev.lanes.Get(i); e != 0 && (acting == nil || acting(i)) {
			ev.count(e, 1)
		}
	}
}

// count adds k actions to the level of action e.
func (ev *exitEvents) count(e, k uint64) { ev.countLevel(ev.level(e), k) }

// countLevel adds k actions to level d.
func (ev *exitEvents) countLevel(d, k uint64) {
	for uint64(len(ev.atLevel)) <= d {
		ev.atLevel = append(ev.atLevel, 0)
	}
	ev.atLevel[d] += k
}
