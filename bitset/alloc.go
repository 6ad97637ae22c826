package bitset

// hugeMin is the size from which arrays are mapped with huge pages where the
// system offers them: random access over hundreds of megabytes then misses
// the TLB far less, and the first touch faults once per 2 MiB instead of
// once per 4 KiB.
const hugeMin = 16 << 20

// HugePage is the size of a transparent huge page, the unit in which
// MapHuge's memory is mapped.
const HugePage = 2 << 20

// mapping owns memory allocated outside the Go heap; the arrays keep a
// pointer to it, and the memory is released once no array refers to it.
type mapping struct{ _ byte }

// zeroRelease zeroes words, part of an array allocWords made with mem:
// where it is mapped, by giving their whole pages back to the system
// (release: they read as zero and take no memory until written again),
// and clearing only the words around them.
func zeroRelease(words []uint64, mem *mapping) {
	a, b := 0, 0
	if mem != nil {
		a, b = release(words)
	}
	clear(words[:a])
	clear(words[b:])
}
