package tier

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/tempfile"
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
	// huge is the codes' copy in huge pages while a parent reads them
	// (load), codes then being its bytes; mapped is the codes in the file's
	// mapping.
	huge   *hugeCodes
	mapped []byte
	// overEntries and overCodes are the overflow: the entries whose code
	// is overflowCode in codes, and their codes.
	overEntries, overCodes []uint64
}

// hugeLoad is the size of codes from which load copies them (a variable
// for the tests, which copy every child).
var hugeLoad = 16 << 20

// load copies large codes into huge pages, where the many random lookups
// of a child's parents miss the TLB far less than in the file's mapping,
// whose pages it gives back (they stay in the page cache). The copy is made
// a line at a time as lookups read them, and a huge page at a time once
// they read it all over (hugeCodes).
func (s *store) load() {
	if len(s.codes) < hugeLoad || s.huge != nil {
		return
	}
	if h := newHugeCodes(s.codes); h != nil {
		if f, err := os.Open(s.path); err == nil {
			h.file, h.base = f, headerSize
		}
		s.mapped, s.codes, s.huge = s.codes, h.copy, h
	}
}

// unloadCodes gives the memory of the codes back: load's copy, and the
// file's pages (they stay in the page cache for the next read).
func (s *store) unloadCodes() {
	if s.huge != nil {
		s.huge.release()
		s.codes, s.huge = s.mapped, nil
	}
	dropPages(s.data)
}

// hugePage is the unit in which hugeCodes copies.
const hugePage = bitset.HugePage

// hugeCodes is a copy of a tier's codes in huge pages, filled a huge page
// at a time once lookups read all over it: a parent that reaches part of a
// child keeps that part in memory, not the whole (a chess endgame's
// promotions reach the child with the other side to move, half its
// positions). Until then each cache line that lookups read is copied into
// a pool of lines, and the file's pages it came from are given back every
// few lines: a parent that reads a few lines of each small page keeps only
// those.
//
// A pawn's promotion puts the new piece on a square of the last rank, one
// of 8 images under the child's symmetries. Where that piece's square is
// the child's index's last digit but one (KRBvKR: the bishop's), its
// parents read every small page of the child's half, and in each the lines
// of those 8 squares; where it is the first digit (KQRvKR: the queen's),
// an eighth of the small pages whole. Both stay lines. Where it is the
// last digit (KBBNvK: the knight's), or the parent's pawn advances into
// the next tier of its endgame, lookups read lines at more than 8 places
// of most small pages, and a quarter of them so crowded fill the huge page
// after a few thousand lines. Measured on the own tiers of KRPvKR and
// KBBPvK, their children solved (bench/chess-rtbgen.sh's way): with a huge
// page filled once a quarter of its small pages had been read, 603 and
// 556 MiB at the peak; with lines as here, 256-324 and 411-413 MiB in the same
// time; filling only a page with a quarter of its lines copied (8,192),
// 245 and 456 MiB, and KBBPvK 8% slower.
type hugeCodes struct {
	copy  []byte // the copy: mapped whole, in memory where filled
	src   []byte // the codes in the file's mapping
	unmap func() error
	// skew is copy's offset in its first huge page: byte b of the copy is
	// in the copy's huge page (skew+b)/hugePage, and in its line
	// (skew+b)/lineSize (skew is a multiple of the small page).
	skew   uint64
	filled []atomic.Uint32 // filled[j] != 0 once the copy's huge page j holds its codes
	// lines[j] is huge page j's lines in pool, made at its first lookup;
	// nil once the page is filled.
	lines     []atomic.Pointer[pageLines]
	pool      []byte // the lines copied, in the order copied: mapped, in memory where used
	unmapPool func() error
	used      atomic.Uint64 // pool's slots handed out
	mu        sync.Mutex    // held while a page is filled or given its table of lines
	// file, where set, holds the codes from byte base: a line is read from
	// it rather than through src, so that none of the mapping's pages
	// comes into the process for it. A fault in the mapping maps the page
	// cache's whole folio: 4 KiB to 1 MiB on Linux 6.18, whose reads of a
	// file fill folios of up to a MiB.
	file *os.File
	base int64
}

