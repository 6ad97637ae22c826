// Package bench holds retro's benchmark harness: deterministic workloads and
// the outside baselines (the seeds' own C++ programs) to measure against.
package bench
