//go:build unix

package bench

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS returns the peak resident memory in bytes of a process that
// ended, from its resource usage: ru_maxrss counts bytes on Darwin and
// kilobytes on the other systems.
func peakRSS(ps *os.ProcessState) uint64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return uint64(ru.Maxrss)
	}
	return uint64(ru.Maxrss) * 1024
}