// pageLines is what lookups have read of a huge page not yet filled: the
// slot in pool of each of its lines plus one (0: not copied), the lines
// copied, and for each small page the places of its lines copied (their
// numbers within it), with the number of small pages crowded: with lines
// at more than crowdedPlaces places.
//
// stage is the small page of the codes read last for a line of this huge
// page (staged: its number in the copy plus one, 0 for none): lookups
// read lines of one small page one after another (on KRPvKP's own tiers
// 80% of the 12.9 million lines copied came from the small page of the
// copy before them in their huge page), so a line is copied from there
// where it can be, and the small page read whole where it cannot: one
// read of the file in place of several of a line each.
type pageLines struct {
	slots   [linesPerHuge]atomic.Uint32
	copied  atomic.Uint32
	crowded atomic.Uint32
	places  [smallPerHuge]atomic.Uint64
	mu      sync.Mutex // held while stage is read or copied from
	staged  uint64
	stage   [smallPage]byte
}

// lineSize is the unit in which hugeCodes copies what lookups read before
// a huge page is filled: a cache line. linesPerHuge is the lines of a
// huge page and smallPerHuge its small pages; a huge page is read all over
// and filled once fillSmall of its small pages (a quarter) have lines
// copied at more than crowdedPlaces of their 64 places, or fillLines of
// its lines (a quarter) are copied; dropEvery is the lines copied between
// two givings back of the file's pages where a line is copied through the
// mapping (no file to read it from: the tests' codes).
//
// A read of the mapping brings in the page cache's whole folio around it:
// on Linux 6.18 here, 200 reads a MiB apart in KQRvKR's file mapped 31 MiB
// where earlier runs' faults had filled its cache, 193 MiB after a read of
// the whole file (its checksum's, as a tier opens) had. So lines are read
// from the file (hugeCodes.file): KRPvKR's own tiers over its four children
// of 242 million codes peaked at 184 and 183 MiB, its children's files in
// the page cache or evicted first, against 224 and 289 MiB reading the
// mapping and giving its pages back every 128 lines (368 and 381 MiB every
// 1024), in the same time (103.8 and 115.1 s against 103.5 and 113.1).
const (
	lineSize      = 64
	smallPage     = 4096
	linesPerHuge  = hugePage / lineSize
	smallPerHuge  = hugePage / smallPage
	crowdedPlaces = 8
	fillSmall     = smallPerHuge / 4
	fillLines     = linesPerHuge / 4
	dropEvery     = 128
	// poolLines is the pool's room for a huge page's lines: fillLines,
	// after which the page is filled, and slots that lookups lost to
	// another's copy of the same line.
	poolLines = fillLines + 64
)

// childBytes is what a tier's plan counts for a child of entries codes
// whose moves read a part of reach of them: those codes, read through the
// file's mapping, or for a child that load copies, hugeBytes.
func childBytes(entries, reach uint64) uint64 {
	if entries*planWidth < uint64(hugeLoad) {
		return reach
	}
	return hugeBytes(reach)
}

// hugeBytes bounds the memory a hugeCodes copy holds where lookups read
// a part of reach bytes of the codes, in one stretch (a chess child's half
// or pawn slice): the huge pages that stretch touches (stretchPages), each
// filled whole, with the lines copied into the pool before it was
// (poolLines: a quarter of a page more) and its table of lines (garbage
// once the page is filled, until the collector runs). On KRPvKP.33's 32
// children read all over their halves, 14.1 MiB each: 7 pages filled and
// an eighth with lines, and 2.6 MiB of lines pooled (2026-11-29): the plan
// that counted reach alone was 0.89 of the process's peak.
func hugeBytes(reach uint64) uint64 {
	return stretchPages(reach) * (hugePage + poolLines*lineSize + uint64(unsafe.Sizeof(pageLines{})))
}

// stretchPages returns the most huge pages a stretch of n bytes touches:
// ceil(n / hugePage), and one more where it does not start on a page.
func stretchPages(n uint64) uint64 { return (n+hugePage-1)/hugePage + 1 }

