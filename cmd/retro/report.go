package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// summary is a solve's result as -json prints it.
type summary struct {
	Positions uint64            `json:"positions"`
	Counts    map[string]uint64 `json:"counts"`
	MaxDepth  uint64            `json:"max_depth"`
	Edges     uint64            `json:"edges"`
	Start     *valueJSON        `json:"start,omitempty"`
	Answer    string            `json:"answer,omitempty"`
	// ReachableOnly: only the positions reachable from the start were
	// solved (-reachable); the "illegal" count holds the unreached ones.
	ReachableOnly bool       `json:"reachable_only,omitempty"`
	Stats         *statsJSON `json:"stats,omitempty"`
}

type valueJSON struct {
	Value string  `json:"value"`
	Depth *uint64 `json:"depth,omitempty"` // absent for draws
}

type statsJSON struct {
	WinsByDepth   []uint64     `json:"wins_by_depth"`
	LossesByDepth []uint64     `json:"losses_by_depth"`
	LongestWin    *exampleJSON `json:"longest_win,omitempty"`
	LongestLoss   *exampleJSON `json:"longest_loss,omitempty"`
	// Reachable counts the positions reachable from the start (symmetry
	// classes, for games solved over canonical positions; see Counted).
	Reachable *uint64 `json:"reachable,omitempty"`
	Counted   string  `json:"reachable_counted,omitempty"`
	// ReachableImages counts the positions themselves, symmetric images
	// included, for games whose index says how many each stands for.
	ReachableImages *uint64 `json:"reachable_with_images,omitempty"`
}

type exampleJSON struct {
	Index    uint64 `json:"index"`
	Depth    uint64 `json:"depth"`
	Position string `json:"position"`
}

func valueOf(r *engine.Result, i uint64) valueJSON {
	v := valueJSON{Value: r.Value(i).String()}
	if r.Value(i) == engine.Win || r.Value(i) == engine.Loss {
		d := r.Depth(i)
		v.Depth = &d
	}
	return v
}

// summarize builds the summary of r; start is the starting position, if
// the game has one, and answer its line of text output.
func (c *solveRun) summarize(g implicit.Game, r *engine.Result, start *uint64, answer string) (*summary, error) {
	s := &summary{
		Positions:     r.Size(),
		Counts:        map[string]uint64{},
		MaxDepth:      r.MaxDepth(),
		Edges:         r.Edges(),
		Answer:        answer,
		ReachableOnly: c.reachable,
	}
	for v := range engine.Value(4) {
		s.Counts[v.String()] = r.Count(v)
	}
	if start != nil {
		v := valueOf(r, *start)
		s.Start = &v
	}
	if c.stats {
		st := engine.ComputeDepthStats(r)
		s.Stats = &statsJSON{WinsByDepth: st.Wins, LossesByDepth: st.Losses}
		example := func(i uint64) *exampleJSON {
			e := &exampleJSON{Index: i, Depth: r.Depth(i), Position: fmt.Sprintf("index %d", i)}
			if d, ok := g.(implicit.Describer); ok {
				e.Position = d.Describe(i)
			}
			return e
		}
		if st.HasLongestWin {
			s.Stats.LongestWin = example(st.LongestWin)
		}
		if st.HasLongestLoss {
			s.Stats.LongestLoss = example(st.LongestLoss)
		}
		if start != nil {
			if pc, ok := g.(implicit.PositionCounter); ok {
				classes, positions, err := engine.ReachableClasses(c.ctx, pc, *start, c.options())
				if err != nil {
					return nil, err
				}
				s.Stats.Reachable, s.Stats.Counted, s.Stats.ReachableImages = &classes, "positions up to symmetry", &positions
			} else {
				n, err := engine.Reachable(c.ctx, g, *start, c.options())
				if err != nil {
					return nil, err
				}
				s.Stats.Reachable, s.Stats.Counted = &n, "positions"
				switch g.(type) {
				case implicit.Reduced, *implicit.Compact:
					s.Stats.Counted = "symmetry classes"
				}
			}
		}
	}
	return s, nil
}

