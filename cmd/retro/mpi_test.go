//go:build mpi

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/retro-solver/retro/implicit/pawns"
	"github.com/retro-solver/retro/implicit/police"
)

// mpirun returns the command that runs this test binary as retro on ranks
// processes (oversubscribed: more ranks than cores is fine here).
func mpirun(t *testing.T, ctx context.Context, ranks int, args ...string) *exec.Cmd {
	t.Helper()
	path, err := exec.LookPath("mpirun")
	if err != nil {
		t.Skip("no mpirun: install Open MPI (openmpi-bin, libopenmpi-dev)")
	}
	a := []string{"--oversubscribe", "-np", fmt.Sprint(ranks)}
	if os.Geteuid() == 0 {
		a = append(a, "--allow-run-as-root")
	}
	cmd := exec.CommandContext(ctx, path, append(append(a, os.Args[0]), args...)...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	return cmd
}

// TestMPI solves police, pawns and quixo on 1, 2 and 4 MPI ranks and
// compares every database, byte for byte, with the single process's.
func TestMPI(t *testing.T) {
	dir := t.TempDir()
	board := writeFile(t, dir, "board.police", police.Random(20, 20, 0.1, 0.005, 3).String())
	boards := writeFile(t, dir, "boards.pawns", "1 2\n"+pawns.Random(6, 6, 0.1, 1).String()+pawns.Random(5, 7, 0.1, 2).String())
	cases := []struct {
		name string
		args []string
	}{
		{"police", []string{"solve", "police", board}},
		{"pawns", []string{"solve", "pawns", boards}},
		{"quixo", []string{"solve", "quixo", "-n", "3"}},
		{"quixo-tiered", []string{"solve", "quixo", "-n", "3", "-tiered"}},
		{"quixo-split", []string{"solve", "quixo", "-n", "3", "-tiered", "-split-tiers", "1000"}},
	}
	for _, c := range cases {
		want := filepath.Join(dir, c.name+".db")
		wantOut := runRetro(t, append(c.args, "-db", want)...)
		wantBytes, err := os.ReadFile(want)
		if err != nil {
			t.Fatal(err)
		}
		for _, ranks := range []int{1, 2, 4} {
			got := filepath.Join(dir, fmt.Sprintf("%s-%d.db", c.name, ranks))
			var stdout, stderr bytes.Buffer
			cmd := mpirun(t, context.Background(), ranks, append(c.args, "-db", got)...)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%s on %d ranks: %v\n%s", c.name, ranks, err, stderr.String())
			}
			if stdout.String() != wantOut {
				t.Fatalf("%s on %d ranks printed\n%s\nwant (one process)\n%s", c.name, ranks, stdout.String(), wantOut)
			}
			gotBytes, err := os.ReadFile(got)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(gotBytes, wantBytes) {
				t.Fatalf("%s on %d ranks: the database differs from the single process's", c.name, ranks)
			}
		}
	}
}

// TestMPITieredNeedsFolder: the ranks of a tiered solve share a folder;
// without one named the solve is refused, not solved in R private ones.
func TestMPITieredNeedsFolder(t *testing.T) {
	var stderr bytes.Buffer
	cmd := mpirun(t, context.Background(), 2, "solve", "quixo", "-n", "3", "-tiered")
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil || !strings.Contains(stderr.String(), "-tiered under mpirun needs -checkpoint FOLDER or -db FILE") {
		t.Fatalf("mpirun: %v, want a refusal naming the folder:\n%s", err, stderr.String())
	}
}

// TestMPIRankDies kills one rank with SIGKILL once the solve is under way
// (a level's progress line): mpirun must stop the others and fail,
// promptly, leave no rank behind and no database.
func TestMPIRankDies(t *testing.T) {
	dir := t.TempDir()
	board := writeFile(t, dir, "board.police", police.Random(64, 64, 0.1, 0.005, 3).String())
	db := filepath.Join(dir, "p.db")
	killRank1(t, "retro: level", "solve", "police", "-progress", "-db", db, board)
	if _, err := os.Stat(db); err == nil {
		t.Fatal("a database was left under its final name by a solve that failed")
	}
}