// newHugeCodes returns an empty copy of the codes src in huge pages
// (bitset.MapHuge); nil where there are none to ask for.
func newHugeCodes(src []byte) *hugeCodes {
	c, unmap := bitset.MapHuge(uint64(len(src)))
	if c == nil {
		return nil
	}
	skew := uint64(uintptr(unsafe.Pointer(&c[0])) % hugePage)
	pages := (skew + uint64(len(c)) + hugePage - 1) / hugePage
	pool, unmapPool := bitset.MapHuge(pages * poolLines * lineSize)
	if pool == nil {
		unmap()
		return nil
	}
	return &hugeCodes{copy: c, src: src, unmap: unmap, skew: skew,
		filled: make([]atomic.Uint32, pages),
		lines:  make([]atomic.Pointer[pageLines], pages),
		pool:   pool, unmapPool: unmapPool}
}

// release gives the copy's memory and the pool's back.
func (h *hugeCodes) release() error {
	var err error
	if h.file != nil {
		err = h.file.Close()
	}
	return errors.Join(h.unmap(), h.unmapPool(), err)
}

// at returns where the codes' byte b is read: buf[off]. The bytes of a
// code of 2 or 4 bytes follow it there (a code never crosses a line).
// The copy holds it where its huge page is filled; elsewhere the pool does,
// once a lookup has copied its line there.
func (h *hugeCodes) at(b uint64) (buf []byte, off uint64) {
	v := h.skew + b
	j := v / hugePage
	if h.filled[j].Load() != 0 {
		return h.copy, b
	}
	lines := h.lines[j].Load()
	if lines == nil {
		if lines = h.table(j); lines == nil {
			return h.copy, b // filled meanwhile
		}
	}
	l := v % hugePage / lineSize
	slot := lines.slots[l].Load()
	if slot == 0 {
		if slot = h.copyLine(j, lines, l, v); slot == 0 {
			return h.copy, b
		}
	}
	return h.pool, uint64(slot-1)*lineSize + v%lineSize
}

// table returns huge page j's lines, made if it has none; nil if the page
// is filled.
func (h *hugeCodes) table(j uint64) *pageLines {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.filled[j].Load() != 0 {
		return nil
	}
	if t := h.lines[j].Load(); t != nil {
		return t
	}
	t := new(pageLines)
	h.lines[j].Store(t)
	return t
}

// copyLine copies line l of huge page j, where byte v-skew of the codes
// is, into the pool and returns its slot plus one, or another lookup's if
// that one copied it first; 0 where the page is filled instead (read all
// over, or the pool is full).
func (h *hugeCodes) copyLine(j uint64, lines *pageLines, l, v uint64) uint32 {
	slot := h.used.Add(1)
	if slot*lineSize > uint64(len(h.pool)) {
		h.fill(j)
		return 0
	}
	lo := v - v%lineSize - h.skew
	hi := min(lo+lineSize, uint64(len(h.src)))
	if h.stageLine(lines, h.pool[(slot-1)*lineSize:(slot-1)*lineSize+hi-lo], v) && slot%dropEvery == 0 {
		dropPages(h.src)
	}
	if !lines.slots[l].CompareAndSwap(0, uint32(slot)) {
		return lines.slots[l].Load()
	}
	if lines.add(l) {
		h.fill(j)
		return 0
	}
	return uint32(slot)
}

// add records the copy of line l of a huge page, and reports whether the
// page is now read all over.
func (r *pageLines) add(l uint64) bool {
	small, bit := l/(smallPage/lineSize), uint64(1)<<(l%(smallPage/lineSize))
	if old := r.places[small].Or(bit); bits.OnesCount64(old) == crowdedPlaces && old&bit == 0 {
		if r.crowded.Add(1) >= fillSmall {
			return true
		}
	}
	return r.copied.Add(1) >= fillLines
}

// stageLine copies into dst the line of the copy's byte v (the codes'
// v-skew) from its huge page's stage, reading the line's small page into
// the stage first unless it is the one there; it reports whether it read
// the mapping (read).
func (h *hugeCodes) stageLine(r *pageLines, dst []byte, v uint64) (mapped bool) {
	small := v / smallPage
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.staged != small+1 {
		lo := small*smallPage - h.skew // skew is a multiple of smallPage
		hi := min(lo+smallPage, uint64(len(h.src)))
		mapped = h.read(r.stage[:hi-lo], lo)
		r.staged = small + 1
	}
	copy(dst, r.stage[v%smallPage-v%lineSize:])
	return mapped
}

