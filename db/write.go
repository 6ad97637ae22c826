package db

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/internal/tempfile"
	"github.com/retro-solver/retro/parallel"
)

// Source is one instance's values as Writer.Add takes them.
type Source struct {
	Label  string
	Values engine.Values
	// MaxDepth bounds the depths of Values (engine.Result.MaxDepth); it
	// sets the width of the codes.
	MaxDepth uint64
	// Start is the start position's index in Values, for games with one.
	Start *uint64
	// Directory is implicit.Compact.Counts of a symmetric game solved over
	// its classes, nil otherwise; IndexSize is then the game's own size.
	Directory []uint32
	IndexSize uint64
	// Reachable says that only the positions reachable from Start were
	// solved: the others are stored as illegal.
	Reachable bool
	// FirstTier says that Values are the game's first tier only (see
	// Section.FirstTier).
	FirstTier bool
	// WinDepths counts the wins by depth (as Depths.Win, for MaxDepth)
	// where Values leave their depths out (engine.NoDepth: a LossDepths
	// file's, rewritten); nil where Values give them. Values tell wins
	// from draws.
	WinDepths []uint64
}

// Options tune a Writer. The zero value is valid.
type Options struct {
	// BlockSize is the number of indices per block of 1-byte codes
	// (DefaultBlockSize if 0); blocks of 2- and 4-byte codes hold a half
	// and a quarter as many.
	BlockSize uint64
	// Workers compress blocks at once (GOMAXPROCS if 0).
	Workers int
	// Coding is what the codes store (AllDepths if empty).
	Coding Coding
	// Level is zstd's level; if 0, zstd.SpeedBetterCompression, or
	// SpeedBestCompression for LossDepths and Losses codes (a file made to be small:
	// the C library's level 15 where cgo is built, a fifth smaller than
	// klauspost's best at four times its time; see bestLevel).
	Level zstd.EncoderLevel
	// GameVersion is the version of the game's index, for the header.
	GameVersion int
	// Fill stores each illegal index as the code before it in its block
	// (Section.Filled), for a game whose readers know the illegal indices
	// by its rules. A section of a solve from a start (Source.Reachable)
	// keeps its unreached positions as illegal: it is not filled.
	Fill bool
}

// Writer writes a database under a temporary name beside its final one,
// which Close renames it to once it is complete and synced: a crash leaves
// the old file, or none, under the final name.
type Writer struct {
	path, tmp string
	f         *os.File
	off       uint64
	h         Header
	o         Options
	closed    bool // the file is closed
	done      bool // Close succeeded: Abort has nothing to undo
}

// Create starts a database for the game called game with its own flags
// args and its input text (nil for a game without one).
func Create(path, game string, args []string, input []byte, o Options) (*Writer, error) {
	o, err := o.normalized()
	if err != nil {
		return nil, err
	}
	f, err := tempfile.Create(path) // what a killed writer of path left goes first
	if err != nil {
		return nil, fmt.Errorf("db: creating %s: %w", path, err)
	}
	w := &Writer{path: path, tmp: f.Name(), f: f, o: o,
		h: Header{Format: FormatVersion, Game: game, Args: args, GameVersion: o.GameVersion}}
	if err := w.write([]byte(magic)); err != nil {
		w.Abort()
		return nil, err
	}
	if input != nil {
		e, err := w.writeCompressed(nil, input)
		if err != nil {
			w.Abort()
			return nil, err
		}
		w.h.Input = &e
	}
	return w, nil
}

// normalized returns o with its defaults filled in, or why it is wrong.
func (o Options) normalized() (Options, error) {
	if o.BlockSize == 0 {
		o.BlockSize = DefaultBlockSize
	}
	if o.BlockSize%dirGroup != 0 || o.BlockSize > 1<<26 {
		return o, fmt.Errorf("db: block size %d: want a multiple of %d up to %d", o.BlockSize, dirGroup, 1<<26)
	}
	o.Workers = parallel.Workers(o.Workers)
	if !o.Coding.known() {
		return o, fmt.Errorf("db: unknown coding %q", o.Coding)
	}
	if o.Level == 0 {
		o.Level = zstd.SpeedBetterCompression
		if o.Coding.FromMoves() {
			o.Level = zstd.SpeedBestCompression
		}
	}
	return o, nil
}

// EncoderBytes returns about the memory one compressor of a writer under
// options o takes: zstd's match tables and history at o's level, which a
// level fixes (TestEncoderBytes measures them). A Writer's Add and
// WritePart hold Workers of them while they code. The default level of
// LossDepths, the best, is the C library's where cgo is built (a context
// per block coded at once, kept for the next: cContexts), klauspost's
// otherwise, five times the other levels'.
func EncoderBytes(o Options) uint64 {
	o, _ = o.normalized() // only the level matters, and it is always set
	switch o.Level {
	case zstd.SpeedFastest:
		return 3 << 20
	case zstd.SpeedDefault:
		return 4 << 20
	case zstd.SpeedBetterCompression:
		return 5 << 20
	}
	if cgoEncoder {
		return 4 << 20
	}
	return 36 << 20
}

