// Package query answers questions about a solved game from its values, in
// memory (engine.Result) or on disk (a db.Table): a position's value and
// depth, its moves best first, and Verify, the check of a whole solution
// against the game's rules.
package query

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
)

// Solved is a game with its values. Positions are the game's own indices;
// Index maps one to its index in Values (a symmetric game's values are
// stored once per class), or is nil when they are the same.
type Solved struct {
	Game   implicit.Game
	Values engine.Values
	Index  func(s uint64) uint64
}

// Entry is a position's value and depth.
type Entry struct {
	Value engine.Value
	Depth uint64
}

// String writes the entry as retro query prints it (docs/database.md): "win 3", "loss 2", "draw",
// "unreached" (see Name); "win" for a win whose depth is not known (engine.NoDepth), and
// "win or draw" for a position stored as either (Undecided).
func (e Entry) String() string {
	if e.Undecided() {
		return "win or draw"
	}
	if d := e.DepthOf(); d != nil && *d != engine.NoDepth {
		return fmt.Sprintf("%s %d", e.Name(), *d)
	}
	return e.Name()
}

// Name names the entry's value: "win", "loss", "draw", or "unreached" for
// a legal position without a value, left out of a solve of what the start
// reaches (engine.Options.ReachableFrom).
func (e Entry) Name() string {
	if e.Value == engine.Illegal {
		return "unreached"
	}
	return e.Value.String()
}

// DepthOf returns the entry's depth for a win or a loss, and nil for the
// others, as JSON answers leave it out.
func (e Entry) DepthOf() *uint64 {
	if e.Value != engine.Win && e.Value != engine.Loss {
		return nil
	}
	d := e.Depth
	return &d
}

// Undecided reports whether the entry is a position stored as a win or a
// draw, which its moves tell (a draw at engine.NoDepth: db.Losses).
func (e Entry) Undecided() bool { return e.Value == engine.Draw && e.Depth == engine.NoDepth }

// Move is a move to position To, with To's entry (for the player to move
// there, the opponent).
type Move struct {
	To uint64
	Entry
}

// Lookup returns the value and depth of position s. What the values leave
// for its moves to tell is found from them (see WinDepths): the depth of a
// win (engine.NoDepth), and whether a position stored as a win or a draw
// (Undecided) is one or the other. A win without a move to a loss is an
// error, as the values are wrong.
func (p Solved) Lookup(s uint64) (Entry, error) {
	e, err := p.stored(s)
	if err != nil || e.Depth != engine.NoDepth {
		return e, err
	}
	d, err := winDepth(p.Game, s, func(t uint64) (engine.Value, uint64, error) {
		e, err := p.stored(t)
		return e.Value, e.Depth, err
	})
	switch {
	case err != nil:
	case d != engine.NoDepth:
		e = Entry{engine.Win, d}
	case e.Value == engine.Win:
		err = fmt.Errorf("position %d is stored as a win without a move to a loss: the values are wrong", s)
	default:
		e = Entry{engine.Draw, 0}
	}
	return e, err
}

// stored returns the value and depth that p.Values hold for position s.
func (p Solved) stored(s uint64) (Entry, error) {
	if s >= p.Game.Size() {
		return Entry{}, fmt.Errorf("position %d is out of range: the game has %d", s, p.Game.Size())
	}
	i := s
	if p.Index != nil {
		i = p.Index(s)
	}
	v, d, err := p.Values.Lookup(i)
	return Entry{v, d}, err
}

// WinDepths returns v, whose indices are g's, with the depths of its wins
// found again where v leaves them out (engine.NoDepth: a database that
// keeps the depths of losses only, db.LossDepths): a win's depth is 0 if
// the game ends there, otherwise one more than the least depth among the
// losses it moves to, as the winner hurries. A win without a move to a
// loss keeps NoDepth, and Verify reports it. A position stored as a win or
// a draw (Undecided: db.Losses) is a win so found if it moves to a loss, a
// draw otherwise.
func WinDepths(g implicit.Game, v engine.Values) engine.Values { return &winDepths{g: g, v: v} }

// WinDepthsMemo is WinDepths keeping the depths it finds in a table of
// memoBytes (8 bytes an entry; at most MaxMemoBytes), the bytes a
// command's memory plan sets aside for it, each index in one entry that
// others may take: a Verify asks for a win's depth once for every loss
// that moves to it, and finds most of them there instead of reading the
// win's moves again.
func WinDepthsMemo(g implicit.Game, v engine.Values, memoBytes uint64) engine.Values {
	w := &winDepths{g: g, v: v}
	if n := min(memoBytes, MaxMemoBytes) / 8; n > 0 {
		w.memo = make([]atomic.Uint64, n)
	}
	return w
}

// MaxMemoBytes bounds WinDepthsMemo's table: 4 Mi entries. On a chess
// endgame with pawns (KBBPvK, compact), it made Verify 2.3 times as fast
// as without one.
const MaxMemoBytes = 32 << 20

