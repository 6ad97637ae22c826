// Package prefetch asks the processor to bring a cache line in ahead of
// its use, without waiting for it: where a solver knows the addresses it
// will read a few positions ahead (a graph's in-edges), their misses then
// overlap the work in between. A plain load would do the same but hold
// up the instructions after it once the processor's window is full; a
// prefetch instruction never does. Go has no such intrinsic, so the
// function is assembly on amd64 and arm64, and does nothing elsewhere.
package prefetch

// Line hints that the cache line at address addr will be read soon. A
// prefetch never faults: any address will do.
func Line(addr uintptr) { line(addr) }