// read copies the codes from byte lo into dst: from the file, or where
// there is none (or its read fails) from the mapping, which holds the
// same bytes; it reports whether it read the mapping, whose pages the
// caller gives back.
func (h *hugeCodes) read(dst []byte, lo uint64) (mapped bool) {
	if h.file != nil {
		if _, err := h.file.ReadAt(dst, h.base+int64(lo)); err == nil {
			return false
		}
	}
	copy(dst, h.src[lo:])
	return true
}

// fill copies the codes of the copy's huge page j from the file, or from
// its mapping, whose pages it then gives back (a folio that the page's
// ends cut stays mapped).
func (h *hugeCodes) fill(j uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.filled[j].Load() != 0 {
		return
	}
	lo := max(j*hugePage, h.skew) - h.skew
	hi := min((j+1)*hugePage-h.skew, uint64(len(h.copy)))
	if h.read(h.copy[lo:hi], lo) {
		dropPages(h.src[lo:hi])
	}
	h.filled[j].Store(1)
	h.lines[j].Store(nil)
}

// code returns the code of entry i.
func (s *store) code(i uint64) uint64 {
	codes, off := s.codes, uint64(s.h.width)*i
	if s.huge != nil {
		codes, off = s.huge.at(off)
	}
	switch s.h.width {
	case 1:
		if c := codes[off]; c != overflowCode || s.overEntries == nil {
			return uint64(c)
		}
		k, _ := slices.BinarySearch(s.overEntries, i)
		return s.overCodes[k]
	case 2:
		return uint64(binary.LittleEndian.Uint16(codes[off:]))
	}
	return uint64(binary.LittleEndian.Uint32(codes[off:]))
}

// decodeRange stores the values and depths of entries [lo, hi) in vals
// and depths: the one-byte codes of the file's mapping in one loop, which
// the database writer reads every entry of a member's tiers through (a
// code a call took 9% of KBNvKP's database's CPU), others a code at a
// time.
func (s *store) decodeRange(lo, hi uint64, vals []engine.Value, depths []uint64) {
	if s.h.width != 1 || s.huge != nil {
		for i := lo; i < hi; i++ {
			vals[i-lo], depths[i-lo] = db.Decode(s.code(i))
		}
		return
	}
	for j, c := range s.codes[lo:hi] {
		if c == overflowCode && s.overEntries != nil {
			vals[j], depths[j] = db.Decode(s.code(lo + uint64(j)))
			continue
		}
		vals[j], depths[j] = byteValues[c], uint64(byteDepths[c])
	}
}

// byteValues and byteDepths are db.Decode of each one-byte code, looked
// up where a run of codes is decoded (a win and a loss alternate by code,
// a branch the processor mispredicts).
var byteValues, byteDepths = func() (v [256]engine.Value, d [256]uint8) {
	for c := range 256 {
		val, depth := db.Decode(uint64(c))
		v[c], d[c] = val, uint8(depth)
	}
	return v, d
}()

// Lookup returns the value and depth of entry i.
func (s *store) Lookup(i uint64) (engine.Value, uint64, error) {
	v, d := db.Decode(s.code(i))
	return v, d, nil
}

// Size returns the number of entries.
func (s *store) Size() uint64 { return s.h.entries }

func (s *store) close() error {
	var err error
	if s.huge != nil {
		err = s.huge.release()
		s.huge = nil
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
		// The checks read the file through a buffer, not the mapping, which
		// stays without pages until the solve reads it: touching it would
		// bring the whole file into the process's memory for a moment
		// (KRPvKR's solve over its finished tiers, four of 242 MB: 250 MB at
		// the peak that way, 56 MB this way, in the same time).
		type part struct {
			what     string
			from, to uint64
			want     uint32
		}
		parts := []part{{"codes'", headerSize, headerSize + uint64(len(s.codes)), h.codesCRC}}
		if h.symmetric {
			parts = append(parts, part{"class bits'", h.codesEnd(), h.basicSize(), h.bitsCRC})
		}
		if h.overflow > 0 {
			parts = append(parts, part{"overflow's", h.overflowStart(), uint64(len(data)), h.overflowCRC})
		}
		f, err := os.Open(path)
		if err != nil {
			return fail("%v", err)
		}
		defer f.Close()
		buf := make([]byte, min(1<<20, len(data))) // a MiB, or the whole of a small file
		for _, pt := range parts {
			crc, err := fileChecksum(f, buf, pt.from, pt.to)
			if err != nil {
				return fail("%v", err)
			}
			if crc != pt.want {
				return fail("its %s checksum is wrong", pt.what)
			}
		}
	}
	return s, nil
}

