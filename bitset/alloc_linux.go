package bitset

import (
	"runtime"
	"syscall"
	"unsafe"
)

const madvHugepage = 14 // MADV_HUGEPAGE, missing from package syscall

// allocWords returns n zero words. Large arrays are mapped directly and
// advised to use transparent huge pages; the returned mapping must stay
// reachable (the array types hold it) for as long as the words are used.
func allocWords(n uint64) ([]uint64, *mapping) {
	size := n * 8
	if size < hugeMin || size > 1<<46 {
		return make([]uint64, n), nil
	}
	b, unmap := MapHuge(size)
	if b == nil {
		return make([]uint64, n), nil
	}
	m := &mapping{}
	runtime.AddCleanup(m, func(unmap func() error) { unmap() }, unmap)
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n), m
}

// MapHuge returns size zero bytes mapped apart from the Go heap and
// advised to use transparent huge pages (random access over hundreds of
// megabytes then misses the TLB far less), with the function that unmaps
// them; nil if the mapping fails.
func MapHuge(size uint64) ([]byte, func() error) {
	const huge = HugePage
	if size == 0 || size > 1<<46 {
		return nil, nil
	}
	b, err := syscall.Mmap(-1, 0, int((size+huge-1)&^(huge-1)), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil
	}
	syscall.Madvise(b, madvHugepage) // only advice: without it the pages are small
	return b[:size], func() error { return syscall.Munmap(b) }
}

// release gives the whole pages of words, part of an array allocWords
// mapped, back to the system: they read as zero afterwards, and take no
// memory until written again. It returns the words [a, b) it gave back
// (a == b: none, the pages too few or the advice refused).
func release(words []uint64) (a, b int) {
	const page = 4096
	if len(words) == 0 {
		return 0, 0
	}
	start := uintptr(unsafe.Pointer(&words[0]))
	end := start + uintptr(len(words))*8
	lo, hi := (start+page-1)&^(page-1), end&^(page-1)
	if hi <= lo {
		return 0, 0
	}
	a, b = int((lo-start)/8), int((hi-start)/8)
	if syscall.Madvise(unsafe.Slice((*byte)(unsafe.Pointer(&words[a])), hi-lo), syscall.MADV_DONTNEED) != nil {
		return 0, 0 // only advice: the pages stay
	}
	return a, b
}
