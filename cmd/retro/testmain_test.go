package main

import (
	"context"
	"os"
	"testing"
)

// TestMain lets the test binary stand in for retro when `retro bench`,
// run by a test, starts its child processes.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		e := &env{ctx: context.Background(), stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
		os.Exit(run(os.Args[1:], e))
	}
	os.Exit(m.Run())
}