// writeStats prints the -stats block of s as text (to standard error: the
// results on standard output stay one line per answer).
func writeStats(out io.Writer, s *summary) {
	fmt.Fprintf(out, "%s: %s, %s, %s; max depth %d; %s walked back",
		count(s.Positions, "position"), count(s.Counts["win"], "win"), count(s.Counts["loss"], "loss"),
		count(s.Counts["draw"], "draw"), s.MaxDepth, count(s.Edges, "un-move"))
	if n := s.Counts["illegal"]; n > 0 && s.ReachableOnly {
		fmt.Fprintf(out, "; %s of the index %s no position or not reached from the start", count(n, "index"), plural(n, "is", "are"))
	} else if n > 0 {
		fmt.Fprintf(out, "; %s of the index %s no position", count(n, "index"), plural(n, "is", "are"))
	}
	fmt.Fprintln(out)
	if s.Stats == nil {
		return
	}
	fmt.Fprintln(out, "depth wins losses")
	for d := range s.Stats.WinsByDepth {
		if w, l := s.Stats.WinsByDepth[d], s.Stats.LossesByDepth[d]; w+l > 0 {
			fmt.Fprintf(out, "%d %d %d\n", d, w, l)
		}
	}
	if s.Stats.Reachable != nil {
		what := s.Stats.Counted
		if *s.Stats.Reachable == 1 {
			what = map[string]string{"positions": "position", "symmetry classes": "symmetry class", "positions up to symmetry": "position up to symmetry"}[what]
		}
		if s.Stats.ReachableImages != nil {
			fmt.Fprintf(out, "reachable from the start: %d %s (%d with their symmetric images)\n", *s.Stats.Reachable, what, *s.Stats.ReachableImages)
		} else {
			fmt.Fprintf(out, "reachable from the start: %d %s\n", *s.Stats.Reachable, what)
		}
	}
	for _, e := range []struct {
		what string
		ex   *exampleJSON
	}{{"win", s.Stats.LongestWin}, {"loss", s.Stats.LongestLoss}} {
		if e.ex != nil {
			fmt.Fprintf(out, "longest %s: %s, index %d:\n%s", e.what, count(e.ex.Depth, "ply"), e.ex.Index, e.ex.Position)
			if n := len(e.ex.Position); n == 0 || e.ex.Position[n-1] != '\n' {
				fmt.Fprintln(out)
			}
		}
	}
}

// report prints a one-position game's answer: the text line (and the
// -stats block), or the -json summary.
func (c *solveRun) report(out *bufio.Writer, g implicit.Game, r *engine.Result, start uint64, answer string) error {
	if !c.json && !c.stats {
		_, err := out.WriteString(answer + "\n")
		return err
	}
	s, err := c.summarize(g, r, &start, answer)
	if err != nil {
		return err
	}
	if c.json {
		return json.NewEncoder(out).Encode(s)
	}
	out.WriteString(answer + "\n")
	if err := out.Flush(); err != nil {
		return err
	}
	writeStats(c.env.stderr, s)
	return nil
}

// appendValueLine appends "v value depth" (or "v draw") and a newline.
func appendValueLine(line []byte, r *engine.Result, v uint64) []byte {
	line = strconv.AppendUint(line, v, 10)
	line = append(line, ' ')
	val := r.Value(v)
	line = append(line, val.String()...)
	if val == engine.Win || val == engine.Loss {
		line = append(line, ' ')
		line = strconv.AppendUint(line, r.Depth(v), 10)
	}
	return append(line, '\n')
}

// counted is a solution's counts by value and its largest depth.
type counted interface {
	engine.Values
	Count(v engine.Value) uint64
	MaxDepth() uint64
}

