//go:build unix && !linux

package tier

// dropPages leaves the pages mapped: the system's syscall package has no
// madvise here, and the kernel takes a mapped file's clean pages back
// under memory pressure.
func dropPages([]byte) {}
