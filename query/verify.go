package query

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// Failure is an index whose stored value breaks a rule.
type Failure struct {
	Index uint64
	Rule  string // what is wrong: "win 5 has no move to a loss at depth 4"
}

// Report is what Verify found.
type Report struct {
	Counts   [4]uint64 // indices by stored value, in engine.Value order
	MaxDepth uint64
	// Wins and Losses count the wins and losses by depth: the depth
	// stored, or for a win stored without it the one its moves give it.
	Wins, Losses []uint64
	Edges        uint64 // moves looked at
	Failures     uint64 // indices that break a rule
	First        []Failure
}

// maxFirst is the number of failures a Report lists.
const maxFirst = 5

// Verify checks every index of g against its stored value, on all workers
// (0: GOMAXPROCS), with the local rules (docs/database.md, retro verify) that together prove
// the values right: an illegal index is stored as illegal and no other is
// (where v's illegal indices are filled, fillsIllegal, they hold anything
// and count as illegal);
// a terminal position holds the game's verdict at depth 0 and an inner one
// without moves is a loss at depth 0; a win at depth d has a move to a loss
// at depth d-1 and none to a shallower loss; a loss at depth d has only
// moves to wins, the deepest at depth d-1; a draw has no move to a loss and
// a move to a draw. It uses only g's Classify and Moves, never un-moves or
// a solver. Values that leave out what moves tell (the depths of wins,
// whether a position is a win or a draw) are read as WinDepths's, given
// so or not: a win is checked against the depth its moves give it, a loss
// against the depths so found of the wins it moves to, and a position
// stored as a win or a draw as the one its moves make it. An error is a
// value that could not be read (a damaged block);
// broken rules are counted in the Report. If checked is not nil, Verify
// adds to it the indices it has checked as it goes, for progress lines.
func Verify(ctx context.Context, g implicit.Game, v engine.Values, workers int, checked *atomic.Uint64) (Report, error) {
	n := g.Size()
	if v.Size() != n {
		return Report{}, fmt.Errorf("the values have %d indices, the game %d", v.Size(), n)
	}
	return VerifyRange(ctx, g, v, 0, n, workers, checked)
}

// VerifyRange is Verify over the indices [lo, hi) of g only. Where v is
// WinDepthsTable's, the wins among them are checked first, each keeping in
// the table the depth its moves give it, and the other positions then:
// a loss's check finds the depths of the wins it moves to there, instead
// of reading their moves once more.
func VerifyRange(ctx context.Context, g implicit.Game, v engine.Values, lo, hi uint64, workers int, checked *atomic.Uint64) (Report, error) {
	v = deciding(g, v)
	ls := newLocals(workers, v)
	// The passes: which stored values each checks (all in one pass, or
	// the wins and draws, then the others).
	passes := []func(engine.Value) bool{func(engine.Value) bool { return true }}
	w := v.(*winDepths)
	if w.table != nil {
		notLoss := func(val engine.Value) bool { return val == engine.Win || val == engine.Draw }
		passes = []func(engine.Value) bool{notLoss, func(val engine.Value) bool { return !notLoss(val) }}
	}
	for _, in := range passes {
		err := ls.run(ctx, hi-lo, 1<<12, nil, func(l *local, a, b uint64) error {
			var visited uint64
			for s := lo + a; s < lo+b; s++ {
				val, d, err := storedValues(v).Lookup(s)
				if err != nil {
					return err
				}
				if !in(val) {
					continue
				}
				visited++
				var kind implicit.Kind
				kind, l.buf = classifyMoves(g, s, l.buf)
				e, err := l.checkStored(g, v, s, kind, Entry{val, d}, true)
				if err != nil {
					return err
				}
				if s < w.tableLen && (e.Value == engine.Win || e.Value == engine.Draw) {
					w.keep(s, nil, e.Depth, e.Value == engine.Draw)
				}
			}
			if checked != nil {
				checked.Add(visited)
			}
			return nil
		})
		if err != nil {
			return ls.report(), err
		}
	}
	return ls.report(), nil
}

