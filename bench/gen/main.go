// Command gen writes deterministic random inputs for retro, to measure it
// on large games:
//
//	go run ./bench/gen graph -n 10000000 -m 50000000 > big.graph
//	go run ./bench/gen police -rows 128 -cols 128 -walls 0.1 > big.police
//	go run ./bench/gen pawns -rows 10 -cols 10 -boards 10 > ten.pawns
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/pawns"
	"github.com/retro-solver/retro/implicit/police"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gen graph|police|pawns [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	seed := fs.Uint64("seed", 1, "random `seed`")
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	var err error
	switch os.Args[1] {
	case "graph":
		n := fs.Uint64("n", 1000, "number of `vertices`")
		m := fs.Uint64("m", 5000, "number of `edges`")
		fs.Parse(os.Args[2:])
		if *n > graph.MaxVertices || *m > graph.MaxEdges || *n == 0 && *m > 0 {
			err = fmt.Errorf("-n %d -m %d: want 0 < n, m < 2^32 (or n = m = 0)", *n, *m)
			break
		}
		// The same graph as the graph-* workloads of retro bench.
		err = graph.Write(w, graph.Random(*n, *m, *seed))
	case "police":
		rows := fs.Int("rows", 64, "board `rows`")
		cols := fs.Int("cols", 64, "board `columns`")
		walls := fs.Float64("walls", 0.1, "wall `probability` per cell")
		exits := fs.Float64("exits", 0.005, "exit `probability` per cell")
		fs.Parse(os.Args[2:])
		_, err = w.WriteString(police.Random(*rows, *cols, *walls, *exits, *seed).String())
	case "pawns":
		rows := fs.Int("rows", 10, "board `rows`")
		cols := fs.Int("cols", 10, "board `columns`")
		walls := fs.Float64("walls", 0.1, "wall `probability` per cell")
		count := fs.Int("boards", 10, "number of `boards`")
		fs.Parse(os.Args[2:])
		var boards []*pawns.Board
		for k := range *count {
			boards = append(boards, pawns.Random(*rows, *cols, *walls, *seed+uint64(k)))
		}
		err = pawns.Write(w, boards)
	default:
		fmt.Fprintf(os.Stderr, "gen: unknown input kind %q: want graph, police or pawns\n", os.Args[1])
		os.Exit(2)
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
