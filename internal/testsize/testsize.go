// Package testsize says how much the tests do. By default `go test ./...`
// runs the quick set, about half a minute on two cores: every test, with
// fewer random games, smaller boards and the slowest solves skipped. With
// RETRO_LONG_TESTS=1 in the environment, as .ci/run sets it, the tests run
// in full (several minutes). -short keeps a run quick whatever the
// environment (the race detector's run in .ci/run uses it), and Race
// trims it further where the detector needs a path once (SkipUnderRace).
package testsize

import (
	"os"
	"testing"
)

// Env is the environment variable that asks for the long tests.
const Env = "RETRO_LONG_TESTS"

// Long reports whether the tests run in full: Env is set to 1 and -short
// is not given.
func Long() bool { return os.Getenv(Env) == "1" && !testing.Short() }

// SkipUnlessLong skips t in a quick run, saying how to run it.
func SkipUnlessLong(t testing.TB) {
	t.Helper()
	if !Long() {
		t.Skip("a long test: run with " + Env + "=1")
	}
}

// SkipUnderRace skips t under the race detector (.ci/run's race run),
// which makes a test five to ten times slower, where the concurrency t
// would meet is raced by other tests: t checks code that runs in one
// goroutine (a game's rules walked over its index, a table, a naive
// oracle), where the detector finds nothing, or repeats a parallel solve
// that another test of the package races. why says which.
func SkipUnderRace(t testing.TB, why string) {
	t.Helper()
	if Race {
		t.Skip("skipped under the race detector: " + why)
	}
}
