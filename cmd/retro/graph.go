package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"retro/engine"
	"retro/implicit/graph"
)

var graphGame = &game{
	summary: "an explicit directed graph in the graph text format",
	help: `Input: blank lines and lines starting with '#' are skipped; the first other
line is "n m", then m lines "u v", a move from u to v (0 <= u, v < n).
Self-loops and repeated edges are moves like any other; a vertex with no
moves is a loss for the player to move.

Output: one line per vertex, in order: "v win D", "v loss D" or "v draw",
D the depth in plies.
`,
	solve: solveGraph,
}

func solveGraph(c *solveConfig, in io.Reader, name string, out *bufio.Writer) error {
	g, err := graph.Read(in, c.memoryLimit())
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	r, err := c.run(g)
	if err != nil {
		return err
	}
	return writeValues(out, r)
}

// writeValues prints "v value depth" (or "v draw") for every index of r.
func writeValues(out *bufio.Writer, r *engine.Result) error {
	var line []byte
	for v := range r.Size() {
		line = strconv.AppendUint(line[:0], v, 10)
		line = append(line, ' ')
		val := r.Value(v)
		line = append(line, val.String()...)
		if val == engine.Win || val == engine.Loss {
			line = append(line, ' ')
			line = strconv.AppendUint(line, r.Depth(v), 10)
		}
		line = append(line, '\n')
		if _, err := out.Write(line); err != nil {
			return err
		}
	}
	return nil
}
