package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/quixo"
	"github.com/retro-solver/retro/internal/text"
)

var quixoGame = &game{
	summary: "Quixo on an n x n board (-n 2 to 4), solved from the empty board",
	help: `No input: the game starts from the empty board, X to move. Each symmetry
class of boards (8 symmetries of the square) is solved once.

Output: the start's value for X, as a graph line without the vertex:
"win 21", "loss 20" or "draw".
`,
	noInput: true,
	flags: func(fs *flag.FlagSet, c *solveConfig) {
		fs.IntVar(&c.side, "n", 4, "the board's `side`: 2, 3 or 4 (5 is refused with its memory estimate)")
	},
	solve: solveQuixo,
}

func solveQuixo(c *solveConfig, _ io.Reader, _ string, out *bufio.Writer) error {
	g, err := quixo.New(c.side)
	if err != nil {
		if c.side == 5 {
			// 3^25 boards times two turns, at the parallel engine's bytes
			// per index.
			n := uint64(2 * 847288609443)
			return fmt.Errorf("quixo -n 5: %d indices (3^25 boards, two turns) would need about %s; not supported",
				n, text.HumanBytes(engine.MemoryNeeded(n, 32)))
		}
		return err
	}
	return solveClasses(c, out, g)
}

// startGame is a symmetric game that starts from one position.
type startGame interface {
	implicit.Symmetric
	Start() uint64
}

// solveClasses solves g over its symmetry classes and reports the start's
// value line.
func solveClasses(c *solveConfig, out *bufio.Writer, g startGame) error {
	cg := c.compact(g)
	r, err := c.run(cg)
	if err != nil {
		return err
	}
	start := cg.Index(g.Start())
	return c.report(out, cg, r, start, valueLine(r, start))
}

// valueLine is "win D", "loss D" or "draw" for position s.
func valueLine(r *engine.Result, s uint64) string {
	if v := r.Value(s); v == engine.Win || v == engine.Loss {
		return fmt.Sprintf("%v %d", v, r.Depth(s))
	}
	return r.Value(s).String()
}
