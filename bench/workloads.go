package bench

import (
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/pawns"
	"github.com/retro-solver/retro/implicit/police"
	"github.com/retro-solver/retro/implicit/quixo"
	"github.com/retro-solver/retro/implicit/teeko"
)

// A Workload is a named, deterministic set of games to solve: the same name
// builds the same games on every machine.
type Workload struct {
	Name  string
	Quick bool // in the -quick set, which runs in seconds
	Large bool // one repetition, parallel engine only: it takes minutes
	Games func() []implicit.Game
}

// Workloads returns the benchmark workloads, the quick ones first.
func Workloads() []Workload {
	return []Workload{
		{Name: "graph-2e4", Quick: true, Games: randomGraph(20_000, 40_000)},
		{Name: "pawns-6x6x10", Quick: true, Games: pawnsBoards(6, 6, 10)},
		{Name: "police-16x16", Quick: true, Games: policeBoard(16, 16)},
		{Name: "quixo-3x3", Quick: true, Games: quixoBoard(3)},
		{Name: "graph-1e6x2", Games: randomGraph(1_000_000, 2_000_000)},
		{Name: "graph-1e7x2", Games: randomGraph(10_000_000, 20_000_000)},
		{Name: "graph-1e7x5", Games: randomGraph(10_000_000, 50_000_000)},
		{Name: "pawns-10x10x10", Games: pawnsBoards(10, 10, 10)},
		{Name: "pawns-16x16", Games: func() []implicit.Game { return []implicit.Game{pawns.New(pawns.Random(16, 16, 0, 3))} }},
		{Name: "police-64x64", Games: policeBoard(64, 64)},
		{Name: "police-128x128", Large: true, Games: policeBoard(128, 128)},
		{Name: "quixo-4x4", Large: true, Games: quixoBoard(4)},
		{Name: "teeko", Large: true, Games: func() []implicit.Game { return []implicit.Game{implicit.NewCompact(teeko.New())} }},
	}
}

// FindWorkload returns the workload of the given name.
func FindWorkload(name string) (Workload, bool) {
	for _, w := range Workloads() {
		if w.Name == name {
			return w, true
		}
	}
	return Workload{}, false
}

func randomGraph(n, m uint64) func() []implicit.Game {
	return func() []implicit.Game { return []implicit.Game{graph.Random(n, m, 1)} }
}

// pawnsBoards is count random boards with 10% walls, as in the comparison
// with the seed programs (seeds.go).
func pawnsBoards(rows, cols, count int) func() []implicit.Game {
	return func() []implicit.Game {
		var gs []implicit.Game
		for k := range count {
			gs = append(gs, pawns.New(pawns.Random(rows, cols, 0.1, 1+uint64(k))))
		}
		return gs
	}
}

// policeBoard is a random board with 10% walls and a few exits, as in the
// police issue's targets.
func policeBoard(rows, cols int) func() []implicit.Game {
	return func() []implicit.Game {
		return []implicit.Game{police.New(police.Random(rows, cols, 0.1, 0.005, 1))}
	}
}

// quixoBoard is Quixo on an n x n board over its symmetry classes, as
// `retro solve quixo` plays it (finding the classes is not timed).
func quixoBoard(n int) func() []implicit.Game {
	return func() []implicit.Game {
		g, err := quixo.New(n)
		if err != nil {
			panic(err)
		}
		return []implicit.Game{implicit.NewCompact(g)}
	}
}
