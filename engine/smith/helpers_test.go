package smith_test

import (
	"context"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/engine/enginetest"
	"github.com/retro-solver/retro/implicit"
)

var ctx = context.Background()

// seq solves g with the sequential win/loss/draw engine, the oracle that
// Smith's values must agree with on sums.
func seq(t testing.TB, g implicit.Game) *engine.Result {
	t.Helper()
	r, err := engine.Sequential(ctx, g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// edges and randomGraph are the shared oracle inputs.
var (
	edges       = enginetest.Edges
	randomGraph = enginetest.RandomGraph
)
