package quixo

import (
	"flag"
	"fmt"
	"io"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/text"
)

// Descriptor is Quixo as `retro solve quixo -n N` plays it: from the empty
// board, over one board per symmetry class.
var Descriptor = implicit.Descriptor{
	Name:    "quixo",
	Summary: "Quixo on an n x n board (-n 2 to 4), solved from the empty board",
	Help: `No input: the game starts from the empty board, X to move. Each symmetry
class of boards (the 8 symmetries of the square, and the two colours
swapped together with the turn) is solved once.

Output: the start's value for X, as a graph line without the vertex:
"win 21", "loss 20" or "draw".
`,
	Setup: func(fs *flag.FlagSet) implicit.Loader {
		n := fs.Int("n", 4, "the board's `side`: 2, 3 or 4 (5 is refused with its memory estimate)")
		return func(_ io.Reader, c implicit.LoadConfig) ([]implicit.Instance, error) { return load(*n, c) }
	},
	Answers: [3]string{"win %d", "loss %d", "draw"},
}

func load(n int, c implicit.LoadConfig) ([]implicit.Instance, error) {
	g, err := New(n)
	if n == 5 && c.SolverBytes != nil {
		// 3^25 boards times two turns, at the solver's bytes per index.
		size := 2 * pow3(25)
		return nil, fmt.Errorf("quixo -n 5: %d indices (3^25 boards, two turns) would need about %s; not supported",
			size, text.HumanBytes(c.SolverBytes(size, 32)))
	}
	if err != nil {
		return nil, err
	}
	return []implicit.Instance{{Game: func() implicit.Game { return g }}}, nil
}
