package db_test

import (
	"os"
	"testing"

	"github.com/retro-solver/retro/db"
)

// TestCacheKeepsUsed reads five blocks through a cache of four, the first
// read again before the fifth, then damages every block on disk: the
// blocks still cached read as before, the one dropped fails its checksum.
// The one dropped must be the block read the longest ago (the second),
// not the first read, which a lookup had just used.
func TestCacheKeepsUsed(t *testing.T) {
	const blockSize = 512
	s := writeQuixo3(t, blockSize)
	f, err := db.Open(s.path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tab := f.Table(0)
	if tab.NumBlocks() < 5 {
		t.Fatalf("%d blocks, want 5 or more", tab.NumBlocks())
	}
	tab.SetCacheBytes(db.MinCacheBlocks * tab.BlockBytes())
	at := func(b uint64) uint64 { return b * blockSize }
	for _, b := range []uint64{0, 1, 2, 3, 0, 4} {
		if _, _, err := tab.Lookup(at(b)); err != nil {
			t.Fatalf("block %d: %v", b, err)
		}
	}
	// Every block's bytes zeroed: a block read from the file now fails.
	w, err := os.OpenFile(s.path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	blocksEnd := f.Sections[0].Blocks.Offset
	if _, err := w.WriteAt(make([]byte, blocksEnd-8), 8); err != nil {
		t.Fatal(err)
	}
	w.Close()
	for _, b := range []uint64{0, 2, 3, 4} {
		v, d, err := tab.Lookup(at(b))
		if err != nil || v != s.res.Value(at(b)) || d != s.res.Depth(at(b)) {
			t.Errorf("block %d, kept in the cache: %v %d (%v), want %v %d", b, v, d, err, s.res.Value(at(b)), s.res.Depth(at(b)))
		}
	}
	if _, _, err := tab.Lookup(at(1)); err == nil {
		t.Error("block 1, the one read the longest ago: read from the cache after the fifth block was, want it dropped (a checksum error now)")
	}
}
