//go:build !mpi

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNoMPI starts a build without MPI as if mpirun had: it must refuse,
// not run a whole solve on every rank and write the database from each.
func TestNoMPI(t *testing.T) {
	cmd := exec.Command(os.Args[0], "solve", "quixo", "-n", "2")
	cmd.Env = append(os.Environ(), childEnv+"=1", "OMPI_COMM_WORLD_SIZE=2", "OMPI_COMM_WORLD_RANK=0")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want status 1\n%s", err, out)
	}
	if want := "retro: this retro was built without MPI"; !strings.HasPrefix(string(out), want) || strings.Count(string(out), "\n") != 1 {
		t.Fatalf("printed %q, want one line starting %q", out, want)
	}
}
