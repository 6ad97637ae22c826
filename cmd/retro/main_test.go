package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// retro runs the command line with the given standard input and returns its
// standard output, standard error and exit status.
func retro(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{ctx: context.Background(), stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb}
	code := run(args, e)
	return out.String(), errb.String(), code
}

func TestSolveGraphExample(t *testing.T) {
	want := "0 win 1\n1 loss 2\n2 win 1\n3 loss 4\n4 win 3\n5 loss 0\n6 draw\n7 draw\n"
	for _, args := range [][]string{
		{"solve", "graph", "../../examples/small.graph"},
		{"solve", "graph", "-engine", "seq", "../../examples/small.graph"},
		{"solve", "graph", "-workers", "3", "../../examples/small.graph"},
	} {
		out, errs, code := retro(t, "", args...)
		if code != 0 || out != want || errs != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	data, err := os.ReadFile("../../examples/small.graph")
	if err != nil {
		t.Fatal(err)
	}
	if out, _, code := retro(t, string(data), "solve", "graph", "-"); code != 0 || out != want {
		t.Errorf("from stdin: exit %d, stdout %q", code, out)
	}
}

func TestSolveGraphBadInput(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"3 2\n0 1\n", "retro: stdin: line 2: the header promises 2 edges, but the input ends after 1\n"},
		{"3 1\n0 9\n", "retro: stdin: line 2: vertex 9 out of range [0, 3)\n"},
		{"2 1\nzero one\n", "retro: stdin: line 2: \"zero\" is not a number\n"},
	} {
		out, errs, code := retro(t, tc.in, "solve", "graph", "-")
		if code != 1 || out != "" || errs != tc.want {
			t.Errorf("input %q: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.in, code, out, errs, tc.want)
		}
	}
	path := filepath.Join(t.TempDir(), "bad.graph")
	os.WriteFile(path, []byte("1 1\n0 1\n"), 0o644)
	if _, errs, code := retro(t, "", "solve", "graph", path); code != 1 || errs != "retro: "+path+": line 2: vertex 1 out of range [0, 1)\n" {
		t.Errorf("bad file: exit %d, stderr %q", code, errs)
	}
	if _, errs, code := retro(t, "", "solve", "graph", "/no/such/file"); code != 1 || !strings.HasPrefix(errs, "retro: open /no/such/file") {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
	if _, errs, code := retro(t, "2000 0\n", "solve", "graph", "-max-memory", "1K", "-"); code != 1 || !strings.Contains(errs, "more than the 1.0 KiB allowed") {
		t.Errorf("-max-memory 1K: exit %d, stderr %q", code, errs)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"solve"},
		{"solve", "chess", "x"},
		{"solve", "graph"},
		{"solve", "graph", "a", "b"},
		{"solve", "graph", "-engine", "fast", "x"},
		{"solve", "graph", "-workers", "-2", "x"},
		{"solve", "graph", "-no-such-flag", "x"},
		{"solve", "graph", "-max-memory", "lots", "x"},
		{"help", "nothing"},
	} {
		out, errs, code := retro(t, "", args...)
		if code != 2 || out != "" || !strings.Contains(errs, "retro: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and a message", args, code, out, errs)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"help", "solve"}, {"help", "graph"}, {"-h"}} {
		out, _, code := retro(t, "", args...)
		if code != 0 || !strings.Contains(out, "retro solve") {
			t.Errorf("%v: exit %d, stdout %q", args, code, out)
		}
	}
	if _, errs, code := retro(t, "", "solve", "graph", "-h"); code != 0 || !strings.Contains(errs, "Usage: retro solve graph") {
		t.Errorf("solve graph -h: exit %d, stderr %q", code, errs)
	}
}

func TestProgressGoesToStderr(t *testing.T) {
	var out, errb bytes.Buffer
	e := &env{ctx: context.Background(), stdin: strings.NewReader("2 1\n0 1\n"), stdout: &out, stderr: &errb}
	if code := run([]string{"solve", "graph", "-progress", "-"}, e); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if out.String() != "0 win 1\n1 loss 0\n" {
		t.Fatalf("stdout %q", out.String())
	}
}

// TestProfileCPU writes a CPU profile and reads it back with go tool pprof.
func TestProfileCPU(t *testing.T) {
	dir := t.TempDir()
	_, errs, code := retro(t, "", "solve", "graph", "-profile", "cpu", "-profile-dir", dir, "../../examples/small.graph")
	path := filepath.Join(dir, "cpu.pprof")
	if code != 0 || !strings.Contains(errs, "cpu profile written to "+path) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	out, err := exec.Command("go", "tool", "pprof", "-top", path).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof -top %s: %v\n%s", path, err, out)
	}
	if _, errs, code := retro(t, "", "solve", "graph", "-profile", "heap", "../../examples/small.graph"); code != 2 {
		t.Fatalf("-profile heap: exit %d, stderr %q", code, errs)
	}
}
