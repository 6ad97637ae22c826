package engine

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A distributed solve's checkpoint (RETRODC1) is one file per rank and level saved,
// Path.rank-R-of-N.level-L: the rank's states at the barrier before level
// L (the frontier is the positions resolved at depth L; files of an older
// retro list it too, and are read), and for an ExitGame the words of its
// exit actions' lanes. All ranks save at the same
// barrier (rank 0 decides when, in the level's reduction) and each removes
// its older files only once every rank has saved the new one, so that a
// crash at any moment leaves a level that every rank has. A solve goes on
// from the deepest such level, with the same number of ranks.

const (
	distCheckpointMagic   = "RETRODC1"
	distCheckpointVersion = 1
)

// rankFile returns the checkpoint file of a rank for a level.
func (c *Checkpoint) rankFile(rank, ranks int, level uint64) string {
	return fmt.Sprintf("%s.rank-%d-of-%d.level-%d", c.Path, rank, ranks, level)
}

// rankLevels returns the levels of the rank's checkpoint files, deepest
// first.
func (c *Checkpoint) rankLevels(rank, ranks int) []uint64 {
	prefix := c.rankFile(rank, ranks, 0)
	prefix = prefix[:len(prefix)-1]
	files, _ := filepath.Glob(globEscape(prefix) + "*")
	var levels []uint64
	for _, f := range files {
		if l, err := strconv.ParseUint(strings.TrimPrefix(f, prefix), 10, 64); err == nil {
			levels = append(levels, l)
		}
	}
	slices.Sort(levels)
	slices.Reverse(levels)
	return levels
}

// globEscape escapes the characters filepath.Glob treats as patterns.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// RemoveRank removes the files of a distributed solve's checkpoint that
// rank of ranks saved, a lean rank's depths' file included (a Result that
// reads its depths from it still can, until it is dropped).
func (c *Checkpoint) RemoveRank(rank, ranks int) {
	for _, l := range c.rankLevels(rank, ranks) {
		os.Remove(c.rankFile(rank, ranks, l))
	}
	os.Remove(c.rankDepths(rank, ranks)) // a lean rank's
}

// distHeader is what a rank's checkpoint file says of itself: the
// fingerprint's checksum of the file's head, and its header fields.
type distHeader struct {
	fingerprint, n, ranks, rank, lo, hi uint64
	depth, maxDepth, edges, frontier    uint64
}

// fields returns the header fields after the file's head.
func (h *distHeader) fields() []*uint64 {
	return []*uint64{&h.n, &h.ranks, &h.rank, &h.lo, &h.hi, &h.depth, &h.maxDepth, &h.edges, &h.frontier}
}

// distHeadLen is the length of a rank's file before its states.
const distHeadLen = headLen + 8*9

// header returns the header of this rank's file for the barrier before
// level depth.
func (d *distSolver) header(c *Checkpoint, depth, maxDepth, edges uint64) distHeader {
	return distHeader{fingerprint: c.fingerprintSum(), n: d.n,
		ranks: uint64(d.ranks), rank: uint64(d.comm.Rank()), lo: d.lo, hi: d.lo + uint64(len(d.state)),
		depth: depth, maxDepth: maxDepth, edges: edges}
}

// save writes every rank's checkpoint at the barrier before level depth
// (edges: walked so far, all ranks), and once all have, removes the
// older ones. Every rank calls it.
func (d *distSolver) save(c *Checkpoint, depth, maxDepth, edges uint64) error {
	return c.rankSaved(d.comm, depth, d.writeCheckpoint(c, d.header(c, depth, maxDepth, edges)))
}

// rankSaved ends a save that every rank made of its file for the barrier
// before level depth, werr being this rank's: once every rank has saved,
// each removes its older files, and rank 0 reports the save. Every rank
// calls it.
func (c *Checkpoint) rankSaved(comm Comm, depth uint64, werr error) error {
	rank, ranks := comm.Rank(), comm.Ranks()
	ok := uint64(0)
	if werr == nil {
		ok = 1
	}
	all, err := comm.Sum([]uint64{ok})
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	if all[0] != uint64(ranks) {
		return fmt.Errorf("engine: %d of %d ranks could not save the checkpoint at level %d", uint64(ranks)-all[0], ranks, depth)
	}
	for _, l := range c.rankLevels(rank, ranks) {
		if l != depth {
			os.Remove(c.rankFile(rank, ranks, l))
		}
	}
	c.last = time.Now()
	if c.Saved != nil && rank == 0 {
		c.Saved(depth)
	}
	return nil
}

// writeCheckpoint writes this rank's file.
func (d *distSolver) writeCheckpoint(c *Checkpoint, h distHeader) error {
	return c.writeChecked(c.rankFile(int(h.rank), int(h.ranks), h.depth), func(w *bufio.Writer) error {
		writeHead(w, c, distCheckpointMagic, distCheckpointVersion, h.fields())
		var b [4]byte
		for _, s := range d.state {
			binary.LittleEndian.PutUint32(b[:], s)
			w.Write(b[:])
		}
		if d.exits != nil {
			writeWords(w, d.exits.lanes.Words())
		}
		return nil
	})
}

