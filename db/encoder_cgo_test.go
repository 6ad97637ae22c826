//go:build cgo

package db

import (
	"runtime"
	"testing"

	czstd "github.com/DataDog/zstd"
)

// cContextBytes returns the resident memory a C compression context takes
// once it has coded block at bestLevel, as each block's call to the library
// makes and frees one (the context kept here, to be measured).
func cContextBytes(t *testing.T, block []byte) uint64 {
	runtime.GC()
	dst := make([]byte, 0, len(block)+len(block)/8)
	before := residentBytes(t)
	c := czstd.NewCtx()
	if _, err := c.CompressLevel(dst, block, bestLevel); err != nil {
		t.Fatal(err)
	}
	after := residentBytes(t)
	runtime.KeepAlive(c)
	return after - before
}
