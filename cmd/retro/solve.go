package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pkg/profile"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/dist"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/games"
	"github.com/retro-solver/retro/internal/text"
	"github.com/retro-solver/retro/parallel"
)

// maxWorkers bounds -workers: each worker has its own buffers.
const maxWorkers = 4096

// solveFlags holds the flags of `retro solve` that every game shares.
type solveFlags struct {
	engineName string      // -engine, as given
	engine     engine.Kind // -engine, parsed
	workers    int
	progress   bool
	rankLine   bool // a rank other than 0 prints its engine and memory, asked for -progress
	maxMemory  byteSize
	profile    string
	profDir    string
	stats      bool
	json       bool
	reachable  bool          // -reachable: solve only what the start reaches
	tiered     bool          // -tiered: solve tier by tier
	plan       bool          // -plan: print the tiered solve's plan, do not solve
	checkpoint string        // -checkpoint: the folder of finished tiers and level checkpoints
	ckptEvery  time.Duration // -checkpoint-every
	dbPath     string        // -db: where to save the solution
	small      bool          // -compact: the database keeps the losses and their depths only
	linked     bool          // -linked: the database keeps the game's first tier only
	splitTiers splitFlag     // -split-tiers: under mpirun, the tiers all ranks solve together

	familyFlags // -all, -dir: a game with a family (Descriptor.Family)
}

// solveRun is one run of `retro solve`: its flags, and what the run holds
// while it solves the instances of its input one after another.
type solveRun struct {
	solveFlags
	ctx       context.Context
	env       *env
	desc      *implicit.Descriptor
	gameFlags func() []string // the game's own flags that were set
	world     dist.Comm       // the MPI ranks, when mpirun started retro
	baseBytes uint64          // the process's memory before the input
	inputCRC  uint32          // the input's checksum, for checkpoints' fingerprints
	label     string          // the instance being solved
	dbw       *db.Writer      // the database being written, with -db
	// ws holds the arrays that the instances of one input share.
	ws *engine.Workspace
	// afterDB is what to do once the database is complete (remove the
	// tiers and checkpoints it was written from).
	afterDB []func()
	// rankCleanup removes what a rank of an MPI solve keeps until every
	// rank is done (its checkpoint files).
	rankCleanup []func()
}