// writeCounts writes the answer of a game that answers with its counts:
// "N positions: W wins, L losses, D draws; max depth D". The counts are of
// positions: where g's indices stand for classes of positions
// (implicit.PositionCounter), each index counts as many as its class has.
func writeCounts(ctx context.Context, out io.Writer, g implicit.Game, r counted, workers int) error {
	if sg, ok := g.(implicit.Sectioned); ok {
		return writeSections(ctx, out, sg.Sections(), r, workers)
	}
	var n [4]uint64
	if pc, ok := g.(implicit.PositionCounter); ok {
		err := scanRuns(r, 0, r.Size(), func(lo uint64, vals []engine.Value, _ []uint64) {
			for i, v := range vals {
				n[v&3] += pc.Positions(lo + uint64(i))
			}
		})
		if err != nil {
			return err
		}
	} else {
		for _, v := range []engine.Value{engine.Win, engine.Loss, engine.Draw} {
			n[v] = r.Count(v)
		}
	}
	_, err := fmt.Fprintf(out, "%d positions: %d wins, %d losses, %d draws; max depth %d\n", n[engine.Win]+n[engine.Loss]+n[engine.Draw],
		n[engine.Win], n[engine.Loss], n[engine.Draw], r.MaxDepth())
	return err
}

// writeSections writes the answer of a game that answers a line per part
// of its index (implicit.Sectioned): "NAME: W wins, D draws, L losses;
// longest win A plies, longest loss B plies", sections of one name adding
// up in the line of the first. The sections are read in runs on the given
// number of workers (a chess endgame's hundreds of millions of indices),
// each worker adding up its own lines: sums and maxima, the same whatever
// the order.
func writeSections(ctx context.Context, out io.Writer, sections []implicit.Section, r engine.Values, workers int) error {
	type line struct{ n, longest [4]uint64 }
	type run struct {
		line   int
		lo, hi uint64
		weight func(uint64) uint64
	}
	var names []string
	number := map[string]int{}
	var runs []run
	for _, sec := range sections {
		l, ok := number[sec.Name]
		if !ok {
			l = len(names)
			number[sec.Name] = l
			names = append(names, sec.Name)
		}
		for lo := sec.Start; lo < sec.End; lo += sectionRun {
			runs = append(runs, run{l, lo, min(lo+sectionRun, sec.End), sec.Weight})
		}
	}
	workers = parallel.Workers(workers)
	sums := make([][]line, workers)
	for w := range sums {
		sums[w] = make([]line, len(names))
	}
	err := parallel.Each(ctx, workers, uint64(len(runs)), func(w int, k uint64) error {
		rn, l := runs[k], &sums[w][runs[k].line]
		return scanRuns(r, rn.lo, rn.hi, func(lo uint64, vals []engine.Value, depths []uint64) {
			// Sums kept here, where the compiler knows nothing else writes
			// them, and added to the line once.
			var n, longest [4]uint64
			for i, v := range vals {
				c := uint64(1)
				if rn.weight != nil && v&3 != engine.Illegal {
					c = rn.weight(lo + uint64(i))
				}
				n[v&3] += c
				longest[v&3] = max(longest[v&3], depths[i])
			}
			for v := range n {
				l.n[v] += n[v]
				l.longest[v] = max(l.longest[v], longest[v])
			}
		})
	})
	if err != nil {
		return err
	}
	for k, name := range names {
		var l line
		for w := range sums {
			for v := range l.n {
				l.n[v] += sums[w][k].n[v]
				l.longest[v] = max(l.longest[v], sums[w][k].longest[v])
			}
		}
		_, err := fmt.Fprintf(out, "%s: %d wins, %d draws, %d losses; longest win %d plies, longest loss %d plies\n", name,
			l.n[engine.Win], l.n[engine.Draw], l.n[engine.Loss], l.longest[engine.Win], l.longest[engine.Loss])
		if err != nil {
			return err
		}
	}
	return nil
}