// TestMPICheckpointResume kills rank 1 once the ranks have saved a
// checkpoint, then runs the same command again: it must go on from the
// checkpoint's level and write the single process's database, with ranks
// of 4-byte states (-engine par) and lean ranks.
func TestMPICheckpointResume(t *testing.T) {
	dir := t.TempDir()
	board := writeFile(t, dir, "board.police", police.Random(64, 64, 0.1, 0.005, 3).String())
	want := filepath.Join(dir, "single.db")
	wantOut := runRetro(t, "solve", "police", "-db", want, board)
	for _, kind := range []string{"par", "lean"} {
		got, ckpt := filepath.Join(dir, kind+".db"), filepath.Join(dir, kind+".ckpt")
		args := []string{"solve", "police", "-engine", kind, "-progress", "-checkpoint", ckpt, "-checkpoint-every", "300ms", "-db", got, board}
		killRank1(t, "retro: checkpoint at level", args...)
		var stdout, stderr bytes.Buffer
		cmd := mpirun(t, context.Background(), 2, args...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("-engine %s: the second run: %v\n%s", kind, err, stderr.String())
		}
		if stdout.String() != wantOut || !strings.Contains(stderr.String(), "retro: going on from the checkpoint") {
			t.Fatalf("-engine %s: the second run printed %q, want %q, and went on from the checkpoint:\n%s", kind, stdout.String(), wantOut, stderr.String())
		}
		if kind == "lean" && !strings.Contains(stderr.String(), "retro: lean ranks") {
			t.Fatalf("-engine lean: no lean ranks in\n%s", stderr.String())
		}
		a, _ := os.ReadFile(want)
		b, err := os.ReadFile(got)
		if err != nil || !bytes.Equal(a, b) {
			t.Fatalf("-engine %s: the resumed solve's database differs from the single process's (%v)", kind, err)
		}
		if left, _ := filepath.Glob(filepath.Join(ckpt, "*")); len(left) != 0 {
			t.Fatalf("-engine %s: checkpoint files left after the solve: %v", kind, left)
		}
	}
}

// TestMPITieredResume kills rank 1 of a tiered solve shared by 2 ranks
// once 10 tiers are done, then runs the same command again: it must go on
// from the finished tiers and write the single process's database.
func TestMPITieredResume(t *testing.T) {
	stderr := killAndResume(t, "retro: tier 10 of")
	if n := strings.Count(stderr, "already done"); n < 10 {
		t.Fatalf("the second run found %d tiers done, want 10 or more:\n%s", n, stderr)
	}
}

// TestMPISplitTierResume kills rank 1 of a tiered solve on 2 ranks in the
// middle of a tier split across both, once they have saved a checkpoint of
// it, then runs the same command again: it must go on from that checkpoint
// and write the single process's database.
func TestMPISplitTierResume(t *testing.T) {
	stderr := killAndResume(t, "checkpoint at level 3 saved by every rank", "-split-tiers", "400000", "-checkpoint-every", "1ms")
	if !strings.Contains(stderr, "going on from the checkpoint at level") {
		t.Fatalf("the second run did not go on from the split tier's checkpoint:\n%s", stderr)
	}
}

// killAndResume solves Quixo 4x4 from 12 cubes tier by tier on 2 ranks
// with the extra flags, kills rank 1 once standard error shows mark, and
// runs the same command again: the second run must print and write what
// one process does. It returns the second run's standard error.
func killAndResume(t *testing.T, mark string, extra ...string) string {
	t.Helper()
	dir := t.TempDir()
	args := []string{"solve", "quixo", "-n", "4", "-min-cubes", "12", "-tiered"}
	want := filepath.Join(dir, "single.db")
	wantOut := runRetro(t, append(args, "-db", want)...)
	got, tiers := filepath.Join(dir, "shared.db"), filepath.Join(dir, "tiers")
	args = append(append(args, "-progress", "-checkpoint", tiers, "-db", got), extra...)
	killRank1(t, mark, args...)
	if _, err := os.Stat(got); err == nil {
		t.Fatal("a database was left under its final name by a solve that failed")
	}
	var stdout, stderr bytes.Buffer
	cmd := mpirun(t, context.Background(), 2, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the second run: %v\n%s", err, stderr.String())
	}
	if stdout.String() != wantOut {
		t.Fatalf("the second run printed %q, want %q", stdout.String(), wantOut)
	}
	a, _ := os.ReadFile(want)
	b, err := os.ReadFile(got)
	if err != nil || !bytes.Equal(a, b) {
		t.Fatalf("the resumed solve's database differs from the single process's (%v)", err)
	}
	return stderr.String()
}