// newSolveFlags returns the flag set of `retro solve NAME` with the flags
// every game shares, and the run they configure.
func newSolveFlags(name string, e *env) (*flag.FlagSet, *solveRun) {
	c := &solveRun{ctx: e.ctx, env: e}
	fs := flag.NewFlagSet("solve "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.StringVar(&c.engineName, "engine", "auto", "solver `engine`: par (frontier-parallel), lean (frontier-parallel in half a byte per position, keeping the depths of the start and the longest positions only, or with -db every depth in a file beside the database), seq (sequential reference), or auto: lean for a game with a start whose moves are cheap to list (police, pawns) when no flag needs every depth in memory (-reachable), or when par does not fit in -max-memory; par otherwise. Under mpirun, par and lean run on the ranks, each keeping 4 bytes or half a byte per position of its range")
	fs.IntVar(&c.workers, "workers", 0, "number of `workers` of the parallel engine, and the most cores the solve keeps busy (default 0: one per core)")
	fs.BoolVar(&c.progress, "progress", false, "print progress lines to standard error (default when it is a terminal)")
	fs.Var(&c.maxMemory, "max-memory", "refuse solves that need more than this `size` of memory, e.g. 512M, 1.5G or 8G (default: the machine's memory)")
	fs.BoolVar(&c.stats, "stats", false, "print statistics: counts, depth histogram, the longest win and loss with an example position")
	fs.BoolVar(&c.json, "json", false, "print the result as JSON (a summary, and per-vertex values for graphs)")
	fs.StringVar(&c.profile, "profile", "", "write a `kind` of pprof profile of the solve: cpu, mem, block, mutex or trace")
	fs.StringVar(&c.profDir, "profile-dir", ".", "`folder` for the -profile file (cpu.pprof, mem.pprof, ..., trace.out)")
	fs.BoolVar(&c.reachable, "reachable", false, "solve only the positions reachable from the start; the others are left unsolved (\"unreached\")")
	fs.BoolVar(&c.tiered, "tiered", false, "solve tier by tier, children first, with finished tiers on disk (games with tiers: chess, morris, quixo, teeko); chosen by itself for chess, and when the whole game does not fit in -max-memory")
	fs.Var(&c.splitTiers, "split-tiers", "under mpirun, with -tiered: solve the tiers of at least this many `positions` on all ranks together, each keeping its share, and the others whole on one rank each; 0 for none (default auto: the tiers whose solve whole would need more than -max-memory)")
	fs.BoolVar(&c.plan, "plan", false, "print the tiered solve's plan and stop: each tier in the order solved, its positions, entries (classes, estimated), moves (estimated), memory at its peak and file size")
	fs.StringVar(&c.checkpoint, "checkpoint", "", "keep what a long solve has done in `folder`, to go on from there if the same command is run again after a crash or kill -9 (default with -db: FILE.tiers for a tiered solve, FILE.checkpoint otherwise, removed once the database is written)")
	fs.DurationVar(&c.ckptEvery, "checkpoint-every", 5*time.Minute, "the `time` between two checkpoints of a solve in memory, at the barrier between two levels")
	fs.StringVar(&c.dbPath, "db", "", "save the solution, every position's value and depth, to the database `file` (see retro query, verify, play)")
	fs.BoolVar(&c.linked, "linked", false, "with -db, for a game of shared tiers (chess): keep the first tier alone, the endgame without those its captures and promotions lead to, which are read from their databases beside the file (KQvK.db, as solve chess -all writes them); of the finished tiers it reads those its own moves reach alone")
	fs.BoolVar(&c.small, "compact", false, "with -db: keep the losses and their depths only, a win (and its depth) or a draw found again from the position's moves when read, and fill the illegal indices with the codes before them (see retro db compact): about half the file on large games, less where wins and draws mix; not for games stored by symmetry classes (quixo, teeko)")
	return fs, c
}

// newGameFlags adds d's own flags to the shared ones, and returns d's loader.
func newGameFlags(d *implicit.Descriptor, e *env) (*flag.FlagSet, *solveRun, implicit.Loader) {
	fs, c := newSolveFlags(d.Name, e)
	if d.Family != nil {
		c.familyFlags.add(fs, d)
	}
	shared := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) { shared[f.Name] = true })
	load := d.Setup(fs)
	c.gameFlags = func() []string {
		var args []string
		fs.Visit(func(f *flag.Flag) {
			if !shared[f.Name] {
				args = append(args, "-"+f.Name+"="+f.Value.String())
			}
		})
		return args
	}
	fs.Usage = func() {
		file := ""
		switch {
		case d.Input:
			file = " FILE|-"
		case d.Arg != "":
			file = " " + d.ArgName
		}
		fmt.Fprintf(fs.Output(), "Usage: retro solve %s [flags]%s\n\n%s\nFlags:\n", d.Name, file, d.Help)
		fs.PrintDefaults()
	}
	return fs, c, load
}

