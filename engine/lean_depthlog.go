package engine

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
)

// A depthLog keeps a lean solve's depths on disk: as each level is
// expanded, the positions of its frontier, all of that depth, are appended
// to a file, segment by segment (runs of 2^depthSegShift indices), as
// records of increasing indices coded as differences in varints (about a
// byte a position on a dense level). The records are found again by
// segment, so the depths of a range of indices cost the records of its
// segments, one or a few per level, and nothing of the others.
//
// The file is unlinked as soon as it is made: it lives while the log does
// (a cleanup closes it when the log is unreachable) and leaves nothing
// behind after a crash.
type depthLog struct {
	mu   sync.Mutex
	f    *os.File
	off  int64
	err  error         // the first write error
	recs []depthRecord // by segment, then depth, once finished
}

// depthSegShift sets the segment size: 2^18 indices, the indices of a
// database block of one-byte codes.
const depthSegShift = 18

// depthRecord is where one run of a level's positions inside one segment
// lies in the file.
type depthRecord struct {
	seg    uint64
	off    int64
	length uint32
	depth  uint32
}

// depthRun is one worker's record in the making.
type depthRun struct {
	seg, last uint64
	depth     uint64
	open      bool
	buf       []byte
}

// newDepthLog makes the log's file in folder dir ("" for the system's
// temporary folder).
func newDepthLog(dir string) (*depthLog, error) {
	f, err := os.CreateTemp(dir, "retro-depths-*")
	if err != nil {
		return nil, fmt.Errorf("the depths' file: %w", err)
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, fmt.Errorf("the depths' file: %w", err)
	}
	l := &depthLog{f: f}
	runtime.AddCleanup(l, func(f *os.File) { f.Close() }, f)
	return l, nil
}

// add notes frontier position t of the given depth in worker run r; a
// worker's positions come in increasing order until it calls end.
func (l *depthLog) add(r *depthRun, depth, t uint64) {
	seg := t >> depthSegShift
	if !r.open || seg != r.seg || depth != r.depth {
		l.end(r)
		r.seg, r.depth, r.open, r.last = seg, depth, true, seg<<depthSegShift
		r.buf = binary.AppendUvarint(r.buf, t-r.last)
	} else {
		r.buf = binary.AppendUvarint(r.buf, t-r.last-1)
	}
	r.last = t
}

// end writes run r's record, if it has one.
func (l *depthLog) end(r *depthRun) {
	if !r.open {
		return
	}
	r.open = false
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		if _, err := l.f.Write(r.buf); err != nil {
			l.err = fmt.Errorf("writing the depths' file: %w", err)
		}
		l.recs = append(l.recs, depthRecord{seg: r.seg, off: l.off, length: uint32(len(r.buf)), depth: uint32(r.depth)})
		l.off += int64(len(r.buf))
	}
	r.buf = r.buf[:0]
}

// finish orders the records by segment, once the last level is written.
func (l *depthLog) finish() error {
	slices.SortFunc(l.recs, func(a, b depthRecord) int {
		if a.seg != b.seg {
			return cmp.Compare(a.seg, b.seg)
		}
		return cmp.Compare(a.depth, b.depth)
	})
	return l.err
}

var errDepthLog = errors.New("the depths' file is damaged")

// recordBufs holds buffers for records read back, one per reader at a time.
var recordBufs = sync.Pool{New: func() any { return new([]byte) }}

// depths stores in dst[i-lo] the depth of every position i in [lo, hi)
// that a level resolved, leaving the others' entries as they are.
func (l *depthLog) depths(lo, hi uint64, dst []uint64) error {
	if lo >= hi {
		return nil
	}
	first := lo >> depthSegShift
	k, _ := slices.BinarySearchFunc(l.recs, first, func(r depthRecord, seg uint64) int { return cmp.Compare(r.seg, seg) })
	bp := recordBufs.Get().(*[]byte)
	defer recordBufs.Put(bp)
	for ; k < len(l.recs) && l.recs[k].seg <= (hi-1)>>depthSegShift; k++ {
		r := l.recs[k]
		*bp = slices.Grow((*bp)[:0], int(r.length))[:r.length]
		buf := *bp
		if _, err := l.f.ReadAt(buf, r.off); err != nil {
			return fmt.Errorf("reading the depths' file: %w", err)
		}
		i, next := r.seg<<depthSegShift, false
		for len(buf) > 0 {
			d, w := binary.Uvarint(buf)
			if w <= 0 {
				return errDepthLog
			}
			buf = buf[w:]
			i += d
			if next {
				i++
			}
			next = true
			if i >= hi {
				break
			}
			if i >= lo {
				dst[i-lo] = uint64(r.depth)
			}
		}
	}
	return nil
}

// openDepthLog opens the depths' file of a lean solve that keeps
// checkpoints, at path: a file with a name, kept on disk so that a solve
// resumed from a checkpoint finds the levels written before it. The
// checkpoint knows the file's first size bytes and their records; what
// follows them (levels written after the checkpoint) is cut off. A solve
// that starts afresh passes 0 and nil.
func openDepthLog(path string, size int64, recs []depthRecord) (*depthLog, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("the depths' file: %w", err)
	}
	flags := os.O_RDWR | os.O_CREATE
	if size == 0 {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		return nil, fmt.Errorf("the depths' file: %w", err)
	}
	fail := func(err error) (*depthLog, error) {
		f.Close()
		return nil, fmt.Errorf("the depths' file %s: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	if st.Size() < size {
		return fail(fmt.Errorf("%d bytes, shorter than the %d its checkpoint knows; remove the checkpoint to start again", st.Size(), size))
	}
	if err := f.Truncate(size); err != nil {
		return fail(err)
	}
	if _, err := f.Seek(size, io.SeekStart); err != nil {
		return fail(err)
	}
	l := &depthLog{f: f, off: size, recs: recs}
	runtime.AddCleanup(l, func(f *os.File) { f.Close() }, f)
	return l, nil
}

// sync makes what the log has written durable, before a checkpoint that
// counts on it is saved.
func (l *depthLog) sync() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	return l.f.Sync()
}
