package db

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/bits"
	"os"
	"sync"

	"github.com/klauspost/compress/zstd"
	"golang.org/x/sync/errgroup"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/parallel"
)

// File is an open database. Its tables read blocks on demand; nothing but
// the header and the block tables is read at Open. It is safe for
// concurrent use.
type File struct {
	Header
	path   string
	f      io.ReaderAt
	closer io.Closer // closes f, if Open opened it
	size   uint64    // bytes of the file
	dec    *zstd.Decoder
	tables []*Table
}

// Open opens the database at path and checks its footer, its header and
// its block tables; blocks are checked as they are read.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: is a folder, not a database", path)
	}
	db, err := OpenReaderAt(f, st.Size(), path)
	if err != nil {
		f.Close()
		return nil, err
	}
	db.closer = f
	return db, nil
}

// OpenReaderAt reads a database of size bytes from r, as Open does; name
// names it in errors. Close does not close r.
func OpenReaderAt(r io.ReaderAt, size int64, name string) (*File, error) {
	db, err := open(r, uint64(max(size, 0)), name)
	if err != nil {
		if db != nil && db.dec != nil {
			db.dec.Close()
		}
		return nil, err
	}
	return db, nil
}

// damaged returns the error for a file whose part is wrong.
func damaged(path, part, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %s (the file is damaged or not a retro database)", path, part, fmt.Sprintf(format, args...))
}

func open(f io.ReaderAt, size uint64, path string) (*File, error) {
	db := &File{path: path, f: f, size: size}
	if db.size < uint64(len(magic)+footerSize) {
		return nil, damaged(path, "file", "%d bytes, too short", db.size)
	}
	head := make([]byte, len(magic))
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if string(head) != magic {
		return nil, damaged(path, "file", "no retro database magic at the start")
	}
	foot := make([]byte, footerSize)
	if _, err := f.ReadAt(foot, int64(db.size)-int64(footerSize)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if string(foot[16:]) != magic {
		return nil, damaged(path, "footer", "no magic at the end (truncated, or bytes appended)")
	}
	hoff := binary.LittleEndian.Uint64(foot)
	hlen := uint64(binary.LittleEndian.Uint32(foot[8:]))
	hcrc := binary.LittleEndian.Uint32(foot[12:])
	end := db.size - uint64(footerSize)
	if hlen > maxHeader || hoff < uint64(len(magic)) || hoff > end || end-hoff != hlen {
		return nil, damaged(path, "footer", "the header's place (%d, %d bytes) is outside the file", hoff, hlen)
	}
	header := make([]byte, hlen)
	if _, err := f.ReadAt(header, int64(hoff)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if checksum(header) != hcrc {
		return nil, damaged(path, "header", "checksum mismatch")
	}
	// The format first: a later one may hold fields this retro does not
	// know, and is refused as such, not as damaged.
	var version struct {
		Format int `json:"format"`
	}
	if err := json.Unmarshal(header, &version); err != nil {
		return nil, damaged(path, "header", "%v", err)
	}
	if version.Format < FormatVersion || version.Format > formatLosses {
		return nil, fmt.Errorf("%s: database format %d; this retro reads formats %d to %d", path, version.Format, FormatVersion, formatLosses)
	}
	dec := json.NewDecoder(bytes.NewReader(header))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&db.Header); err != nil {
		return nil, damaged(path, "header", "%v", err)
	}
	maxRaw, err := db.checkHeader(hoff)
	if err != nil {
		return nil, err
	}
	db.dec, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecodeAllCapLimit(true),
		zstd.WithDecoderMaxMemory(max(maxRaw, 1<<20)))
	if err != nil {
		return nil, err
	}
	for k := range db.Sections {
		t, err := db.openTable(k, hoff)
		if err != nil {
			return db, err // for its decoder to be closed
		}
		db.tables = append(db.tables, t)
	}
	return db, nil
}

