package pawns

import (
	"flag"
	"io"

	"github.com/retro-solver/retro/implicit"
)

// Descriptor is the pawns game as `retro solve pawns` reads it: the boards
// of one LOJ 3958 input, solved in turn.
var Descriptor = implicit.Descriptor{
	Name:    "pawns",
	Summary: "the river-crossing pawns (LOJ 3958): boards up to 16 x 16",
	Help: `Input (LOJ 3958): a line "id T", then T boards, each "n m" and n rows of m
cells: '.' empty, '#' wall, 'O' a red pawn (exactly two), 'X' the black pawn
(exactly one, not in row 1). Boards up to 16 x 16.

Output: one line per board: "Red t" or "Black t" (the winner and the total
moves of both sides under optimal play), or "Tie".
`,
	Input:   true,
	Setup:   func(*flag.FlagSet) implicit.Loader { return load },
	Answers: [3]string{"Red %d", "Black %d", "Tie"},
	List:    "boards",
}

// load parses every board first, so that a bad board is refused before any
// is solved; one Game's tables then serve every board in turn.
func load(in io.Reader, _ implicit.LoadConfig) ([]implicit.Instance, error) {
	boards, err := Parse(in)
	if err != nil {
		return nil, err
	}
	g := new(Game)
	insts := make([]implicit.Instance, len(boards))
	for i, b := range boards {
		insts[i].Game = func() implicit.Game { g.Reset(b); return g }
	}
	return insts, nil
}