// fileChecksum returns the checksum of bytes [from, to) of f, read a
// buffer at a time.
func fileChecksum(f *os.File, buf []byte, from, to uint64) (uint32, error) {
	var crc uint32
	for at := from; at < to; {
		n, err := f.ReadAt(buf[:min(uint64(len(buf)), to-at)], int64(at))
		crc = crc32.Update(crc, castagnoli, buf[:n])
		at += uint64(n)
		if err != nil && at < to {
			return 0, err
		}
	}
	return crc, nil
}

// writeStore writes tier k's result r (and, for a symmetric game, its
// classes) to path, atomically. The codes are encoded and written a chunk at
// a time, so that writing takes little memory beside the result.
func writeStore(ctx context.Context, path string, h storeHeader, r *engine.Result, classes implicit.ClassSet, workers int) error {
	n := r.Size()
	over, err := countOverflow(ctx, r, 0, n, workers)
	if err != nil {
		return err
	}
	c, err := newCoder(r, r.MaxDepth(), n, over, workers)
	if err != nil {
		return err
	}
	f, err := tempfile.Create(path)
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after the rename, there is nothing to remove
	defer f.Close()
	crc := uint32(0)
	err = c.encode(ctx, 0, n, func(lo uint64, codes []byte) error {
		crc = crc32.Update(crc, castagnoli, codes)
		_, err := f.WriteAt(codes, headerSize+int64(lo)*int64(c.width))
		return err
	})
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	h.entries, h.maxDepth, h.edges, h.codesCRC = n, r.MaxDepth(), r.Edges(), crc
	for v := range h.counts {
		h.counts[v] = r.Count(engine.Value(v))
	}
	return finishStore(f, path, h, c, classes)
}

// countOverflow counts the entries [lo, hi) of r whose one-byte code would
// be overflowCode or more: the wins and losses deeper than about 126.
func countOverflow(ctx context.Context, r entryValues, lo, hi uint64, workers int) (uint64, error) {
	var over atomic.Uint64
	err := readChunks(ctx, r, lo, hi, workers, func(vals []engine.Value, depths []uint64) {
		k := uint64(0)
		for i, v := range vals {
			if (v == engine.Win || v == engine.Loss) && db.Code(v, depths[i]) >= overflowCode {
				k++
			}
		}
		over.Add(k)
	})
	return over.Load(), err
}

// entryValues is what a tier's file is written from: the values and depths
// of its entries, read in runs (engine.Result, or a rank's own range of an
// engine.DistResult). Runs may be read at once on several goroutines.
type entryValues interface {
	LookupRange(lo, hi uint64, vals []engine.Value, depths []uint64) error
}

// readChunks reads the entries [lo, hi) of r on the given number of
// workers, a piece of at most codeChunk at a time, and calls each with
// every piece: a worker's slices, reused for its next.
func readChunks(ctx context.Context, r entryValues, lo, hi uint64, workers int, each func(vals []engine.Value, depths []uint64)) error {
	type scratch struct {
		vals   []engine.Value
		depths []uint64
	}
	workers = parallel.Workers(workers)
	bufs := make([]scratch, workers)
	return parallel.For(ctx, workers, hi-lo, parallel.ChunkFor(hi-lo, workers, 1<<12), func(w int, a, b uint64) error {
		for ; a < b; a = min(a+codeChunk, b) {
			m := min(b-a, codeChunk)
			sc := &bufs[w]
			if uint64(len(sc.vals)) < m {
				sc.vals, sc.depths = make([]engine.Value, m), make([]uint64, m)
			}
			if err := r.LookupRange(lo+a, lo+a+m, sc.vals[:m], sc.depths[:m]); err != nil {
				return err
			}
			each(sc.vals[:m], sc.depths[:m])
		}
		return nil
	})
}

// codeChunk is the number of entries encoded at a time.
const codeChunk = 1 << 20

