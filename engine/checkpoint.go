package engine

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/retro-solver/retro/internal/tempfile"
)

// Checkpoint saves a solve's state to a file at level barriers, every
// Every, and lets a later solve of the same game go on from it. At a
// barrier the state of the level-synchronous pass is whole: a solve resumed
// from it computes exactly what the uninterrupted one would have. Par, Lean
// and Distributed keep checkpoints (par_checkpoint.go, lean_checkpoint.go,
// dist_checkpoint.go); Sequential does not.
//
// Every checkpoint file has one framing: an 8-byte magic naming the engine
// (RETROCK1, RETROLK1, RETRODC1), then little-endian 64-bit words: the
// format's version, the CRC-32C of Fingerprint, the engine's header fields
// (writeHead); then the engine's arrays; then the CRC-32C of all that
// (writeChecked). docs/formats.md has each engine's fields.
type Checkpoint struct {
	// Path is the file; it is written under a temporary name, synced and
	// renamed, so a crash leaves the previous checkpoint or the new one.
	Path string
	// Fingerprint names what is solved (the game and its parameters): a
	// file saved for another fingerprint is refused.
	Fingerprint string
	// Every is the time between saves; 0 means 5 minutes.
	Every time.Duration
	// Saved, if not nil, is called after each save with the level saved.
	Saved func(level uint64)
	// Resumed, if not nil, is called by the distributed engine (on rank 0)
	// when it goes on from a checkpoint, with the level it goes on from.
	Resumed func(level uint64)

	last      time.Time
	lastBytes int64 // the last save's file
	lastTook  time.Duration
}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// due reports whether a save is due: Every has passed since the solve
// started or last saved.
func (c *Checkpoint) due() bool {
	every := c.Every
	if every == 0 {
		every = 5 * time.Minute
	}
	return time.Since(c.last) >= every
}

// saveLevel writes a single process's checkpoint at the barrier before
// level depth, what body writes, and then calls Saved.
func (c *Checkpoint) saveLevel(depth uint64, body func(w *bufio.Writer) error) error {
	if err := c.writeChecked(c.Path, body); err != nil {
		return err
	}
	c.last = time.Now()
	if c.Saved != nil {
		c.Saved(depth)
	}
	return nil
}

// errorf returns an error about the checkpoint's file.
func (c *Checkpoint) errorf(format string, args ...any) error {
	return fmt.Errorf("checkpoint %s: %s", c.Path, fmt.Sprintf(format, args...))
}

// writeChecked writes a checkpoint file: what body writes, then the
// CRC-32C of it, under a temporary name in path's folder (made if missing:
// a solve that ends or stops before its first checkpoint leaves nothing
// behind), synced and renamed, so that a crash leaves the previous file or
// the new one whole. It notes the file's size and the time it took for
// LastSave.
func (c *Checkpoint) writeChecked(path string, body func(w *bufio.Writer) error) error {
	began := time.Now()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	// A save cut short by a crash left its temporary file: it goes now.
	f, err := tempfile.Create(path)
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	defer f.Close()
	h := crc32.New(crcTable)
	w := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<20)
	if err := body(w); err != nil {
		return fmt.Errorf("writing checkpoint %s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing checkpoint %s: %w", path, err)
	}
	if _, err := f.Write(binary.LittleEndian.AppendUint32(nil, h.Sum32())); err != nil {
		return fmt.Errorf("writing checkpoint %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return err
	}
	size, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	c.lastBytes, c.lastTook = size, time.Since(began)
	return nil
}

// LastSave returns the size of the file the last save wrote and the time
// it took, for progress lines.
func (c *Checkpoint) LastSave() (bytes int64, took time.Duration) {
	return c.lastBytes, c.lastTook
}

// writeWords writes words in little-endian order, 8 KiB at a time
// (a lean checkpoint writes gigabytes of them).
func writeWords(w *bufio.Writer, words []uint64) {
	var b [8 << 10]byte
	for len(words) > 0 {
		k := min(len(words), len(b)/8)
		for i, x := range words[:k] {
			binary.LittleEndian.PutUint64(b[8*i:], x)
		}
		w.Write(b[:8*k])
		words = words[k:]
	}
}

