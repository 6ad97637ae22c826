//go:build cgo

package db

import (
	"fmt"
	"sync"

	czstd "github.com/DataDog/zstd"
)

// cEncoder is the C zstd library's encoder at bestLevel (through
// github.com/DataDog/zstd, which builds the library's sources with cgo).
// A block is compressed with a context from cContexts: about 3.6 MiB each
// for a block's 256 KiB (TestEncoderBytes).
type cEncoder struct{}

// cContexts keeps the C library's compression contexts between blocks and
// between writers, as many as have ever coded at once (the most workers).
// A context made and freed per block would leave its memory in the C
// allocator's arena of whichever thread freed it, megabytes per thread
// beyond what a memory plan counts.
var cContexts struct {
	sync.Mutex
	free []czstd.Ctx
}

// newCEncoder returns a cEncoder; it compresses any number of blocks at
// once, each with a context of its own.
func newCEncoder(int) encoder { return cEncoder{} }

// cgoEncoder says whether the best level is the C library's.
const cgoEncoder = true

func (cEncoder) encode(src, dst []byte) ([]byte, error) {
	cContexts.Lock()
	var c czstd.Ctx
	if n := len(cContexts.free); n > 0 {
		c, cContexts.free = cContexts.free[n-1], cContexts.free[:n-1]
	}
	cContexts.Unlock()
	if c == nil {
		c = czstd.NewCtx()
	}
	// The frame goes into dst's spare room where it fits.
	z, err := c.CompressLevel(dst[len(dst):cap(dst)], src, bestLevel)
	cContexts.Lock()
	cContexts.free = append(cContexts.free, c)
	cContexts.Unlock()
	if err != nil {
		return dst, fmt.Errorf("db: compressing a block: %w", err)
	}
	return append(dst, z...), nil
}

func (cEncoder) close() {}