// checkHeader checks that the header's numbers agree with each other and
// with the file, and returns the largest decompressed part.
func (db *File) checkHeader(hoff uint64) (uint64, error) {
	in := func(e *Extent) bool {
		return e.Offset >= uint64(len(magic)) && e.Offset <= hoff && e.Length <= hoff-e.Offset
	}
	var maxRaw uint64
	if e := db.Header.Input; e != nil {
		if !in(e) {
			return 0, damaged(db.path, "header", "the input lies outside the file")
		}
		maxRaw = e.Raw
	}
	if len(db.Sections) == 0 {
		return 0, damaged(db.path, "header", "no sections")
	}
	for k := range db.Sections {
		s := &db.Sections[k]
		part := fmt.Sprintf("header, %s", db.sectionName(k))
		switch {
		case s.Width != 1 && s.Width != 2 && s.Width != 4:
			return 0, damaged(db.path, part, "code width %d", s.Width)
		case s.BlockSize == 0 || s.BlockSize%dirGroup != 0 || s.BlockSize > 1<<26:
			return 0, damaged(db.path, part, "block size %d", s.BlockSize)
		case s.Size > 1<<48 || s.Size == 0:
			return 0, damaged(db.path, part, "size %d", s.Size)
		case s.Blocks.Length != s.NumBlocks()*entrySize || !in(&s.Blocks):
			return 0, damaged(db.path, part, "the block table does not fit the size")
		case s.Reachable && s.Start == nil:
			return 0, damaged(db.path, part, "solved from a start it does not give")
		case s.Start != nil && *s.Start >= s.Size:
			return 0, damaged(db.path, part, "start %d out of range", *s.Start)
		case s.Counts[0]+s.Counts[1]+s.Counts[2]+s.Counts[3] != s.Size:
			return 0, damaged(db.path, part, "the counts do not add up to the size")
		}
		if s.Depths != nil && !s.Depths.fits(s.Counts, s.MaxDepth) {
			return 0, damaged(db.path, part, "the depth histogram does not fit the counts")
		}
		if !s.Coding.known() || (s.Coding != AllDepths && db.Format < formatLossDepths) || (s.Coding == Losses && db.Format < formatLosses) {
			return 0, damaged(db.path, part, "coding %q in a file of format %d", s.Coding, db.Format)
		}
		if s.Filled && (db.Format < formatFilled || s.Reachable || s.Directory != nil || s.Depths == nil) {
			return 0, damaged(db.path, part, "illegal indices filled in a file of format %d, reachable %v, with a directory %v, with a depth histogram %v",
				db.Format, s.Reachable, s.Directory != nil, s.Depths != nil)
		}
		if w, err := s.Coding.Width(s.MaxDepth); err != nil || w > s.Width {
			return 0, damaged(db.path, part, "max depth %d does not fit %d-byte codes", s.MaxDepth, s.Width)
		}
		if d := s.Directory; d != nil {
			if s.IndexSize < s.Size || s.IndexSize > 1<<48 || !in(d) || d.Raw != 2*((s.IndexSize+dirGroup-1)/dirGroup) {
				return 0, damaged(db.path, part, "the symmetry directory does not fit the index")
			}
			maxRaw = max(maxRaw, d.Raw)
		} else if s.IndexSize != s.Size {
			return 0, damaged(db.path, part, "index size %d differs from size %d", s.IndexSize, s.Size)
		}
		maxRaw = max(maxRaw, s.BlockSize*uint64(s.Width))
	}
	return maxRaw, nil
}

// sectionName names section k in errors: "section 2 (board 2)", or
// nothing special when there is one section.
func (db *File) sectionName(k int) string {
	if len(db.Sections) == 1 {
		return "values"
	}
	if l := db.Sections[k].Label; l != "" {
		return fmt.Sprintf("section %d (%s)", k+1, l)
	}
	return fmt.Sprintf("section %d", k+1)
}

// Path returns the file's name as Open was given it.
func (db *File) Path() string { return db.path }

// FileSize returns the bytes of the file.
func (db *File) FileSize() uint64 { return db.size }

// Table returns the values of section k.
func (db *File) Table(k int) *Table { return db.tables[k] }

// Close closes the file.
func (db *File) Close() error {
	db.dec.Close()
	if db.closer != nil {
		return db.closer.Close()
	}
	return nil
}

