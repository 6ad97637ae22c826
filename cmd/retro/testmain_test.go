package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"testing"
)

// peakEnv asks a child process to print its peak memory as it exits.
const peakEnv = "RETRO_TEST_PEAK"

// heapEnv, set to a path, asks a child process to write its heap profile
// there as it exits: what a memory test that fails holds (go tool pprof
// -sample_index=inuse_space).
const heapEnv = "RETRO_TEST_HEAP"

// TestMain lets the test binary stand in for retro when `retro bench`,
// run by a test, starts its child processes.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		// An interrupt stops the command as it stops retro (serve ends so).
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		e := &env{ctx: ctx, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
		code := run(os.Args[1:], e)
		stop()
		if path := os.Getenv(heapEnv); path != "" {
			if f, err := os.Create(path); err == nil {
				pprof.Lookup("heap").WriteTo(f, 0)
				f.Close()
			}
		}
		if os.Getenv(peakEnv) == "1" {
			// For TestMemoryEstimate: the peak of this process alone (a
			// child's rusage counts the parent's memory it was forked from).
			fmt.Fprintf(os.Stderr, "peak %d bytes\n", peakBytes())
		}
		os.Exit(code)
	}
	os.Exit(m.Run())
}
