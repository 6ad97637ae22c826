package tier

import (
	"fmt"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
)

// view is one tier of a tiered game as the engine solves it: an
// engine.ExitGame over the tier's positions (or, for a symmetric game, its
// classes, numbered as implicit.Compact numbers them), whose moves into
// the children are exits looked up in the children's files.
type view struct {
	g   implicit.Game
	sym implicit.Symmetric      // g, if it is symmetric; otherwise nil
	cm  implicit.CanonicalMover // g, if it lists canonical moves itself; otherwise nil
	tu  implicit.TierUnmover    // g, if it lists the un-moves inside a tier apart; otherwise nil
	// cu is g, if it is a TierUnmover that numbers its classes itself
	// (implicit.ClassNumberer): its moves and un-moves are then listed as
	// class numbers, the tier's classes being [first, last).
	cu          implicit.ClassNumberer
	first, last uint64
	// ce is cu, if it lists a position's exits apart from counting its
	// classes inside the tier, and the tier has moves inside (a count
	// that only bounds the moves would fail OnePass); otherwise nil.
	ce implicit.TierExitClassifier
	tm implicit.TierMover // g, if it counts the moves inside a tier apart and is not symmetric; otherwise nil
	// counter, for a tier without children, classifies a position and
	// counts its moves (its classes' for a symmetric game) without
	// numbering them: there are no exits to look up.
	counter  func(s uint64, buf []uint64) (implicit.Kind, uint64, []uint64)
	tiers    []implicit.Tier
	lo, hi   uint64            // the tier's positions in g's index
	classes  implicit.ClassSet // for a symmetric game: the tier's canonical positions
	sparse   []uint32          // and each class's position, less lo (nil: found by classes.Select)
	children []child           // the tier's children, whose files the moves out of it reach
	maxExit  uint64
	// maxMoves bounds the counts of the tier's positions' moves: of those
	// that may be lost where g is an implicit.LossBounder.
	maxMoves uint64
}

// pos returns the position in g's index of entry i.
func (v *view) pos(i uint64) uint64 {
	if v.sym != nil {
		if v.sparse == nil {
			return v.lo + v.classes.Select(i)
		}
		return v.lo + uint64(v.sparse[i])
	}
	return v.lo + i
}

// list appends the moves, or the un-moves, of position p: their
// representatives where the game lists them itself (CanonicalMover),
// which costs less than one Canonical per move; only the un-moves inside
// the tier where the game lists them apart (TierUnmover).
func (v *view) list(p uint64, dst []uint64, unmoves bool) []uint64 {
	switch {
	case v.tu != nil && unmoves:
		return v.tu.TierUnmoves(p, v.cm != nil, dst)
	case v.cm != nil && unmoves:
		return v.cm.CanonicalUnmoves(p, dst)
	case v.cm != nil:
		return v.cm.CanonicalMoves(p, dst)
	case unmoves:
		return v.g.Unmoves(p, dst)
	}
	return v.g.Moves(p, dst)
}

// canonical returns the representative of a position p that list
// returned: p itself where the game listed representatives.
func (v *view) canonical(p uint64) uint64 {
	if v.cm != nil {
		return p
	}
	return v.sym.Canonical(p)
}

// entry returns the entry of a position p of the tier that list returned.
func (v *view) entry(p uint64) uint64 {
	if v.sym != nil {
		return v.classes.Rank(v.canonical(p) - v.lo)
	}
	return p - v.lo
}

func (v *view) Size() uint64 {
	if v.sym != nil {
		return v.classes.Len()
	}
	return v.hi - v.lo
}

func (v *view) MaxMoves() uint64                { return v.maxMoves }
func (v *view) MaxExitDepth() uint64            { return v.maxExit }
func (v *view) Classify(i uint64) implicit.Kind { return v.g.Classify(v.pos(i)) }

// Alternates is the game's (implicit.Alternating): a tier's exits lead
// to tiers of the same game.
func (v *view) Alternates() bool { return implicit.Alternates(v.g) }

// inside keeps, of the positions dst[start:], those of the tier, as
// entries, each once for a symmetric game (deduplicated by dedupe:
// SortedSet or Distinct).
func (v *view) inside(dst []uint64, start int, dedupe func([]uint64) []uint64) []uint64 {
	out := dst[:start]
	for _, p := range dst[start:] {
		if p >= v.lo && p < v.hi {
			out = append(out, v.entry(p))
		}
	}
	if v.sym != nil {
		return append(out[:start], dedupe(out[start:])...)
	}
	return out
}

// Moves lists the entries i moves to in the tier, in increasing order for
// a symmetric game.
func (v *view) Moves(i uint64, dst []uint64) []uint64 {
	start := len(dst)
	return v.inside(v.list(v.pos(i), dst, false), start, implicit.SortedSet)
}

// probedView is a tier without children (view.counter) whose game probes
// its positions for a move (ProbeMoves, as quixo and teeko do): the
// engine solves it as a game without exits, an implicit.MoveProber, and
// counts a position's moves only when one of them first reaches a win.
// Teeko's last tier, three quarters of its positions: 12% less time.
type probedView struct {
	v     *view
	probe implicit.Prober
}