func (w *Writer) write(b []byte) error {
	_, err := w.f.Write(b)
	w.off += uint64(len(b))
	if err != nil {
		return fmt.Errorf("db: writing %s: %w", w.path, err)
	}
	return nil
}

// writeCompressed writes b compressed and returns where it lies. It
// compresses with enc, an encoder the caller holds, or with one of its own
// if enc is nil: a second beside the caller's would take the memory of
// one more worker (EncoderBytes), which -max-memory does not count.
func (w *Writer) writeCompressed(enc encoder, b []byte) (Extent, error) {
	if enc == nil {
		var err error
		if enc, err = w.o.encoder(1); err != nil {
			return Extent{}, err
		}
		defer enc.close()
	}
	z, err := enc.encode(b, nil)
	if err != nil {
		return Extent{}, err
	}
	e := Extent{Offset: w.off, Length: uint64(len(z)), CRC: checksum(z), Raw: uint64(len(b))}
	return e, w.write(z)
}

// Add writes the values of one instance, compressing its blocks on all
// workers.
func (w *Writer) Add(ctx context.Context, src Source) error {
	s, err := newSection(w.o, src, src.Values.Size())
	if err != nil {
		return err
	}
	enc, err := w.o.encoder(w.o.Workers)
	if err != nil {
		return err
	}
	defer enc.close()
	table, err := codeBlocks(ctx, enc, w.o.Workers, src, &s, 0, s.NumBlocks(), w.off, w.write)
	if err != nil {
		return err
	}
	return w.endSection(enc, s, table, src.Directory)
}

// newSection returns the section that holds src's n values, without its
// blocks, under normalized options o.
func newSection(o Options, src Source, n uint64) (Section, error) {
	coding := o.Coding
	width, err := coding.Width(src.MaxDepth)
	if err != nil {
		return Section{}, err
	}
	if coding.FromMoves() && src.Directory != nil {
		// A win's depth is found again from its moves, which a file
		// indexed by symmetry classes cannot name without numbering them.
		return Section{}, errors.New("db: a game solved over its symmetry classes is stored with every depth")
	}
	if src.Reachable && src.Start == nil {
		return Section{}, errors.New("db: a solve of the positions reachable from the start has no start")
	}
	// Blocks of wider codes hold fewer of them: a block is the same bytes
	// to decompress for a query, and the writer's memory does not depend
	// on the depths.
	blockSize := max(o.BlockSize/uint64(width)/dirGroup*dirGroup, dirGroup)
	s := Section{Label: src.Label, Size: n, IndexSize: n, Start: src.Start, MaxDepth: src.MaxDepth,
		Coding: coding, Width: width, BlockSize: blockSize, Reachable: src.Reachable, FirstTier: src.FirstTier,
		Depths: NewDepths(src.MaxDepth), Filled: o.Fill && !src.Reachable && src.Directory == nil}
	if src.WinDepths != nil {
		if len(src.WinDepths) != len(s.Depths.Win) {
			return Section{}, fmt.Errorf("db: %d bars of wins by depth for max depth %d, which has %d", len(src.WinDepths), src.MaxDepth, len(s.Depths.Win))
		}
		copy(s.Depths.Win, src.WinDepths)
	}
	if src.Directory != nil {
		s.IndexSize = src.IndexSize
	}
	return s, nil
}

// endSection writes s's block table and directory (counts, for a game
// stored by symmetry classes), compressed with enc if it is not nil, and
// adds s to the header.
func (w *Writer) endSection(enc encoder, s Section, table []byte, counts []uint32) error {
	s.Blocks = Extent{Offset: w.off, Length: uint64(len(table)), CRC: checksum(table)}
	if err := w.write(table); err != nil {
		return err
	}
	if counts != nil {
		e, err := w.writeCompressed(enc, encodeDirectory(counts))
		if err != nil {
			return err
		}
		s.Directory = &e
	}
	w.h.Sections = append(w.h.Sections, s)
	// The file's format is the latest its sections need.
	switch {
	case s.Coding == Losses:
		w.h.Format = formatLosses
	case s.Filled:
		w.h.Format = max(w.h.Format, formatFilled)
	case s.Coding == LossDepths:
		w.h.Format = max(w.h.Format, formatLossDepths)
	}
	return nil
}

