// Package yardstick holds solvers written by hand for one game each (police,
// pawns, explicit graphs), as fast as plain Go allows: no interface call
// per edge, no generic lanes, no batches, a 32-bit state per position and
// list frontiers. They are what the engine's benchmarks measure the cost of
// being generic against (BenchmarkPolice, BenchmarkPawns, BenchmarkGraph),
// and their results must equal the engine's.
package yardstick
