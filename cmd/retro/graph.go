package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

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
	in, stop := c.readingProgress(in, name)
	g, err := graph.Read(in, c.memoryLimit())
	stop()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	r, err := c.run(g)
	if err != nil {
		return err
	}
	if c.json {
		s, err := c.summarize(g, r, nil, "")
		if err != nil {
			return err
		}
		s.Vertices = make([]valueJSON, r.Size())
		for v := range r.Size() {
			s.Vertices[v] = valueOf(r, v)
		}
		return json.NewEncoder(out).Encode(s)
	}
	var line []byte
	for v := range r.Size() {
		line = appendValueLine(line[:0], r, v)
		if _, err := out.Write(line); err != nil {
			return err
		}
	}
	if c.stats {
		s, err := c.summarize(g, r, nil, "")
		if err != nil {
			return err
		}
		writeStats(out, s)
	}
	return nil
}
