package db

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestEncoderBytes measures what one compressor allocates at each level
// coding a block of codes, and checks that EncoderBytes says about as
// much: not under 60% of it (the memory plans count on it), nor over
// 150% (a plan would refuse solves that fit). The C library's context,
// outside Go's heap, is measured by the process's resident memory, which
// bounds it from below only.
func TestEncoderBytes(t *testing.T) {
	block := make([]byte, DefaultBlockSize)
	for i := range block {
		block[i] = byte(i*7^i>>5) & 0x3f
	}
	for _, level := range []zstd.EncoderLevel{zstd.SpeedFastest, zstd.SpeedDefault, zstd.SpeedBetterCompression, zstd.SpeedBestCompression} {
		o, err := Options{Level: level}.normalized()
		if err != nil {
			t.Fatal(err)
		}
		var took uint64
		if level == zstd.SpeedBestCompression && cgoEncoder {
			took = cContextBytes(t, block)
		} else {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			enc, err := o.encoder(1)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := enc.encode(block, nil); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			enc.close()
			took = after.TotalAlloc - before.TotalAlloc
		}
		says := EncoderBytes(o)
		t.Logf("%v: %d bytes allocated, EncoderBytes %d", level, took, says)
		// The resident memory that a C context adds is a lower bound
		// only: it may take pages the process held already (freed by
		// earlier tests; under the race detector, 1.9 MiB of the 3.6).
		c := level == zstd.SpeedBestCompression && cgoEncoder
		if float64(says) < 0.6*float64(took) || (!c && float64(says) > 1.5*float64(took)) {
			t.Errorf("%v: EncoderBytes says %d, a compressor allocated %d", level, says, took)
		}
	}
	if !cgoEncoder {
		if lossy, plain := EncoderBytes(Options{Coding: LossDepths}), EncoderBytes(Options{}); lossy <= plain {
			t.Errorf("EncoderBytes: %d for LossDepths' default level, %d for the others'", lossy, plain)
		}
	}
}

// residentBytes returns the process's resident memory (VmRSS), or skips
// the test where /proc does not say it.
func residentBytes(t *testing.T) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status:", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmRSS:" && f[2] == "kB" {
			kb, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Skip("no VmRSS in /proc/self/status")
	return 0
}