// readPart reads and checks extent e, and decompresses it if it is
// compressed.
func (db *File) readPart(e *Extent, part string) ([]byte, error) {
	b := make([]byte, e.Length)
	if _, err := db.f.ReadAt(b, int64(e.Offset)); err != nil {
		if err == io.EOF {
			return nil, damaged(db.path, part, "truncated")
		}
		return nil, fmt.Errorf("%s: %s: %w", db.path, part, err)
	}
	if checksum(b) != e.CRC {
		return nil, damaged(db.path, part, "checksum mismatch")
	}
	if e.Raw == 0 {
		return b, nil
	}
	return db.decompress(b, nil, e.Raw, part)
}

// decompress returns z decompressed, which must be exactly raw bytes, in
// buf's memory if it is large enough.
func (db *File) decompress(z, buf []byte, raw uint64, part string) ([]byte, error) {
	if uint64(cap(buf)) < raw {
		buf = make([]byte, 0, raw)
	}
	out, err := db.dec.DecodeAll(z, buf[:0])
	if err != nil {
		return nil, damaged(db.path, part, "%v", err)
	}
	if uint64(len(out)) != raw {
		return nil, damaged(db.path, part, "%d bytes once decompressed, want %d", len(out), raw)
	}
	return out, nil
}

// Input returns the input text the game was solved from (nil for a game
// without one).
func (db *File) Input() ([]byte, error) {
	if db.Header.Input == nil {
		return nil, nil
	}
	return db.readPart(db.Header.Input, "input")
}

// Table is the values of one section, read a block at a time: it
// implements engine.Values. Recently read blocks are kept, a few at a time
// (all of them after Load).
type Table struct {
	*Section
	db      *File
	name    string // for errors: "values" or "section 2 (board 2)"
	entries []blockEntry

	mu    sync.Mutex
	cache map[uint64]*cachedBlock
	// clock counts the lookups through the cache, and each cached block
	// keeps the count of the last that read it: the block read the
	// longest ago is the one dropped for the next (dropLeastUsed).
	clock      uint64
	spare      [][]byte // the memory of blocks dropped from cache, for the next ones
	cacheLimit uint64   // the bytes of blocks cache may hold (at least 4 blocks)
	all        [][]byte // every block, after Load
	// shift is log2 of BlockSize where that is a power of two (as
	// DefaultBlockSize is), 0 otherwise: a lookup's block is then a shift
	// away instead of a division.
	shift uint
}

// cachedBlock is a block kept in a Table's cache, and when a lookup last
// read it (Table.clock).
type cachedBlock struct {
	data []byte
	used uint64
}

type blockEntry struct {
	offset uint64
	length uint32
	crc    uint32
}

// DefaultCacheBytes bounds the decompressed blocks a Table keeps unless
// SetCacheBytes says otherwise: a server's queries over a whole small
// database, or the blocks a game in progress visits in a large one, are
// answered from memory.
const DefaultCacheBytes = 64 << 20

// MinCacheBlocks is the fewest blocks a Table's cache holds, whatever its
// bytes.
const MinCacheBlocks = 4

var _ engine.Values = (*Table)(nil)

func (db *File) openTable(k int, hoff uint64) (*Table, error) {
	s := &db.Sections[k]
	t := &Table{Section: s, db: db, name: db.sectionName(k), cache: map[uint64]*cachedBlock{}, cacheLimit: DefaultCacheBytes}
	if s.BlockSize&(s.BlockSize-1) == 0 { // BlockSize > 0: checkHeader
		t.shift = uint(bits.TrailingZeros64(s.BlockSize))
	}
	raw, err := db.readPart(&s.Blocks, t.name+", block table")
	if err != nil {
		return nil, err
	}
	t.entries = make([]blockEntry, s.NumBlocks())
	var stored uint64
	for b := range t.entries {
		e := blockEntry{binary.LittleEndian.Uint64(raw[b*entrySize:]), binary.LittleEndian.Uint32(raw[b*entrySize+8:]),
			binary.LittleEndian.Uint32(raw[b*entrySize+12:])}
		if e.offset < uint64(len(magic)) || e.offset > hoff || uint64(e.length) > hoff-e.offset {
			return nil, damaged(db.path, fmt.Sprintf("%s, block table", t.name), "block %d lies outside the file", b)
		}
		stored += uint64(e.length)
		t.entries[b] = e
	}
	if stored != s.Stored {
		return nil, damaged(db.path, fmt.Sprintf("%s, block table", t.name), "the blocks add up to %d bytes, the header says %d", stored, s.Stored)
	}
	return t, nil
}

