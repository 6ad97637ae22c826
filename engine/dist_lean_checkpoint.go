package engine

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

// A lean rank's checkpoint (RETRODL1) is one file per rank and level
// saved, Path.rank-R-of-N.level-L, as the distributed engine's are (see
// dist_checkpoint.go: all ranks save at the same barrier, each removes its
// older files once every rank has saved, a solve goes on from the deepest
// level all saved): at the barrier before level L, the rank's nibbles (the
// frontier bit of level L on the positions to expand next), what the
// levels before counted (the histogram, the longest positions, the edges
// of all ranks) and the directory of its depths' file,
// Path.rank-R-of-N.depths, which the solve cuts back to the length the
// checkpoint knows when it goes on.
const (
	distLeanCheckpointMagic   = "RETRODL1"
	distLeanCheckpointVersion = 1
)

// rankDepths returns the depths' file of a lean rank that keeps
// checkpoints.
func (c *Checkpoint) rankDepths(rank, ranks int) string {
	return fmt.Sprintf("%s.rank-%d-of-%d.depths", c.Path, rank, ranks)
}

// leanRankHeader is what a lean rank's checkpoint says besides its arrays.
type leanRankHeader struct {
	fingerprint, n, ranks, rank, lo, hi uint64
	depth, edges, claimed               uint64
	longestWin, longestLoss             uint64 // depth+1 of the longest, 0: none
	lowestWin, lowestLoss               uint64
	logSize, logRecords                 uint64
}

func (h *leanRankHeader) fields() []*uint64 {
	return []*uint64{&h.n, &h.ranks, &h.rank, &h.lo, &h.hi, &h.depth, &h.edges, &h.claimed,
		&h.longestWin, &h.longestLoss, &h.lowestWin, &h.lowestLoss, &h.logSize, &h.logRecords}
}

// header returns this rank's header for the barrier before level depth.
func (s *leanRank) header(c *Checkpoint, depth uint64, t *rankTally) leanRankHeader {
	return leanRankHeader{fingerprint: c.fingerprintSum(), n: s.n, ranks: uint64(s.ranks), rank: uint64(s.me),
		lo: s.lo, hi: s.hi, depth: depth, edges: s.edgesBefore + s.edges(), claimed: s.claimed(),
		longestWin: t.longest[0], longestLoss: t.longest[1], lowestWin: t.lowest[0], lowestLoss: t.lowest[1],
		logSize: uint64(s.log.off), logRecords: uint64(len(s.log.recs))}
}

// save writes every rank's checkpoint at the barrier before level depth
// and, once all have, removes the older ones. Every rank calls it.
func (s *leanRank) save(c *Checkpoint, depth uint64, t *rankTally) error {
	werr := s.log.sync() // the levels the checkpoint counts on are on disk before it
	if werr == nil {
		h := s.header(c, depth, t)
		werr = c.writeChecked(c.rankFile(s.me, s.ranks, depth), func(w *bufio.Writer) error {
			writeHead(w, c, distLeanCheckpointMagic, distLeanCheckpointVersion, h.fields())
			writeWords(w, t.wins[:depth])
			writeWords(w, t.losses[:depth])
			for _, r := range s.log.recs {
				writeWords(w, []uint64{r.seg, uint64(r.off), uint64(r.length), uint64(r.depth)})
			}
			writeWords(w, s.nibs.Words())
			return nil
		})
	}
	return c.rankSaved(s.comm, depth, werr)
}

// resume loads the checkpoint of the deepest level every rank saved into
// the rank's nibbles and t, and opens its depths' file, if there is one
// and every rank reads its file whole; otherwise the solve starts over
// (resumed false) with an empty depths' file. Every rank calls it.
func (s *leanRank) resume(c *Checkpoint, t *rankTally) (depth uint64, resumed bool, err error) {
	depth, resumed, err = c.rankResume(s.comm, func(level uint64) bool {
		h, err := readLeanRankHeader(c.rankFile(s.me, s.ranks, level))
		return err == nil && s.matches(c, h, level)
	}, func(level uint64) error {
		_, err := s.load(c, level, t)
		return err
	})
	if err != nil || resumed {
		return depth, resumed, err
	}
	// None saved, or a rank's file is damaged or gone: start over, all of
	// them.
	clear(s.nibs.Words())
	*t = rankTally{}
	s.edgesBefore, s.bufs[0].claims = 0, 0
	s.log, err = openDepthLog(c.rankDepths(s.me, s.ranks), 0, nil)
	return 0, false, err
}