// codeBlocks codes and compresses the blocks [first, last) of section s
// from src.Values on the workers, and passes them to write in order; it
// returns their block table entries, the first block at offset base, and
// adds their counts, depths and bytes to s.
//
// Each worker takes the next block as soon as it is done with one, up to
// 2 x workers blocks ahead of the one to write next, which this
// goroutine waits for, writes and tallies meanwhile. (Blocks coded a batch
// at a time left a worker idle while the batch's slowest block finished
// and while the batch was written.)
func codeBlocks(ctx context.Context, enc encoder, workers int, src Source, s *Section, first, last, base uint64, write func([]byte) error) ([]byte, error) {
	n := s.Size
	table := make([]byte, 0, (last-first)*entrySize)
	window := uint64(2 * workers) // enough that a worker finds a block while the next to write is coded
	// A block's slot is its number modulo window; a slot keeps its buffers
	// from one block to the next, and holds one block at a time.
	type slot struct {
		raw, out []byte
		counts   [4]uint64
		depths   *Depths
		done     chan error // the block's outcome, once coded
	}
	slots := make([]slot, window)
	for i := range slots {
		slots[i].done = make(chan error, 1)
		slots[i].depths = NewDepths(src.MaxDepth)
	}
	ctx, cancel := context.WithCancel(ctx)
	jobs := make(chan uint64, window)
	var wg sync.WaitGroup
	defer func() { // on any return, the workers stop before the slots go
		cancel()
		close(jobs)
		wg.Wait()
	}()
	for range workers {
		wg.Go(func() {
			sc := new(blockScratch)
			for b := range jobs {
				sl := &slots[b%window]
				err := ctx.Err()
				if err == nil {
					lo := b * s.BlockSize
					sl.raw, sl.counts, err = encodeBlock(sl.raw, sc, src.Values, lo, min(lo+s.BlockSize, n), s, sl.depths)
				}
				if err == nil {
					sl.out, err = enc.encode(sl.raw, sl.out[:0])
				}
				sl.done <- err
			}
		})
	}
	// Blocks up to window are handed out at once; each block written
	// frees its slot for the block window after it. At most window blocks
	// are out at a time, so jobs has room for each.
	sent := first
	for ; sent < last && sent-first < window; sent++ {
		jobs <- sent
	}
	for b := first; b < last; b++ {
		sl := &slots[b%window]
		if err := <-sl.done; err != nil {
			return nil, err
		}
		table = binary.LittleEndian.AppendUint64(table, base)
		table = binary.LittleEndian.AppendUint32(table, uint32(len(sl.out)))
		table = binary.LittleEndian.AppendUint32(table, checksum(sl.out))
		base += uint64(len(sl.out))
		for v := range sl.counts {
			s.Counts[v] += sl.counts[v]
		}
		s.Stored += uint64(len(sl.out))
		s.Depths.Merge(sl.depths)
		clear(sl.depths.Win)
		clear(sl.depths.Loss)
		if err := write(sl.out); err != nil {
			return nil, err
		}
		if sent < last {
			jobs <- sent
			sent++
		}
	}
	return table, nil
}

// encodeBlock returns the codes of indices [lo, hi) of v as byte planes,
// in buf if it is large enough, and the count of each value among them; it
// adds their depths to h, a histogram for maxDepth. It reads the values a
// run at a time into sc (engine.RangeValues: a lean solve's depths on
// disk, a run of runSize; others by Lookup, lookupRun at a time) and codes
// each run in one loop.
func encodeBlock(buf []byte, sc *blockScratch, v engine.Values, lo, hi uint64, s *Section, h *Depths) ([]byte, [4]uint64, error) {
	t := tally{coding: s.Coding, fill: s.Filled}
	width, maxDepth := s.Width, s.MaxDepth
	n := hi - lo
	raw := buf
	if uint64(cap(raw)) < n*uint64(width) {
		raw = make([]byte, n*uint64(width))
	}
	raw = raw[:n*uint64(width)]
	rv, runs := v.(engine.RangeValues)
	runs = runs && rv.ReadsRuns()
	size := uint64(lookupRun)
	if runs {
		size = runSize
	}
	if uint64(len(sc.vals)) < size {
		sc.vals, sc.depths = make([]engine.Value, size), make([]uint64, size)
	}
	for at := lo; at < hi; at += size {
		end := min(at+size, hi)
		vals, depths := sc.vals[:end-at], sc.depths[:end-at]
		if runs {
			if err := rv.LookupRange(at, end, vals, depths); err != nil {
				return nil, t.counts, err
			}
		} else {
			for k := range vals {
				var err error
				if vals[k], depths[k], err = v.Lookup(at + uint64(k)); err != nil {
					return nil, t.counts, err
				}
			}
		}
		if err := t.encode(raw, n, at-lo, vals, depths, width, maxDepth, h); err != nil {
			return nil, t.counts, err
		}
	}
	t.fold(h)
	return raw, t.counts, nil
}

