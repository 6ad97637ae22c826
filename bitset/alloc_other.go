//go:build !linux

package bitset

// allocWords returns n zero words from the Go heap.
func allocWords(n uint64) ([]uint64, *mapping) { return make([]uint64, n), nil }

// MapHuge returns nil: huge pages are asked for on Linux only.
func MapHuge(uint64) ([]byte, func() error) { return nil, nil }

// release does nothing: the words are the Go heap's.
func release([]uint64) (a, b int) { return 0, 0 }
