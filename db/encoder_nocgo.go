//go:build !cgo

package db

// Without cgo the best level is klauspost's.
func newCEncoder(concurrency int) encoder { return nil }

const cgoEncoder = false