type winDepths struct {
	g implicit.Game
	v engine.Values
	// memo holds (index+1)<<16 | depth, at entry memoSlot(index); 0 for
	// none.
	memo []atomic.Uint64
	// table holds 1 + the depth of win i, or tableDraw for a draw, for i
	// below tableLen where VerifyRange has checked i or a lookup has found
	// it from its moves (WinDepthsTable), 0 otherwise: depths of 254 and
	// more, and those of the positions not found yet, are found as above.
	table    byteTable
	tableLen uint64
}

// byteTable is a byte for each index, which many workers read and set at
// once: a byte is set once, from 0, and keeps the first value set (every
// setter finds the same one, from the same moves and values). Four bytes
// share an atomic word.
type byteTable []atomic.Uint32

func newByteTable(n uint64) byteTable { return make(byteTable, (n+3)/4) }

// get returns byte i, 0 where it is not set.
func (t byteTable) get(i uint64) uint8 { return uint8(t[i/4].Load() >> (i % 4 * 8)) }

// set sets byte i to b (not 0) unless it is set already.
func (t byteTable) set(i uint64, b uint8) {
	w, shift := &t[i/4], i%4*8
	for {
		old := w.Load()
		if uint8(old>>shift) != 0 || w.CompareAndSwap(old, old|uint32(b)<<shift) {
			return
		}
	}
}

// keep keeps what Lookup found of position i, a win at depth d (or a
// draw, with draw set): in the table where it covers i (a win of depth 254
// or more there is found from its moves again each time: few are so
// deep), in the memo at slot otherwise (nil for none).
func (w *winDepths) keep(i uint64, slot *atomic.Uint64, d uint64, draw bool) {
	switch {
	case i < w.tableLen && draw:
		w.table.set(i, tableDraw)
	case i < w.tableLen:
		if d < tableDraw-1 {
			w.table.set(i, uint8(d+1))
		}
	case slot != nil && draw:
		slot.Store((i+1)<<16 | memoDraw)
	case slot != nil && d < memoDraw:
		slot.Store((i+1)<<16 | d)
	}
}

// tableDraw is a draw in winDepths.table, memoDraw in its memo.
const (
	tableDraw = 0xff
	memoDraw  = 0xffff
)

// WinDepthsTable is WinDepthsMemo with a byte for each index of [0, n)
// besides (n bytes), where VerifyRange keeps the depths of the wins as
// their checks find them: it checks the wins first, then the losses,
// which read the depths of the wins they move to there. A loss then
// costs the reading of its own moves only: the memo alone, on a chess
// endgame with pawns (hundreds of millions of wins), misses often and
// reads a win's moves again. What a lookup finds from the moves of an
// index of [0, n) goes to the table too, not to the memo: a draw's check
// looks for a move to a draw so, and the draws that move to the same
// position find it there (KQNvKQ's file, which keeps the losses alone:
// that search took 35 s of verify's CPU instead of 72 s).
func WinDepthsTable(g implicit.Game, v engine.Values, n, memoBytes uint64) engine.Values {
	w := WinDepthsMemo(g, v, memoBytes).(*winDepths)
	w.tableLen = min(n, v.Size())
	w.table = newByteTable(w.tableLen)
	return w
}

func (w *winDepths) Size() uint64 { return w.v.Size() }

func (w *winDepths) Lookup(i uint64) (engine.Value, uint64, error) {
	v, d, err := w.v.Lookup(i)
	if err != nil || d != engine.NoDepth {
		return v, d, err
	}
	e, ok, slot := w.kept(i)
	if ok {
		return e.Value, e.Depth, nil
	}
	d, err = winDepth(w.g, i, w.v.Lookup)
	switch {
	case err != nil:
		return v, d, err
	case d != engine.NoDepth:
		w.keep(i, slot, d, false)
		return engine.Win, d, nil
	case v == engine.Draw: // a win or a draw, without a move to a loss
		w.keep(i, slot, 0, true)
		return engine.Draw, 0, nil
	}
	return v, d, nil // a win without a move to a loss: Verify reports it
}

// kept returns what the table or the memo keeps of position i, a win or a
// draw found from its moves, and whether one keeps it; slot is i's entry
// in the memo (nil for none), for keep.
func (w *winDepths) kept(i uint64) (e Entry, ok bool, slot *atomic.Uint64) {
	if i < w.tableLen { // the memo keeps none of these (keep)
		switch b := w.table.get(i); b {
		case 0:
			return Entry{}, false, nil
		case tableDraw:
			return Entry{engine.Draw, 0}, true, nil
		default:
			return Entry{engine.Win, uint64(b - 1)}, true, nil
		}
	}
	if w.memo != nil && i < 1<<47 {
		slot = &w.memo[w.memoSlot(i)]
		if m := slot.Load(); m>>16 == i+1 {
			if m&0xffff == memoDraw {
				return Entry{engine.Draw, 0}, true, slot
			}
			return Entry{engine.Win, m & 0xffff}, true, slot
		}
	}
	return Entry{}, false, slot
}

// memoSlot returns index i's entry in the memo: i scattered (times the
// golden ratio's 64-bit fraction), scaled to the memo's length (the high
// word of its product with the length), which need not be a power of two.
func (w *winDepths) memoSlot(i uint64) uint64 {
	hi, _ := bits.Mul64(i*0x9E3779B97F4A7C15, uint64(len(w.memo)))
	return hi
}

