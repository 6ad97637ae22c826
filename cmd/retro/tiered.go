package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/text"
	"github.com/retro-solver/retro/tier"
)

// wholeBytes estimates the memory of solving g whole, in memory: the
// engine's arrays for its classes (estimated from a sample) and the
// symmetry tables; false if it cannot be solved whole at all (a symmetric
// game of 2^32 indices or more).
func (c *solveRun) wholeBytes(g implicit.Game) (uint64, bool) {
	n := g.Size()
	sg, ok := g.(implicit.Symmetric)
	if !ok {
		return c.baseBytes + implicit.BytesOf(g) + engine.WithSlack(engine.KindPar.Bytes(n, g.MaxMoves())), true
	}
	if n >= 1<<32 {
		return 0, false
	}
	classes := implicit.EstimateClasses(sg, 0, n, 4096, rand.New(rand.NewPCG(1, n)))
	return c.baseBytes + implicit.CompactTableBytes(n) + 4*classes +
		engine.WithSlack(engine.KindPar.Bytes(classes, g.MaxMoves())), true
}

// chooseTiered says whether g is solved tier by tier: when -tiered asks,
// when the game's tiers are shared (implicit.SharedTiers), or when the
// game has tiers and does not fit whole in -max-memory; never when
// -engine seq or lean, or -reachable, asks for an engine that solves the
// whole game (the tiers are solved by the parallel one, every position).
func (c *solveRun) chooseTiered(d *implicit.Descriptor, g implicit.Game) (bool, error) {
	_, isTiered := g.(implicit.Tiered)
	asked := c.tiered || c.plan
	flag := "-tiered"
	if c.plan {
		flag = "-plan"
	}
	if !isTiered {
		if asked {
			return false, usagef("solve %s: %s: the game has no tiers", d.Name, flag)
		}
		return false, nil
	}
	if c.engine == engine.KindSeq || c.engine == engine.KindLean || c.reachable {
		if asked {
			return false, usagef("solve %s: %s: a tiered solve uses the parallel engine, every position", d.Name, flag)
		}
		return false, nil
	}
	if asked {
		return true, nil
	}
	if c.world != nil {
		return false, nil // the ranks share the memory of a whole solve
	}
	if _, ok := g.(implicit.SharedTiers); ok {
		// Chess: its tiers' solves are quicker than a whole one (moves in
		// a material are counted, not numbered: TierMover) and smaller.
		return true, nil
	}
	need, ok := c.wholeBytes(g)
	if ok && need <= c.memoryLimit() {
		return false, nil
	}
	if c.wantProgress() {
		why := fmt.Sprintf("needs about %s whole, more than the %s allowed", text.HumanBytes(need), text.HumanBytes(c.memoryLimit()))
		if !ok {
			why = "is too large to solve whole"
		}
		fmt.Fprintf(c.env.stderr, "retro: the game %s: solving it tier by tier\n", why)
	}
	return true, nil
}

