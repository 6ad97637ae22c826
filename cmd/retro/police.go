package main

import (
	"bufio"
	"fmt"
	"io"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit/police"
)

var policeGame = &game{
	summary: "policeman and thief (seeds 000 and 003) on boards of any size memory allows",
	help: `Input: "n m", then n rows of m cells: '.' free, '*' wall, 'E' exit (zero or
more), 'P' or 'C' the policeman (exactly one), 'T' the thief (exactly one).
The policeman moves first, 8 directions; the thief 4; either may pass.

Output: one line, "Police catches the thief in N moves", "The thief escapes
in N moves" or "Draw", N the depth of the start in plies.
`,
	solve: solvePolice,
}

func solvePolice(c *solveConfig, in io.Reader, name string, out *bufio.Writer) error {
	b, err := police.Parse(in)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	g := police.New(b)
	r, err := c.run(g)
	if err != nil {
		return fmt.Errorf("%s: %d x %d board: %w", name, b.Rows, b.Cols, err)
	}
	s := g.Start()
	answer := "Draw"
	switch r.Value(s) {
	case engine.Win:
		answer = fmt.Sprintf("Police catches the thief in %d moves", r.Depth(s))
	case engine.Loss:
		answer = fmt.Sprintf("The thief escapes in %d moves", r.Depth(s))
	}
	return c.report(out, g, r, s, answer)
}
