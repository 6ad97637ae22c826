package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runCtx runs the command line with a context that is cancelled after
// delay, as Ctrl-C does, and fails the test if it does not return soon
// after.
func runCtx(t *testing.T, stdin io.Reader, delay time.Duration, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(delay, cancel)
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(args, &env{ctx: ctx, stdin: stdin, stdout: &out, stderr: &errb}) }()
	select {
	case code := <-done:
		return out.String(), errb.String(), code
	case <-time.After(20 * time.Second):
		t.Fatalf("%v: still running 20 s after the interrupt", args)
	}
	return "", "", 0
}

func TestInterruptWhileReading(t *testing.T) {
	// Standard input that never ends: the interrupt must not wait for it.
	r, w := io.Pipe()
	defer w.Close()
	if _, errs, code := runCtx(t, r, 50*time.Millisecond, "solve", "graph", "-"); code != 130 || errs != "retro: interrupted\n" {
		t.Fatalf("stdin: exit %d, stderr %q", code, errs)
	}
	// A FIFO nobody writes to: opening it blocks.
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	if _, errs, code := runCtx(t, nil, 50*time.Millisecond, "solve", "police", fifo); code != 130 || errs != "retro: interrupted\n" {
		t.Fatalf("FIFO: exit %d, stderr %q", code, errs)
	}
}

func TestInterruptDuringSolve(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	_, errs, code := runCtx(t, nil, 300*time.Millisecond, "solve", "teeko", "-db", db)
	if code != 130 || errs != "retro: interrupted\n" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if ents, _ := os.ReadDir(filepath.Dir(db)); len(ents) != 0 {
		t.Fatalf("the interrupted solve left %d files", len(ents))
	}
}

func TestInputMessages(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.graph")
	os.WriteFile(empty, nil, 0o644)
	for _, c := range []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"solve", "graph", "-"}, "2 1\r0 1\r", "retro: stdin: line 1: a carriage return (CR) without a line feed"},
		{[]string{"solve", "pawns", "-"}, "1 1\r3 3\r", "retro: stdin: line 1: a carriage return (CR) without a line feed"},
		{[]string{"solve", "police", "-"}, "1 2\rPT\r", "retro: stdin: line 1: a carriage return (CR) without a line feed"},
		{[]string{"solve", "graph", empty}, "", "retro: " + empty + ": the input is empty: want a header line `n m`\n"},
		{[]string{"solve", "graph", dir}, "", "retro: " + dir + ": is a folder, not an input file\n"},
	} {
		out, errs, code := retro(t, c.stdin, c.args...)
		if code != 1 || out != "" || !strings.HasPrefix(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", c.args, code, out, errs, c.want)
		}
	}
	// CR LF is fine.
	if out, _, code := retro(t, "2 1\r\n0 1\r\n", "solve", "graph", "-"); code != 0 || out != "0 win 1\n1 loss 0\n" {
		t.Errorf("CR LF: exit %d, %q", code, out)
	}
}

func TestArguments(t *testing.T) {
	small := "../../examples/small.graph"
	graph, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args     []string
		stdin    string
		code     int
		out, err string // substrings
	}{
		// Flags after the FILE.
		{[]string{"solve", "graph", small, "-engine", "seq"}, "", 0, "0 win 1\n", ""},
		{[]string{"solve", "graph", small, "-stats"}, "", 0, "0 win 1\n", "8 positions"},
		// sum's standard input, without --.
		{[]string{"sum", "-:0"}, string(graph), 0, "1 win\n", ""},
		{[]string{"sum", small + ":6", "-:0"}, string(graph), 0, "inf{} draw\n", ""},
		{[]string{"solve", "-h"}, "", 0, "", "Usage: retro solve GAME"},
		{[]string{"help", "help"}, "", 0, "Usage: retro help [COMMAND | GAME]", ""},
		{[]string{"help", "grundy"}, "", 0, "-max-memory", ""},
		{[]string{"help", "sum"}, "", 0, "-progress", ""},
		{[]string{"help", "bench"}, "", 0, "-quick", ""},
		{[]string{"solve", "quixo", "-n", "2", "-workers", "-1"}, "", 2, "", "want 1 to 4096, or 0 for one per core"},
		{[]string{"solve", "quixo", "-n", "2", "-profile-dir", t.TempDir()}, "", 2, "", "-profile-dir needs -profile"},
	} {
		out, errs, code := retro(t, c.stdin, c.args...)
		if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errs, c.err) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, code, out, errs)
		}
	}
	// A profile file that cannot be written: a folder where it should be.
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "cpu.pprof"), 0o755)
	out, errs, code := retro(t, "", "solve", "quixo", "-n", "2", "-profile", "cpu", "-profile-dir", dir)
	if code != 1 || out != "" || !strings.HasPrefix(errs, "retro: -profile cpu: cannot write ") || strings.Count(errs, "\n") != 1 {
		t.Errorf("unwritable profile: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

func TestLostOutput(t *testing.T) {
	var errb bytes.Buffer
	code := run([]string{"help"}, &env{ctx: context.Background(), stdin: strings.NewReader(""), stdout: fullWriter{}, stderr: &errb})
	if code != 1 || errb.String() != "retro: writing the output: no space left on device\n" {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}
