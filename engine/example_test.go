package engine_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit/graph"
)

// A 3-cycle in which vertex 0 can also step to the sink 3: 3 is lost, so 0
// wins at once, 2 (whose only move reaches 0) loses, and 1 wins.
func ExampleParallel() {
	g, _ := graph.Read(strings.NewReader("4 4\n0 1\n1 2\n2 0\n0 3\n"), 1<<20)
	r, _ := engine.Parallel(context.Background(), g, engine.Options{Workers: 2})
	for v := range g.Size() {
		fmt.Println(v, r.Value(v), r.Depth(v))
	}
	// Output:
	// 0 win 1
	// 1 win 3
	// 2 loss 2
	// 3 loss 0
}
