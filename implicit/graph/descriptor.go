package graph

import (
	"flag"
	"io"

	"github.com/retro-solver/retro/implicit"
)

// Descriptor is the explicit graph as `retro solve graph` reads it.
var Descriptor = implicit.Descriptor{
	Name:    "graph",
	Summary: "an explicit directed graph in the graph text format",
	Help: `Input: blank lines and lines starting with '#' are skipped; the first other
line is "n m", then m lines "u v", a move from u to v (0 <= u, v < n).
Self-loops and repeated edges are moves like any other; a vertex with no
moves is a loss for the player to move.

Output: one line per vertex, in order: "v win D", "v loss D" or "v draw",
D the depth in plies.
`,
	Input: true,
	Setup: func(*flag.FlagSet) implicit.Loader { return load },
}

func load(in io.Reader, c implicit.LoadConfig) ([]implicit.Instance, error) {
	g, err := Read(in, c.MaxMemory)
	if err != nil {
		return nil, err
	}
	return []implicit.Instance{{Game: func() implicit.Game { return g }}}, nil
}
