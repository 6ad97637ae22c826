package quixo

import (
	"flag"
	"io"

	"github.com/retro-solver/retro/implicit"
)

// Descriptor is Quixo as `retro solve quixo -n N` plays it: from the empty
// board, over one board per symmetry class, or, with -min-cubes, the
// boards with that many cubes or more.
var Descriptor = implicit.Descriptor{
	Name:    "quixo",
	Summary: "Quixo on an n x n board (-n 2 to 5), solved from the empty board; tiered by the cubes on the board",
	Help: `No input: the game starts from the empty board, X to move. Each symmetry
class of boards (the 8 symmetries of the square, and the two colours
swapped together with the turn) is solved once. The game is tiered by the
cubes on the board (a move never takes one off): -tiered, or a -max-memory
too small for the whole game, solves a tier at a time.

-min-cubes K keeps only the boards with K cubes or more, a game of its own
(the last tiers of 5 x 5, say): it has no start, and the answer is the
counts of its positions' values.

Output: the start's value for X, as a graph line without the vertex:
"win 21", "loss 20" or "draw".
`,
	Setup: func(fs *flag.FlagSet) implicit.Loader {
		n := fs.Int("n", 4, "the board's `side`: 2 to 5 (5 only tiered, and whole it needs far more than one machine)")
		minCubes := fs.Int("min-cubes", 0, "keep only the boards with at least this many `cubes` (0: every board, from the empty start)")
		return func(_ io.Reader, c implicit.LoadConfig) ([]implicit.Instance, error) { return load(*n, *minCubes) }
	},
	Answers: [3]string{"win %d", "loss %d", "draw"},
	// Version 2: the index by tiers of cubes (version 1 ranked boards in
	// base 3); databases of another version are refused.
	Version: 2,
}

// partial is a Game without a start: the boards with at least MinCubes
// cubes.
type partial struct {
	tiered
}

type tiered interface {
	implicit.Symmetric
	implicit.Tiered
	implicit.Notation
}

func load(n, minCubes int) ([]implicit.Instance, error) {
	g, err := NewFrom(n, minCubes)
	if err != nil {
		return nil, err
	}
	game := implicit.Game(g)
	if !g.HasStart() {
		game = partial{g}
	}
	return []implicit.Instance{{Game: func() implicit.Game { return game }}}, nil
}
