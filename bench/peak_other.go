//go:build !unix

package bench

import "os"

// peakRSS returns 0: the process's peak memory is not known here.
func peakRSS(*os.ProcessState) uint64 { return 0 }