// readWords fills words from r, written by writeWords.
func readWords(r io.Reader, words []uint64) error {
	var b [8 << 10]byte
	for len(words) > 0 {
		k := min(len(words), len(b)/8)
		if _, err := io.ReadFull(r, b[:8*k]); err != nil {
			return err
		}
		for i := range words[:k] {
			words[i] = binary.LittleEndian.Uint64(b[8*i:])
		}
		words = words[k:]
	}
	return nil
}

// errNoCheckpoint says there is no checkpoint to resume from.
var errNoCheckpoint = errors.New("no checkpoint")

// checkpointKinds names the engine behind each kind of checkpoint file, so
// that one engine's file offered to the other is refused with a word on
// which engine wrote it.
var checkpointKinds = map[string]string{
	parCheckpointMagic:  "the parallel engine (-engine par)",
	leanCheckpointMagic: "the lean engine (-engine lean)",
	distCheckpointMagic: "the distributed engine (under mpirun)",
}

// openChecked opens checkpoint c's file for reading, checks its checksum,
// its kind (magic), its format's version and its fingerprint, reads the
// engine's header fields, and returns a reader of the arrays after them and
// a function that closes the file. It
// returns errNoCheckpoint if there is no file, and an error naming the
// problem if the file is another engine's, another solve's, or damaged.
func openChecked(c *Checkpoint, magic string, version uint64, fields []*uint64) (*bufio.Reader, func(), error) {
	f, err := os.Open(c.Path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, errNoCheckpoint
	}
	if err != nil {
		return nil, nil, err
	}
	r, err := checkedReader(f, c, magic, version)
	if err == nil && readFields(r, fields) != nil {
		err = c.errorf("truncated")
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return r, func() { f.Close() }, nil
}

// checkedReader does openChecked's checks on f.
func checkedReader(f *os.File, c *Checkpoint, magic string, version uint64) (*bufio.Reader, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	// The checksum first: the whole file but its last 4 bytes.
	if st.Size() < headLen+4 {
		return nil, c.errorf("truncated")
	}
	h := crc32.New(crcTable)
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, st.Size()-4)); err != nil {
		return nil, err
	}
	var sum [4]byte
	if _, err := f.ReadAt(sum[:], st.Size()-4); err != nil {
		return nil, err
	}
	if binary.LittleEndian.Uint32(sum[:]) != h.Sum32() {
		return nil, c.errorf("damaged (its checksum is wrong); remove it to start again")
	}
	r := bufio.NewReaderSize(io.NewSectionReader(f, 0, st.Size()-4), 1<<20)
	head := make([]byte, headLen)
	if _, err := io.ReadFull(r, head); err != nil {
		return nil, c.errorf("truncated")
	}
	if kind := string(head[:8]); kind != magic {
		if who, ok := checkpointKinds[kind]; ok {
			return nil, c.errorf("saved by %s; run that engine to go on from it, or remove it to start again", who)
		}
		return nil, c.errorf("not a checkpoint of retro's")
	}
	le := binary.LittleEndian
	if v := le.Uint64(head[8:]); v != version {
		return nil, c.errorf("written by another version of retro (format %d)", v)
	}
	if le.Uint64(head[16:]) != c.fingerprintSum() {
		return nil, c.errorf("saved for another game or other parameters; remove it to start again")
	}
	return r, nil
}

// headLen is the length of what every checkpoint file starts with: its
// magic, its format's version and its fingerprint's checksum.
const headLen = 8 + 2*8

// fingerprintSum returns the checksum of c's fingerprint that its files
// carry.
func (c *Checkpoint) fingerprintSum() uint64 {
	return uint64(crc32.Checksum([]byte(c.Fingerprint), crcTable))
}

// writeHead writes the start of a checkpoint file of c: the magic naming
// its engine, its format's version, its fingerprint's checksum, and the
// engine's header fields.
func writeHead(w *bufio.Writer, c *Checkpoint, magic string, version uint64, fields []*uint64) {
	head := []byte(magic)
	head = binary.LittleEndian.AppendUint64(head, version)
	head = binary.LittleEndian.AppendUint64(head, c.fingerprintSum())
	for _, f := range fields {
		head = binary.LittleEndian.AppendUint64(head, *f)
	}
	w.Write(head)
}

// readFields reads an engine's header fields, written by writeHead, from r.
func readFields(r io.Reader, fields []*uint64) error {
	words := make([]uint64, len(fields))
	if err := readWords(r, words); err != nil {
		return err
	}
	for i, f := range fields {
		*f = words[i]
	}
	return nil
}