// lookupRun is how many values encodeBlock looks up one by one (from a
// source that does not read runs) before coding them.
const lookupRun = 4096

// tally counts a block's values as it codes them: one-byte codes by code
// (folded into values and depths at the end), wider ones into the counts
// and the histogram directly, and so wins whose code leaves out their
// depth and filled illegal indices; neither divides by the histogram's
// bucket per index where the bucket is 1.
type tally struct {
	coding Coding
	fill   bool   // illegal indices take the code before them
	prev   uint64 // the last legal index's code in the block
	counts [4]uint64
	byCode [256]uint64
}

// encode stores the codes of vals and depths in the byte planes of raw (n
// codes per plane), from code at on; the depths of wider codes go to h.
func (t *tally) encode(raw []byte, n, at uint64, vals []engine.Value, depths []uint64, width int, maxDepth uint64, h *Depths) error {
	depths = depths[:len(vals)]
	for k, val := range vals {
		d := depths[k]
		// A win read from a file that leaves its depth out is counted
		// by the Source's WinDepths.
		unknown := d == engine.NoDepth && val == engine.Win && t.coding.FromMoves()
		if d > maxDepth && !unknown {
			return fmt.Errorf("db: index %d has depth %d, more than the maximum %d", at+uint64(k), d, maxDepth)
		}
		c := t.coding.Code(val, d)
		i := at + uint64(k)
		if val == engine.Illegal && t.fill {
			c = t.prev
		} else {
			t.prev = c
			if width == 1 && t.coding.tells(val) {
				raw[i] = byte(c)
				t.byCode[c]++
				continue
			}
		}
		switch width {
		case 1:
			raw[i] = byte(c)
		case 2:
			raw[i], raw[n+i] = byte(c), byte(c>>8)
		default:
			raw[i], raw[n+i], raw[2*n+i], raw[3*n+i] = byte(c), byte(c>>8), byte(c>>16), byte(c>>24)
		}
		t.counts[val&3]++
		if unknown {
			continue
		}
		if h.Bucket != 1 {
			d /= h.Bucket
		}
		switch val {
		case engine.Win:
			h.Win[d]++
		case engine.Loss:
			h.Loss[d]++
		}
	}
	return nil
}

// fold adds what t counted by code to its counts and to h.
func (t *tally) fold(h *Depths) {
	for c, k := range t.byCode {
		if k > 0 {
			v, d := t.coding.Decode(uint64(c))
			t.counts[v] += k
			h.Add(v, d, k)
		}
	}
}

// blockScratch is a worker's room for the values and depths of a run,
// kept from block to block.
type blockScratch struct {
	vals   []engine.Value
	depths []uint64
}

// A source that reads runs (engine.RangeValues.ReadsRuns) is read runSize
// indices at a time: a block of 2-byte codes in one run, of 1-byte codes in
// two (the second decodes its segment of a lean solve's depths from the
// start again; runs of a whole block measured no faster, in twice the
// memory). RunScratchBytes is the memory per worker that Add takes more for
// it: the values and depths of a run, 9 bytes per index.
const (
	runSize         = DefaultBlockSize / 2
	RunScratchBytes = runSize * 9
)

// encodeDirectory stores running counts as their differences, 16 bits
// each (at most dirGroup), in two byte planes.
func encodeDirectory(counts []uint32) []byte {
	n := len(counts) - 1
	b := make([]byte, 2*n)
	for i := range n {
		d := counts[i+1] - counts[i]
		b[i], b[n+i] = byte(d), byte(d>>8)
	}
	return b
}

// Close writes the header and the footer, syncs the file and renames it to
// its final name. After an error the temporary file is removed.
func (w *Writer) Close() error {
	if w.closed {
		return errors.New("db: Close of a closed Writer")
	}
	err := w.finish()
	if err != nil {
		w.Abort()
		return err
	}
	w.done = true
	return nil
}

func (w *Writer) finish() error {
	header, err := json.Marshal(w.h)
	if err != nil {
		return err
	}
	off := w.off
	if err := w.write(appendFooter(header, off, header)); err != nil {
		return err
	}
	if err := w.f.Chmod(0o644); err != nil {
		return err
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("db: syncing %s: %w", w.path, err)
	}
	w.closed = true
	if err := w.f.Close(); err != nil {
		return err
	}
	if err := os.Rename(w.tmp, w.path); err != nil {
		return err
	}
	// The rename lasts once the folder is synced too.
	if d, err := os.Open(filepath.Dir(w.path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Abort removes the unfinished file; the final name is left untouched.
// After a successful Close it does nothing, so that a deferred Abort
// covers every error path.
func (w *Writer) Abort() {
	if w.done {
		return
	}
	if !w.closed {
		w.closed = true
		w.f.Close()
	}
	os.Remove(w.tmp)
}