func solveCmd(args []string, e *env) error {
	if len(args) == 0 {
		return usagef("solve: no game given; games: %s", strings.Join(gameNames(), ", "))
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		toStderr := *e
		toStderr.stdout = e.stderr
		helpCmd([]string{"solve"}, &toStderr)
		return errHelpShown
	}
	d, ok := games.Lookup(args[0])
	if !ok {
		return usagef("solve: unknown game %q; games: %s", args[0], strings.Join(gameNames(), ", "))
	}
	fs, c, load := newGameFlags(d, e)
	if err := parseFlags(fs, args[1:], e); err != nil {
		return err
	}
	kind, err := engine.ParseKind(c.engineName)
	if err != nil {
		return usagef("solve %s: %v", d.Name, err)
	}
	c.engine = kind
	// The flags alone can rule the lean engine out: say so before the
	// input is read. (The others are checked with each instance.)
	if kind == engine.KindLean {
		if why := c.request(nil).Refusal(kind); why != "" {
			return usagef("solve %s: -engine lean: %s", d.Name, why)
		}
	}
	if err := e.useWorkers("solve "+d.Name, c.workers); err != nil {
		return err
	}
	mode, err := profileMode("solve "+d.Name, c.profile, fs)
	if err != nil {
		return err
	}
	if c.all != 0 {
		return c.solveFamily(d, fs)
	}
	if c.dir != "" {
		return usagef("solve %s: -dir is the folder of -all", d.Name)
	}
	switch {
	case d.Arg != "":
		if err := setArg(d, fs); err != nil {
			return err
		}
	case !d.Input && fs.NArg() != 0:
		return usagef("solve %s: takes no input file, got %q", d.Name, fs.Arg(0))
	case d.Input && fs.NArg() != 1:
		return usagef("solve %s: want one input FILE (or - for standard input), got %d arguments", d.Name, fs.NArg())
	}
	if c.small && c.dbPath == "" {
		return usagef("solve %s: -compact needs -db", d.Name)
	}
	if c.linked && c.dbPath == "" {
		return usagef("solve %s: -linked needs -db", d.Name)
	}
	if c.dbPath != "" {
		// Refuse a database path that cannot be written now, not after
		// the solve.
		if st, err := os.Stat(c.dbPath); err == nil && st.IsDir() {
			return fmt.Errorf("-db %s: is a folder", c.dbPath)
		}
		if st, err := os.Stat(filepath.Dir(c.dbPath)); err != nil || !st.IsDir() {
			return fmt.Errorf("-db %s: no folder %s to write it in", c.dbPath, filepath.Dir(c.dbPath))
		}
	}
	if c.maxMemory > 0 {
		memoryLimit(c.maxMemory) // the runtime's soft limit keeps garbage within it too
	}
	leave, err := c.joinMPI(d)
	if err != nil {
		return err
	}
	return leave(c.solveInput(d, fs, load, mode))
}

// setArg sets the flag that d's one argument stands for (Descriptor.Arg)
// from the argument given, which may instead be given as that flag.
func setArg(d *implicit.Descriptor, fs *flag.FlagSet) error {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == d.Arg })
	switch {
	case fs.NArg() == 0 && !set:
		return usagef("solve %s: want a %s", d.Name, d.ArgName)
	case fs.NArg() > 1:
		return usagef("solve %s: want one %s, got %d arguments", d.Name, d.ArgName, fs.NArg())
	case fs.NArg() == 1 && set:
		return usagef("solve %s: %s %q given twice: as an argument and as -%s", d.Name, d.ArgName, fs.Arg(0), d.Arg)
	case fs.NArg() == 1:
		if err := fs.Set(d.Arg, fs.Arg(0)); err != nil {
			return usagef("solve %s: %s %q: %v", d.Name, d.ArgName, fs.Arg(0), err)
		}
	}
	return nil
}

// solveInput opens the input, if the game reads one, solves it and prints
// the answers.
func (c *solveRun) solveInput(d *implicit.Descriptor, fs *flag.FlagSet, load implicit.Loader, mode func(*profile.Profile)) error {
	e := c.env
	var in io.Reader
	var name string
	if d.Input {
		var closeIn func()
		var err error
		if in, name, closeIn, err = openInput(fs.Arg(0), e); err != nil {
			return err
		}
		defer closeIn()
	}
	if mode != nil {
		stop, err := startProfile(mode, c.profDir, c.profile, e)
		if err != nil {
			return err
		}
		defer stop()
	}
	out := bufio.NewWriterSize(e.stdout, 1<<16)
	// The answers printed before a failure (the boards before one refused
	// for memory) stay printed.
	err := c.solve(d, load, in, name, out)
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	return err
}

