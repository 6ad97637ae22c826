package engine

import "syscall"

// PhysicalMemory returns the machine's physical memory in bytes, or 0 if it
// cannot be told.
func PhysicalMemory() uint64 {
	var info syscall.Sysinfo_t
	if err := syscall.Sysinfo(&info); err != nil {
		return 0
	}
	return uint64(info.Totalram) * uint64(info.Unit)
}