// VerifyTier is Verify over tier k of a tiered game only, whose values and
// its children's v holds (the rest of v may be slower to read): a database
// too large to hold whole is verified a tier at a time. A tier the game
// lists in parts (implicit.TierOrderer) is checked in that order, where
// its moves' lookups fall close together; its illegal indices are checked
// in the index's order, and a tier whose parts list more or fewer
// positions than it holds fails.
func VerifyTier(ctx context.Context, g implicit.Tiered, v engine.Values, k int, workers int, checked *atomic.Uint64) (Report, error) {
	if v.Size() != g.Size() {
		return Report{}, fmt.Errorf("the values have %d indices, the game %d", v.Size(), g.Size())
	}
	v = deciding(g, v)
	t := g.Tiers()[k]
	to, ok := g.(implicit.TierOrderer)
	if !ok || to.TierParts(k) == 0 {
		return VerifyRange(ctx, g, v, t.Start, t.End, workers, checked)
	}
	ls := newLocals(workers, v)
	err := ls.run(ctx, t.Size(), 1<<12, nil, func(l *local, lo, hi uint64) error {
		for s := t.Start + lo; s < t.Start+hi; s++ {
			if kind := g.Classify(s); kind != implicit.Illegal {
				l.legal++
			} else if err := l.visit(g, v, s, kind); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return ls.report(), err
	}
	var legal, illegal uint64
	for i := range ls {
		legal += ls[i].legal
		illegal += ls[i].Counts[engine.Illegal]
	}
	err = ls.run(ctx, to.TierParts(k), 1, nil, func(l *local, lo, hi uint64) error {
		var list []uint64
		var stored []Entry
		for j := lo; j < hi; j++ {
			list = to.TierPart(k, j, list[:0])
			// The part's positions lie all over the tier: their values are
			// read together first, where the reads' cache misses overlap.
			stored = stored[:0]
			for _, s := range list {
				var e Entry
				if s >= t.Start && s < t.End {
					var err error
					if e.Value, e.Depth, err = storedValues(v).Lookup(s); err != nil {
						return err
					}
				}
				stored = append(stored, e)
			}
			for i, s := range list {
				l.listed++
				kind := implicit.Illegal
				if s >= t.Start && s < t.End {
					kind = g.Classify(s)
				}
				if kind == implicit.Illegal {
					l.fail(s, fmt.Sprintf("part %d of tier %s lists it, an illegal index or one outside the tier", j, t.Name))
					continue
				}
				if _, err := l.checkStored(g, v, s, kind, stored[i], false); err != nil {
					return err
				}
			}
			if checked != nil {
				checked.Add(uint64(len(list)))
			}
		}
		return nil
	})
	if checked != nil {
		checked.Add(illegal)
	}
	var listed uint64
	for i := range ls {
		listed += ls[i].listed
	}
	if err == nil && listed != legal {
		ls[0].fail(t.Start, fmt.Sprintf("the parts of tier %s list %d positions; it holds %d", t.Name, listed, legal))
	}
	return ls.report(), err
}

// local is one worker's share of a Verify: its report, and its buffer of
// moves.
type local struct {
	Report
	buf           []uint64
	legal, listed uint64 // VerifyTier's count of a parted tier's positions, and of its parts'
	filled        bool   // the illegal indices of the values hold other codes (fillsIllegal)
	_             [64]byte
}

type locals []local

// newLocals returns the locals of workers (0: GOMAXPROCS) checking v.
func newLocals(workers int, v engine.Values) locals {
	ls := make(locals, parallel.Workers(workers))
	filled := fillsIllegal(v)
	for i := range ls {
		ls[i].filled = filled
	}
	return ls
}

// fillsIllegal reports whether v's illegal indices read as legal positions
// (db.Section.Filled): v says so by a method FillsIllegal() bool. Then the
// game's rules alone say which indices are illegal.
func fillsIllegal(v engine.Values) bool {
	f, ok := storedValues(v).(interface{ FillsIllegal() bool })
	return ok && f.FillsIllegal()
}

// run calls body on chunks of [0, n) (of at least least each) on each
// worker's local, and adds each chunk's size to checked if it is not nil.
func (ls locals) run(ctx context.Context, n, least uint64, checked *atomic.Uint64, body func(l *local, lo, hi uint64) error) error {
	return parallel.For(ctx, len(ls), n, parallel.ChunkFor(n, len(ls), least), func(w int, lo, hi uint64) error {
		if err := body(&ls[w], lo, hi); err != nil {
			return err
		}
		if checked != nil {
			checked.Add(hi - lo)
		}
		return nil
	})
}

// visit checks index s, of the given kind (g.Classify(s)).
func (l *local) visit(g implicit.Game, v engine.Values, s uint64, kind implicit.Kind) error {
	val, d, err := storedValues(v).Lookup(s)
	if err != nil {
		return err
	}
	_, err = l.checkStored(g, v, s, kind, Entry{val, d}, false)
	return err
}

// checkStored checks index s, of the given kind, stored as e (what its
// moves tell left out where v finds it again: see storedValues), and
// returns e as its moves make it; with listed, l.buf holds s's moves
// (classifyMoves).
func (l *local) checkStored(g implicit.Game, v engine.Values, s uint64, kind implicit.Kind, e Entry, listed bool) (Entry, error) {
	if l.filled && kind == implicit.Illegal {
		e = Entry{Value: engine.Illegal}
	}
	rule, buf, err := check(g, v, s, kind, &e, l.buf, listed)
	l.buf = buf
	if err != nil {
		return e, err
	}
	l.Counts[e.Value&3]++
	if (e.Value == engine.Win || e.Value == engine.Loss) && e.Depth != engine.NoDepth {
		l.MaxDepth = max(l.MaxDepth, e.Depth)
		count := &l.Wins
		if e.Value == engine.Loss {
			count = &l.Losses
		}
		for uint64(len(*count)) <= e.Depth {
			*count = append(*count, 0)
		}
		(*count)[e.Depth]++
	}
	l.Edges += uint64(len(l.buf))
	if rule != "" {
		l.fail(s, rule)
	}
	return e, nil
}

// fail counts index s as breaking rule, and keeps it among the first.
func (l *local) fail(s uint64, rule string) {
	l.Failures++
	if len(l.First) < maxFirst {
		l.First = append(l.First, Failure{s, rule})
	}
}

// report sums the workers' reports.
func (ls locals) report() Report {
	var r Report
	for _, l := range ls {
		r.Merge(l.Report)
	}
	return r
}

// Merge adds o's counts, edges and failures to r's, keeping the first
// failures by index.
func (r *Report) Merge(o Report) {
	for k := range r.Counts {
		r.Counts[k] += o.Counts[k]
	}
	r.MaxDepth = max(r.MaxDepth, o.MaxDepth)
	r.Wins, r.Losses = addCounts(r.Wins, o.Wins), addCounts(r.Losses, o.Losses)
	r.Edges += o.Edges
	r.Failures += o.Failures
	r.First = append(r.First, o.First...)
	slices.SortFunc(r.First, func(a, b Failure) int { return cmp.Compare(a.Index, b.Index) })
	r.First = r.First[:min(len(r.First), maxFirst)]
}

// addCounts returns a with b added, index by index.
func addCounts(a, b []uint64) []uint64 {
	for len(a) < len(b) {
		a = append(a, 0)
	}
	for k, n := range b {
		a[k] += n
	}
	return a
}

// deciding returns v as WinDepths's (v itself where it is so already),
// which finds what v leaves for moves to tell.
func deciding(g implicit.Game, v engine.Values) engine.Values {
	if _, ok := v.(*winDepths); ok {
		return v
	}
	return WinDepths(g, v)
}

// storedValues returns the values v reads, without finding what moves tell
// where v is WinDepths's: a position's check finds its own value and
// depth from the positions it moves to, and only a loss's check needs the
// depths of the wins it moves to, and a draw's whether one is a draw.
func storedValues(v engine.Values) engine.Values {
	if w, ok := v.(*winDepths); ok {
		return w.v
	}
	return v
}

// classifyMoves returns g.Classify(s) and, for an Inner s, buf[:0] with
// g.Moves(s) appended (buf[:0] for the other kinds): in one call where g
// is an implicit.MoveClassifier.
func classifyMoves(g implicit.Game, s uint64, buf []uint64) (implicit.Kind, []uint64) {
	if mc, ok := g.(implicit.MoveClassifier); ok {
		return mc.ClassifyMoves(s, buf[:0])
	}
	if kind := g.Classify(s); kind != implicit.Inner {
		return kind, buf[:0]
	}
	return implicit.Inner, g.Moves(s, buf[:0])
}

// check returns the rule that index s, of the given kind (g.Classify(s)),
// stored as e, breaks ("" if none), and buf holding its moves (which it
// holds already with listed: classifyMoves). v is
// WinDepths's (deciding). A win stored without its depth (engine.NoDepth)
// gets the one its moves give it in e: 0 where the game ends, one more
// than its shallowest move to a loss otherwise; a position stored as a win
// or a draw (Undecided) is such a win if it moves to a loss, and a draw
// otherwise, which must then move to a draw.
func check(g implicit.Game, v engine.Values, s uint64, kind implicit.Kind, e *Entry, buf []uint64, listed bool) (string, []uint64, error) {
	if !listed {
		buf = buf[:0]
	}
	undecided := e.Undecided()
	switch {
	case undecided && kind == implicit.TerminalWin:
		*e, undecided = Entry{engine.Win, 0}, false // a win where the game ends
	case e.Value == engine.Win && e.Depth == engine.NoDepth && kind != implicit.Inner:
		e.Depth = 0
	}
	stored, val := *e, e.Value
	switch {
	case kind == implicit.Illegal && val != engine.Illegal:
		return fmt.Sprintf("an illegal index is stored as %v", stored), buf, nil
	case kind == implicit.Illegal:
		return "", buf, nil
	case val == engine.Illegal:
		return fmt.Sprintf("a legal position (%v) is stored as illegal", kind), buf, nil
	case kind == implicit.TerminalWin && stored != Entry{engine.Win, 0}:
		return fmt.Sprintf("a terminal win is stored as %v", stored), buf, nil
	case kind == implicit.TerminalLoss && stored != Entry{engine.Loss, 0}:
		return fmt.Sprintf("a terminal loss is stored as %v", stored), buf, nil
	case kind != implicit.Inner:
		return "", buf, nil
	}
	if !listed {
		buf = g.Moves(s, buf)
	}
	if len(buf) == 0 {
		if stored != (Entry{engine.Loss, 0}) {
			return fmt.Sprintf("a position without moves (a loss at depth 0) is stored as %v", stored), buf, nil
		}
		return "", buf, nil
	}
	// Over the moves: the shallowest loss, the deepest win, and whether a
	// draw, a win or a draw not told apart yet, or anything but a win is
	// reached.
	var (
		minLoss, maxWin         uint64
		anyLoss, anyDraw, maybe bool
		allWins                 = true
		illegal, illegalT       = false, uint64(0)
	)
	look := v
	if val != engine.Loss {
		look = storedValues(v) // the depths of the wins reached do not matter
	}
	for _, t := range buf {
		tv, td, err := look.Lookup(t)
		if err != nil {
			return "", buf, err
		}
		switch tv {
		case engine.Loss:
			if !anyLoss || td < minLoss {
				minLoss = td
			}
			anyLoss, allWins = true, false
		case engine.Win:
			maxWin = max(maxWin, td)
		case engine.Draw:
			anyDraw = anyDraw || td != engine.NoDepth
			maybe = maybe || td == engine.NoDepth
			allWins = false
		default:
			illegal, illegalT, allWins = true, t, false
		}
	}
	switch {
	case undecided && anyLoss:
		stored, val = Entry{engine.Win, minLoss + 1}, engine.Win
		*e = stored
	case undecided:
		stored, val = Entry{engine.Draw, 0}, engine.Draw
		*e = stored
	case val == engine.Win && stored.Depth == engine.NoDepth && anyLoss:
		stored.Depth = minLoss + 1
		e.Depth = stored.Depth
	}
	if val == engine.Draw && !anyLoss && !anyDraw && maybe {
		// A draw needs a move to a draw: the positions stored as a win or
		// a draw are told apart by their own moves, until one is a draw.
		for _, t := range buf {
			tv, td, err := v.Lookup(t)
			if err != nil {
				return "", buf, err
			}
			if tv == engine.Draw && td != engine.NoDepth {
				anyDraw = true
				break
			}
		}
	}
	d := stored.Depth
	switch {
	case illegal:
		return fmt.Sprintf("a move reaches index %d, stored as illegal", illegalT), buf, nil
	case val == engine.Win && d == 0:
		return "an inner position is stored as win 0", buf, nil
	case val == engine.Win && !anyLoss:
		return fmt.Sprintf("%v has no move to a loss", stored), buf, nil
	case val == engine.Win && minLoss != d-1:
		return fmt.Sprintf("win %d: its shallowest move to a loss reaches loss %d, not %d", d, minLoss, d-1), buf, nil
	case val == engine.Loss && !allWins:
		return fmt.Sprintf("loss %d has a move to a position that is not a win", d), buf, nil
	case val == engine.Loss && maxWin == engine.NoDepth:
		return fmt.Sprintf("loss %d has a move to a win without a move to a loss", d), buf, nil
	case val == engine.Loss && maxWin+1 != d:
		return fmt.Sprintf("loss %d: its deepest move reaches win %d, not %d", d, maxWin, d-1), buf, nil
	case val == engine.Draw && anyLoss:
		return fmt.Sprintf("draw has a move to loss %d", minLoss), buf, nil
	case val == engine.Draw && !anyDraw:
		return "draw has no move to a draw", buf, nil
	}
	return "", buf, nil
}

// Reached returns g restricted to the positions v holds a value for: the
// others are illegal. A solve of only the positions a start reaches stores
// the others as illegal; Verify of Reached(g, v) then checks the values of
// the reached positions and that their moves lead only to reached ones (a
// move to a position stored as illegal breaks a rule), which with the start
// reached proves every reached value right.
func Reached(g implicit.Game, v engine.Values) implicit.Game { return &reached{g, v} }

type reached struct {
	implicit.Game
	v engine.Values
}

func (r *reached) Classify(s uint64) implicit.Kind {
	if val, _, err := r.v.Lookup(s); err != nil || val == engine.Illegal {
		return implicit.Illegal
	}
	return r.Game.Classify(s)
}
