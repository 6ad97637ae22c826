package implicit

import "errors"

// Kind classifies an index of a game.
type Kind uint8

// The kinds of index. Their numeric values are the 2-bit codes the engines
// store per position (0 unresolved, 1 win, 2 loss, 3 illegal).
const (
	// Inner is a legal position whose value follows from its moves. An inner
	// position with no moves is a loss for the player to move (normal play).
	Inner Kind = iota
	// TerminalWin is a legal position where the game is over and the player
	// to move has won.
	TerminalWin
	// TerminalLoss is a legal position where the game is over and the player
	// to move has lost.
	TerminalLoss
	// Illegal is an index that is no position (a piece on a wall, two pieces
	// on one cell, a symmetric image of another index): solvers skip it.
	Illegal
)

var kindNames = [...]string{"inner", "terminal win", "terminal loss", "illegal"}

// String returns the kind's name: "inner", "terminal win", "terminal loss"
// or "illegal".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid kind"
}

// Game is a two-player game whose positions are numbered [0, Size()).
//
// The contract, which Check tests:
//   - Moves(s) and Unmoves(t) are defined for legal s and t (Classify not
//     Illegal) and return only legal indices.
//   - Terminal positions (TerminalWin, TerminalLoss) have no moves.
//   - For every legal s and t, t appears among Moves(s) exactly as many times
//     as s appears among Unmoves(t): repeated moves and self-loops count,
//     and a terminal s never appears among un-moves.
//   - No position has more than MaxMoves() moves.
//
// Moves and Unmoves append to the caller's buffer and return it, so a solver
// makes one call per position, not per edge, and no hot path allocates.
// All methods must be safe for concurrent use by many goroutines.
type Game interface {
	// Size returns the number of indices, N.
	Size() uint64
	// Classify returns the kind of index s.
	Classify(s uint64) Kind
	// Moves appends the positions reachable from s in one move to dst.
	Moves(s uint64, dst []uint64) []uint64
	// Unmoves appends the positions that reach t in one move to dst.
	Unmoves(t uint64, dst []uint64) []uint64
	// MaxMoves returns an upper bound on the number of moves of any position.
	MaxMoves() uint64
}

// Describer is a Game that can show a position in its own notation (a
// board, a vertex number), for statistics and examples.
type Describer interface {
	Describe(s uint64) string
}

// MoveCounter is a Game that can count a position's moves without listing
// them: NumMoves(s) must equal len(Moves(s, nil)). Engines use it, where a
// game offers it, to size their counters without generating every move.
type MoveCounter interface {
	NumMoves(s uint64) uint64
}

// MoveCounterOf returns a function that counts the moves of a position: g's
// NumMoves where g is a MoveCounter, otherwise the length of Moves listed
// into buf (returned, perhaps grown, for the next call).
func MoveCounterOf(g Game) func(s uint64, buf []uint64) (uint64, []uint64) {
	if mc, ok := g.(MoveCounter); ok {
		return func(s uint64, buf []uint64) (uint64, []uint64) { return mc.NumMoves(s), buf }
	}
	return func(s uint64, buf []uint64) (uint64, []uint64) {
		buf = g.Moves(s, buf[:0])
		return uint64(len(buf)), buf
	}
}

// MoveProber is a MoveCounter that tells whether a position has a move for
// much less than counting its moves costs (quixo over its classes, where
// a move's class needs a canonical form and having one is a test of bits).
// The parallel engine then classifies with ProbeMoves alone and counts an
// unresolved position's moves (NumMoves) only when one of them first
// reaches a win: the positions that a loss makes wins before that, half
// of quixo 4x4's, are never counted.
type MoveProber interface {
	MoveCounter
	Prober
}

// Prober is what a MoveProber adds to a MoveCounter, and what a game over
// whose positions another numbers its classes (Compact, a tier's view)
// offers for that one to probe them.
type Prober interface {
	// ProbeMoves returns Classify(s) and, for an Inner s, whether it has
	// a move: NumMoves(s) > 0.
	ProbeMoves(s uint64) (Kind, bool)
}

// moveProberSource is a game that probes and counts through another (a
// Compact through the game of its classes): moveProber returns nil
// functions when that one cannot.
type moveProberSource interface {
	moveProber() (probe func(s uint64) (Kind, bool), count func(s uint64) uint64)
}

// MoveProberOf returns g's ProbeMoves and NumMoves where g is a MoveProber,
// or passes one on, and ok false otherwise.
func MoveProberOf(g Game) (probe func(s uint64) (Kind, bool), count func(s uint64) uint64, ok bool) {
	if ps, is := g.(moveProberSource); is {
		probe, count = ps.moveProber()
		return probe, count, probe != nil
	}
	if mp, is := g.(MoveProber); is {
		return mp.ProbeMoves, mp.NumMoves, true
	}
	return nil, nil, false
}

// UnmoveCounter is a Game that can count a position's un-moves without
// listing them: NumUnmoves(t) must equal len(Unmoves(t, nil)). The parallel
// engine's pull levels use it to count the edges they would have walked
// back.
type UnmoveCounter interface {
	NumUnmoves(t uint64) uint64
}

