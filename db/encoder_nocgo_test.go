//go:build !cgo

package db

import "testing"

func cContextBytes(t *testing.T, block []byte) uint64 { panic("no C library without cgo") }
