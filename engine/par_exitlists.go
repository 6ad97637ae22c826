package engine

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"

	"github.com/retro-solver/retro/internal/tempfile"
	"github.com/retro-solver/retro/parallel"
)

// exitLists is what a parallel solve of an ExitGame keeps of its exits'
// actions: the positions whose exits act at each level, in a list per
// action (exitEvents.code: the level, and for a game that does not
// alternate the kind), written once as the positions are classified and
// read once, at their level. The lists lie in a spool file, not in memory
// (where the file's folder is not one in memory, as /tmp may be): each is
// read once, as it was written, and the solve's memory is its lanes and
// frontiers whatever the number of actions. KQRvKR's 242 million indices
// have 48 million actions, 53.5 MB of lists; they took a byte each of
// a lane of their own before (the solve's peak 569 MiB then, 339 MiB now).
//
// A list is cut into segments of at most segmentBytes, each read on its
// own by one worker: the differences between consecutive positions,
// zigzag-coded as varints (a worker classifies runs of increasing indices,
// so most take a byte), the first from 0.
type exitLists struct {
	codes   exitEvents // codes and levels only: its lanes stay empty
	f       *os.File
	removed bool // f's name was removed as it was made
	end     atomic.Int64
	// segments[code]: the segments of that action's list, filled by the
	// workers' writers and, once classification is done, by finish.
	segments map[uint64][]spoolSegment
	atLevel  []uint64
	writers  []listWriter
	reads    [][]byte // a segment's bytes, a worker's own
}

// spoolSegment is where a part of a list lies in the spool file.
type spoolSegment struct {
	off int64
	n   int32
}

// segmentBytes bounds a segment: what a worker buffers of each list it
// writes, and reads at once.
const segmentBytes = 8 << 10

// listWriter is one worker's lists being written: a buffer for each
// action it has met, by its code, and the segments it has written. A
// cache line apart from the others'.
type listWriter struct {
	bufs     []*listBuf
	segments map[uint64][]spoolSegment
	err      error
	_        [64 - 24 - 8 - 16]byte
}

// listBuf is a list's segment being filled, its bytes and its last
// position, and the count of the list's actions.
type listBuf struct {
	b     []byte
	last  uint64
	count uint64
}

// newExitLists returns lists for the given number of workers, in a spool
// file made in dir (the system's temporary folder where dir is "") and
// removed at once where the system allows, so that a crash leaves none
// behind; coded as an Alternating game's actions where alternate is set.
// It is named as a writer's temporary file (internal/tempfile): one left
// by a process killed between its making and its removal, or kept where
// the system cannot remove an open file, goes when the next spool is made
// in the folder or a tier solve prepares it.
func newExitLists(dir string, workers int, alternate bool) (*exitLists, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	f, err := tempfile.Create(filepath.Join(dir, "retro-exits"))
	if err != nil {
		return nil, fmt.Errorf("the exits' spool: %w", err)
	}
	// Removed while open (where the system allows), the file lives until
	// it is closed.
	removed := os.Remove(f.Name()) == nil
	l := &exitLists{codes: exitEvents{alternate: alternate}, f: f, removed: removed, segments: map[uint64][]spoolSegment{},
		writers: make([]listWriter, workers), reads: make([][]byte, workers)}
	for w := range l.writers {
		l.writers[w] = listWriter{segments: map[uint64][]spoolSegment{}}
	}
	return l, nil
}

// close closes the spool file, removing it if its making could not.
func (l *exitLists) close() {
	l.f.Close()
	if !l.removed {
		os.Remove(l.f.Name())
	}
}

// add records, for worker w, that position i's exits act as lane value e
// says (exitEvents.event).
func (l *exitLists) add(w int, i, e uint64) {
	lw := &l.writers[w]
	for uint64(len(lw.bufs)) <= e {
		lw.bufs = append(lw.bufs, nil)
	}
	b := lw.bufs[e]
	if b == nil {
		b = &listBuf{b: make([]byte, 0, 256)}
		lw.bufs[e] = b
	}
	if len(b.b)+binary.MaxVarintLen64 > segmentBytes {
		l.write(lw, e, b)
	}
	d := int64(i - b.last)
	b.b = binary.AppendUvarint(b.b, uint64(d<<1)^uint64(d>>63))
	b.last = i
	b.count++
}

// write writes b, a segment of list e, to the spool, and empties it.
func (l *exitLists) write(lw *listWriter, e uint64, b *listBuf) {
	if len(b.b) == 0 {
		return
	}
	off := l.end.Add(int64(len(b.b))) - int64(len(b.b))
	if _, err := l.f.WriteAt(b.b, off); err != nil && lw.err == nil {
		lw.err = fmt.Errorf("the exits' spool: %w", err)
	}
	lw.segments[e] = append(lw.segments[e], spoolSegment{off: off, n: int32(len(b.b))})
	b.b, b.last = b.b[:0], 0
}

// finish writes what the workers still buffer, gathers their segments and
// counts, and returns the first error of a write.
func (l *exitLists) finish() error {
	var err error
	for w := range l.writers {
		lw := &l.writers[w]
		for e, b := range lw.bufs {
			if b != nil {
				l.write(lw, uint64(e), b)
				l.countLevel(l.codes.level(uint64(e)), b.count)
			}
		}
		for e, s := range lw.segments {
			l.segments[e] = append(l.segments[e], s...)
		}
		if err == nil {
			err = lw.err
		}
		*lw = listWriter{}
	}
	return err
}

