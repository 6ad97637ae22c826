package main

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// peakEnv asks a child process to print its peak memory as it exits.
const peakEnv = "RETRO_TEST_PEAK"

// TestMain lets the test binary stand in for retro when `retro bench`,
// run by a test, starts its child processes.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		e := &env{ctx: context.Background(), stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
		code := run(os.Args[1:], e)
		if os.Getenv(peakEnv) == "1" {
			// For TestMemoryEstimate: the peak of this process alone (a
			// child's rusage counts the parent's memory it was forked from).
			fmt.Fprintf(os.Stderr, "peak %d bytes\n", peakBytes())
		}
		os.Exit(code)
	}
	os.Exit(m.Run())
}
