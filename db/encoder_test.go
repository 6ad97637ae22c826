package db

import (
	"runtime"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestEncoderBytes measures what one compressor allocates at each level
// coding a block of codes, and checks that EncoderBytes says about as
// much: not under 60% of it (the memory plans count on it), nor over
// 150% (a plan would refuse solves that fit).
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
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		enc, err := o.encoder(1)
		if err != nil {
			t.Fatal(err)
		}
		enc.EncodeAll(block, nil)
		runtime.ReadMemStats(&after)
		enc.Close()
		took := after.TotalAlloc - before.TotalAlloc
		says := EncoderBytes(o)
		t.Logf("%v: %d bytes allocated, EncoderBytes %d", level, took, says)
		if float64(says) < 0.6*float64(took) || float64(says) > 1.5*float64(took) {
			t.Errorf("%v: EncoderBytes says %d, a compressor allocated %d", level, says, took)
		}
	}
	if lossy, plain := EncoderBytes(Options{Coding: LossDepths}), EncoderBytes(Options{}); lossy <= plain {
		t.Errorf("EncoderBytes: %d for LossDepths' default level, %d for the others'", lossy, plain)
	}
}
