package main

import (
	"bytes"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"testing"

	"retro/bench"
	"retro/implicit/pawns"
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
	if seed%7 == 0 && rows > 2 {
		for row := 1; row < rows; row++ {
			if row != b.Black[0] && row != b.Red[0][0] && row != b.Red[1][0] {
				for c := range cols {
					b.Wall[row][c] = true
				}
				break
			}
		}
	}
	return b
}

// TestPawnsAgainstSeed compares `retro solve pawns` with seed 001's own
// program on 300 random boards, ten to an input as in the original problem.
func TestPawnsAgainstSeed(t *testing.T) {
	prog := seedProgram(t, bench.PawnsSeed)
	batches := 30
	if testing.Short() {
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
