// Package bitset provides the packed arrays the solvers keep per position:
// bit sets, 2-bit value arrays and packed counters, each with plain methods
// for a single owner and atomic methods for many workers at once.
//
// Atomic methods never borrow or carry across the lanes of a word, so
// workers may update different positions that share a word concurrently.
package bitset
