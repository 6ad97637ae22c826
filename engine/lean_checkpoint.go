package engine

import (
	"bufio"
	"context"
	"io"
	"maps"
	"os"
	"slices"
	"time"
)

// A lean solve's checkpoint (RETROLK1). At the barrier before level d the whole state
// is in the nibbles (each index's value code, and the frontier bit of level
// d on the positions to expand next), with what the levels before d
// counted: the edges walked, the histogram of depths and the longest
// positions, the depths kept (Options.Keep); and, with Options.DepthsOnDisk,
// the depths' file up to level d and its directory. The file is the
// nibbles' half byte per index and a few words, with no copy in memory.
//
// With DepthsOnDisk the depths' file of a solve that keeps checkpoints is
// not a nameless one in DepthDir: it is DepthsPath, beside the checkpoint,
// so that a solve resumed after a crash finds the levels written before it.
const (
	leanCheckpointMagic   = "RETROLK1"
	leanCheckpointVersion = 1
)

// DepthsPath is the file where a lean solve that keeps checkpoints and
// every depth on disk (Options.DepthsOnDisk) writes the depths.
func (c *Checkpoint) DepthsPath() string { return c.Path + ".depths" }

// Remove removes the checkpoint's files: the checkpoint and the depths'
// file of a lean solve. A Result that reads depths from the file still
// can, until it is dropped.
func (c *Checkpoint) Remove() {
	os.Remove(c.Path)
	os.Remove(c.DepthsPath())
}

// leanHeader is what a lean checkpoint says besides its arrays.
type leanHeader struct {
	n, depth, count, edges  uint64
	longestWin, longestLoss uint64
	hasLongestWin           uint64 // 0 or 1
	hasLongestLoss          uint64
	known                   uint64 // the depths kept: pairs of words
	logged                  uint64 // 1 if the solve keeps its depths on disk
	logSize, logRecords     uint64 // its file's length and records at the barrier
}

func (h *leanHeader) fields() []*uint64 {
	return []*uint64{&h.n, &h.depth, &h.count, &h.edges, &h.longestWin, &h.longestLoss,
		&h.hasLongestWin, &h.hasLongestLoss, &h.known, &h.logged, &h.logSize, &h.logRecords}
}

// start puts the solver at the barrier before its first level to expand:
// the one its checkpoint saved, if there is one, or level 0 after
// classifying every index. It returns that level and its positions.
func (s *leanSolver) start(ctx context.Context) (depth, count uint64, err error) {
	if s.ckpt != nil {
		s.prog.SetPhase("reading the checkpoint")
		depth, count, err = s.resume()
		s.ckpt.last = time.Now()
		switch {
		case err == nil:
			return depth, count, nil
		case err != errNoCheckpoint:
			return 0, 0, err
		}
		if s.wantLog {
			if s.log, err = openDepthLog(s.ckpt.DepthsPath(), 0, nil); err != nil {
				return 0, 0, err
			}
		}
	}
	s.prog.SetPhase("classifying")
	count, err = s.classify(ctx)
	return 0, count, err
}

// save writes the checkpoint at the barrier before level depth, whose
// count positions carry its frontier bit.
func (s *leanSolver) save(depth, count uint64) error {
	c := s.ckpt
	h := leanHeader{n: s.n, depth: depth, count: count, known: uint64(len(s.known))}
	for w := range s.bufs {
		h.edges += s.bufs[w].edges
	}
	st := &s.stats
	h.longestWin, h.longestLoss = st.LongestWin, st.LongestLoss
	h.hasLongestWin, h.hasLongestLoss = b2u(st.HasLongestWin), b2u(st.HasLongestLoss)
	if s.log != nil {
		// The levels the checkpoint counts on are on the disk before it is.
		if err := s.log.sync(); err != nil {
			return err
		}
		h.logged, h.logSize, h.logRecords = 1, uint64(s.log.off), uint64(len(s.log.recs))
	}
	return c.saveLevel(depth, func(w *bufio.Writer) error {
		writeHead(w, c, leanCheckpointMagic, leanCheckpointVersion, h.fields())
		writeWords(w, st.Wins)
		writeWords(w, st.Losses)
		for _, k := range slices.Sorted(maps.Keys(s.known)) {
			writeWords(w, []uint64{k, s.known[k]})
		}
		if s.log != nil {
			for _, r := range s.log.recs {
				writeWords(w, []uint64{r.seg, uint64(r.off), uint64(r.length), uint64(r.depth)})
			}
		}
		writeWords(w, s.nibs.Words())
		return nil
	})
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// resume loads the state saved in the checkpoint, if there is one, and
// returns the level to expand next and its positions. It returns
// errNoCheckpoint if there is none, and an error naming the problem if the
// file is another solve's or damaged.
func (s *leanSolver) resume() (depth, count uint64, err error) {
	c := s.ckpt
	var h leanHeader
	r, done, err := openChecked(c, leanCheckpointMagic, leanCheckpointVersion, h.fields())
	if err != nil {
		return 0, 0, err
	}
	defer done()
	fail := func(format string, args ...any) (uint64, uint64, error) { return 0, 0, c.errorf(format, args...) }
	switch {
	case h.n != s.n:
		return fail("saved for %d positions, this solve has %d", h.n, s.n)
	case h.logged == 1 && !s.wantLog:
		return fail("saved by a solve that kept every depth on disk (-db), unlike this one; run the same command, or remove it to start again")
	case h.logged == 0 && s.wantLog:
		return fail("saved by a solve that kept no depths on disk, unlike this one (-db); run the same command, or remove it to start again")
	case h.depth > 1<<32 || h.known > s.n || h.logRecords > 1<<40/24 || h.count == 0:
		return fail("damaged (its header is out of range)")
	}
	st := DepthStats{Wins: make([]uint64, h.depth), Losses: make([]uint64, h.depth),
		LongestWin: h.longestWin, LongestLoss: h.longestLoss, HasLongestWin: h.hasLongestWin == 1, HasLongestLoss: h.hasLongestLoss == 1}
	recs := make([]depthRecord, h.logRecords)
	// readArrays reads what follows the header: the histogram, the depths
	// kept, the depths' file's records and the nibbles.
	readArrays := func() error {
		if err := readWords(r, st.Wins); err != nil {
			return err
		}
		if err := readWords(r, st.Losses); err != nil {
			return err
		}
		var w [4]uint64
		for range h.known {
			if err := readWords(r, w[:2]); err != nil {
				return err
			}
			s.known[w[0]] = w[1]
		}
		for k := range recs {
			if err := readWords(r, w[:]); err != nil {
				return err
			}
			recs[k] = depthRecord{seg: w[0], off: int64(w[1]), length: uint32(w[2]), depth: uint32(w[3])}
		}
		return readWords(r, s.nibs.Words())
	}
	if err := readArrays(); err != nil {
		return fail("truncated")
	}
	if _, err := r.ReadByte(); err != io.EOF {
		return fail("longer than its solve's state")
	}
	if h.logged == 1 {
		if s.log, err = openDepthLog(c.DepthsPath(), int64(h.logSize), recs); err != nil {
			return 0, 0, err
		}
	}
	s.stats = st
	s.bufs[0].edges = h.edges
	var before uint64
	for d := range st.Wins {
		before += st.Wins[d] + st.Losses[d]
	}
	s.prog.Resumed(before)
	s.sparse = false // the level is found by a scan of the frontier bits
	return h.depth, h.count, nil
}