// resume loads the checkpoint of the deepest level every rank saved, if
// there is one and every rank reads its file whole; otherwise the solve
// starts over (resumed false). Every rank calls it.
func (d *distSolver) resume(c *Checkpoint) (depth, maxDepth, edges uint64, resumed bool, err error) {
	var h distHeader
	depth, resumed, err = c.rankResume(d.comm, func(level uint64) bool {
		h, err := readDistHeader(c.rankFile(d.comm.Rank(), d.ranks, level))
		return err == nil && d.matches(c, h, level)
	}, func(level uint64) (err error) {
		h, err = d.load(c, level)
		return err
	})
	if err != nil || !resumed {
		// A rank's file is damaged or gone: start over, all of them.
		return 0, 0, 0, false, err
	}
	return depth, h.maxDepth, h.edges, true, nil
}

// rankResume finds the deepest level of which every rank has a file of
// this solve (matches says whether this rank's file of a level is) and has
// each rank load its file of that level (load); it returns the level and
// whether every rank loaded it, and rank 0 reports the level. With no such
// level, load is not called. Every rank calls it.
func (c *Checkpoint) rankResume(comm Comm, matches func(level uint64) bool, load func(level uint64) error) (uint64, bool, error) {
	// The deepest level of this rank's files, plus one (0: none); the
	// ranks agree on the smallest.
	var mine uint64
	for _, l := range c.rankLevels(comm.Rank(), comm.Ranks()) {
		if matches(l) {
			mine = l + 1
			break
		}
	}
	agreed, err := comm.Max([]uint64{math.MaxUint64 - mine})
	if err != nil {
		return 0, false, err
	}
	common := math.MaxUint64 - agreed[0]
	if common == 0 {
		return 0, false, nil
	}
	ok := uint64(0)
	if load(common-1) == nil {
		ok = 1
	}
	all, err := comm.Sum([]uint64{ok})
	if err != nil || all[0] != uint64(comm.Ranks()) {
		return 0, false, err
	}
	if c.Resumed != nil && comm.Rank() == 0 {
		c.Resumed(common - 1)
	}
	return common - 1, true, nil
}

// matches reports whether a rank's file of the given level is this
// solve's.
func (d *distSolver) matches(c *Checkpoint, h distHeader, level uint64) bool {
	want := d.header(c, level, h.maxDepth, h.edges)
	want.frontier = h.frontier
	return h == want
}

// readDistHeader reads the head and header fields of a rank's file,
// without checking its checksum (load does).
func readDistHeader(path string) (distHeader, error) {
	var h distHeader
	var err error
	h.fingerprint, err = readRankHead(path, distCheckpointMagic, distCheckpointVersion, h.fields(), "retro's distributed engine")
	return h, err
}

// readRankHead reads the head of a rank's file, which must be of the
// given magic (its engine's, named by what) and version, into fields, and
// returns its fingerprint's checksum.
func readRankHead(path, magic string, version uint64, fields []*uint64, what string) (uint64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	var head [headLen]byte
	if _, err := io.ReadFull(r, head[:]); err != nil || string(head[:8]) != magic {
		return 0, errors.New("not a checkpoint of " + what)
	}
	if v := binary.LittleEndian.Uint64(head[8:]); v != version {
		return 0, fmt.Errorf("format %d", v)
	}
	if err := readFields(r, fields); err != nil {
		return 0, errors.New("not a checkpoint of " + what)
	}
	return binary.LittleEndian.Uint64(head[16:]), nil
}

// load reads this rank's file of the level into its states and frontier,
// checking its checksum.
func (d *distSolver) load(c *Checkpoint, level uint64) (distHeader, error) {
	path := c.rankFile(d.comm.Rank(), d.ranks, level)
	h, err := readDistHeader(path)
	if err != nil {
		return h, err
	}
	if !d.matches(c, h, level) {
		return h, fmt.Errorf("checkpoint %s: of another solve", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return h, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return h, err
	}
	size := distHeadLen + 4*int64(len(d.state)) + 8*int64(h.frontier) + 4
	if d.exits != nil {
		size += 8 * int64(len(d.exits.lanes.Words()))
	}
	if st.Size() != size {
		return h, fmt.Errorf("checkpoint %s: %d bytes, want %d", path, st.Size(), size)
	}
	sum := crc32.New(crcTable)
	r := bufio.NewReaderSize(io.TeeReader(io.NewSectionReader(f, 0, size-4), sum), 1<<20)
	if _, err := r.Discard(distHeadLen); err != nil {
		return h, err
	}
	var b [4]byte
	for j := range d.state {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return h, err
		}
		d.state[j] = binary.LittleEndian.Uint32(b[:])
	}
	// Files of an older retro list the frontier, which is the positions
	// resolved at depth L.
	frontier := make([]uint64, h.frontier)
	if err := readWords(r, frontier); err != nil {
		return h, err
	}
	if d.exits != nil {
		if err := readWords(r, d.exits.lanes.Words()); err != nil {
			return h, err
		}
		d.exits.recount(nil)
	}
	if _, err := f.ReadAt(b[:], size-4); err != nil {
		return h, err
	}
	if binary.LittleEndian.Uint32(b[:]) != sum.Sum32() {
		return h, fmt.Errorf("checkpoint %s: damaged (its checksum is wrong)", path)
	}
	for _, p := range frontier {
		if p < h.lo || p >= h.hi {
			return h, fmt.Errorf("checkpoint %s: frontier position %d outside the rank's range", path, p)
		}
	}
	return h, nil
}
