package main

import (
	"bufio"
	"io"

	"github.com/retro-solver/retro/implicit/teeko"
)

var teekoGame = &game{
	summary: "Teeko on the 5 x 5 board, solved from the empty board",
	help: `No input: the game starts from the empty board, X to move. Each symmetry
class of positions (8 symmetries of the square) is solved once.

Output: the start's value for X, as a graph line without the vertex:
"win D", "loss D" or "draw".
`,
	noInput: true,
	solve:   solveTeeko,
}

func solveTeeko(c *solveConfig, _ io.Reader, _ string, out *bufio.Writer) error {
	return solveClasses(c, out, teeko.Game{})
}