// countLevel adds k actions to level d.
func (l *exitLists) countLevel(d, k uint64) {
	for uint64(len(l.atLevel)) <= d {
		l.atLevel = append(l.atLevel, 0)
	}
	l.atLevel[d] += k
}

// lastLevel returns the last level with an action, and false if none has.
func (l *exitLists) lastLevel() (uint64, bool) {
	for d := len(l.atLevel) - 1; d >= 0; d-- {
		if l.atLevel[d] != 0 {
			return uint64(d), true
		}
	}
	return 0, false
}

// scan calls act, on the given number of workers (w: the worker's number),
// for each position whose exits act at level depth: a decrement, or a win
// claim; then forgets the level's lists. An Alternating game has one list
// a level, its kind told by the level's parity.
func (l *exitLists) scan(ctx context.Context, workers int, depth uint64, act func(w int, p uint64, decrement bool)) error {
	claim, decrement := l.codes.code(depth, false), l.codes.code(depth, true)
	type job struct {
		spoolSegment
		decrement bool
	}
	var jobs []job
	for _, s := range l.segments[claim] {
		jobs = append(jobs, job{s, l.codes.alternate && depth&1 == 1})
	}
	if decrement != claim {
		for _, s := range l.segments[decrement] {
			jobs = append(jobs, job{s, true})
		}
	}
	delete(l.segments, claim)
	delete(l.segments, decrement)
	if len(jobs) == 0 {
		return nil
	}
	return parallel.Each(ctx, workers, uint64(len(jobs)), func(w int, j uint64) error {
		if l.reads[w] == nil {
			l.reads[w] = make([]byte, segmentBytes)
		}
		b := l.reads[w][:jobs[j].n]
		if _, err := l.f.ReadAt(b, jobs[j].off); err != nil {
			return fmt.Errorf("the exits' spool: %w", err)
		}
		var p uint64
		for len(b) > 0 {
			z, k := binary.Uvarint(b)
			if k <= 0 {
				return fmt.Errorf("the exits' spool: a damaged segment at byte %d", jobs[j].off)
			}
			b = b[k:]
			p += uint64(int64(z>>1) ^ -int64(z&1))
			act(w, p, jobs[j].decrement)
		}
		return nil
	})
}

// save writes, for a checkpoint, the counts of actions per level and the
// lists not yet read: for each action, in the order of their codes, its
// code, its number of segments and each segment's length and bytes; a 0
// ends them (no action's code is 0).
func (l *exitLists) save(w *bufio.Writer) error {
	writeWords(w, []uint64{uint64(len(l.atLevel))})
	writeWords(w, l.atLevel)
	b := make([]byte, segmentBytes)
	for _, e := range slices.Sorted(maps.Keys(l.segments)) {
		segs := l.segments[e]
		writeWords(w, []uint64{e, uint64(len(segs))})
		for _, s := range segs {
			if _, err := l.f.ReadAt(b[:s.n], s.off); err != nil {
				return fmt.Errorf("the exits' spool: %w", err)
			}
			writeWords(w, []uint64{uint64(s.n)})
			w.Write(b[:s.n])
		}
	}
	writeWords(w, []uint64{0})
	return nil
}

// restore reads what save wrote into l, whose lists are empty, writing
// the segments into its spool.
func (l *exitLists) restore(r *bufio.Reader) error {
	var word [1]uint64
	next := func() (uint64, error) {
		if err := readWords(r, word[:]); err != nil {
			return 0, errors.New("truncated")
		}
		return word[0], nil
	}
	levels, err := next()
	if err != nil {
		return err
	}
	if levels > maxSavedLevels {
		return fmt.Errorf("%d levels of exits' actions, more than a solve has", levels)
	}
	l.atLevel = make([]uint64, levels)
	if err := readWords(r, l.atLevel); err != nil {
		return errors.New("truncated")
	}
	b := make([]byte, segmentBytes)
	for {
		e, err := next()
		if err != nil || e == 0 {
			return err
		}
		k, err := next()
		if err != nil {
			return err
		}
		if _, ok := l.segments[e]; ok {
			return fmt.Errorf("the exits' actions of code %d saved twice", e)
		}
		segs := make([]spoolSegment, 0, min(k, 1<<20))
		for range k {
			n, err := next()
			if err != nil {
				return err
			}
			if n == 0 || n > segmentBytes {
				return fmt.Errorf("an exits' segment of %d bytes", n)
			}
			if _, err := io.ReadFull(r, b[:n]); err != nil {
				return errors.New("truncated")
			}
			off := l.end.Add(int64(n)) - int64(n)
			if _, err := l.f.WriteAt(b[:n], off); err != nil {
				return fmt.Errorf("the exits' spool: %w", err)
			}
			segs = append(segs, spoolSegment{off: off, n: int32(n)})
		}
		l.segments[e] = segs
	}
}

// maxSavedLevels bounds the levels a checkpoint's counts of actions may
// have: more is a damaged file, not a deep game (the lanes hold depths of
// at most 2^32 plies).
const maxSavedLevels = 1 << 32
