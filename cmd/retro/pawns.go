package main

import (
	"bufio"
	"fmt"
	"io"

	"retro/engine"
	"retro/implicit/pawns"
)

var pawnsGame = &game{
	summary: "the river-crossing pawns (LOJ 3958): boards up to 16 x 16",
	help: `Input (LOJ 3958): a line "id T", then T boards, each "n m" and n rows of m
cells: '.' empty, '#' wall, 'O' a red pawn (exactly two), 'X' the black pawn
(exactly one, not in row 1). Boards up to 16 x 16.

Output: one line per board: "Red t" or "Black t" (the winner and the total
moves of both sides under optimal play), or "Tie".
`,
	solve: solvePawns,
}

func solvePawns(c *solveConfig, in io.Reader, name string, out *bufio.Writer) error {
	boards, err := pawns.Parse(in)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var g pawns.Game
	for _, b := range boards {
		g.Reset(b)
		r, err := c.run(&g)
		if err != nil {
			return err
		}
		s := g.Start()
		switch r.Value(s) {
		case engine.Win:
			fmt.Fprintf(out, "Red %d\n", r.Depth(s))
		case engine.Loss:
			fmt.Fprintf(out, "Black %d\n", r.Depth(s))
		default:
			fmt.Fprintln(out, "Tie")
		}
	}
	return nil
}