// UnmoveTallier is a Game that counts a position's un-moves for less than
// listing them costs, though not for nothing as an UnmoveCounter does (a
// symmetric game over its classes counts their representatives without
// numbering them): CountUnmoves(t, buf) returns len(Unmoves(t, nil)), with
// buf (returned, perhaps grown) for scratch.
type UnmoveTallier interface {
	CountUnmoves(t uint64, buf []uint64) (uint64, []uint64)
}

// UnmoveCounterOf returns a function that counts the un-moves of a
// position: g's NumUnmoves where g is an UnmoveCounter, its CountUnmoves
// where g is an UnmoveTallier, otherwise the length of Unmoves listed into
// buf (returned, perhaps grown, for the next call).
func UnmoveCounterOf(g Game) func(t uint64, buf []uint64) (uint64, []uint64) {
	if uc, ok := g.(UnmoveCounter); ok {
		return func(t uint64, buf []uint64) (uint64, []uint64) { return uc.NumUnmoves(t), buf }
	}
	if ut, ok := g.(UnmoveTallier); ok {
		return ut.CountUnmoves
	}
	return func(t uint64, buf []uint64) (uint64, []uint64) {
		buf = g.Unmoves(t, buf[:0])
		return uint64(len(buf)), buf
	}
}

// InEdger is a Game whose un-moves are stored as lists of 32-bit indices
// in one table (an explicit graph's in-edges, in compressed sparse row
// form): InEdges returns it, t's un-moves being src[off[t]:off[t+1]], the
// positions Unmoves(t) appends, in the same order; off has Size()+1
// entries. The caller must not change them. The parallel engine's blocked
// levels walk the lists where they lie, in place of Unmoves' copy, and ask
// for the memory of each a little ahead of it (a prefetch instruction), so
// that their cache misses overlap: with the table at hand, neither costs a
// call a position.
type InEdger interface {
	InEdges() (off, src []uint32)
}

// Alternating is a Game that has no TerminalWin, nor do the games its
// tiers' exits lead to, so that every win's depth is odd and every loss's
// even: Alternates reports it (a tier of a game that is forwards it).
// The parallel engine then tells an exit's action (a claim of a win, or a
// count taken back) by its level's parity, and keeps a resolved position's
// depth halved in its lane (twice as deep before the depths need a lane of
// their own). It changes nothing else; an engine that finds a depth of the
// wrong parity panics, and one that finds a TerminalWin fails.
type Alternating interface {
	Alternates() bool
}

// Alternates reports whether g is an Alternating game that says so.
func Alternates(g Game) bool {
	a, ok := g.(Alternating)
	return ok && a.Alternates()
}

// RepeatMover is a Game whose Moves lists each position once, at the cost
// of deduplicating them (a symmetric game over its classes, two of whose
// moves may reach one class): MovesWithRepeats(s) appends the same
// positions, in any order, one that several of s's moves reach once for
// each of them. An engine that looks each move up in a set and counts the
// distinct ones found (a pull level) deduplicates those few itself. A game
// whose Moves may list a position twice (a graph's parallel edges, each a
// move of its own) is no RepeatMover.
type RepeatMover interface {
	MovesWithRepeats(s uint64, dst []uint64) []uint64
}

// MovesWithRepeatsOf returns g's MovesWithRepeats and true where g is a
// RepeatMover, otherwise g's Moves and false: each move it lists then
// counts, repeats included (a graph's parallel edges).
func MovesWithRepeatsOf(g Game) (moves func(s uint64, dst []uint64) []uint64, repeats bool) {
	if rm, ok := g.(RepeatMover); ok {
		return rm.MovesWithRepeats, true
	}
	return g.Moves, false
}

// ClassifyCounter is a MoveCounter that classifies a position and counts
// its moves in one call, sharing the work the two calls would each do
// (decoding the index): engines call it once per index to start a solve.
type ClassifyCounter interface {
	MoveCounter
	// ClassifyCount returns Classify(s) and, for an Inner s, NumMoves(s);
	// 0 moves for the other kinds.
	ClassifyCount(s uint64) (Kind, uint64)
}

// RangeCounter is a MoveCounter all of whose indices are Inner positions,
// which counts the moves of a run of consecutive positions in one call (a
// graph's out-degrees, the differences of its offsets): the parallel
// engine's classification then streams the counts from memory, where a
// call or two per position took a tenth of a random graph's solve.
type RangeCounter interface {
	MoveCounter
	// CountMoves writes NumMoves(lo+j) to counts[j] for every j, lo+j
	// below Size().
	CountMoves(lo uint64, counts []uint32)
}

// EndLister is a Game that finds, in a run of consecutive indices, the few
// whose value is known before any move is made: the terminal positions,
// the illegal indices and the inner positions without a move. The lean
// engines' classification then touches those alone, where it classified
// every index (police 64 x 64: a tenth of its solve).
type EndLister interface {
	// Ends appends to dst, in increasing order, every index s in [lo, hi)
	// whose Classify(s) is not Inner, and every Inner one without a move,
	// with its kind (Inner for one without a move).
	Ends(lo, hi uint64, dst []End) []End
}