// openInput opens an input FILE, or standard input for "-", as a
// text.Input: reading it stops at once on an interrupt, and CR-only line
// endings are refused. The returned function closes it.
func openInput(path string, e *env) (io.Reader, string, func(), error) {
	if path == "-" {
		in := text.NewInput(e.ctx, e.stdin)
		return in, "stdin", in.Close, nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, "", nil, fmt.Errorf("%s: is a folder, not an input file", path)
	}
	// Opening a FIFO waits for a writer: wait for one, or for an interrupt.
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	var o opened
	select {
	case o = <-done:
	case <-e.ctx.Done():
		return nil, "", nil, e.ctx.Err()
	}
	if o.err != nil {
		return nil, "", nil, o.err
	}
	in := text.NewInput(e.ctx, o.f)
	return in, path, func() { in.Close(); o.f.Close() }, nil
}

// solve loads d's instances from in (named name) and solves and reports
// each in turn.
func (c *solveRun) solve(d *implicit.Descriptor, load implicit.Loader, in io.Reader, name string, out *bufio.Writer) error {
	c.desc = d
	stop := func() {}
	var input *bytes.Buffer // the input text, kept for the database
	if d.Input {
		if c.dbPath != "" || c.checkpoint != "" {
			input = new(bytes.Buffer)
			in = io.TeeReader(in, input)
		}
		in, stop = c.readingProgress(in, name)
	}
	c.baseBytes = residentBytes()
	if c.env.resident != nil {
		c.baseBytes = c.env.resident()
	}
	if c.memoryLimit() <= c.baseBytes {
		return fmt.Errorf("-max-memory %s: less than the %s retro itself takes before reading its input",
			text.HumanBytes(c.memoryLimit()), text.HumanBytes(c.baseBytes))
	}
	insts, err := load(in, implicit.LoadConfig{MaxMemory: c.memoryLimit() - min(c.memoryLimit(), c.baseBytes), SolverBytes: engine.KindPar.Bytes})
	stop()
	if err != nil {
		if d.Input {
			return fmt.Errorf("%s: %w", name, err)
		}
		return err
	}
	if input != nil {
		c.inputCRC = crc32.ChecksumIEEE(input.Bytes())
	}
	if c.dbPath != "" && c.root() {
		var text []byte
		if input != nil {
			text = input.Bytes()
		}
		if c.dbw, err = db.Create(c.dbPath, d.Name, c.gameFlags(), text, c.dbOptions()); err != nil {
			return err
		}
		defer c.dbw.Abort()
	}
	// The instances of one input (the boards of a pawns file) solve one
	// after another in the same arrays.
	c.ws = new(engine.Workspace)
	var list []*summary
	for k, inst := range insts {
		label := inst.Label
		if len(insts) > 1 {
			noun := cmp.Or(strings.TrimSuffix(d.List, "s"), "instance")
			label = fmt.Sprintf("%s %d", noun, k+1)
		}
		c.label = label
		s, err := c.solveInstance(d, inst.Game(), label, out)
		if err != nil {
			if label != "" {
				return fmt.Errorf("%s: %s: %w", name, label, err)
			}
			return err
		}
		list = append(list, s)
	}
	if c.dbw != nil {
		if err := c.dbw.Close(); err != nil {
			return err
		}
		for _, f := range c.afterDB {
			f()
		}
	}
	if c.json && d.List != "" {
		return json.NewEncoder(out).Encode(map[string][]*summary{d.List: list})
	}
	return nil
}

