package tier

import (
	"syscall"
	"unsafe"
)

// dropPages takes the pages of a mapped file's bytes out of the process's
// memory; they stay in the page cache, and a later read maps them again.
// Of a range that starts or ends inside a page, the whole pages within it
// are taken.
func dropPages(b []byte) {
	const page = 4096
	if len(b) == 0 {
		return
	}
	start := uintptr(unsafe.Pointer(&b[0]))
	lo, hi := (start+page-1)&^(page-1), (start+uintptr(len(b)))&^(page-1)
	if hi <= lo {
		return
	}
	syscall.Madvise(b[lo-start:hi-start], syscall.MADV_DONTNEED)
}