// Size returns the number of indices.
func (t *Table) Size() uint64 { return t.Section.Size }

// SetCacheBytes bounds the decompressed blocks t keeps to n bytes (but
// MinCacheBlocks blocks at least); call it before the first lookup.
func (t *Table) SetCacheBytes(n uint64) { t.cacheLimit = n }

// BlockBytes returns the bytes of one decompressed block.
func (t *Table) BlockBytes() uint64 { return t.BlockSize * uint64(t.Width) }

// LoadBytes returns the memory Load takes: every block, decompressed.
func (t *Table) LoadBytes() uint64 { return t.Section.Size * uint64(t.Width) }

// blockLen returns the number of indices of block b.
func (t *Table) blockLen(b uint64) uint64 {
	return min(t.BlockSize, t.Section.Size-b*t.BlockSize)
}

// ReadBlock reads, checks and decompresses block b: its codes as byte
// planes.
func (t *Table) ReadBlock(b uint64) ([]byte, error) { return t.readBlockInto(b, nil) }

// readBlockInto is ReadBlock decompressing into buf's memory where it is
// large enough.
func (t *Table) readBlockInto(b uint64, buf []byte) ([]byte, error) {
	if b >= uint64(len(t.entries)) {
		return nil, fmt.Errorf("%s: %s: no block %d", t.db.path, t.name, b)
	}
	e := t.entries[b]
	part := fmt.Sprintf("%s, block %d of %d", t.name, b, len(t.entries))
	if len(t.entries) == 1 && t.name == "values" {
		part = "block 0"
	}
	z := make([]byte, e.length)
	if _, err := t.db.f.ReadAt(z, int64(e.offset)); err != nil {
		return nil, damaged(t.db.path, part, "%v", err)
	}
	if checksum(z) != e.crc {
		return nil, damaged(t.db.path, part, "checksum mismatch")
	}
	out, err := t.db.decompress(z, buf, t.blockLen(b)*uint64(t.Width), part)
	if err != nil {
		return nil, err
	}
	// Codes beyond the header's maximum depth mean a damaged block, even
	// one whose checksum matched.
	if max := t.Coding.MaxCode(t.MaxDepth); max < 1<<(8*t.Width)-1 {
		n := t.blockLen(b)
		for i := range n {
			if codeAt(out, n, i, t.Width) > max {
				return nil, damaged(t.db.path, part, "index %d holds code %d, beyond max depth %d",
					b*t.BlockSize+i, codeAt(out, n, i, t.Width), t.MaxDepth)
			}
		}
	}
	return out, nil
}

// codeAt returns code i of a block of n codes stored as width byte planes.
func codeAt(planes []byte, n, i uint64, width int) uint64 {
	c := uint64(planes[i])
	for p := 1; p < width; p++ {
		c |= uint64(planes[uint64(p)*n+i]) << (8 * p)
	}
	return c
}

