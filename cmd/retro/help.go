package main

import (
	"fmt"
	"sort"
	"strings"
)

const mainHelp = `retro solves two-player games by retrograde analysis: for every position,
win, loss or draw for the player to move, and the depth (plies to the end
when the winner hurries and the loser delays).

Usage:

	retro solve GAME [flags] [FILE|-] solve a game read from FILE or standard input
	                                  (quixo and teeko read nothing: they start empty)
	retro grundy [flags] FILE|-       Smith values (nim values or inf{K}) of a graph
	retro sum [flags] FILE:VERTEX...  the value and outcome of a sum of graph games
	retro bench [-quick] [flags]      benchmark the engines on named workloads
	retro info                        the CPU facts that benchmarks report
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
		fs, _ := newSolveFlags(games[sortedGames()[0]], e)
		fs.SetOutput(e.stdout)
		fs.PrintDefaults()
		return nil
	}
	switch args[0] {
	case "grundy":
		fmt.Fprint(e.stdout, grundyHelp)
		return nil
	case "sum":
		fmt.Fprint(e.stdout, sumHelp)
		return nil
	case "bench":
		fmt.Fprint(e.stdout, benchHelp)
		return nil
	case "info":
		fmt.Fprintln(e.stdout, "Usage: retro info\n\nPrints the CPU's brand, cores, cache sizes and the features the hot loops use.")
		return nil
	}
	g, ok := games[args[0]]
	if !ok {
		return usagef("no help for %q: not a command or game", args[0])
	}
	fs, _ := newSolveFlags(g, e)
	fs.SetOutput(e.stdout)
	fs.Usage()
	return nil
}

func gameList() string {
	var b strings.Builder
	for _, name := range sortedGames() {
		fmt.Fprintf(&b, "\t%-8s %s\n", name, games[name].summary)
	}
	return b.String()
}

func sortedGames() []string {
	names := make([]string, 0, len(games))
	for name := range games {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