// probed returns v as a probedView, and false where v has children or its
// game does not probe (or counts its moves only into a scratch buffer).
func (v *view) probed() (probedView, bool) {
	p, ok := v.g.(implicit.Prober)
	_, counts := v.g.(implicit.MoveCounter)
	if !ok || v.counter == nil || v.sym == nil && !counts {
		return probedView{}, false
	}
	return probedView{v: v, probe: p}, true
}

func (p probedView) Size() uint64                    { return p.v.Size() }
func (p probedView) MaxMoves() uint64                { return p.v.MaxMoves() }
func (p probedView) Classify(i uint64) implicit.Kind { return p.v.Classify(i) }
func (p probedView) Moves(i uint64, dst []uint64) []uint64 {
	return p.v.Moves(i, dst)
}
func (p probedView) Unmoves(i uint64, dst []uint64) []uint64 {
	return p.v.Unmoves(i, dst)
}

// NumMoves counts the moves of entry i (the classes they reach, for a
// symmetric game) as the tier's classification would (view.counter).
func (p probedView) NumMoves(i uint64) uint64 {
	_, n, _ := p.v.counter(p.v.pos(i), nil)
	return n
}

// ProbeMoves returns the kind of entry i and whether it has a move.
func (p probedView) ProbeMoves(i uint64) (implicit.Kind, bool) {
	return p.probe.ProbeMoves(p.v.pos(i))
}

// symmetricView is the view of a symmetric game's tier, whose entries are
// classes: one that several of a position's moves reach is a repeat.
type symmetricView struct{ *view }

// MovesWithRepeats lists the entries i moves to in the tier, in no
// particular order, one that several moves reach once for each
// (implicit.RepeatMover): Moves without its sort, which a pull level does
// not need. (A game without symmetry lists a move twice only where it has
// two, which count twice: its view is no RepeatMover.)
func (v symmetricView) MovesWithRepeats(i uint64, dst []uint64) []uint64 {
	start := len(dst)
	return v.inside(v.list(v.pos(i), dst, false), start, func(xs []uint64) []uint64 { return xs })
}

// CountUnmoves returns the number of entries of the tier that move to i
// (implicit.UnmoveTallier): where the game numbers its classes, its count
// of their representatives, which spares numbering them.
func (v symmetricView) CountUnmoves(i uint64, buf []uint64) (uint64, []uint64) {
	if v.cu != nil {
		return v.cu.CountClassUnmoves(v.pos(i), true, buf)
	}
	buf = v.Unmoves(i, buf[:0])
	return uint64(len(buf)), buf
}

// Unmoves lists the entries of the tier that move to i, in no particular
// order.
func (v *view) Unmoves(i uint64, dst []uint64) []uint64 {
	start := len(dst)
	if v.cu != nil {
		dst = v.cu.ClassUnmoves(v.pos(i), true, dst)
		for j := start; j < len(dst); j++ {
			dst[j] -= v.first
		}
		return dst
	}
	dst = v.list(v.pos(i), dst, true)
	if v.tu != nil && v.sym == nil {
		// TierUnmoves lists positions of the tier only, each an entry at
		// its offset in the tier.
		for j := start; j < len(dst); j++ {
			dst[j] -= v.lo
		}
		return dst
	}
	return v.inside(dst, start, implicit.Distinct)
}

// ClassifyExits classifies entry i, counts its moves inside the tier and
// looks up its moves into children.
func (v *view) ClassifyExits(i uint64, buf []uint64) (implicit.Kind, uint64, engine.Exit, []uint64) {
	p := v.pos(i)
	if v.counter != nil {
		kind, n, buf := v.counter(p, buf)
		return kind, n, engine.Exit{}, buf
	}
	if tc, ok := v.tm.(implicit.TierMoveClassifier); ok {
		return v.classifyTierMoves(tc.ClassifyTierMoves, p, buf)
	}
	if v.ce != nil {
		kind, buf := v.ce.ClassifyTierExits(p, buf[:0])
		if kind != implicit.Inner {
			return kind, 0, engine.Exit{}, buf
		}
		exit := v.exit(p, implicit.Distinct(buf))
		if exit.Kind == engine.ExitToLoss || exit.Kind == engine.ExitToDraw {
			return kind, v.maxMoves, exit, buf // never a loss: no count needed
		}
		return kind, v.ce.CountTierClasses(p), exit, buf
	}
	if v.cu != nil {
		kind, n, buf := v.cu.ClassifyTierClasses(p, buf[:0])
		if kind != implicit.Inner {
			return kind, 0, engine.Exit{}, buf
		}
		return kind, n, v.exit(p, implicit.Distinct(buf)), buf
	}
	kind := v.g.Classify(p)
	if kind != implicit.Inner {
		return kind, 0, engine.Exit{}, buf
	}
	if v.tm != nil {
		n, buf := v.tm.TierMoves(p, buf[:0])
		return kind, n, v.exit(p, buf), buf
	}
	buf = v.list(p, buf[:0], false)
	// The moves inside the tier go to the front, to be counted (not
	// numbered: a class is told by its representative, which costs no
	// rank); the exits to the back, each class looked up once.
	n := 0
	for j, m := range buf {
		if m >= v.lo && m < v.hi {
			if v.sym != nil {
				m = v.canonical(m)
			}
			buf[j] = buf[n]
			buf[n] = m
			n++
		}
	}
	exits := buf[n:]
	if v.sym != nil {
		exits = implicit.Distinct(exits)
	}
	exit := v.exit(p, exits)
	inside := buf[:n]
	if v.sym != nil {
		inside = implicit.Distinct(inside)
	}
	return kind, uint64(len(inside)), exit, buf
}

