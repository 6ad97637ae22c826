package police

import (
	"flag"
	"fmt"
	"io"

	"github.com/retro-solver/retro/implicit"
)

// Descriptor is policeman and thief as `retro solve police` reads it.
var Descriptor = implicit.Descriptor{
	Name:    "police",
	Summary: "policeman and thief (seeds 000 and 003) on boards of any size memory allows",
	Help: `Input: "n m", then n rows of m cells: '.' free, '*' wall, 'E' exit (zero or
more), 'P' or 'C' the policeman (exactly one), 'T' the thief (exactly one).
The policeman moves first, 8 directions; the thief 4; either may pass.

Output: one line, "Police catches the thief in N moves", "The thief escapes
in N moves" or "Draw", N the depth of the start in plies.
`,
	Input:   true,
	Setup:   func(*flag.FlagSet) implicit.Loader { return load },
	Answers: [3]string{"Police catches the thief in %d moves", "The thief escapes in %d moves", "Draw"},
}

func load(in io.Reader, _ implicit.LoadConfig) ([]implicit.Instance, error) {
	b, err := Parse(in)
	if err != nil {
		return nil, err
	}
	return []implicit.Instance{{
		Game:  func() implicit.Game { return New(b) },
		Label: fmt.Sprintf("%d x %d board", b.Rows, b.Cols),
	}}, nil
}
