package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
)

// game is a built-in game as the command line sees it.
type game struct {
	summary string // one line for the help
	help    string // the input and output, for `retro help GAME`
	// noInput games read no file: `retro solve GAME [flags]`.
	noInput bool
	// flags adds the game's own flags, if any, to fs, storing into c.
	flags func(fs *flag.FlagSet, c *solveConfig)
	// solve reads the input, solves and prints the answer to out.
	solve func(c *solveConfig, in io.Reader, name string, out *bufio.Writer) error
}

var games = map[string]*game{
	"graph":  graphGame,
	"pawns":  pawnsGame,
	"police": policeGame,
	"quixo":  quixoGame,
	"teeko":  teekoGame,
}

// maxWorkers bounds -workers: each worker has its own buffers.
const maxWorkers = 4096

// solveConfig holds the flags that every game shares.
type solveConfig struct {
	ctx       context.Context
	engine    string
	workers   int
	progress  bool
	maxMemory byteSize
	profile   string
	profDir   string
	stats     bool
	json      bool
	ws        *engine.Workspace // set by games that solve many positions in a row
	side      int               // the board's side, for games that take -n
	env       *env
}

func newSolveFlags(g *game, e *env) (*flag.FlagSet, *solveConfig) {
	c := &solveConfig{ctx: e.ctx, env: e}
	fs := flag.NewFlagSet("solve "+gameName(g), flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.StringVar(&c.engine, "engine", "par", "solver `engine`: par (frontier-parallel) or seq (sequential reference)")
	fs.IntVar(&c.workers, "workers", 0, "number of `workers` of the parallel engine (default GOMAXPROCS)")
	fs.BoolVar(&c.progress, "progress", false, "print progress lines to standard error (default when it is a terminal)")
	fs.Var(&c.maxMemory, "max-memory", "refuse solves that need more than this `size` of memory, e.g. 512M or 8G (default: the machine's memory)")
	fs.BoolVar(&c.stats, "stats", false, "print statistics: counts, depth histogram, the longest win and loss with an example position")
	fs.BoolVar(&c.json, "json", false, "print the result as JSON (a summary, and per-vertex values for graphs)")
	fs.StringVar(&c.profile, "profile", "", "write a `kind` of pprof profile of the solve: cpu, mem, block, mutex or trace")
	fs.StringVar(&c.profDir, "profile-dir", ".", "`folder` for the -profile file (cpu.pprof, mem.pprof, ..., trace.out)")
	if g.flags != nil {
		g.flags(fs, c)
	}
	fs.Usage = func() {
		file := " FILE|-"
		if g.noInput {
			file = ""
		}
		fmt.Fprintf(fs.Output(), "Usage: retro solve %s [flags]%s\n\n%s\nFlags:\n", gameName(g), file, g.help)
		fs.PrintDefaults()
	}
	return fs, c
}

func gameName(g *game) string {
	for name, h := range games {
		if h == g {
			return name
		}
	}
	return "GAME"
}

func solveCmd(args []string, e *env) error {
	if len(args) == 0 {
		return usagef("solve: no game given; games: %s", strings.Join(sortedGames(), ", "))
	}
	g, ok := games[args[0]]
	if !ok {
		return usagef("solve: unknown game %q; games: %s", args[0], strings.Join(sortedGames(), ", "))
	}
	fs, c := newSolveFlags(g, e)
	if err := parseFlags(fs, args[1:], e); err != nil {
		return err
	}
	if c.engine != "par" && c.engine != "seq" {
		return usagef("solve %s: -engine %q: want par or seq", args[0], c.engine)
	}
	if c.workers < 0 || c.workers > maxWorkers {
		return usagef("solve %s: -workers %d: want 1 to %d", args[0], c.workers, maxWorkers)
	}
	switch {
	case g.noInput && fs.NArg() != 0:
		return usagef("solve %s: takes no input file, got %q", args[0], fs.Arg(0))
	case !g.noInput && fs.NArg() != 1:
		return usagef("solve %s: want one input FILE (or - for standard input), got %d arguments", args[0], fs.NArg())
	}
	mode, ok := profileModes[c.profile]
	if !ok {
		return usagef("solve %s: -profile %q: want cpu, mem, block, mutex or trace", args[0], c.profile)
	}
	var in io.Reader
	var name string
	if !g.noInput {
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
	if err := g.solve(c, in, name, out); err != nil {
		return err
	}
	return out.Flush()
}

func openInput(path string, e *env) (io.Reader, string, func(), error) {
	if path == "-" {
		return e.stdin, "stdin", func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, "", nil, err
	}
	return f, path, func() { f.Close() }, nil
}

// options returns the engine options the flags ask for.
func (c *solveConfig) options() engine.Options {
	o := engine.Options{Workers: c.workers, MaxMemory: uint64(c.maxMemory), Workspace: c.ws}
	if c.progress || c.env.isTerminal {
		o.Progress = c.env.stderr
	}
	return o
}

// memoryLimit returns the bytes a game may take: -max-memory, or the
// machine's memory.
func (c *solveConfig) memoryLimit() uint64 {
	if c.maxMemory > 0 {
		return uint64(c.maxMemory)
	}
	if m := engine.PhysicalMemory(); m > 0 {
		return m
	}
	return 1 << 62
}

// run solves g with the engine the flags choose.
func (c *solveConfig) run(g implicit.Game) (*engine.Result, error) {
	if c.engine == "seq" {
		return engine.Sequential(c.ctx, g, c.options())
	}
	return engine.Parallel(c.ctx, g, c.options())
}

// byteSize is a flag value like 512M or 8G (powers of 1024) or plain bytes.
type byteSize uint64

func (b *byteSize) String() string {
	if *b == 0 {
		return ""
	}
	return strconv.FormatUint(uint64(*b), 10)
}

func (b *byteSize) Set(s string) error {
	mult := uint64(1)
	if k := strings.IndexAny(s, "KMGTkmgt"); k >= 0 && k == len(s)-1 {
		mult = 1 << (10 * (1 + strings.IndexByte("KMGT", s[k]&^0x20)))
		s = s[:k]
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v == 0 || v > (1<<63)/mult {
		return fmt.Errorf("want a positive size such as 512M or 8G")
	}
	*b = byteSize(v * mult)
	return nil
}
