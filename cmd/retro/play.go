package main

import (
	"bufio"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/query"
)

const playHelp = `Usage: retro play [flags] FILE [POSITION]

A game in the terminal against perfect play from the database FILE, from
the start (or POSITION). Each turn shows the board, its value for the
player to move, and on your turn every move with the value it leads to
(the opponent's), best first. Answer with a move's number, its name (a
game that names its moves: chess's e2e4) or the position it leads to; u
undoes your last move, q quits, and so does the end of the input.

Flags:
`

func playCmd(args []string, e *env) error {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	as := fs.String("as", "first", "your side: `first` (the player to move at the start) or second")
	inst := instanceFlag(fs)
	fs.Usage = func() { fmt.Fprint(fs.Output(), playHelp); fs.PrintDefaults() }
	if err := parseFlags(fs, args, e); err != nil {
		return err
	}
	if *as != "first" && *as != "second" {
		return usagef("play: -as %q: want first or second", *as)
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		return usagef("play: want a database FILE and at most one POSITION, got %d arguments", fs.NArg())
	}
	b, p, err := openSolved(fs.Arg(0), *inst, "play")
	if err != nil {
		return err
	}
	defer b.f.Close()
	var start uint64
	if fs.NArg() == 2 {
		if start, err = query.ReadPosition(p.Game, fs.Arg(1)); err != nil {
			return fmt.Errorf("play: position %q: %v", fs.Arg(1), err)
		}
	} else if st, ok := p.Game.(implicit.Starter); ok {
		start = st.Start()
	} else {
		return usagef("play: the game has no start: give a POSITION")
	}
	g := &game{p: p, in: bufio.NewScanner(e.stdin), out: bufio.NewWriter(e.stdout), humanFirst: *as == "first"}
	defer g.out.Flush()
	return g.play(start)
}

// game is one game of retro play.
type game struct {
	p          query.Solved
	in         *bufio.Scanner
	out        *bufio.Writer
	humanFirst bool
	history    []uint64 // the positions so far, the current one last
}

// moveText writes the move from s to t: its name where the game names its
// moves (implicit.MoveNamer) and the position it leads to.
func (g *game) moveText(s, t uint64, turn query.Turn) string {
	text := query.OneLineAt(g.p.Game, t, turn)
	if mn, ok := g.p.Game.(implicit.MoveNamer); ok {
		if name := mn.MoveName(s, t); name != "" {
			return fmt.Sprintf("%-6s %s", name, text)
		}
	}
	return text
}

// humanToMove reports whether the human moves at the current position.
func (g *game) humanToMove() bool { return (len(g.history)%2 == 1) == g.humanFirst }

func (g *game) play(start uint64) error {
	g.history = []uint64{start}
	for {
		s := g.history[len(g.history)-1]
		e, err := g.p.Lookup(s)
		if err != nil {
			return err
		}
		moves, err := g.p.Moves(s)
		if err != nil {
			return err
		}
		// Plies from the start: a game that keeps positions as the player to
		// move sees them shows the second player's as they stand.
		turn := query.First
		if len(g.history)%2 == 0 {
			turn = query.Second
		}
		fmt.Fprintf(g.out, "\n%s\n", query.Text(g.p.Game, s, turn))
		if len(moves) == 0 {
			who := "retro"
			if g.humanToMove() {
				who = "you"
			}
			verdict := map[engine.Value]string{engine.Win: "wins", engine.Loss: "loses"}[e.Value]
			if verdict == "" {
				verdict = "has no move (" + e.String() + ")"
			}
			fmt.Fprintf(g.out, "game over: %s, to move, %s\n", who, verdict)
			return g.out.Flush()
		}
		if !g.humanToMove() {
			m := moves[0]
			fmt.Fprintf(g.out, "retro to move (%v): plays %s, %v for you\n", e, g.moveText(s, m.To, turn.Next()), m.Entry)
			g.history = append(g.history, m.To)
			continue
		}
		fmt.Fprintf(g.out, "you to move: %v\n", e)
		for i, m := range moves {
			fmt.Fprintf(g.out, "%3d. %-9v %s\n", i+1, m.Entry, g.moveText(s, m.To, turn.Next()))
		}
		next, quit := g.ask(s, moves)
		if quit {
			fmt.Fprintln(g.out, "bye")
			return g.out.Flush()
		}
		if next == nil {
			continue // undone: show the position again
		}
		g.history = append(g.history, *next)
	}
}

// ask reads the human's answer at position s until it names a move (its
// number, its name where the game names moves, or the position it leads
// to), an undo (nil) or the end (quit).
func (g *game) ask(s uint64, moves []query.Move) (next *uint64, quit bool) {
	for {
		what := "or a position"
		if _, ok := g.p.Game.(implicit.MoveNamer); ok {
			what = "a move's name or a position"
		}
		fmt.Fprintf(g.out, "your move (1-%d, %s; u: undo, q: quit): ", len(moves), what)
		g.out.Flush()
		if !g.in.Scan() {
			fmt.Fprintln(g.out)
			return nil, true
		}
		line := strings.TrimSpace(g.in.Text())
		switch line {
		case "":
			continue
		case "q", "quit":
			return nil, true
		case "u", "undo":
			if len(g.history) < 3 {
				fmt.Fprintln(g.out, "nothing to undo")
				continue
			}
			// Back to the human's previous turn: two plies.
			g.history = g.history[:len(g.history)-2]
			return nil, false
		}
		if k, err := strconv.Atoi(line); err == nil {
			if k < 1 || k > len(moves) {
				fmt.Fprintf(g.out, "no move %d: choose 1 to %d\n", k, len(moves))
				continue
			}
			return &moves[k-1].To, false
		}
		if mn, ok := g.p.Game.(implicit.MoveNamer); ok {
			if i := slices.IndexFunc(moves, func(m query.Move) bool { return mn.MoveName(s, m.To) == line }); i >= 0 {
				return &moves[i].To, false
			}
		}
		pos, err := query.ReadPosition(g.p.Game, line)
		if err != nil {
			fmt.Fprintf(g.out, "%q: %v\n", line, err)
			continue
		}
		for _, m := range moves {
			if m.To == pos {
				return &m.To, false
			}
		}
		fmt.Fprintf(g.out, "%q: not a position one move away\n", line)
	}
}