// solveInstance solves g and prints the answer: the start's value in d's
// words, or every index's value for a game without a start. With -json and
// a list of instances (d.List), it returns the summary to print with the
// others instead.
func (c *solveRun) solveInstance(d *implicit.Descriptor, g implicit.Game, label string, out *bufio.Writer) (*summary, error) {
	var start *uint64
	if st, ok := g.(implicit.Starter); ok {
		s := st.Start()
		start = &s
	}
	if c.reachable && start == nil {
		return nil, usagef("solve %s: -reachable: the game has no start", d.Name)
	}
	if _, ok := g.(implicit.Symmetric); ok && c.small {
		// A win's depth is found again from its moves, which a file
		// indexed by symmetry classes cannot name without numbering them.
		return nil, usagef("solve %s: -compact: a game solved over its symmetry classes keeps every depth", d.Name)
	}
	if tiered, err := c.chooseTiered(d, g); err != nil || tiered {
		if err == nil {
			err = c.solveTiered(d, g.(implicit.Tiered), label, start, out)
		}
		return nil, err
	}
	inst, err := c.prepare(g, start)
	if err != nil {
		return nil, err
	}
	kind, err := c.chooseEngine(d, inst)
	if err != nil {
		return nil, err
	}
	r, err := c.run(inst, kind)
	if err != nil || r == nil { // no result: an MPI rank other than 0
		return nil, err
	}
	if err := c.save(label, inst, r); err != nil {
		return nil, err
	}
	if start == nil {
		return nil, c.reportAll(out, inst.solved, r)
	}
	answer := answerLine(d, r, *inst.start)
	if c.json && d.List != "" {
		return c.summarize(inst.solved, r, inst.start, answer)
	}
	return nil, c.report(out, inst.solved, r, *inst.start, answer)
}

// instance is one game of the input as an engine solves it in memory.
type instance struct {
	game   implicit.Game // the game as loaded
	solved implicit.Game // what the engine solves: game, or its classes (implicit.Compact)
	// directory is a compacted game's count of classes per block of
	// indices, which the database keeps to find a position's class.
	directory []uint32
	start     *uint64 // the start in solved's index; nil for a game without one
	plan      memoryPlan
	saved     bool // the ranks of a distributed solve wrote its database
}

// prepare returns g ready for an engine: renumbered over its symmetry
// classes if it is symmetric (after checking that the rank tables fit),
// with the memory plan of everything but the engine.
func (c *solveRun) prepare(g implicit.Game, start *uint64) (*instance, error) {
	inst := &instance{game: g, solved: g, start: start,
		plan: memoryPlan{runtime: c.baseBytes, game: implicit.BytesOf(g), loaded: peakBytes()}}
	if c.dbPath != "" { // under mpirun every rank writes its part
		inst.plan.db = dbWriterBytes(c.dbOptions())
	}
	if sg, ok := g.(implicit.Symmetric); ok {
		// The rank tables first: the classes are counted before the
		// solver's arrays are sized.
		inst.plan.game += implicit.CompactTableBytes(g.Size())
		if err := inst.plan.check(g.Size(), c.memoryLimit()); err != nil {
			return nil, err
		}
		cg := c.compact(sg)
		inst.solved, inst.directory = cg, cg.Counts()
		inst.plan.game = cg.Bytes()
		if start != nil {
			s := cg.Index(*start)
			inst.start = &s
		}
	}
	if c.stats && start != nil {
		inst.plan.stats = engine.ReachableSetBytes(inst.solved.Size())
	}
	return inst, nil
}

// request returns what this run asks of an engine to solve g (nil: the
// flags alone, before the input is read).
func (c *solveRun) request(inst *instance) engine.Request {
	r := engine.Request{Asked: c.engine, Reachable: c.reachable, Tiered: c.tiered,
		Distributed: c.world != nil, DepthsOnDisk: c.dbPath != "",
		ReadBuffers: uint64(parallel.Workers(c.workers)) * db.RunScratchBytes}
	if c.world != nil {
		r.Ranks = c.world.Ranks()
	}
	if inst != nil {
		r.Game, r.HasStart = inst.solved, inst.start != nil
	}
	return r
}

