package db

import "github.com/klauspost/compress/zstd"

// encoder compresses blocks into zstd frames, on up to the concurrency it
// was made for at once. Every reader decodes them with klauspost's
// decoder, whichever encoder wrote them.
type encoder interface {
	// encode appends src, compressed, to dst.
	encode(src, dst []byte) ([]byte, error)
	close()
}

// bestLevel is the C library's level that SpeedBestCompression stands for
// where cgo builds it (cEncoder). On a block of 256 KiB, the library's
// table for inputs that small makes it the optimal parser (btopt: window,
// chain and hash logs 18, 18, 19, search log 6, matches from 3 bytes,
// target length 128), which compresses a LossDepths file's blocks 13 to
// 35% smaller than klauspost's best level (chess endgames), at four times
// its time. On the blocks of the 146 chess endgames of up to 5 pieces
// (Losses codes, every 16th block): levels 16 and 17 (btultra) gain 1.0
// and 1.3% at 1.46 and 1.73 times the time, 14 and 13 lose 2.6 and 5.7%
// for 0.78 and 0.68; a search log of 4 instead of 6 loses 0.5% for 0.88,
// the binary-tree lazy parser (btlazy2) 14% for 0.5.
const bestLevel = 15

// goEncoder is klauspost's encoder.
type goEncoder struct{ *zstd.Encoder }

func (e goEncoder) encode(src, dst []byte) ([]byte, error) { return e.EncodeAll(src, dst), nil }
func (e goEncoder) close()                                 { e.Close() }

// encoder returns the encoder of normalized options o for up to
// concurrency blocks at once: the C library's at bestLevel for
// SpeedBestCompression where cgo is built (newCEncoder), klauspost's
// otherwise. Each holds a few MiB of tables (EncoderBytes), so a Writer
// makes its encoders when it compresses and drops them after: a writer
// opened at the start of a long solve holds none meanwhile.
func (o Options) encoder(concurrency int) (encoder, error) {
	if o.Level == zstd.SpeedBestCompression {
		if e := newCEncoder(concurrency); e != nil {
			return e, nil
		}
	}
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(o.Level), zstd.WithEncoderCRC(false), zstd.WithWindowSize(1<<20),
		zstd.WithEncoderConcurrency(concurrency))
	if err != nil {
		return nil, err
	}
	return goEncoder{e}, nil
}