// movesPool keeps buffers of moves for winDepth, which a Verify calls for
// every move of every loss.
var movesPool = sync.Pool{New: func() any { return new([]uint64) }}

// winDepth returns the depth of position s, a win: 0 if the game ends
// there, otherwise one more than the least depth among the losses it moves
// to, which lookup reads; engine.NoDepth if it moves to none.
func winDepth(g implicit.Game, s uint64, lookup func(uint64) (engine.Value, uint64, error)) (uint64, error) {
	buf := movesPool.Get().(*[]uint64)
	defer movesPool.Put(buf)
	var kind implicit.Kind
	if kind, *buf = classifyMoves(g, s, *buf); kind != implicit.Inner {
		return 0, nil
	}
	d := engine.NoDepth
	for _, t := range *buf {
		v, td, err := lookup(t)
		if err != nil {
			return 0, err
		}
		if v == engine.Loss && td < d {
			d = td + 1
		}
	}
	return d, nil
}

// Moves returns the distinct positions one move from s, each with its
// entry, best first for the player to move at s (docs/database.md): moves to losses,
// the shallowest first; then to draws; then to wins, the deepest first.
// Moves of equal worth keep the game's order. A terminal or illegal
// position has none.
func (p Solved) Moves(s uint64) ([]Move, error) {
	if s >= p.Game.Size() {
		return nil, fmt.Errorf("position %d is out of range: the game has %d", s, p.Game.Size())
	}
	if p.Game.Classify(s) != implicit.Inner {
		return nil, nil
	}
	var moves []Move
	for _, t := range p.Game.Moves(s, nil) {
		if slices.ContainsFunc(moves, func(m Move) bool { return m.To == t }) {
			continue
		}
		e, err := p.Lookup(t)
		if err != nil {
			return nil, err
		}
		moves = append(moves, Move{t, e})
	}
	slices.SortStableFunc(moves, func(a, b Move) int { return compareForMover(a.Entry, b.Entry) })
	return moves, nil
}

// compareForMover orders the entries of positions a player can move to, the
// best for that player first.
func compareForMover(a, b Entry) int {
	ca, ka := worth(a)
	cb, kb := worth(b)
	return cmp.Or(cmp.Compare(ca, cb), cmp.Compare(ka, kb))
}

// worth ranks an entry for the player moving into it: a class (a loss for
// the opponent first, then a draw, then a win, then illegal) and a key
// within it (the shallowest loss, the deepest win first).
func worth(e Entry) (int, int64) {
	d := int64(min(e.Depth, 1<<62))
	switch e.Value {
	case engine.Loss:
		return 0, d
	case engine.Draw:
		return 1, 0
	case engine.Win:
		return 2, -d
	}
	return 3, 0
}

// Best returns a best move from s (the first of Moves), and false if s has
// no moves.
func (p Solved) Best(s uint64) (Move, bool, error) {
	moves, err := p.Moves(s)
	if err != nil || len(moves) == 0 {
		return Move{}, false, err
	}
	return moves[0], true, nil
}

// Turn says which player is to move in a position shown to a user: First
// at an even ply from the start, Second at an odd one. A game that keeps
// positions as the player to move sees them (implicit.TurnedDescriber)
// shows Second's turned back, as they stand on the table.
type Turn uint8

const (
	First  Turn = iota // the player to move at the start
	Second             // the other
)

// Next returns the turn after t.
func (t Turn) Next() Turn { return 1 - t }

// OneLine writes position s in g's notation on one line, its lines joined
// by '/' ("X../.O./.../X to move"), or as "index N" if g has no notation;
// ReadPosition reads that form back as well as the lines themselves.
func OneLine(g implicit.Game, s uint64) string { return OneLineAt(g, s, First) }

// OneLineAt is Text on one line, its lines joined by '/'.
func OneLineAt(g implicit.Game, s uint64, t Turn) string {
	return strings.ReplaceAll(Text(g, s, t), "\n", "/")
}

// Text writes position s, with turn t to move, in g's notation without its
// last newline, or "index N" for a game without one.
func Text(g implicit.Game, s uint64, t Turn) string {
	if td, ok := g.(implicit.TurnedDescriber); ok && t == Second {
		return strings.TrimSpace(td.DescribeTurned(s))
	}
	d, ok := g.(implicit.Describer)
	if !ok {
		return fmt.Sprintf("index %d", s)
	}
	return strings.TrimSpace(d.Describe(s))
}

// ReadPosition reads a position in g's notation, its lines separated by
// newlines or '/', and refuses illegal ones.
func ReadPosition(g implicit.Game, text string) (uint64, error) {
	n, ok := g.(implicit.Notation)
	if !ok {
		return 0, fmt.Errorf("the game has no position notation: give its index")
	}
	pos, err := n.ParsePosition(strings.ReplaceAll(text, "/", "\n"))
	if err != nil {
		return 0, err
	}
	if g.Classify(pos) == implicit.Illegal {
		return 0, fmt.Errorf("not a legal position")
	}
	return pos, nil
}
