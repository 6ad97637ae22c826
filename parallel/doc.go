// Package parallel splits work on an index range over worker goroutines and
// collects what the workers find, without locks and without anything
// game-specific: For hands out chunks of [0, n) claimed from an atomic
// counter, and Frontier gathers the indices workers emit into per-worker
// lists or, once they grow large, into a shared bit set.
package parallel
