// Command retro solves two-player games by retrograde analysis: for every
// position, win, loss or draw for the player to move, and the depth.
//
// Usage:
//
//	retro solve GAME [flags] [FILE|-]
//	retro grundy [flags] FILE|-
//	retro sum [flags] FILE:VERTEX [FILE:VERTEX ...]
//	retro query FILE [POSITION...]
//	retro verify FILE
//	retro play [flags] FILE [POSITION]
//	retro serve [flags] FILE...
//	retro db info FILE
//	retro bench [flags]
//	retro info
//	retro help [COMMAND]
//
// Run `retro help` for the games and flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// The solvers' state is a few huge pointer-free arrays, cheap to scan:
	// collecting garbage early keeps peak memory near the live arrays.
	debug.SetGCPercent(20)
	env := &env{
		ctx:        ctx,
		stdin:      os.Stdin,
		stdout:     os.Stdout,
		stderr:     os.Stderr,
		isTerminal: isTerminal(os.Stderr),
		cores:      func(n int) { runtime.GOMAXPROCS(n) },
	}
	os.Exit(run(os.Args[1:], env))
}

// env is what a command sees of the world, so that tests can run it.
type env struct {
	ctx            context.Context
	stdin          io.Reader
	stdout, stderr io.Writer
	isTerminal     bool // stderr is a terminal: show progress by default
	// resident, if not nil, stands in for residentBytes: the memory the
	// process holds before it reads its input (tests, which run many
	// commands in one process, fix it).
	resident func() uint64
	// cores, if not nil, sets the most goroutines the process runs at once
	// (runtime.GOMAXPROCS; tests, which run many commands in one process,
	// leave it nil).
	cores func(int)
	// freeDisk, if not nil, stands in for freeDiskOS: the bytes free on a
	// folder's file system (tests).
	freeDisk func(dir string) (uint64, bool)
}

// freeBytes returns the bytes free on dir's file system, and false where
// that is not known.
func (e *env) freeBytes(dir string) (uint64, bool) {
	if e.freeDisk != nil {
		return e.freeDisk(dir)
	}
	return freeDiskOS(dir)
}

// useWorkers checks a command's -workers (0: one per core) and bounds the
// process to that many cores where it has more: the engine's workers, and
// the short phases beside them that spread over every core (finding a
// symmetric game's classes, building a graph, compressing a database) and
// the garbage collector.
func (e *env) useWorkers(cmd string, workers int) error {
	if workers < 0 || workers > maxWorkers {
		return usagef("%s: -workers %d: want 1 to %d, or 0 for one per core", cmd, workers, maxWorkers)
	}
	if e.cores != nil && workers > 0 && workers < runtime.GOMAXPROCS(0) {
		e.cores(workers)
	}
	return nil
}

// errWriter remembers the first error of its writer, so that output lost
// to a full disk or a closed pipe fails the command.
type errWriter struct {
	w   io.Writer
	err error
}

func (w *errWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	if err != nil && w.err == nil {
		w.err = err
	}
	return n, err
}

// usageError is a command line that retro cannot make sense of: exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// run executes the command line args and returns the exit status: 0 on
// success, 1 when the work failed, 2 for a usage error, 130 when an
// interrupt stopped it (the shell's convention for SIGINT).
func run(args []string, e *env) int {
	out := &errWriter{w: e.stdout}
	e.stdout = out
	err := dispatch(args, e)
	if err == nil && out.err != nil {
		err = fmt.Errorf("writing the output: %w", out.err)
	}
	var ue *usageError
	switch {
	case err != nil && e.ctx.Err() != nil:
		// Whatever failed, it failed because of the interrupt.
		fmt.Fprintln(e.stderr, "retro: interrupted")
		return 130
	case err == nil:
		return 0
	case errors.Is(err, errHelpShown):
		return 0
	case errors.Is(err, errSilent):
		return 1
	case errors.As(err, &ue):
		fmt.Fprintf(e.stderr, "retro: %s\nRun 'retro help' for usage.\n", ue.msg)
		return 2
	default:
		fmt.Fprintf(e.stderr, "retro: %v\n", err)
		return 1
	}
}

var errHelpShown = errors.New("help shown")

// errSilent is a failure the command has already reported: exit 1.
var errSilent = errors.New("failed")

func dispatch(args []string, e *env) error {
	if len(args) == 0 {
		fmt.Fprintf(e.stderr, mainHelp, gameList())
		return usagef("no command given")
	}
	switch args[0] {
	case "solve":
		return solveCmd(args[1:], e)
	case "grundy":
		return grundyCmd(args[1:], e)
	case "sum":
		return sumCmd(args[1:], e)
	case "bench":
		return benchCmd(args[1:], e)
	case "bench-child":
		return benchChildCmd(args[1:], e)
	case "info":
		return infoCmd(args[1:], e)
	case "query":
		return queryCmd(args[1:], e)
	case "verify":
		return verifyCmd(args[1:], e)
	case "play":
		return playCmd(args[1:], e)
	case "db":
		return dbCmd(args[1:], e)
	case "serve":
		return serveCmd(args[1:], e)
	case "help", "-h", "-help", "--help":
		return helpCmd(args[1:], e)
	}
	return usagef("unknown command %q", args[0])
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// parseFlags parses args into fs. Flags may come before, between or after
// the other arguments (`solve graph FILE -stats`); "--" ends the flags, and
// an argument that starts with "-:" (sum's standard input) is never one. A
// parse error comes back as one usage error line (the flag package's own
// message and flag list are not printed); -h prints the usage to standard
// error and counts as success.
func parseFlags(fs *flag.FlagSet, args []string, e *env) error {
	fs.SetOutput(io.Discard)
	defer fs.SetOutput(e.stderr)
	var positional []string
	for {
		for len(args) > 0 && strings.HasPrefix(args[0], "-:") {
			positional, args = append(positional, args[0]), args[1:]
		}
		err := fs.Parse(args)
		switch {
		case errors.Is(err, flag.ErrHelp):
			fs.SetOutput(e.stderr)
			fs.Usage()
			return errHelpShown
		case err != nil:
			return usagef("%s: %v", fs.Name(), err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if k := len(args) - len(rest); k > 0 && args[k-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		positional, args = append(positional, rest[0]), rest[1:]
	}
	// Leave the positional arguments where fs.Args finds them.
	return fs.Parse(append([]string{"--"}, positional...))
}
