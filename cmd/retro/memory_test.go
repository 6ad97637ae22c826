package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/police"
	"github.com/retro-solver/retro/internal/testsize"
)

// child runs retro (this test binary standing in for it) in a process of
// its own and returns its standard error, exit status and peak memory.
func child(t *testing.T, args ...string) (string, int, uint64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"=1", peakEnv+"=1")
	var errb strings.Builder
	cmd.Stderr = &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	m := peakLine.FindStringSubmatch(errb.String())
	if m == nil {
		t.Fatalf("%v: no peak in %q", args, errb.String())
	}
	peak, _ := strconv.ParseUint(m[1], 10, 64)
	if peak == 0 {
		t.Skip("no peak memory on this system")
	}
	return errb.String(), code, peak
}

var peakLine = regexp.MustCompile(`peak (\d+) bytes`)

var estimateLine = regexp.MustCompile(`retro: memory about .* \((\d+) bytes in all\)`)

// TestMemoryEstimate checks, game by game, that the estimate -max-memory
// is checked against is within 10% of the peak the solve reaches, with and
// without -db, and with -stats.
func TestMemoryEstimate(t *testing.T) {
	dir := t.TempDir()
	policeFile := filepath.Join(dir, "p.police")
	os.WriteFile(policeFile, []byte(police.Random(48, 48, 0.1, 0.005, 1).String()), 0o644)
	graphFile := filepath.Join(dir, "g.graph")
	f, _ := os.Create(graphFile)
	graph.Write(f, graph.Random(1e6, 3e6, 1))
	f.Close()
	cases := [][]string{
		{"police", policeFile},
		{"police", policeFile, "-db", filepath.Join(dir, "p.db")},
		{"police", policeFile, "-stats"}, // the count of reachable positions after the solve
		{"graph", graphFile},
		{"pawns", "testdata/golden/big.pawns"},
		{"pawns", "testdata/golden/big.pawns", "-engine", "par"},
	}
	if testsize.Long() {
		cases = append(cases, []string{"quixo", "-n", "4"}, []string{"quixo", "-n", "4", "-db", filepath.Join(dir, "q.db")}, []string{"teeko"})
	}
	for _, args := range cases {
		errs, code, peak := child(t, append([]string{"solve"}, append(args, "-progress")...)...)
		m := estimateLine.FindStringSubmatch(errs)
		if code != 0 || m == nil {
			t.Fatalf("%v: exit %d, no estimate in %q", args, code, errs)
		}
		est, _ := strconv.ParseUint(m[1], 10, 64)
		ratio := float64(peak) / float64(est)
		t.Logf("%v: estimate %d, peak %d, peak/estimate %.3f", args, est, peak, ratio)
		if ratio < 0.9 || ratio > 1.1 {
			t.Errorf("%v: estimate %d, peak %d: off by more than 10%%", args, est, peak)
		}
	}
}

// TestMemoryRefusal checks that a board refused for memory is named, that
// the answers before it stay printed, and that nothing is allocated for it.
func TestMemoryRefusal(t *testing.T) {
	small, err := os.ReadFile("../../examples/pawns.txt")
	if err != nil {
		t.Fatal(err)
	}
	big, err := os.ReadFile("testdata/golden/big.pawns")
	if err != nil {
		t.Fatal(err)
	}
	// The first board of the examples, then the 16 x 16 board.
	first := strings.SplitN(string(small), "\n", 2)[1]
	first = strings.Join(strings.Split(first, "\n")[:5], "\n") + "\n"
	second := strings.SplitN(string(big), "\n", 2)[1]
	input := filepath.Join(t.TempDir(), "two.pawns")
	os.WriteFile(input, []byte("0 2\n"+first+second), 0o644)
	cmd := exec.Command(os.Args[0], "solve", "pawns", "-engine", "par", "-max-memory", "18M", input)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || out.String() != "Black 0\n" ||
		!strings.HasPrefix(errb.String(), "retro: "+input+": board 2: solving 6788934 positions needs about") {
		t.Fatalf("%v; stdout %q, stderr %q", err, out.String(), errb.String())
	}
}