// End is an index that an EndLister lists, and its kind.
type End struct {
	Index uint64
	Kind  Kind
}

// MoveClassifier is a Game that classifies a position and lists its moves
// in one call, decoding the index once: a verify calls it once per
// position it checks.
type MoveClassifier interface {
	// ClassifyMoves returns Classify(s) and, for an Inner s, dst with
	// Moves(s, dst) appended; dst as it is for the other kinds.
	ClassifyMoves(s uint64, dst []uint64) (Kind, []uint64)
}

// ClassifierOf returns a function that classifies a position and counts
// its moves if it is Inner: for the classes of a ClassCounter (Compact,
// Reduced) its ClassifyClasses, g's ClassifyCount where g is a
// ClassifyCounter, otherwise Classify and MoveCounterOf(g), with buf as
// MoveCounterOf's.
func ClassifierOf(g Game) func(s uint64, buf []uint64) (Kind, uint64, []uint64) {
	if cs, ok := g.(classifierSource); ok {
		if f := cs.classifier(); f != nil {
			return f
		}
	}
	if cc, ok := g.(ClassifyCounter); ok {
		return func(s uint64, buf []uint64) (Kind, uint64, []uint64) {
			k, n := cc.ClassifyCount(s)
			return k, n, buf
		}
	}
	count := MoveCounterOf(g)
	return func(s uint64, buf []uint64) (Kind, uint64, []uint64) {
		k := g.Classify(s)
		if k != Inner {
			return k, 0, buf
		}
		n, buf := count(s, buf)
		return k, n, buf
	}
}

// Notation is a Game that also reads positions in its own notation, the
// text Describe writes: ParsePosition(Describe(s)) == s for every legal s.
// Errors say what is wrong with the text.
type Notation interface {
	Describer
	ParsePosition(text string) (uint64, error)
}

// ErrNoNotation is what ParsePosition returns for a game that wraps
// another (Compact, Reduced) when the game wrapped has no Notation.
var ErrNoNotation = errors.New("implicit: the game has no position notation")

// PositionCounter is a Game whose indices stand for classes of positions
// (a position and its symmetric images): Positions(s) is the number of
// positions index s stands for, or 0 for an index kept for the solver that
// players do not count as a position (the end of a game just after a king
// is taken). Counts of positions, such as those reachable from the start,
// give both the classes and the positions.
type PositionCounter interface {
	Game
	Positions(s uint64) uint64
}

// AsPlayed is a Game whose index keeps one position of each class of
// symmetric positions by design (not through Symmetric and Compact), and
// that can give players every position as it stands: Played returns the
// game over every position, whose notation, moves and un-moves are those
// of the board as played, and Class maps its positions to this game's
// indices. Queries, play and the web page show Played's positions and
// look their values up through Class; solves and verify use this game.
type AsPlayed interface {
	Game
	Played() Game
	Class(s uint64) uint64
}

// TurnedDescriber is a Describer whose index keeps each position as the
// player to move sees it, the second player's positions being stored as
// their images with the colours swapped (and the board turned): Describe
// writes every index with the first player to move. DescribeTurned writes
// index s as the image with the second player to move, so that a game
// played from the start can show each position as it stands on the table.
type TurnedDescriber interface {
	Describer
	DescribeTurned(s uint64) string
}

// Sizer is a Game that knows the memory its own structures take (an
// explicit graph's arrays, a compact game's rank tables), so that a solve's
// memory estimate can count them beside the solver's.
type Sizer interface {
	Bytes() uint64
}

// BytesOf returns g's Bytes if g is a Sizer, and 0 otherwise.
func BytesOf(g Game) uint64 {
	if s, ok := g.(Sizer); ok {
		return s.Bytes()
	}
	return 0
}

// Sectioned is a Game that answers with the counts of parts of its index,
// a line each, instead of its counts as a whole (Descriptor.Counts): a
// chess endgame's positions with White to move, then those with Black to
// move. Each line reads "NAME: W wins, D draws, L losses; longest win A
// plies, longest loss B plies", counting indices (illegal ones left out).
type Sectioned interface {
	Game
	Sections() []Section
}

// Section is the part [Start, End) of a game's index, called Name.
// Sections of one name are one part, answered in one line where the first
// of them stands.
// Weight, where set, is how many positions index i counts for in the
// section's line (nil: one each): a chess position with two white queens
// is one index and counts as the classes of its queens told apart, as the
// published statistics count them. It is called on the indices of legal
// positions only.
type Section struct {
	Name       string
	Start, End uint64
	Weight     func(i uint64) uint64
}

// MoveNamer is a Game that names its moves in a notation of its own:
// MoveName(s, t) is the name of the move from position s to t (chess's
// UCI form, "e7e8q"), or "" if t is not among s's moves. Queries print it
// beside each move.
type MoveNamer interface {
	MoveName(s, t uint64) string
}