// killRank1 runs retro args on 2 ranks and kills rank 1 with SIGKILL when
// standard error first shows mark: mpirun must then fail promptly and
// leave no rank behind.
func killRank1(t *testing.T, mark string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := mpirun(t, ctx, 2, args...)
	// Its own process group, so that nothing it started outlives the test.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 30 * time.Second // a rank that outlives mpirun keeps stderr open
	killed := make(chan error, 1)
	stderr := &markWriter{mark: mark, at: func() {
		victim := findRank(1)
		if victim == 0 {
			killed <- fmt.Errorf("rank 1 is not running")
			return
		}
		killed <- syscall.Kill(victim, syscall.SIGKILL)
	}}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	err := cmd.Wait()
	select {
	case kerr := <-killed:
		if kerr != nil {
			t.Fatalf("killing rank 1: %v\n%s", kerr, stderr)
		}
	default:
		t.Fatalf("the solve ended before %q: make it larger\n%s", mark, stderr)
	}
	switch {
	case ctx.Err() != nil:
		t.Fatalf("mpirun still ran 2 minutes after rank 1 was killed: a hang\n%s", stderr)
	case errors.Is(err, exec.ErrWaitDelay):
		t.Fatalf("a rank outlived mpirun by 30 s after rank 1 was killed\n%s", stderr)
	case err == nil:
		t.Fatalf("mpirun succeeded although rank 1 was killed\n%s", stderr)
	}
}

// markWriter keeps what is written to it and calls at, once, when the
// text first contains mark.
type markWriter struct {
	mu   sync.Mutex
	text bytes.Buffer
	mark string
	at   func()
	seen bool
}

func (w *markWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.text.Write(p)
	if !w.seen && bytes.Contains(w.text.Bytes(), []byte(w.mark)) {
		w.seen = true
		w.at()
	}
	return len(p), nil
}

func (w *markWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.text.String()
}

// writeFile writes text to the file name in dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// findRank returns the process id of this test binary's MPI rank r, 0 if
// it is not running yet.
func findRank(r int) int {
	self, _ := os.Executable()
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		exe, err := os.Readlink(filepath.Join(p, "exe"))
		if err != nil || exe != self {
			continue
		}
		environ, err := os.ReadFile(filepath.Join(p, "environ"))
		if err != nil || !bytes.Contains(environ, []byte(fmt.Sprintf("\x00OMPI_COMM_WORLD_RANK=%d\x00", r))) {
			continue
		}
		var pid int
		fmt.Sscan(strings.TrimPrefix(p, "/proc/"), &pid)
		return pid
	}
	return 0
}

// TestMPIMemoryLimit solves a police board with -db on 2 ranks under
// -max-memory: each rank's peak (its range's states, the messages of a
// round, its blocks of the database) stays within the limit and 5%, and a
// limit below a rank's estimate is refused on every rank before anything
// is solved.
func TestMPIMemoryLimit(t *testing.T) {
	dir := t.TempDir()
	board := writeFile(t, dir, "board.police", police.Random(48, 48, 0.1, 0.005, 1).String())
	for _, c := range []struct {
		limit string
		ok    bool
	}{{"70M", true}, {"30M", false}} {
		var stdout, stderr bytes.Buffer
		cmd := mpirun(t, context.Background(), 2, "solve", "police", board, "-db", filepath.Join(dir, "p.db"), "-max-memory", c.limit)
		cmd.Env = append(cmd.Env, peakEnv+"=1")
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if (err == nil) != c.ok {
			t.Fatalf("-max-memory %s: %v, want success %v\n%s", c.limit, err, c.ok, stderr.String())
		}
		if !c.ok {
			if !strings.Contains(stderr.String(), "more than the 30.0 MiB allowed") {
				t.Fatalf("-max-memory 30M: no refusal in\n%s", stderr.String())
			}
			continue
		}
		peaks := peakLine.FindAllStringSubmatch(stderr.String(), -1)
		if len(peaks) != 2 {
			t.Fatalf("%d peak lines, want one per rank:\n%s", len(peaks), stderr.String())
		}
		for _, m := range peaks {
			peak, _ := strconv.ParseUint(m[1], 10, 64)
			t.Logf("-max-memory %s: a rank's peak %d, %.3f of the limit", c.limit, peak, float64(peak)/(70<<20))
			if float64(peak) > 1.05*(70<<20) {
				t.Errorf("-max-memory %s: a rank's peak %d, more than the limit and 5%%", c.limit, peak)
			}
		}
	}
}