// code returns the code of index i of block b, from memory if the block
// was read recently. A cached block is read under the lock, never handed
// out, so that the memory of a block dropped from the cache is the next
// one's: reading a large file through a small cache leaves no garbage.
func (t *Table) code(b, i uint64) (uint64, error) {
	if t.all != nil && t.all[b] != nil {
		if t.Width == 1 {
			return uint64(t.all[b][i]), nil
		}
		return codeAt(t.all[b], t.blockLen(b), i, t.Width), nil
	}
	n := t.blockLen(b)
	t.mu.Lock()
	t.clock++
	kept, ok := t.cache[b]
	var spare []byte
	if !ok && len(t.spare) > 0 {
		spare, t.spare = t.spare[len(t.spare)-1], t.spare[:len(t.spare)-1]
	}
	if ok {
		kept.used = t.clock
		c := codeAt(kept.data, n, i, t.Width)
		t.mu.Unlock()
		return c, nil
	}
	t.mu.Unlock()
	data, err := t.readBlockInto(b, spare)
	if err != nil {
		return 0, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	c := codeAt(data, n, i, t.Width)
	if _, ok := t.cache[b]; ok {
		// Read at the same time by another lookup: keep the memory.
		t.spare = append(t.spare, data)
		return c, nil
	}
	if uint64(len(t.cache)) >= max(MinCacheBlocks, t.cacheLimit/t.BlockBytes()) {
		kept = t.dropLeastUsed() // a full cache's entries are reused, as its blocks' memory is
	} else {
		kept = new(cachedBlock)
	}
	kept.data, kept.used = data, t.clock
	t.cache[b] = kept
	return c, nil
}

// dropLeastUsed drops from the cache the block that lookups read the
// longest ago, its memory kept for the next, and returns its entry for the
// next to take. The blocks that the moves of
// nearby positions keep reading stay while others come and go, where the
// block read first would go first whatever its use: `retro verify` of
// KBvKP with -max-memory 60M (7 files through caches of about 4 blocks)
// read 77,238 blocks in 51 s against 96,613 in 62 s. A miss costs a
// block's decompression, beside which the scan of the few hundred blocks
// at most that a cache holds costs little.
func (t *Table) dropLeastUsed() *cachedBlock {
	var oldest uint64
	var at *cachedBlock
	for b, kept := range t.cache {
		if at == nil || kept.used < at.used {
			oldest, at = b, kept
		}
	}
	t.spare = append(t.spare, at.data)
	delete(t.cache, oldest)
	return at
}

// Lookup returns the value and depth of index i, or why they cannot be read
// (an index out of range, a damaged block). Where the section is Filled, an
// illegal index reads as a legal position before it: the game's rules say
// which indices are illegal.
func (t *Table) Lookup(i uint64) (engine.Value, uint64, error) {
	if i >= t.Section.Size {
		return 0, 0, fmt.Errorf("index %d is out of range: the database has %d", i, t.Section.Size)
	}
	b := i >> t.shift
	if t.shift == 0 {
		b = i / t.BlockSize
	}
	c, err := t.code(b, i-b*t.BlockSize)
	if err != nil {
		return 0, 0, err
	}
	v, d := t.Coding.Decode(c)
	return v, d, nil
}

// LookupRange stores the values and depths of indices [lo, hi) in vals and
// depths, a block at a time (see scanBlock).
func (t *Table) LookupRange(lo, hi uint64, vals []engine.Value, depths []uint64) error {
	if hi > t.Section.Size || lo > hi {
		return fmt.Errorf("indices %d to %d are out of range: the database has %d", lo, hi, t.Section.Size)
	}
	for at := lo; at < hi; {
		b := at / t.BlockSize
		data, err := t.scanBlock(b)
		if err != nil {
			return err
		}
		n, first := t.blockLen(b), b*t.BlockSize
		end := min(hi, first+n)
		for i := at; i < end; i++ {
			vals[i-lo], depths[i-lo] = t.Coding.Decode(codeAt(data, n, i-first, t.Width))
		}
		at = end
	}
	return nil
}

// scanBlock returns block b for a pass over many blocks: from memory where
// Load or Keep holds it, otherwise read past the cache, which a scan would
// churn.
func (t *Table) scanBlock(b uint64) ([]byte, error) {
	if t.all != nil && t.all[b] != nil {
		return t.all[b], nil
	}
	return t.ReadBlock(b)
}

// ReadsRuns reports that LookupRange is the faster way to read a run of
// indices (engine.RangeValues).
func (t *Table) ReadsRuns() bool { return true }

// FillsIllegal reports whether t's illegal indices read as legal positions
// (Section.Filled): a check of the values takes illegality from the rules.
func (t *Table) FillsIllegal() bool { return t.Filled }

// Load reads, checks and decompresses every block on all workers (0:
// GOMAXPROCS) and keeps them in memory, for a pass over the whole table.
func (t *Table) Load(ctx context.Context, workers int) error {
	all := make([][]byte, len(t.entries))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(parallel.Workers(workers))
	for b := range all {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			data, err := t.ReadBlock(uint64(b))
			all[b] = data
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	t.all = all
	return nil
}

// Keep holds in memory the blocks of the indices in ranges ([lo, hi)
// each), read on all workers (0: GOMAXPROCS) where they are not held yet,
// and lets go of the others that Keep or Load held: a pass over part of a
// table too large to Load (a tier of a tiered game and its children), whose
// lookups elsewhere go through the cache. The memory of a block let go is
// the next one's. It must not run at the same time as a lookup.
func (t *Table) Keep(ctx context.Context, workers int, ranges [][2]uint64) error {
	want := t.blocksOf(ranges)
	if t.all == nil {
		t.all = make([][]byte, len(t.entries))
	}
	var free [][]byte
	for b, data := range t.all {
		if data != nil && !want[b] {
			free = append(free, data)
			t.all[b] = nil
		}
	}
	var mu sync.Mutex // guards free
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(parallel.Workers(workers))
	for b, w := range want {
		if !w || t.all[b] != nil {
			continue
		}
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			var buf []byte
			mu.Lock()
			if len(free) > 0 {
				buf, free = free[len(free)-1], free[:len(free)-1]
			}
			mu.Unlock()
			data, err := t.readBlockInto(uint64(b), buf)
			t.all[b] = data
			return err
		})
	}
	return g.Wait()
}