// chooseEngine picks the engine for inst (engine.Choose) within
// -max-memory, completes inst's memory plan with its arrays, and says on
// standard error what it chose when progress lines are wanted.
func (c *solveRun) chooseEngine(d *implicit.Descriptor, inst *instance) (engine.Kind, error) {
	req := c.request(inst)
	limit := c.memoryLimit()
	kind, fellBack, err := engine.Choose(req, func(k engine.Kind) error {
		inst.plan.solver = req.Bytes(k)
		return inst.plan.check(inst.solved.Size(), limit)
	})
	var refused *engine.RefusedError
	if errors.As(err, &refused) {
		return 0, usagef("solve %s: %v", d.Name, err)
	}
	if err != nil {
		return 0, err
	}
	if c.world != nil {
		// The ranks run rank 0's choice: auto's is timed (ListCost), and
		// ranks sharing cores time their moves differently.
		mine := uint64(0)
		if c.world.Rank() == 0 {
			mine = uint64(kind)
		}
		agreed, err := c.world.Sum([]uint64{mine})
		if err != nil {
			return 0, err
		}
		if kind = engine.Kind(agreed[0]); kind != engine.KindDist && kind != engine.KindDistLean {
			return 0, fmt.Errorf("rank 0 chose engine %v", kind)
		}
	}
	inst.plan.solver = req.Bytes(kind)
	if c.world != nil {
		if err := inst.plan.check(inst.solved.Size(), limit); err != nil {
			return 0, err
		}
		if c.wantProgress() || c.rankLine {
			lo, hi := engine.RankRange(inst.solved.Size(), c.world.Ranks(), c.world.Rank())
			fmt.Fprintf(c.env.stderr, "retro: rank %d of %d: engine %s, %d positions, memory %s\n",
				c.world.Rank(), c.world.Ranks(), kind, hi-lo, inst.plan)
		}
	}
	if !c.wantProgress() {
		return kind, nil
	}
	if fellBack {
		fmt.Fprintf(c.env.stderr, "retro: the parallel engine does not fit in %s\n", text.HumanBytes(limit))
	}
	if kind == engine.KindDistLean {
		fmt.Fprintf(c.env.stderr, "retro: lean ranks: half a byte per position of each rank's range, every depth in a file per rank (in %s)\n", c.depthDir())
	}
	if kind == engine.KindLean && c.engine == engine.KindAuto {
		if c.dbPath != "" {
			fmt.Fprintln(c.env.stderr, "retro: solving in the lean mode (half a byte per position; every depth on disk beside the database until it is written)")
		} else {
			fmt.Fprintln(c.env.stderr, "retro: solving in the lean mode (half a byte per position; the depths of the start and the longest positions only)")
		}
	}
	fmt.Fprintf(c.env.stderr, "retro: memory %s (%d bytes in all)\n", inst.plan, inst.plan.total())
	return kind, nil
}

// dbOptions returns the options of the database -db writes.
func (c *solveRun) dbOptions() db.Options {
	o := db.Options{Workers: c.workers, GameVersion: c.desc.Version}
	if c.small {
		// Small: illegal indices filled too (not those of a solve from
		// a start, its unreached positions).
		o.Coding, o.Fill = db.Losses, true
	}
	return o
}

// source returns what the database keeps of inst besides its values.
func (c *solveRun) source(label string, inst *instance, maxDepth uint64) db.Source {
	return db.Source{Label: label, MaxDepth: maxDepth, Start: inst.start,
		Directory: inst.directory, IndexSize: inst.game.Size(), Reachable: c.reachable}
}

// save adds inst's solution r to the database, with -db, unless the ranks
// of a distributed solve wrote it already.
func (c *solveRun) save(label string, inst *instance, r *engine.Result) error {
	if c.dbw == nil || inst.saved {
		return nil
	}
	if c.wantProgress() {
		fmt.Fprintf(c.env.stderr, "retro: saving %d positions to %s\n", r.Size(), c.dbPath)
	}
	src := c.source(label, inst, r.MaxDepth())
	src.Values = r
	return c.dbw.Add(c.ctx, src)
}

