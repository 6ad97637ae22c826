package main

import (
	"bufio"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/retro-solver/retro/engine/smith"
	"github.com/retro-solver/retro/implicit/graph"
)

const grundyHelp = `Usage: retro grundy [flags] FILE|-

Prints the Smith value of every vertex of a graph (the graph format of
'retro help graph'), one line per vertex: "v g" when the vertex is
equivalent to the nim heap *g (on an acyclic graph, g is its Sprague-Grundy
value), or "v inf{K}" (Smith's infinity, K the nim values among its moves,
increasing, comma-separated).

Flags:
`

const sumHelp = `Usage: retro sum [flags] FILE:VERTEX [FILE:VERTEX ...]

Prints the value of the sum of the given games (a move is a move in exactly
one component) and its outcome for the player to move: "g win", "0 loss",
"inf{K} win" (0 in K) or "inf{K} draw". FILE - reads standard input.

Flags:
`

// valueFlags are the flags of grundy and sum.
type valueFlags struct {
	progress  bool
	maxMemory byteSize
}

func newValueFlags(name, help string, e *env) (*flag.FlagSet, *valueFlags) {
	f := &valueFlags{}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.BoolVar(&f.progress, "progress", false, "print progress lines to standard error (default when it is a terminal)")
	fs.Var(&f.maxMemory, "max-memory", "refuse graphs that need more than this `size` of memory, e.g. 512M, 1.5G or 8G (default: the machine's memory)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), help)
		fs.PrintDefaults()
	}
	return fs, f
}

func (f *valueFlags) config(e *env) *solveRun {
	return &solveRun{ctx: e.ctx, env: e, solveFlags: solveFlags{progress: f.progress, maxMemory: f.maxMemory}}
}

// smithOf reads the graph at path and labels it.
func smithOf(c *solveRun, path string) (*graph.Graph, *smith.Result, error) {
	in, name, closeIn, err := openInput(path, c.env)
	if err != nil {
		return nil, nil, err
	}
	defer closeIn()
	g, err := graph.Read(in, c.memoryLimit())
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	r, err := smith.Solve(c.ctx, g, c.options())
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return g, r, nil
}

func grundyCmd(args []string, e *env) error {
	fs, f := newValueFlags("grundy", grundyHelp, e)
	if err := parseFlags(fs, args, e); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("grundy: want one input FILE (or - for standard input), got %d arguments", fs.NArg())
	}
	g, r, err := smithOf(f.config(e), fs.Arg(0))
	if err != nil {
		return err
	}
	out := bufio.NewWriterSize(e.stdout, 1<<16)
	var line []byte
	var k []uint32
	for v := range g.Size() {
		line = strconv.AppendUint(line[:0], v, 10)
		line = append(line, ' ')
		line = r.AppendValue(line, v, k)
		line = append(line, '\n')
		if _, err := out.Write(line); err != nil {
			return err
		}
	}
	return out.Flush()
}

func sumCmd(args []string, e *env) error {
	fs, f := newValueFlags("sum", sumHelp, e)
	if err := parseFlags(fs, args, e); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("sum: want at least one FILE:VERTEX")
	}
	type term struct {
		path   string
		vertex uint64
	}
	var terms []term
	stdin := 0
	for _, arg := range fs.Args() {
		i := strings.LastIndexByte(arg, ':')
		if i < 0 {
			return usagef("sum: %q is not FILE:VERTEX", arg)
		}
		v, err := strconv.ParseUint(arg[i+1:], 10, 64)
		if err != nil {
			return usagef("sum: %q: the vertex %q is not a number", arg, arg[i+1:])
		}
		if arg[:i] == "-" {
			if stdin++; stdin > 1 {
				return usagef("sum: standard input (-) can be read only once; give the same FILE:VERTEX twice instead")
			}
		}
		terms = append(terms, term{arg[:i], v})
	}
	c := f.config(e)
	type labelled struct {
		g *graph.Graph
		r *smith.Result
	}
	cache := map[string]labelled{}
	var sum smith.Sum
	for _, t := range terms {
		l, ok := cache[t.path]
		if !ok {
			g, r, err := smithOf(c, t.path)
			if err != nil {
				return err
			}
			l = labelled{g, r}
			cache[t.path] = l
		}
		if t.vertex >= l.g.Size() {
			return fmt.Errorf("%s:%d: vertex %d out of range [0, %d)", t.path, t.vertex, t.vertex, l.g.Size())
		}
		sum.Add(l.r, t.vertex)
	}
	_, err := e.stdout.Write(append(sum.AppendOutcome(nil), '\n'))
	return err
}