// solveTiered solves g tier by tier, keeping the finished tiers in the
// checkpoint folder, and saves and reports the result as solveInstance
// does.
func (c *solveRun) solveTiered(d *implicit.Descriptor, g implicit.Tiered, label string, start *uint64, out *bufio.Writer) error {
	if c.stats || c.json {
		return usagef("solve %s: -stats and -json are not available with a tiered solve yet", d.Name)
	}
	if _, shared := g.(implicit.SharedTiers); c.linked && (!shared || start != nil) {
		return usagef("solve %s: -linked: the game's tiers are not databases of their own (chess's are)", d.Name)
	}
	limit := c.memoryLimit()
	plan := tier.Estimate(g, c.workers)
	tiers := g.Tiers()
	var splitFrom uint64
	if c.world != nil && c.world.Ranks() > 1 {
		splitFrom = c.splitTiers.threshold(tiers, plan, limit-min(limit, c.baseBytes))
		plan = plan.Shared(g, c.workers, c.world.Ranks(), splitFrom)
	}
	extra := c.baseBytes
	if c.dbw != nil {
		extra += dbWriterBytes(c.dbOptions())
	}
	if dir := c.keptTierDir(label); dir != "" && c.world == nil {
		// Tiers finished by an earlier run, or by the family's other
		// solves in the folder (-all), are read, not solved.
		o := tier.Options{Dir: dir, Fingerprint: c.fingerprint(d)}
		plan = plan.Skipping(g, c.workers, tier.Finished(g, o))
	}
	plan = plan.Within(g, c.workers, limit-min(limit, extra))
	if c.plan {
		return printPlan(out, g, plan, c.baseBytes)
	}
	need := extra + plan.Peak
	if c.wantProgress() {
		fmt.Fprintf(c.env.stderr, "retro: %d tiers; memory about %s at the peak, %s\n",
			len(tiers), text.HumanBytes(need), plan.DescribePeak(tiers))
	}
	if need > limit {
		return fmt.Errorf("solving %d positions tier by tier needs about %s for %s, more than the %s allowed (see -max-memory)",
			g.Size(), text.HumanBytes(need), plan.DescribePeak(tiers), text.HumanBytes(limit))
	}
	dir, cleanup, err := c.tierDir(label)
	if err != nil {
		return err
	}
	o := tier.Options{Dir: dir, Fingerprint: c.fingerprint(d), Engine: c.options(), CheckpointEvery: c.ckptEvery,
		SplitFrom: splitFrom, SideBySide: plan.SideBySide, FirstGroupOnly: c.linked}
	o.Engine.MaxMemory = max(limit-min(limit, c.baseBytes), 1)
	if c.wantProgress() {
		o.Progress = c.env.stderr
		fmt.Fprintf(c.env.stderr, "retro: finished tiers are kept in %s\n", dir)
	}
	var sol *tier.Solution
	if c.world != nil {
		sol, err = tier.SolveShared(c.ctx, g, o, c.world)
	} else {
		sol, err = tier.Solve(c.ctx, g, o)
	}
	if err != nil || sol == nil { // no solution: an MPI rank other than 0
		return err
	}
	defer sol.Close()
	var entry *uint64
	if start != nil {
		e := sol.Index(*start)
		entry = &e
	}
	if c.dbw != nil {
		src := db.Source{Label: label, Values: sol, MaxDepth: sol.MaxDepth(), Start: entry,
			Directory: sol.Directory(), IndexSize: g.Size()}
		saved := len(tiers)
		if c.linked { // the root's tiers alone: the first (Tier.Group)
			_, saved = implicit.GroupRange(tiers, 0)
			own := tiers[saved-1].End
			src.Values, src.IndexSize, src.FirstTier = firstTier{sol, own}, own, true
			src.MaxDepth = 0
			for k := range saved {
				src.MaxDepth = max(src.MaxDepth, sol.TierMaxDepth(k))
			}
		}
		if c.wantProgress() {
			fmt.Fprintf(c.env.stderr, "retro: saving %d positions (%s) to %s\n", src.IndexSize, sol.Describe(saved), c.dbPath)
		}
		err := c.dbw.Add(c.ctx, src)
		if err != nil {
			return err
		}
		// The tiers go once the database that holds them is complete.
		c.afterDB = append(c.afterDB, cleanup)
	} else {
		defer cleanup()
	}
	if entry == nil {
		return writeCounts(c.ctx, out, g, sol, c.workers)
	}
	v, depth, err := sol.Lookup(*entry)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(out, answerText(d, v, depth))
	return err
}

// keptTierDir returns the folder of tierDir where it is kept from an
// earlier run (-checkpoint's or the database's), and "" for a temporary
// folder, which holds no finished tier.
func (c *solveRun) keptTierDir(label string) string {
	if c.checkpoint == "" && c.dbPath == "" {
		return ""
	}
	dir, _, err := c.tierDir(label)
	if err != nil {
		return ""
	}
	return dir
}