// coder encodes a tier's entries into the codes of its file: their width,
// whether the one-byte codes overflow, and the overflow's entries found.
type coder struct {
	r           entryValues
	width       int
	overflowing bool
	workers     int
	overEntries []uint64 // the entries of code overflowCode or more, in order, with their codes
	overCodes   []uint64
}

// newCoder returns the coder of a tier of n entries whose deepest win or
// loss is maxDepth and over of whose entries have a one-byte code of
// overflowCode or more: it keeps one byte an entry, with an overflow, where
// that takes less room than wider codes.
func newCoder(r entryValues, maxDepth, n, over uint64, workers int) (*coder, error) {
	width, err := db.CodeWidth(maxDepth)
	if err != nil {
		return nil, err
	}
	c := &coder{r: r, width: width, workers: workers}
	if width > 1 && over <= n/overflowShare {
		c.width, c.overflowing = 1, true
	}
	return c, nil
}

// encode encodes the entries [lo, hi) a chunk at a time, in order, and
// calls write with each chunk's first entry and codes.
func (c *coder) encode(ctx context.Context, lo, hi uint64, write func(first uint64, codes []byte) error) error {
	w := uint64(c.width)
	buf := make([]byte, min(hi-lo, codeChunk)*w)
	// Each worker's values and depths of a run, kept from run to run: made
	// anew for each, they were 94% of a chess solve's garbage (2.2 GB of
	// KBNvKN's), a collection every 50 ms.
	type run struct {
		vals   []engine.Value
		depths []uint64
	}
	runs := make([]run, parallel.Workers(c.workers))
	for first := lo; first < hi; first += codeChunk {
		end := min(first+codeChunk, hi)
		codes := buf[:(end-first)*w]
		err := parallel.For(ctx, c.workers, end-first, parallel.ChunkFor(end-first, c.workers, 1<<12), func(worker int, a, b uint64) error {
			r := &runs[worker]
			if uint64(len(r.vals)) < b-a {
				r.vals, r.depths = make([]engine.Value, b-a), make([]uint64, b-a)
			}
			vals, depths := r.vals[:b-a], r.depths[:b-a]
			if err := c.r.LookupRange(first+a, first+b, vals, depths); err != nil {
				return err
			}
			for i := range vals {
				code := db.Code(vals[i], depths[i])
				if c.overflowing {
					code = min(code, overflowCode)
				}
				for k := range w {
					codes[(a+uint64(i))*w+k] = byte(code >> (8 * k))
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if c.overflowing {
			for i, b := range codes {
				if b == overflowCode {
					e := first + uint64(i)
					var v [1]engine.Value
					var d [1]uint64
					if err := c.r.LookupRange(e, e+1, v[:], d[:]); err != nil {
						return err
					}
					c.overEntries = append(c.overEntries, e)
					c.overCodes = append(c.overCodes, db.Code(v[0], d[0]))
				}
			}
		}
		if err := write(first, codes); err != nil {
			return err
		}
	}
	return nil
}

// finishStore completes a tier's file f, whose codes are written (h has
// their checksum, and the tier's counts): the class bits of a symmetric
// tier, the overflow c found, and the header; then it syncs f and renames
// it to path.
func finishStore(f *os.File, path string, h storeHeader, c *coder, classes implicit.ClassSet) error {
	h.width = uint32(c.width)
	if h.symmetric {
		bitBytes := append(bytesOf(classes.Bits), bytesOfUint32s(classes.Counts)...)
		h.bitsCRC = checksum(bitBytes)
		if _, err := f.WriteAt(bitBytes, int64(h.codesEnd())); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if h.overflow = uint64(len(c.overEntries)); h.overflow > 0 {
		over := append(bytesOf(c.overEntries), bytesOf(c.overCodes)...)
		h.overflowCRC = checksum(over)
		if _, err := f.WriteAt(over, int64(h.overflowStart())); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if _, err := f.WriteAt(h.encode(), 0); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// The codes and bits end the file unless an overflow does; the pads
	// between them are holes, which read as zeros.
	if err := f.Truncate(int64(h.fileSize())); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	f.Chmod(0o644) // CreateTemp's 0600 would hide the tiers from the folder's other readers
	if err := f.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
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