// matches reports whether a rank's file of the given level is this
// solve's.
func (s *leanRank) matches(c *Checkpoint, h leanRankHeader, level uint64) bool {
	return h.fingerprint == c.fingerprintSum() && h.n == s.n && h.ranks == uint64(s.ranks) && h.rank == uint64(s.me) &&
		h.lo == s.lo && h.hi == s.hi && h.depth == level
}

// readLeanRankHeader reads the head and header fields of a lean rank's
// file, without checking its checksum (load does).
func readLeanRankHeader(path string) (leanRankHeader, error) {
	var h leanRankHeader
	var err error
	h.fingerprint, err = readRankHead(path, distLeanCheckpointMagic, distLeanCheckpointVersion, h.fields(), "retro's lean ranks")
	return h, err
}

// load reads this rank's file of the level, checking its checksum, and
// opens its depths' file at the length it knows.
func (s *leanRank) load(c *Checkpoint, level uint64, t *rankTally) (leanRankHeader, error) {
	path := c.rankFile(s.me, s.ranks, level)
	h, err := readLeanRankHeader(path)
	if err != nil {
		return h, err
	}
	if !s.matches(c, h, level) {
		return h, fmt.Errorf("checkpoint %s: of another solve", path)
	}
	if h.depth > 1<<32 || h.logRecords > 1<<40/32 || h.claimed == 0 {
		return h, fmt.Errorf("checkpoint %s: damaged (its header is out of range)", path)
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
	words := uint64(len(s.nibs.Words()))
	size := int64(headLen) + 8*int64(len(h.fields())) + 8*int64(2*h.depth+4*h.logRecords+words) + 4
	if st.Size() != size {
		return h, fmt.Errorf("checkpoint %s: %d bytes, want %d", path, st.Size(), size)
	}
	sum := crc32.New(crcTable)
	r := bufio.NewReaderSize(io.TeeReader(io.NewSectionReader(f, 0, size-4), sum), 1<<20)
	if _, err := r.Discard(headLen + 8*len(h.fields())); err != nil {
		return h, err
	}
	wins, losses := make([]uint64, h.depth), make([]uint64, h.depth)
	recs := make([]depthRecord, h.logRecords)
	if err := readWords(r, wins); err != nil {
		return h, err
	}
	if err := readWords(r, losses); err != nil {
		return h, err
	}
	var w [4]uint64
	for k := range recs {
		if err := readWords(r, w[:]); err != nil {
			return h, err
		}
		recs[k] = depthRecord{seg: w[0], off: int64(w[1]), length: uint32(w[2]), depth: uint32(w[3])}
	}
	if err := readWords(r, s.nibs.Words()); err != nil {
		return h, err
	}
	var b [4]byte
	if _, err := f.ReadAt(b[:], size-4); err != nil {
		return h, err
	}
	if binary.LittleEndian.Uint32(b[:]) != sum.Sum32() {
		return h, fmt.Errorf("checkpoint %s: damaged (its checksum is wrong)", path)
	}
	if s.log, err = openDepthLog(c.rankDepths(s.me, s.ranks), int64(h.logSize), recs); err != nil {
		return h, err
	}
	*t = rankTally{wins: wins, losses: losses, longest: [2]uint64{h.longestWin, h.longestLoss},
		lowest: [2]uint64{h.lowestWin, h.lowestLoss}}
	s.edgesBefore = h.edges
	s.bufs[0].claims = h.claimed
	return h, nil
}
