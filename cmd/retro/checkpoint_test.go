package main

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retro-solver/retro/implicit/police"
	"github.com/retro-solver/retro/internal/testsize"
)

// killAfter runs retro with args as a child process and kills it (SIGKILL,
// as kill -9) once its standard error has shown n lines containing mark;
// it reports whether the child was killed before it finished.
func killAfter(t *testing.T, n int, mark string, args ...string) bool {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	seen, killed := 0, false
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if strings.Contains(sc.Text(), mark) {
			if seen++; seen == n && !killed {
				cmd.Process.Kill()
				killed = true
			}
		}
	}
	err = cmd.Wait()
	if !killed && err != nil {
		t.Fatalf("retro %s: %v", strings.Join(args, " "), err)
	}
	return killed
}

// runRetro runs retro with args as a child process to the end.
func runRetro(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("retro %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestKillAndResume kills solves with kill -9 just after their k-th
// checkpoint (a level of a police solve in memory, by the lean engine, with
// its depths' file, and by the parallel one; a tier, or a level inside one,
// of a tiered Quixo solve), for several k, runs the same
// command again, and compares the database, byte for byte, with an
// uninterrupted solve's.
func TestKillAndResume(t *testing.T) {
	testsize.SkipUnlessLong(t)
	dir := t.TempDir()
	board := filepath.Join(dir, "board.police")
	if err := os.WriteFile(board, []byte(police.Random(24, 24, 0.1, 0.005, 3).String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, mark string
		args       []string
	}{
		{"police lean", "checkpoint at level", []string{"solve", "police", "-engine", "lean", "-progress", "-checkpoint-every", "1ns", board}},
		{"police par", "checkpoint at level", []string{"solve", "police", "-engine", "par", "-progress", "-checkpoint-every", "1ns", board}},
		{"quixo tiers", "solved in", []string{"solve", "quixo", "-n", "3", "-tiered", "-progress"}},
		{"quixo levels", "checkpoint at level", []string{"solve", "quixo", "-n", "3", "-tiered", "-progress", "-checkpoint-every", "1ns"}},
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range cases {
		want := filepath.Join(dir, c.name+".db")
		runRetro(t, append(c.args, "-db", want)...)
		wantBytes, err := os.ReadFile(want)
		if err != nil {
			t.Fatal(err)
		}
		allKills := 0
		for round := range 3 {
			got := filepath.Join(dir, c.name+"-resumed.db")
			args := append(c.args, "-db", got)
			kills := 0
			for k := 1 + rng.IntN(12); killAfter(t, k, c.mark, args...); k = 1 + rng.IntN(12) {
				kills++
			}
			allKills += kills
			gotBytes, err := os.ReadFile(got)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(gotBytes, wantBytes) {
				t.Fatalf("%s, round %d: after %d kills, the database differs from the uninterrupted solve's", c.name, round, kills)
			}
			if _, err := os.Stat(got + ".checkpoint"); err == nil {
				t.Fatalf("%s: the checkpoint folder outlived the database", c.name)
			}
			if _, err := os.Stat(got + ".tiers"); err == nil {
				t.Fatalf("%s: the tiers' folder outlived the database", c.name)
			}
			os.Remove(got)
		}
		if allKills == 0 {
			// The solve never showed the mark: it kept no checkpoint.
			t.Errorf("%s: no solve was killed in 3 rounds", c.name)
		}
	}
}
