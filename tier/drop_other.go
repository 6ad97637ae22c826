//go:build !linux

package tier

// dropPages leaves the pages as they are: Go's syscall package has madvise
// on Linux alone; a mapped file's clean pages are taken back by the kernel
// under memory pressure, and where there is no mapping (not Unix) the bytes
// were read.
func dropPages([]byte) {}
