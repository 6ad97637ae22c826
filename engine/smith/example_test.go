package smith_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/engine/smith"
	"github.com/retro-solver/retro/implicit/graph"
)

// Smith's values of the same graph: the sink is *0, and the cycle's
// vertices are *2, *1 and *0.
func ExampleSolve() {
	g, _ := graph.Read(strings.NewReader("4 4\n0 1\n1 2\n2 0\n0 3\n"), 1<<20)
	r, _ := smith.Solve(context.Background(), g, engine.Options{})
	for v := range g.Size() {
		fmt.Printf("%d %s\n", v, r.AppendValue(nil, v, nil))
	}
	// Output:
	// 0 2
	// 1 1
	// 2 0
	// 3 0
}

// The sum of vertex 0 (*2) and vertex 1 (*1) of the same graph is *3: a
// win for the player to move.
func ExampleSum() {
	g, _ := graph.Read(strings.NewReader("4 4\n0 1\n1 2\n2 0\n0 3\n"), 1<<20)
	r, _ := smith.Solve(context.Background(), g, engine.Options{})
	var s smith.Sum
	s.Add(r, 0)
	s.Add(r, 1)
	fmt.Printf("%s\n", s.AppendOutcome(nil))
	// Output: 3 win
}
