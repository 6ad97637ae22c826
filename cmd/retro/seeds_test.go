package main

import (
	"bytes"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retro-solver/retro/bench"
	"github.com/retro-solver/retro/implicit/pawns"
	"github.com/retro-solver/retro/implicit/police"
	"github.com/retro-solver/retro/internal/testsize"
)

// seedProgram returns the path of one of the seeds' C++ programs, or skips
// the test, saying why, where they cannot be built.
func seedProgram(t *testing.T, name string) string {
	t.Helper()
	dir, err := bench.SeedPrograms()
	if err != nil {
		t.Skipf("seed programs unavailable (%v): skipping the cross-check", err)
	}
	return filepath.Join(dir, name)
}

// runSeed runs a seed program on input and returns its standard output.
func runSeed(t *testing.T, prog string, input []byte) string {
	t.Helper()
	cmd := exec.Command("bash", "-c", `ulimit -s unlimited 2>/dev/null; exec "$0"`, prog)
	cmd.Stdin = bytes.NewReader(input)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", prog, err)
	}
	return string(out)
}

// randomPawnsBoard draws a board of 2..10 rows and 1..10 columns with varied
// wall density, including one-column boards and full wall rows.
func randomPawnsBoard(seed uint64) *pawns.Board {
	r := rand.New(rand.NewPCG(seed, 3))
	rows, cols := 2+r.IntN(9), 1+r.IntN(10)
	if seed%10 == 0 {
		cols = 1
	}
	if rows*cols < 3 {
		rows = 3
	}
	b := pawns.Random(rows, cols, []float64{0, 0.1, 0.2, 0.35, 0.5}[r.IntN(5)], seed)
	if seed%7 == 0 {
		b.WallRow()
	}
	return b
}

// TestPawnsAgainstSeed compares `retro solve pawns` with seed 001's own
// program on 300 random boards, ten to an input as in the original problem.
func TestPawnsAgainstSeed(t *testing.T) {
	prog := seedProgram(t, bench.PawnsSeed)
	batches := 30
	if !testsize.Long() {
		batches = 5
	}
	for batch := range uint64(batches) {
		var boards []*pawns.Board
		for k := range uint64(10) {
			boards = append(boards, randomPawnsBoard(batch*10+k))
		}
		var in bytes.Buffer
		pawns.Write(&in, boards)
		want := runSeed(t, prog, in.Bytes())
		for _, args := range [][]string{{"solve", "pawns", "-"}, {"solve", "pawns", "-engine", "seq", "-"}, {"solve", "pawns", "-workers", "3", "-"}} {
			got, errs, code := retro(t, in.String(), args...)
			if code != 0 || got != want {
				t.Fatalf("batch %d, %v: exit %d %s\nretro:\n%s\nseed 001:\n%s\ninput:\n%s", batch, args, code, errs, got, want, in.String())
			}
		}
	}
}

// TestPoliceAgainstSeed compares `retro solve police` with seed 003's own
// program on 300 random boards of up to 100 cells. The seed prints no
// depth, so the verdicts are compared.
func TestPoliceAgainstSeed(t *testing.T) {
	prog := seedProgram(t, bench.PoliceSeed)
	boards := 300
	if !testsize.Long() {
		boards = 40
	}
	verdicts := map[string]int{}
	for seed := range uint64(boards) {
		r := rand.New(rand.NewPCG(seed, 4))
		rows := 1 + r.IntN(10)
		cols := 1 + r.IntN(100/rows)
		if rows*cols < 2 {
			cols = 2
		}
		b := police.Random(rows, cols, []float64{0, 0.1, 0.2, 0.35}[r.IntN(4)], []float64{0, 0.02, 0.05, 0.15}[r.IntN(4)], seed)
		in := b.String()
		want := runSeed(t, prog, []byte(in))
		for _, args := range [][]string{{"solve", "police", "-"}, {"solve", "police", "-engine", "seq", "-"}, {"solve", "police", "-workers", "4", "-"}} {
			got, errs, code := retro(t, in, args...)
			if code != 0 {
				t.Fatalf("board seed %d, %v: exit %d: %s", seed, args, code, errs)
			}
			if verdict, _, _ := strings.Cut(got, " in "); strings.TrimSpace(verdict) != strings.TrimSpace(want) {
				t.Fatalf("board seed %d, %v: retro says %q, seed 003 says %q\n%s", seed, args, got, want, in)
			}
		}
		verdicts[strings.TrimSpace(want)]++
	}
	if len(verdicts) < 3 {
		t.Fatalf("the random boards gave only the verdicts %v: the cross-check needs all three", verdicts)
	}
}