// NewExitClassifier returns ClassifyExits for one worker where the game
// classifies runs of consecutive indices faster with a classifier per
// goroutine (implicit.TierMoveRunner), and nil otherwise
// (engine.ExitRunner).
func (v *view) NewExitClassifier() func(i uint64, buf []uint64) (implicit.Kind, uint64, engine.Exit, []uint64) {
	r, ok := v.tm.(implicit.TierMoveRunner)
	if !ok || v.counter != nil {
		return nil
	}
	classify := r.NewTierMoveClassifier()
	return func(i uint64, buf []uint64) (implicit.Kind, uint64, engine.Exit, []uint64) {
		return v.classifyTierMoves(classify, v.pos(i), buf)
	}
}

// classifyTierMoves is ClassifyExits of position p for a game that
// classifies it and counts and lists its moves in one call
// (implicit.TierMoveClassifier): classify, its ClassifyTierMoves or a
// goroutine's own (implicit.TierMoveRunner).
func (v *view) classifyTierMoves(classify func(uint64, []uint64) (implicit.Kind, uint64, []uint64), p uint64, buf []uint64) (implicit.Kind, uint64, engine.Exit, []uint64) {
	kind, n, buf := classify(p, buf[:0])
	if kind != implicit.Inner {
		return kind, 0, engine.Exit{}, buf
	}
	return kind, n, v.exit(p, buf), buf
}

var _ engine.ExitRunner = (*view)(nil)

// exit looks up the exits of position p, each once, and sums them up for
// the engine: to a loss (the shortest), else to a draw, else to wins (the
// longest), or none.
func (v *view) exit(p uint64, exits []uint64) engine.Exit {
	var exit engine.Exit
	minLoss, maxWin, draw := ^uint64(0), uint64(0), false
	for _, m := range exits {
		val, d := v.lookup(m)
		switch val {
		case engine.Loss:
			minLoss = min(minLoss, d)
		case engine.Win:
			maxWin = max(maxWin, d)
			if exit.Kind == engine.NoExit {
				exit.Kind = engine.ExitToWins
			}
		case engine.Draw:
			draw = true
		default:
			panic(fmt.Sprintf("tier: a move from %d reaches %d, which its tier's file holds as illegal", p, m))
		}
	}
	switch {
	case minLoss != ^uint64(0):
		exit = engine.Exit{Kind: engine.ExitToLoss, Depth: minLoss}
	case draw:
		exit = engine.Exit{Kind: engine.ExitToDraw}
	case exit.Kind == engine.ExitToWins:
		exit.Depth = maxWin
	}
	return exit
}

// child is a child tier of a view: its positions in g's index (or, where
// the view lists class numbers, its classes), and its file.
type child struct {
	start, end uint64
	st         *store
}

// lookup returns the value and depth of position m of a child tier, a
// position that list returned, or where the game numbers its classes a
// class number that ClassifyTierClasses returned. A tier has a few
// children: a scan finds m's sooner than TierOf's search of every tier.
func (v *view) lookup(m uint64) (engine.Value, uint64) {
	for i := range v.children {
		c := &v.children[i]
		if m < c.start || m >= c.end {
			continue
		}
		if v.cu != nil {
			return db.Decode(c.st.code(m - c.start))
		}
		e := m - c.start
		if v.sym != nil {
			e = c.st.classes.Rank(v.canonical(m) - c.start)
		}
		return db.Decode(c.st.code(e))
	}
	if v.cu != nil {
		panic(fmt.Sprintf("tier: a move reaches class %d, of no child of the tier of classes [%d, %d)", m, v.first, v.last))
	}
	k := implicit.TierOf(v.tiers, m)
	panic(fmt.Sprintf("tier: a move reaches position %d of tier %d (%s), which is not a child of [%d, %d)", m, k, v.tiers[k].Name, v.lo, v.hi))
}

// partedView is a view whose tier the game lists in parts
// (implicit.TierOrderer), for engine.OnePass and Parallel's classification
// to visit in that order.
type partedView struct {
	*view
	to implicit.TierOrderer
	k  int // the tier's number
}

func (v *partedView) Parts() uint64 { return v.to.TierParts(v.k) }

// Part appends the entries of part j.
func (v *partedView) Part(j uint64, dst []uint64) []uint64 {
	start := len(dst)
	dst = v.to.TierPart(v.k, j, dst)
	for i, p := range dst[start:] {
		dst[start+i] = v.entry(p)
	}
	return dst
}
