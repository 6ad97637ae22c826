package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/dobutsu"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/pawns"
	"github.com/retro-solver/retro/implicit/police"
	"github.com/retro-solver/retro/implicit/quixo"
	"github.com/retro-solver/retro/internal/testsize"
)

// TestChoose checks the engine each request gets, the refusals and the
// fallback to the lean engine when the parallel one does not fit. (Auto's
// pick of the lean engine by the cost of a move is timed, so not tested
// here: the command's golden outputs and TestMemoryEstimate cover it.)
func TestChoose(t *testing.T) {
	g := graph.Random(1000, 3000, 1)
	tooBig := errors.New("does not fit")
	fitsNot := func(no ...engine.Kind) func(engine.Kind) error {
		return func(k engine.Kind) error {
			for _, n := range no {
				if k == n {
					return tooBig
				}
			}
			return nil
		}
	}
	for _, tc := range []struct {
		name     string
		r        engine.Request
		fits     func(engine.Kind) error
		want     engine.Kind
		fellBack bool
		err      string // "" for none
	}{
		{"auto, no start", engine.Request{Game: g}, nil, engine.KindPar, false, ""},
		{"auto, no start, par too big", engine.Request{Game: g}, fitsNot(engine.KindPar), 0, false, "does not fit"},
		{"auto, -db, par too big", engine.Request{Game: g, DepthsOnDisk: true}, fitsNot(engine.KindPar), engine.KindLean, true, ""},
		{"auto, -db, nothing fits", engine.Request{Game: g, DepthsOnDisk: true}, fitsNot(engine.KindPar, engine.KindLean), 0, false, "does not fit"},
		{"auto, -reachable, par too big", engine.Request{Game: g, HasStart: true, Reachable: true}, fitsNot(engine.KindPar), 0, false, "does not fit"},
		{"auto under mpirun", engine.Request{Game: g, Distributed: true}, nil, engine.KindDist, false, ""},
		{"par under mpirun", engine.Request{Asked: engine.KindPar, Game: g, Distributed: true}, nil, engine.KindDist, false, ""},
		{"lean under mpirun", engine.Request{Asked: engine.KindLean, Game: g, Distributed: true}, nil, engine.KindDistLean, false, ""},
		{"lean under mpirun, -reachable", engine.Request{Asked: engine.KindLean, Distributed: true, Reachable: true}, nil, 0, false, "-engine lean: the lean mode solves the whole game"},
		{"auto under mpirun, dist too big", engine.Request{Game: g, Distributed: true}, fitsNot(engine.KindDist), engine.KindDistLean, true, ""},
		{"auto under mpirun, nothing fits", engine.Request{Game: g, Distributed: true}, fitsNot(engine.KindDist, engine.KindDistLean), 0, false, "does not fit"},
		{"seq", engine.Request{Asked: engine.KindSeq, Game: g}, nil, engine.KindSeq, false, ""},
		{"seq under mpirun", engine.Request{Asked: engine.KindSeq, Distributed: true}, nil, 0, false, "-engine seq: runs in one process"},
		{"lean, -reachable", engine.Request{Asked: engine.KindLean, Reachable: true}, nil, 0, false, "-engine lean: the lean mode solves the whole game"},
		{"lean, -tiered", engine.Request{Asked: engine.KindLean, Tiered: true}, nil, 0, false, "-engine lean: -tiered is another engine"},
		{"lean, no start, no -db", engine.Request{Asked: engine.KindLean, Game: g}, nil, 0, false, "keeps no depths but the start's"},
		{"lean, no start, -db", engine.Request{Asked: engine.KindLean, Game: g, DepthsOnDisk: true}, nil, engine.KindLean, false, ""},
		{"lean asked, too big", engine.Request{Asked: engine.KindLean, Game: g, HasStart: true}, fitsNot(engine.KindLean), 0, false, "does not fit"},
	} {
		k, fellBack, err := engine.Choose(tc.r, tc.fits)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: Choose = %v, %v, %v; want an error with %q", tc.name, k, fellBack, err, tc.err)
		case tc.err == "" && (err != nil || k != tc.want || fellBack != tc.fellBack):
			t.Errorf("%s: Choose = %v, %v, %v; want %v, %v", tc.name, k, fellBack, err, tc.want, tc.fellBack)
		}
	}
}

// TestRequestBytes checks that a request's memory is its engine's arrays
// with what its options add, and that the lean engine takes the least.
func TestRequestBytes(t *testing.T) {
	g := graph.Random(100000, 300000, 1)
	r := engine.Request{Game: g}
	par, lean := r.Bytes(engine.KindPar), r.Bytes(engine.KindLean)
	const n = 1e9 // past the lean engine's fixed 2 MiB
	if l, p, s := engine.KindLean.Bytes(n, 10), engine.KindPar.Bytes(n, 10), engine.KindSeq.Bytes(n, 10); !(l < p && p < s) {
		t.Errorf("bytes of 10^9 indices: lean %d, par %d, seq %d: want lean < par < seq", l, p, s)
	}
	if want := engine.WithSlack(engine.KindPar.Bytes(g.Size(), g.MaxMoves())); par != want {
		t.Errorf("par: %d bytes, want Kind.Bytes with slack, %d", par, want)
	}
	r.Reachable = true
	if got := r.Bytes(engine.KindPar); got <= par {
		t.Errorf("-reachable adds nothing: %d bytes, %d without", got, par)
	}
	r = engine.Request{Game: g, DepthsOnDisk: true, ReadBuffers: 1 << 20}
	if got := r.Bytes(engine.KindLean); got < lean+1<<20 {
		t.Errorf("lean with depths on disk: %d bytes, want at least %d", got, lean+1<<20)
	}
	for _, name := range []string{"auto", "par", "lean", "seq"} {
		k, err := engine.ParseKind(name)
		if err != nil || k.String() != name {
			t.Errorf("ParseKind(%q) = %v, %v", name, k, err)
		}
	}
	if _, err := engine.ParseKind("dist"); err == nil {
		t.Error("ParseKind(dist) accepted: -engine does not take it")
	}
}

// TestChooseByListCost checks auto's choice on real games, far from the
// threshold on both sides: lean where a position's moves are listed in
// 12 to 31 steps of the core (police, pawns), par where they need
// canonical forms
// (dobutsu, and quixo, whose single moves are as cheap as 27 ns but which
// lists 17 of them: timed a move at a time it came out lean).
func TestChooseByListCost(t *testing.T) {
	testsize.SkipUnderRace(t, "times move lists")
	q, err := quixo.New(4)
	if err != nil {
		t.Fatal(err)
	}
	d, err := dobutsu.New(dobutsu.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		g    implicit.Game
		want engine.Kind
	}{
		{"police 64x64", police.New(police.Random(64, 64, 0.1, 0.005, 1)), engine.KindLean},
		{"pawns 16x16", pawns.New(pawns.Random(16, 16, 0, 3)), engine.KindLean},
		{"quixo 4x4", implicit.NewCompact(q), engine.KindPar},
		{"dobutsu", d, engine.KindPar},
	} {
		cost := engine.ListCost(tc.g)
		k, _, err := engine.Choose(engine.Request{Game: tc.g, HasStart: true}, nil)
		if err != nil || k != tc.want {
			t.Errorf("%s: Choose = %v, %v (a list of moves in %.0f steps); want %v", tc.name, k, err, cost, tc.want)
		}
	}
}
