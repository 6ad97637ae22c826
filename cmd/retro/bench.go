package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/retro-solver/retro/bench"
)

const benchHelp = `Usage: retro bench [flags]

Solves named, deterministic workloads (random graphs, pawns and police
boards) on each engine and worker count, each run in a child process, and
prints the machine's facts, a table (median time, positions and predecessor
edges per second, peak memory, bytes per position, and beside them the
machine's roof: random atomic read-modify-writes per second over the array
the engine updates, 2 bytes a position for par and seq, half a byte for
lean) and Go benchmark lines for benchstat.

Flags:
`

func benchCmd(args []string, e *env) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	quick := fs.Bool("quick", false, "run only the quick workloads, in seconds")
	workers := fs.String("workers", "1,2", "comma-separated `counts` of workers for the parallel engine")
	engines := fs.String("engines", "par,lean,seq", "comma-separated `engines`: par, lean, seq")
	reps := fs.Int("reps", 3, "`repetitions` of each measurement (the median is reported)")
	only := fs.String("workload", "", "comma-separated workload `names` to run (default: all, or the quick ones)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), benchHelp)
		fs.PrintDefaults()
		fmt.Fprintln(fs.Output(), "\nWorkloads:")
		for _, w := range bench.Workloads() {
			fmt.Fprintf(fs.Output(), "  %s%s\n", w.Name, map[bool]string{true: " (quick)", false: ""}[w.Quick])
		}
	}
	if err := parseFlags(fs, args, e); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("bench: unexpected argument %q", fs.Arg(0))
	}
	c := bench.Config{Reps: *reps, Progress: e.stderr, Env: []string{childEnv + "=1"}}
	var err error
	if c.Workers, err = bench.ParseWorkers(*workers); err != nil {
		return usagef("bench: -workers: %v", err)
	}
	for _, eng := range strings.Split(*engines, ",") {
		if eng != "par" && eng != "lean" && eng != "seq" {
			return usagef("bench: -engines: %q is not par, lean or seq", eng)
		}
		c.Engines = append(c.Engines, eng)
	}
	if c.Reps < 1 {
		return usagef("bench: -reps %d: want at least 1", c.Reps)
	}
	for _, w := range bench.Workloads() {
		if *only != "" {
			if containsWord(*only, w.Name) {
				c.Workloads = append(c.Workloads, w)
			}
		} else if w.Quick || !*quick {
			c.Workloads = append(c.Workloads, w)
		}
	}
	if len(c.Workloads) == 0 {
		return usagef("bench: -workload %q names no workload", *only)
	}
	if c.Exe, err = os.Executable(); err != nil {
		return err
	}
	_, err = bench.Run(e.ctx, c, e.stdout)
	return err
}

func containsWord(list, word string) bool {
	for _, w := range strings.Split(list, ",") {
		if strings.TrimSpace(w) == word {
			return true
		}
	}
	return false
}

// childEnv marks a process started by retro bench, so that a test binary
// standing in for retro knows to behave as the command (see TestMain).
const childEnv = "RETRO_BENCH_CHILD"

// benchChildCmd runs one measurement for `retro bench`: bench-child WORKLOAD
// ENGINE WORKERS.
func benchChildCmd(args []string, e *env) error {
	if len(args) != 3 {
		return usagef("bench-child: want WORKLOAD ENGINE WORKERS")
	}
	workers, err := strconv.Atoi(args[2])
	if err != nil || workers < 1 {
		return usagef("bench-child: %q is not a worker count", args[2])
	}
	return bench.Child(e.ctx, e.stdout, args[0], args[1], workers)
}

func infoCmd(args []string, e *env) error {
	fs := flag.NewFlagSet("info", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	cores := fs.Bool("cores", false, "measure, in a few seconds, how many times one thread's integer work, and its random read-modify-writes over 256 MiB, all the logical cores do now: a shared guest's cores may share physical ones and its memory other guests' load, from one minute to the next, and every ratio of workers with them; and the integer work in phases of a millisecond, as a solve's levels run")
	if err := parseFlags(fs, args, e); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("info: unexpected argument %q", fs.Arg(0))
	}
	m := bench.ThisMachine()
	for _, line := range m.Lines() {
		fmt.Fprintln(e.stdout, line)
	}
	if *cores {
		for _, line := range bench.CoreScalingLines(m.GOMAXPROCS) {
			fmt.Fprintln(e.stdout, line)
		}
	}
	return nil
}
