package teeko

import (
	"flag"
	"io"

	"github.com/retro-solver/retro/implicit"
)

// Descriptor is Teeko as `retro solve teeko` plays it: from the empty
// board, over one position per symmetry class.
var Descriptor = implicit.Descriptor{
	Name:    "teeko",
	Summary: "Teeko on the 5 x 5 board, solved from the empty board",
	Help: `No input: the game starts from the empty board, X to move. Each symmetry
class of positions (8 symmetries of the square) is solved once.

Output: the start's value for X, as a graph line without the vertex:
"win D", "loss D" or "draw".
`,
	Setup:   func(*flag.FlagSet) implicit.Loader { return load },
	Answers: [3]string{"win %d", "loss %d", "draw"},
}

func load(io.Reader, implicit.LoadConfig) ([]implicit.Instance, error) {
	return []implicit.Instance{{Game: func() implicit.Game { return New() }}}, nil
}
