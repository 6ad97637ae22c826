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

// TestAllKillAndResume kills `solve chess -all 3` with kill -9 after the
// k-th tier it solves, for several k, runs it again until it finishes, and
// compares each database with an uninterrupted run's, byte for byte. A
// member killed before its database was complete left its temporary file
// in the folder; the run after it removes it (its writer no longer runs),
// so the folder ends with the databases alone.
func TestAllKillAndResume(t *testing.T) {
	testsize.SkipUnlessLong(t)
	want := t.TempDir()
	runRetro(t, "solve", "chess", "-all", "3", "-dir", want)
	dbs, err := filepath.Glob(filepath.Join(want, "*.db"))
	if err != nil || len(dbs) == 0 {
		t.Fatalf("the uninterrupted run wrote no database (%v)", err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	kills, leftovers := 0, 0
	for round := range 3 {
		got := t.TempDir()
		args := []string{"solve", "chess", "-all", "3", "-dir", got, "-progress"}
		for k := 1 + rng.IntN(6); killAfter(t, k, "solved in", args...); k = 1 + rng.IntN(6) {
			kills++
			if temps, _ := filepath.Glob(filepath.Join(got, ".*.tmp*")); len(temps) > 0 {
				leftovers++
			}
		}
		for _, w := range dbs {
			wantBytes, err := os.ReadFile(w)
			if err != nil {
				t.Fatal(err)
			}
			gotBytes, err := os.ReadFile(filepath.Join(got, filepath.Base(w)))
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			if !bytes.Equal(gotBytes, wantBytes) {
				t.Errorf("round %d: %s differs from the uninterrupted run's", round, filepath.Base(w))
			}
		}
		entries, err := os.ReadDir(got)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if filepath.Ext(e.Name()) != ".db" || strings.HasPrefix(e.Name(), ".") {
				var inside []string
				if e.IsDir() {
					in, _ := os.ReadDir(filepath.Join(got, e.Name()))
					for _, f := range in {
						inside = append(inside, f.Name())
					}
				}
				t.Errorf("round %d: %s is left in the folder %v", round, e.Name(), inside)
			}
		}
	}
	if leftovers == 0 {
		// No kill left a temporary file: the test saw nothing to remove.
		t.Errorf("%d kills in 3 rounds, none while a database was being written", kills)
	}
}
