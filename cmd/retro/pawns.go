package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit/pawns"
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
	// One game's tables and one workspace serve every board in turn.
	var g pawns.Game
	c.ws = new(engine.Workspace)
	var boardsJSON []*summary
	for _, b := range boards {
		g.Reset(b)
		r, err := c.run(&g)
		if err != nil {
			return err
		}
		s := g.Start()
		answer := "Tie"
		switch r.Value(s) {
		case engine.Win:
			answer = fmt.Sprintf("Red %d", r.Depth(s))
		case engine.Loss:
			answer = fmt.Sprintf("Black %d", r.Depth(s))
		}
		if c.json {
			sum, err := c.summarize(&g, r, &s, answer)
			if err != nil {
				return err
			}
			boardsJSON = append(boardsJSON, sum)
			continue
		}
		if err := c.report(out, &g, r, s, answer); err != nil {
			return err
		}
	}
	if c.json {
		return json.NewEncoder(out).Encode(struct {
			Boards []*summary `json:"boards"`
		}{boardsJSON})
	}
	return nil
}
