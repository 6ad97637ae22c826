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
