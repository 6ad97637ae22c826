package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit/graph"
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
		return writeGraphJSON(out, s, r)
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

// writeGraphJSON writes the summary with a "vertices" array of valueJSON,
// streamed one vertex at a time so that 10^7 vertices cost no more memory than one.
func writeGraphJSON(out *bufio.Writer, s *summary, r *engine.Result) error {
	head, err := json.Marshal(s)
	if err != nil {
		return err
	}
	out.Write(head[:len(head)-1]) // without the closing brace
	out.WriteString(`,"vertices":[`)
	var item []byte
	for v := range r.Size() {
		item = item[:0]
		if v > 0 {
			item = append(item, ',')
		}
		item = append(item, `{"value":"`...)
		item = append(item, r.Value(v).String()...)
		item = append(item, '"')
		if val := r.Value(v); val == engine.Win || val == engine.Loss {
			item = append(item, `,"depth":`...)
			item = strconv.AppendUint(item, r.Depth(v), 10)
		}
		item = append(item, '}')
		if _, err := out.Write(item); err != nil {
			return err
		}
	}
	_, err = out.WriteString("]}\n")
	return err
}