// answerLine words the value of position s in d's terms.
func answerLine(d *implicit.Descriptor, r *engine.Result, s uint64) string {
	return answerText(d, r.Value(s), r.Depth(s))
}

// answerText words a value and depth in d's terms.
func answerText(d *implicit.Descriptor, v engine.Value, depth uint64) string {
	switch v {
	case engine.Win:
		return fmt.Sprintf(d.Answers[0], depth)
	case engine.Loss:
		return fmt.Sprintf(d.Answers[1], depth)
	}
	return d.Answers[2]
}

// options returns the engine options the flags ask for.
func (c *solveRun) options() engine.Options {
	o := engine.Options{Workers: c.workers, MaxMemory: uint64(c.maxMemory), Workspace: c.ws}
	if c.wantProgress() {
		o.Progress = c.env.stderr
	}
	return o
}

// memoryLimit returns the bytes a game may take: -max-memory, or the
// machine's memory.
func (c *solveRun) memoryLimit() uint64 {
	if c.maxMemory > 0 {
		return uint64(c.maxMemory)
	}
	if m := engine.PhysicalMemory(); m > 0 {
		return m
	}
	return 1 << 62
}

// run solves inst with engine kind, in what -max-memory leaves beside the
// plan's other parts; a lean solve keeps the start's depth (and with -db
// every depth, on disk).
func (c *solveRun) run(inst *instance, kind engine.Kind) (*engine.Result, error) {
	o := c.options()
	p := inst.plan
	o.MaxMemory = max(c.memoryLimit()-(p.runtime+p.game+p.db), 1)
	if c.reachable {
		o.ReachableFrom = []uint64{*inst.start}
	}
	g := inst.solved
	switch kind {
	case engine.KindSeq:
		return engine.Sequential(c.ctx, g, o)
	case engine.KindDist, engine.KindDistLean:
		return c.runDistributed(inst, kind, o)
	}
	ckpt, cleanup, err := c.levelCheckpoint()
	if err != nil {
		return nil, err
	}
	o.Checkpoint = ckpt
	var r *engine.Result
	if kind == engine.KindLean {
		if inst.start != nil {
			o.Keep = []uint64{*inst.start}
		}
		// Every depth, for the database, in a file beside the checkpoint
		// (with -db there is one: FILE.checkpoint unless -checkpoint).
		o.DepthsOnDisk = c.dbPath != ""
		r, err = engine.Lean(c.ctx, g, o)
	} else {
		r, err = engine.Parallel(c.ctx, g, o)
	}
	switch {
	case err != nil:
	case c.dbw != nil:
		c.afterDB = append(c.afterDB, cleanup) // once the database is complete
	default:
		cleanup()
	}
	return r, err
}

// byteSize is a flag value like 512M, 1.5G or 8G (powers of 1024) or
// plain bytes: a number of them with a decimal fraction where a unit is
// given, as the refusals write the least a command needs ("41.7 MiB").
type byteSize uint64

func (b *byteSize) String() string {
	if *b == 0 {
		return ""
	}
	return strconv.FormatUint(uint64(*b), 10)
}

func (b *byteSize) Set(s string) error {
	bad := errors.New("want a positive size such as 512M, 1.5G or 8G")
	shift := uint(0)
	if k := len(s) - 1; k >= 0 {
		if u := strings.IndexByte("KMGT", s[k]&^0x20); u >= 0 {
			shift, s = 10*uint(1+u), s[:k]
		}
	}
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" || dot && (frac == "" || shift == 0) || strings.Trim(whole+frac, "0123456789") != "" {
		return bad
	}
	// (whole and frac as one integer) << shift / 10^len(frac), in
	// integers of any length: the bytes, rounded down.
	v, _ := new(big.Int).SetString(whole+frac, 10)
	v.Lsh(v, shift).Quo(v, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(len(frac))), nil))
	if v.Sign() == 0 || v.Cmp(new(big.Int).Lsh(big.NewInt(1), 63)) > 0 {
		return bad
	}
	*b = byteSize(v.Uint64())
	return nil
}