// sectionRun is the indices of writeSections' runs: a worker's piece of
// work, large beside the cost of handing it out.
const sectionRun = 1 << 20

// scanRuns reads the values and depths of [lo, hi) from r a run at a time
// (lookupRange) and calls visit with each run's first index, values and
// depths: the callers' loops over a run's values are typed, not a call
// per index (KRPvK's solve: 3% of its instructions went to those calls).
func scanRuns(r engine.Values, lo, hi uint64, visit func(lo uint64, vals []engine.Value, depths []uint64)) error {
	run := min(uint64(1)<<14, hi-lo)
	vals, depths := make([]engine.Value, run), make([]uint64, run)
	for ; lo < hi; lo += run {
		end := min(lo+run, hi)
		if err := lookupRange(r, lo, end, vals, depths); err != nil {
			return err
		}
		visit(lo, vals[:end-lo], depths[:end-lo])
	}
	return nil
}

// lookupRange reads the values and depths of [lo, hi) from r, a run at once
// where r can.
func lookupRange(r engine.Values, lo, hi uint64, vals []engine.Value, depths []uint64) error {
	if rv, ok := r.(engine.RangeValues); ok {
		return rv.LookupRange(lo, hi, vals, depths)
	}
	for i := lo; i < hi; i++ {
		v, d, err := r.Lookup(i)
		if err != nil {
			return err
		}
		vals[i-lo], depths[i-lo] = v, d
	}
	return nil
}

// reportAll prints the value of every index of a game without a start (an
// explicit graph): a line each, then the -stats block; or, with -json, the
// summary with a "vertices" array. A game that answers with its counts
// (Descriptor.Counts) prints them instead of the lines.
func (c *solveRun) reportAll(out *bufio.Writer, g implicit.Game, r *engine.Result) error {
	if c.json {
		s, err := c.summarize(g, r, nil, "")
		if err != nil {
			return err
		}
		return writeAllJSON(out, s, r)
	}
	if c.desc.Counts {
		if err := writeCounts(c.ctx, out, g, r, c.workers); err != nil {
			return err
		}
	} else {
		var line []byte
		for v := range r.Size() {
			line = appendValueLine(line[:0], r, v)
			if _, err := out.Write(line); err != nil {
				return err
			}
		}
	}
	if c.stats {
		s, err := c.summarize(g, r, nil, "")
		if err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return err
		}
		writeStats(c.env.stderr, s)
	}
	return nil
}

// writeAllJSON writes the summary with a "vertices" array of valueJSON,
// streamed one vertex at a time so that 10^7 vertices cost no more memory
// than one.
func writeAllJSON(out *bufio.Writer, s *summary, r *engine.Result) error {
	head, err := json.Marshal(s)
	if err != nil {
		return err
	}
	out.Write(head[:len(head)-1]) // without the closing brace
	out.WriteString(`,"vertices":[`)
	var item []byte
	for v := range r.Size() {
		item = item[:0]
		if v > 0 {
			item = append(item, ',')
		}
		item = append(item, `{"value":"`...)
		item = append(item, r.Value(v).String()...)
		item = append(item, '"')
		if val := r.Value(v); val == engine.Win || val == engine.Loss {
			item = append(item, `,"depth":`...)
			item = strconv.AppendUint(item, r.Depth(v), 10)
		}
		item = append(item, '}')
		if _, err := out.Write(item); err != nil {
			return err
		}
	}
	_, err = out.WriteString("]}\n")
	return err
}

// count writes n and a noun, plural unless n is 1: "1 ply", "3 plies".
func count(n uint64, noun string) string {
	plurals := map[string]string{"ply": "plies", "loss": "losses", "index": "indices"}
	many, ok := plurals[noun]
	if !ok {
		many = noun + "s"
	}
	return fmt.Sprintf("%d %s", n, plural(n, noun, many))
}
