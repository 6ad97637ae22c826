//go:build race

package testsize

// Race reports whether the tests are built with the race detector.
const Race = true
