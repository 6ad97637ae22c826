package main

import (
	"fmt"
	"strings"

	"github.com/retro-solver/retro/implicit/games"
)

const mainHelp = `retro solves two-player games by retrograde analysis: for every position,
win, loss or draw for the player to move, and the depth (plies to the end
when the winner hurries and the loser delays).

Usage:

	retro solve GAME [flags] [FILE|-] solve a game read from FILE or standard input
	                                  (graph, pawns, police; the others read nothing,
	                                  but chess takes its endgame: solve chess KQvKR)
	retro grundy [flags] FILE|-       Smith values (nim values or inf{K}) of a graph
	retro sum [flags] FILE:VERTEX...  the value and outcome of a sum of graph games
	retro query FILE [POSITION...]    a position's value and its moves, best first,
	                                  from a database saved by solve -db FILE
	retro verify FILE                 check a database against the game's rules
	retro play [flags] FILE           play against perfect play from a database
	retro serve [flags] FILE...       a web explorer and JSON API for databases
	retro db info FILE                what a database holds, and its sizes
	retro bench [-quick] [flags]      benchmark the engines on named workloads
	retro info [-cores]               the CPU facts that benchmarks report
	retro help [COMMAND | GAME]       show this help, or a command's or game's

Games:
%s
Exit status: 0 on success, 1 when the input is bad or the solve fails,
2 for a usage error.
`

func helpCmd(args []string, e *env) error {
	if len(args) == 0 {
		fmt.Fprintf(e.stdout, mainHelp, gameList())
		return nil
	}
	if len(args) > 1 {
		return usagef("help takes one topic, got %d", len(args))
	}
	if args[0] == "solve" {
		fmt.Fprintf(e.stdout, "Usage: retro solve GAME [flags] [FILE|-]\n\nGames:\n%s\nFlags (all games; see 'retro help GAME' for a game's own):\n", gameList())
		fs, _ := newSolveFlags("GAME", e)
		fs.SetOutput(e.stdout)
		fs.PrintDefaults()
		return nil
	}
	commands := map[string]func([]string, *env) error{"grundy": grundyCmd, "sum": sumCmd, "bench": benchCmd,
		"query": queryCmd, "verify": verifyCmd, "play": playCmd, "serve": serveCmd}
	switch args[0] {
	case "help":
		fmt.Fprintln(e.stdout, "Usage: retro help [COMMAND | GAME]\n\nWithout a topic, the commands and the games; with one, the command's or the\ngame's usage, input, output and flags.")
		return nil
	case "db":
		fmt.Fprint(e.stdout, dbHelp)
		return nil
	case "info":
		fmt.Fprintln(e.stdout, "Usage: retro info [-cores]\n\nPrints the CPU's brand, cores, cache sizes and the features the hot loops use;\nwith -cores, also how many times one thread's integer work, and its random\nread-modify-writes over 256 MiB, all the logical cores do at this moment (a\nfew seconds): on a shared guest two virtual cores may run on one physical\ncore, and the memory carry other guests' load, and every ratio of 2 workers\nto 1 with them; and the integer work again in phases of a millisecond, a\ngoroutine for each core a phase, as a solve's levels run: what the cores\nlose at the phases' starts and ends bounds what workers gain.")
		return nil
	}
	if cmd, ok := commands[args[0]]; ok {
		// The command's own -h, to standard output.
		toStdout := *e
		toStdout.stderr = e.stdout
		cmd([]string{"-h"}, &toStdout)
		return nil
	}
	d, ok := games.Lookup(args[0])
	if !ok {
		return usagef("no help for %q: not a command or game", args[0])
	}
	fs, _, _ := newGameFlags(d, e)
	fs.SetOutput(e.stdout)
	fs.Usage()
	return nil
}

func gameList() string {
	var b strings.Builder
	for _, d := range games.All() {
		fmt.Fprintf(&b, "\t%-8s %s\n", d.Name, d.Summary)
	}
	return b.String()
}

// gameNames returns the names of the built-in games.
func gameNames() []string {
	var names []string
	for _, d := range games.All() {
		names = append(names, d.Name)
	}
	return names
}
