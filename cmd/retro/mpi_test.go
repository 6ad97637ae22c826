//go:build mpi

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	board := filepath.Join(dir, "board.police")
	if err := os.WriteFile(board, []byte(police.Random(20, 20, 0.1, 0.005, 3).String()), 0o644); err != nil {
		t.Fatal(err)
	}
	boards := filepath.Join(dir, "boards.pawns")
	text := "1 2\n" + pawns.Random(6, 6, 0.1, 1).String() + pawns.Random(5, 7, 0.1, 2).String()
	if err := os.WriteFile(boards, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
	}{
		{"police", []string{"solve", "police", board}},
		{"pawns", []string{"solve", "pawns", boards}},
		{"quixo", []string{"solve", "quixo", "-n", "3"}},
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

// TestMPIRankDies kills one rank of a running solve with SIGKILL: mpirun
// must stop the others and fail, promptly, and leave no database.
func TestMPIRankDies(t *testing.T) {
	dir := t.TempDir()
	board := filepath.Join(dir, "board.police")
	if err := os.WriteFile(board, []byte(police.Random(48, 48, 0.1, 0.005, 3).String()), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "p.db")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := mpirun(t, ctx, 2, "solve", "police", "-db", db, board)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var victim int
	for victim == 0 && ctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
		victim = findRank(1)
	}
	if victim == 0 {
		t.Fatalf("rank 1 never showed up\n%s", stderr.String())
	}
	if err := syscall.Kill(victim, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	switch {
	case ctx.Err() != nil:
		t.Fatalf("mpirun still ran 2 minutes after rank 1 was killed: a hang\n%s", stderr.String())
	case err == nil:
		t.Fatalf("mpirun succeeded although rank 1 was killed\n%s", stderr.String())
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("a database was left under its final name by a solve that failed")
	}
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
