//go:build !linux

package engine

// PhysicalMemory returns 0: the machine's memory is not known on this system.
func PhysicalMemory() uint64 { return 0 }