// KeptBytes returns the memory Keep takes for the blocks of ranges.
func (t *Table) KeptBytes(ranges [][2]uint64) uint64 {
	var n uint64
	for _, w := range t.blocksOf(ranges) {
		if w {
			n += t.BlockBytes()
		}
	}
	return n
}

// blocksOf says, by block, whether it holds indices of ranges.
func (t *Table) blocksOf(ranges [][2]uint64) []bool {
	want := make([]bool, len(t.entries))
	for _, r := range ranges {
		if r[1] = min(r[1], t.Section.Size); r[0] >= r[1] {
			continue
		}
		for b := r[0] / t.BlockSize; b <= (r[1]-1)/t.BlockSize; b++ {
			want[b] = true
		}
	}
	return want
}

// CountDepths reads every block on all workers (0: GOMAXPROCS) and counts
// the wins and losses by depth, as the header of a file written today
// holds them (Section.Depths); the blocks are not kept unless Load kept
// them already. Where the coding leaves out the depths of wins
// (LossDepths, Losses), it counts the losses only.
func (t *Table) CountDepths(ctx context.Context, workers int) (*Depths, error) {
	if t.Filled {
		// Its illegal indices read as legal positions; its header has them.
		return nil, fmt.Errorf("%s: %s: counting the depths of a file whose illegal indices are filled", t.db.path, t.name)
	}
	workers = parallel.Workers(workers)
	hs := make([]*Depths, workers)
	nb := uint64(len(t.entries))
	err := parallel.For(ctx, workers, nb, 1, func(w int, lo, hi uint64) error {
		if hs[w] == nil {
			hs[w] = NewDepths(t.MaxDepth)
		}
		for b := lo; b < hi; b++ {
			data, err := t.scanBlock(b)
			if err != nil {
				return err
			}
			n := t.blockLen(b)
			for i := range n {
				v, d := t.Coding.Decode(codeAt(data, n, i, t.Width))
				if d != engine.NoDepth {
					hs[w].Add(v, d, 1)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	h := NewDepths(t.MaxDepth)
	for _, o := range hs {
		if o != nil {
			h.Merge(o)
		}
	}
	return h, nil
}

// Directory reads the running counts of a symmetric game's classes, one
// per 512 indices of the game's own index and the total, as
// implicit.Compact.Counts returns them; nil if the game was not solved over
// classes.
func (t *Table) Directory() ([]uint32, error) {
	e := t.Section.Directory
	if e == nil {
		return nil, nil
	}
	part := t.name + ", symmetry directory"
	raw, err := t.db.readPart(e, part)
	if err != nil {
		return nil, err
	}
	n := len(raw) / 2
	counts := make([]uint32, n+1)
	for i := range n {
		d := uint32(raw[i]) | uint32(raw[n+i])<<8
		if d > dirGroup {
			return nil, damaged(t.db.path, part, "group %d holds %d classes", i, d)
		}
		counts[i+1] = counts[i] + d
	}
	if uint64(counts[n]) != t.Section.Size {
		return nil, damaged(t.db.path, part, "%d classes, the header says %d", counts[n], t.Section.Size)
	}
	return counts, nil
}