// tierDir returns the folder for the finished tiers of the instance called
// label, and what removes it once done with: -checkpoint's (kept: it is the
// user's), the database's name with ".tiers" (removed once the database
// is complete), or a temporary folder.
func (c *solveRun) tierDir(label string) (string, func(), error) {
	sub := func(dir string) string {
		if label == "" {
			return dir
		}
		return dir + string(os.PathSeparator) + strings.ReplaceAll(label, " ", "-")
	}
	switch {
	case c.checkpoint != "":
		return sub(c.checkpoint), func() {}, nil
	case c.dbPath != "":
		dir := c.dbPath + ".tiers"
		return sub(dir), func() { os.RemoveAll(dir) }, nil
	}
	dir, err := os.MkdirTemp("", "retro-tiers-*")
	if err != nil {
		return "", nil, err
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// fingerprint names the solve for its checkpoint files: the game, its own
// flags, its input's checksum, the instance and the version of its index.
func (c *solveRun) fingerprint(d *implicit.Descriptor) string {
	fp := fmt.Sprintf("retro %s %s (index version %d)", d.Name, strings.Join(c.gameFlags(), " "), d.Version)
	if d.Input {
		fp += fmt.Sprintf("; input %08x", c.inputCRC)
	}
	if c.label != "" {
		fp += "; " + c.label
	}
	return fp
}

// levelCheckpoint returns the checkpoint of a solve in memory, with what
// removes it once the solve is done: in -checkpoint's folder, or with -db
// in FILE.checkpoint (removed with the folder); nil without either.
func (c *solveRun) levelCheckpoint() (*engine.Checkpoint, func(), error) {
	dir, cleanup := c.checkpoint, func() {}
	if dir == "" {
		if c.dbPath == "" {
			return nil, cleanup, nil
		}
		dir = c.dbPath + ".checkpoint"
		cleanup = func() { os.RemoveAll(dir) }
	}
	name := "levels"
	if c.label != "" {
		name += "-" + strings.ReplaceAll(c.label, " ", "-")
	}
	ck := &engine.Checkpoint{Path: filepath.Join(dir, name+".ckpt"), Fingerprint: c.fingerprint(c.desc), Every: c.ckptEvery}
	if c.wantProgress() {
		ck.Saved = func(level uint64) {
			size, took := ck.LastSave()
			fmt.Fprintf(c.env.stderr, "retro: checkpoint at level %d saved to %s (%s in %s)\n",
				level, ck.Path, text.HumanBytes(uint64(size)), took.Round(time.Millisecond))
		}
	}
	if _, err := os.Stat(ck.Path); err == nil && c.wantProgress() && c.world == nil {
		fmt.Fprintf(c.env.stderr, "retro: going on from the checkpoint %s\n", ck.Path)
	}
	// The checkpoint goes once the solve is done (with -db, once saved).
	return ck, func() { ck.Remove(); cleanup() }, nil
}

// printPlan prints a tiered solve's plan: the tiers in the order they are
// solved, each with its positions, entries, memory at its peak (with the
// process's base) and file size, then the totals and the peak.
func printPlan(out io.Writer, g implicit.Tiered, plan tier.Plan, base uint64) error {
	tiers := g.Tiers()
	order, err := implicit.TierOrder(tiers, g.Size())
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(out, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "order\ttier\tpositions\tentries\tedges\tmemory\tdisk\t")
	var positions, entries, edges, disk uint64
	for i, k := range order {
		t := tiers[k]
		name := t.Name
		if plan.Split[k] {
			name += " (split)"
		}
		if plan.Done != nil && plan.Done[k] {
			name += " (solved)"
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%s\t%s\t\n", i+1, name, t.Size(), plan.Entries[k], plan.Edges[k],
			text.HumanBytes(base+plan.Tiers[k]), text.HumanBytes(plan.Disk[k]))
		positions += t.Size()
		entries += plan.Entries[k]
		edges += plan.Edges[k]
		disk += plan.Disk[k]
	}
	fmt.Fprintf(tw, "total\t%d tiers\t%d\t%d\t%d\t%s\t%s\t\n", len(tiers), positions, entries, edges,
		text.HumanBytes(base+plan.Peak), text.HumanBytes(disk))
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "memory at the peak: %s; disk: all the tiers' files, kept until the database is written\n", plan.DescribePeak(tiers))
	return err
}

// splitFlag is -split-tiers: auto (the default), or the positions from
// which a tier is split across the ranks (0: none).
type splitFlag struct {
	set  bool
	from uint64
}

func (f *splitFlag) String() string {
	if !f.set {
		return "auto"
	}
	return strconv.FormatUint(f.from, 10)
}

func (f *splitFlag) Set(s string) error {
	if s == "auto" {
		*f = splitFlag{}
		return nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not a number of positions or auto", s)
	}
	*f = splitFlag{set: true, from: n}
	return nil
}

// threshold returns the size from which tiers are split: as set, or for auto
// the smallest tier whose solve whole needs more than allowed bytes (0 if
// none does).
func (f *splitFlag) threshold(tiers []implicit.Tier, plan tier.Plan, allowed uint64) uint64 {
	if f.set {
		return f.from
	}
	var from uint64
	for k, t := range tiers {
		if plan.Tiers[k] > allowed && (from == 0 || t.Size() < from) {
			from = t.Size()
		}
	}
	return from
}
