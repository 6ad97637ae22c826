package tier

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// A solved tier is kept on disk, uncompressed so that its children's
// lookups read it in place (memory-mapped), as one file:
//
//	header (headerSize bytes, little-endian):
//	  magic "RETROTR1", format version (4), tier number (4),
//	  entries (8), positions of the tier (8), code width in bytes (4),
//	  symmetric 0/1 (4), max depth (8), counts by value (4 x 8),
//	  edges walked (8), CRC-32C of the fingerprint (4), of the codes (4),
//	  of the class bits (4), codes overflowed (8), CRC-32C of the
//	  overflow (4), zeros, and the CRC-32C of the header's first 124 bytes
//	  (4)
//	codes: one per entry (a class of a symmetric game, otherwise a
//	  position), db.Code of its value and depth, width bytes each; with
//	  overflow, one byte each, 255 for a code of 255 or more
//	class bits, for a symmetric game: bit s of the words (from the next
//	  multiple of 8 bytes) set when position s of the tier is canonical,
//	  then their running counts (implicit.ClassSet.Counts), 4 bytes each,
//	  so that a rank reads a few words and not the whole file
//	overflow (from the next multiple of 8 bytes): the entries whose code
//	  is 255 or more, in increasing order (8 bytes each), then their codes
//	  (8 bytes each). A tier whose depths pass 126 in only a few entries
//	  (Morris's big tiers: one in 10^4 or fewer) keeps one byte an entry,
//	  half what its parents hold in memory, instead of two.
//
// It is written under a temporary name, synced and renamed, so a file
// under its final name is always whole; its checksums catch the rest.
const (
	storeMagic   = "RETROTR1"
	storeVersion = 2 // 1: no overflow (read as none)
	headerSize   = 128
	// overflowCode is the one-byte code of an entry found in the
	// overflow.
	overflowCode = 255
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// storeHeader is a tier file's header.
type storeHeader struct {
	tier        uint32
	entries     uint64
	positions   uint64
	width       uint32
	symmetric   bool
	maxDepth    uint64
	counts      [4]uint64
	edges       uint64
	fingerprint uint32
	codesCRC    uint32
	bitsCRC     uint32
	overflow    uint64 // entries whose code is in the overflow
	overflowCRC uint32
}

func (h *storeHeader) encode() []byte {
	b := make([]byte, 0, headerSize)
	b = append(b, storeMagic...)
	b = binary.LittleEndian.AppendUint32(b, storeVersion)
	b = binary.LittleEndian.AppendUint32(b, h.tier)
	b = binary.LittleEndian.AppendUint64(b, h.entries)
	b = binary.LittleEndian.AppendUint64(b, h.positions)
	b = binary.LittleEndian.AppendUint32(b, h.width)
	sym := uint32(0)
	if h.symmetric {
		sym = 1
	}
	b = binary.LittleEndian.AppendUint32(b, sym)
	b = binary.LittleEndian.AppendUint64(b, h.maxDepth)
	for _, c := range h.counts {
		b = binary.LittleEndian.AppendUint64(b, c)
	}
	b = binary.LittleEndian.AppendUint64(b, h.edges)
	b = binary.LittleEndian.AppendUint32(b, h.fingerprint)
	b = binary.LittleEndian.AppendUint32(b, h.codesCRC)
	b = binary.LittleEndian.AppendUint32(b, h.bitsCRC)
	b = binary.LittleEndian.AppendUint64(b, h.overflow)
	b = binary.LittleEndian.AppendUint32(b, h.overflowCRC)
	b = append(b, make([]byte, headerSize-4-len(b))...)
	return binary.LittleEndian.AppendUint32(b, checksum(b))
}

func decodeHeader(b []byte) (storeHeader, error) {
	var h storeHeader
	le := binary.LittleEndian
	if len(b) < headerSize || string(b[:8]) != storeMagic {
		return h, errors.New("not a tier file")
	}
	if v := le.Uint32(b[8:]); v != storeVersion && v != 1 {
		return h, fmt.Errorf("tier file format %d, this retro reads 1 and %d", v, storeVersion)
	}
	if le.Uint32(b[124:]) != checksum(b[:124]) {
		return h, errors.New("its header's checksum is wrong")
	}
	h.tier = le.Uint32(b[12:])
	h.entries = le.Uint64(b[16:])
	h.positions = le.Uint64(b[24:])
	h.width = le.Uint32(b[32:])
	h.symmetric = le.Uint32(b[36:]) == 1
	h.maxDepth = le.Uint64(b[40:])
	for v := range h.counts {
		h.counts[v] = le.Uint64(b[48+8*v:])
	}
	h.edges = le.Uint64(b[80:])
	h.fingerprint = le.Uint32(b[88:])
	h.codesCRC = le.Uint32(b[92:])
	h.bitsCRC = le.Uint32(b[96:])
	h.overflow = le.Uint64(b[100:]) // 0 in format 1
	h.overflowCRC = le.Uint32(b[108:])
	return h, nil
}

// codesEnd returns the offset of the class bits: the codes' end, rounded
// up to 8 bytes.
func (h *storeHeader) codesEnd() uint64 {
	return (headerSize + h.entries*uint64(h.width) + 7) &^ 7
}

// fileSize returns the size the file must have.
func (h *storeHeader) fileSize() uint64 {
	if h.overflow > 0 {
		return h.overflowStart() + 16*h.overflow
	}
	return h.basicSize()
}

// basicSize returns the size of the file without its overflow.
func (h *storeHeader) basicSize() uint64 {
	if !h.symmetric {
		return headerSize + h.entries*uint64(h.width)
	}
	return h.countsStart() + 4*h.countsLen()
}

// overflowStart returns the offset of the overflow.
func (h *storeHeader) overflowStart() uint64 { return (h.basicSize() + 7) &^ 7 }

// countsStart returns the offset of a symmetric tier's running counts.
func (h *storeHeader) countsStart() uint64 { return h.codesEnd() + (h.positions+63)/64*8 }

// countsLen returns the number of running counts of a symmetric tier.
func (h *storeHeader) countsLen() uint64 { return ((h.positions+63)/64+7)/8 + 1 }

// store is a solved tier, read from its memory-mapped file.
type store struct {
	h     storeHeader
	path  string
	data  []byte // the whole file
	codes []byte
	// classes numbers a symmetric game's classes (its Bits in the file);
	// empty otherwise.
	classes implicit.ClassSet
	unmap   func() error
	// unload unmaps the codes' copy in huge pages (load), if any; mapped
	// is the codes in the file's mapping.
	unload func() error
	mapped []byte
	// overEntries and overCodes are the overflow: the entries whose code
	// is overflowCode in codes, and their codes.
	overEntries, overCodes []uint64
}

// hugeLoad is the size of codes from which load copies them.
const hugeLoad = 16 << 20

// load copies large codes into huge pages, where the many random lookups
// of a child's parents miss the TLB far less than in the file's mapping,
// whose pages it gives back (they stay in the page cache).
func (s *store) load() {
	if len(s.codes) < hugeLoad || s.unload != nil {
		return
	}
	if c, unload := hugeCopy(s.codes); c != nil {
		dropPages(s.data)
		s.mapped, s.codes, s.unload = s.codes, c, unload
	}
}

// hugeCopy returns a copy of b in huge pages (bitset.MapHuge) and the
// function that unmaps it; nil where there are none to ask for.
func hugeCopy(b []byte) ([]byte, func() error) {
	c, unmap := bitset.MapHuge(uint64(len(b)))
	if c == nil {
		return nil, nil
	}
	copy(c, b)
	return c, unmap
}

// unloadCodes gives the memory of the codes back: load's copy, and the
// file's pages (they stay in the page cache for the next read).
func (s *store) unloadCodes() {
	if s.unload != nil {
		s.unload()
		s.codes, s.unload = s.mapped, nil
	}
	dropPages(s.data)
}

// code returns the code of entry i.
func (s *store) code(i uint64) uint64 {
	switch s.h.width {
	case 1:
		if c := s.codes[i]; c != overflowCode || s.overEntries == nil {
			return uint64(c)
		}
		k, _ := slices.BinarySearch(s.overEntries, i)
		return s.overCodes[k]
	case 2:
		return uint64(binary.LittleEndian.Uint16(s.codes[2*i:]))
	}
	return uint64(binary.LittleEndian.Uint32(s.codes[4*i:]))
}

// Lookup returns the value and depth of entry i.
func (s *store) Lookup(i uint64) (engine.Value, uint64, error) {
	v, d := db.Decode(s.code(i))
	return v, d, nil
}

// Size returns the number of entries.
func (s *store) Size() uint64 { return s.h.entries }

func (s *store) close() error {
	var err error
	if s.unload != nil {
		err = s.unload()
		s.unload = nil
	}
	if s.unmap == nil {
		return err
	}
	err = errors.Join(err, s.unmap())
	s.unmap = nil
	return err
}

// openStore maps the file of a solved tier and checks it against what the
// solve expects of it (want: tier, positions, symmetric, fingerprint, and
// for a game without symmetry the entries; a symmetric tier's entries are
// checked against its class bits); with verify, it checks the codes' and
// bits' checksums too.
func openStore(path string, want storeHeader, verify bool) (*store, error) {
	data, unmap, err := mapFile(path)
	if err != nil {
		return nil, err
	}
	s := &store{path: path, data: data, unmap: unmap}
	fail := func(format string, args ...any) (*store, error) {
		s.close()
		return nil, fmt.Errorf("%s: %s", path, fmt.Sprintf(format, args...))
	}
	if s.h, err = decodeHeader(data); err != nil {
		return fail("%v", err)
	}
	h := &s.h
	switch {
	case h.fingerprint != want.fingerprint:
		return fail("solved for another game, other parameters or another version of retro")
	case h.tier != want.tier || h.positions != want.positions || h.symmetric != want.symmetric || (!h.symmetric && h.entries != want.entries):
		return fail("holds tier %d of %d entries, want tier %d of %d", h.tier, h.entries, want.tier, want.entries)
	case h.width != 1 && h.width != 2 && h.width != 4:
		return fail("code width %d", h.width)
	case uint64(len(data)) != h.fileSize():
		return fail("is %d bytes, want %d: truncated or damaged", len(data), h.fileSize())
	}
	s.codes = data[headerSize : headerSize+h.entries*uint64(h.width)]
	if h.overflow > 0 {
		if h.width != 1 {
			return fail("an overflow with %d-byte codes", h.width)
		}
		over := wordsOf(data[h.overflowStart():])
		s.overEntries, s.overCodes = over[:h.overflow], over[h.overflow:]
	}
	if h.symmetric {
		s.classes = implicit.ClassSet{Bits: wordsOf(data[h.codesEnd():h.countsStart()]), Counts: uint32sOf(data[h.countsStart():])}
		if s.classes.Len() != h.entries {
			return fail("its class bits count %d classes, its codes %d", s.classes.Len(), h.entries)
		}
	}
	if verify {
		if checksum(s.codes) != h.codesCRC {
			return fail("its codes' checksum is wrong")
		}
		if h.symmetric && checksum(data[h.codesEnd():h.basicSize()]) != h.bitsCRC {
			return fail("its class bits' checksum is wrong")
		}
		if h.overflow > 0 && checksum(data[h.overflowStart():]) != h.overflowCRC {
			return fail("its overflow's checksum is wrong")
		}
		// The check read every page: they go until read again (a solve
		// that goes on opens every finished tier, and would hold them all).
		dropPages(data)
	}
	return s, nil
}

// writeStore writes tier k's result r (and, for a symmetric game, its
// classes) to path, atomically. The codes are encoded and written a chunk at
// a time, so that writing takes little memory beside the result.
func writeStore(ctx context.Context, path string, h storeHeader, r *engine.Result, classes implicit.ClassSet, workers int) error {
	width, err := db.CodeWidth(r.MaxDepth())
	if err != nil {
		return err
	}
	overflowing := width > 1 && fewOverflow(ctx, r, workers)
	if overflowing {
		width = 1
	}
	h.width = uint32(width)
	h.entries = r.Size()
	h.maxDepth = r.MaxDepth()
	h.edges = r.Edges()
	for v := range h.counts {
		h.counts[v] = r.Count(engine.Value(v))
	}
	var bitBytes []byte
	if h.symmetric {
		bitBytes = append(bytesOf(classes.Bits), bytesOfUint32s(classes.Counts)...)
		h.bitsCRC = checksum(bitBytes)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after the rename, there is nothing to remove
	defer f.Close()
	// The header goes last, once the codes' checksum is known.
	if _, err := f.Seek(headerSize, io.SeekStart); err != nil {
		return err
	}
	const chunk = 1 << 20
	buf := make([]byte, min(h.entries, chunk)*uint64(width))
	var overEntries, overCodes []uint64
	crc := uint32(0)
	for lo := uint64(0); lo < h.entries; lo += chunk {
		hi := min(lo+chunk, h.entries)
		codes := buf[:(hi-lo)*uint64(width)]
		err := parallel.For(ctx, workers, hi-lo, parallel.ChunkFor(hi-lo, workers, 1<<12), func(_ int, a, b uint64) error {
			for i := a; i < b; i++ {
				c := db.Code(r.Value(lo+i), r.Depth(lo+i))
				if overflowing {
					c = min(c, overflowCode)
				}
				for k := range uint64(width) {
					codes[i*uint64(width)+k] = byte(c >> (8 * k))
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if overflowing {
			for i, c := range codes {
				if c == overflowCode {
					e := lo + uint64(i)
					overEntries = append(overEntries, e)
					overCodes = append(overCodes, db.Code(r.Value(e), r.Depth(e)))
				}
			}
		}
		crc = crc32.Update(crc, castagnoli, codes)
		if _, err := f.Write(codes); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	h.codesCRC = crc
	if h.symmetric {
		pad := h.codesEnd() - headerSize - h.entries*uint64(width)
		if _, err := f.Write(append(make([]byte, pad), bitBytes...)); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if h.overflow = uint64(len(overEntries)); h.overflow > 0 {
		over := append(bytesOf(overEntries), bytesOf(overCodes)...)
		h.overflowCRC = checksum(over)
		pad := h.overflowStart() - h.basicSize()
		if _, err := f.Write(append(make([]byte, pad), over...)); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if _, err := f.WriteAt(h.encode(), 0); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	f.Chmod(0o644) // CreateTemp's 0600 would hide the tiers from the folder's other readers
	if err := f.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// fewOverflow says whether at most one entry of r in overflowShare has a
// code of overflowCode or more, so that one-byte codes with an overflow
// take less room than wider codes.
func fewOverflow(ctx context.Context, r *engine.Result, workers int) bool {
	var over atomic.Uint64
	n := r.Size()
	err := parallel.For(ctx, workers, n, parallel.ChunkFor(n, workers, 1<<12), func(_ int, lo, hi uint64) error {
		k := uint64(0)
		for i := lo; i < hi; i++ {
			if v := r.Value(i); (v == engine.Win || v == engine.Loss) && db.Code(v, r.Depth(i)) >= overflowCode {
				k++
			}
		}
		over.Add(k)
		return nil
	})
	return err == nil && over.Load() <= n/overflowShare
}

// overflowShare bounds the share of entries in an overflow: each takes 16
// bytes there instead of one more byte in the codes.
const overflowShare = 64

// syncDir makes the renames in dir last.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	d.Sync() // not every file system syncs a folder; the rename stands anyway
	return nil
}
