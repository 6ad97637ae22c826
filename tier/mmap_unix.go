//go:build unix

package tier

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps the file at path read-only and returns its bytes and the
// function that unmaps them. An empty file maps to no bytes.
func mapFile(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Size() == 0 {
		return nil, func() error { return nil }, nil
	}
	if st.Size() != int64(int(st.Size())) {
		return nil, nil, fmt.Errorf("%s: too large to map", path)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("mapping %s: %w", path, err)
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}

// dropPages takes the pages of a mapped file's bytes out of the process's
// memory; they stay in the page cache, and a later read maps them again.
func dropPages(b []byte) {
	if len(b) > 0 {
		syscall.Madvise(b, syscall.MADV_DONTNEED)
	}
}

// madvHugepage is MADV_HUGEPAGE, which package syscall lacks.
const madvHugepage = 14

// hugeCopy returns a copy of b in memory mapped apart and advised to use
// transparent huge pages (where the system has them), and the function
// that unmaps it; nil if the mapping fails. A file's own mapping has small
// pages: a child tier's codes, looked up at random by its parents' moves,
// then miss the TLB at nearly every lookup.
func hugeCopy(b []byte) ([]byte, func() error) {
	const huge = 2 << 20
	c, err := syscall.Mmap(-1, 0, (len(b)+huge-1)&^(huge-1), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil
	}
	syscall.Madvise(c, madvHugepage) // only advice: without it the pages are small
	copy(c, b)
	return c[:len(b)], func() error { return syscall.Munmap(c) }
}
