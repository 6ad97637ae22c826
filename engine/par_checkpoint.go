package engine

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"runtime"
	"time"

	"github.com/retro-solver/retro/bitset"
)

// A parallel solve's checkpoint (RETROCK1). At the barrier before level d
// the whole state is the lanes (each position's code and count or depth),
// the frontier of level d, and for an ExitGame the depths its lanes do
// not hold (deepDepths: a lane, if it has one, and a list) and the lists
// of its exits' actions not yet read (exitLists.save).
// Format 1 kept an ExitGame's actions and depths in lanes of their own.
const (
	parCheckpointMagic   = "RETROCK1"
	parCheckpointVersion = 2
)

// parHeader is what a parallel checkpoint says besides its arrays.
type parHeader struct {
	n, depth, maxDepth, edges uint64
	// The lanes' bits; for an ExitGame, savedExits, with alternateExits
	// where its actions are coded as an Alternating game's, and its deep
	// lane's bits (0: none yet); 0 for another game.
	width, exits uint64
}

// The flags of parHeader.exits.
const (
	alternateExits = 1 << 8
	savedExits     = 1 << 9
)

func (h *parHeader) fields() []*uint64 {
	return []*uint64{&h.n, &h.depth, &h.maxDepth, &h.edges, &h.width, &h.exits}
}

// save writes the solver's state at the barrier before level depth.
func (s *parSolver) save(depth, maxDepth uint64) error {
	c := s.ckpt
	st := parHeader{n: s.n, depth: depth, maxDepth: maxDepth, width: uint64(s.lanes.Width())}
	for i := range s.bufs {
		st.edges += s.bufs[i].edges
	}
	if s.exits != nil {
		st.exits = savedExits | uint64(s.deep.lane.Width())
		if s.exits.codes.alternate {
			st.exits |= alternateExits
		}
	}
	front := bitset.NewSet(s.n)
	if s.cur.Dense() {
		copy(front.Words(), s.cur.Set().Words())
	} else {
		for _, p := range s.cur.List() {
			front.Add(p)
		}
	}
	return c.saveLevel(depth, func(w *bufio.Writer) error {
		writeHead(w, c, parCheckpointMagic, parCheckpointVersion, st.fields())
		writeWords(w, s.lanes.Words())
		writeWords(w, front.Words())
		// front's words are mapped outside the Go heap and unmapped once
		// front is unreachable: keep it until they are written (a
		// collection during the write faulted, on a 242M-position tier).
		runtime.KeepAlive(front)
		if s.exits == nil {
			return nil
		}
		writeWords(w, s.deep.lane.Words())
		writeWords(w, []uint64{uint64(len(s.deep.list))})
		writeWords(w, s.deep.list)
		return s.exits.save(w)
	})
}

// laneWidthOK reports whether lanes saved of the given width can be those
// of a solve that starts with lanes of width start: as wide or wider.
func laneWidthOK(saved, start uint64) bool {
	return saved == start || saved > start && (saved == 16 || saved == 32)
}

// resumeDeep reads the deep depths: their lane, if the checkpoint has
// one, and their list.
func (s *parSolver) resumeDeep(r io.Reader) error {
	var k [1]uint64
	if readWords(r, s.deep.lane.Words()) != nil || readWords(r, k[:]) != nil {
		return errors.New("truncated")
	}
	if k[0] > s.n/deepListShare {
		return fmt.Errorf("%d deep positions listed, more than a list holds", k[0])
	}
	s.deep.list = make([]uint64, k[0])
	if readWords(r, s.deep.list) != nil {
		return errors.New("truncated")
	}
	return nil
}

// resume loads the state saved in the checkpoint file, if there is one,
// into the solver: its lanes, the frontier as the current one, the deep
// depths and the exits' lists; it returns the level to expand next and
// the deepest so far. It returns errNoCheckpoint if there is no file, and an error naming the
// problem if the file is of another solve or damaged.
func (s *parSolver) resume() (depth, maxDepth uint64, err error) {
	c := s.ckpt
	var saved parHeader
	r, done, err := openChecked(c, parCheckpointMagic, parCheckpointVersion, saved.fields())
	if err != nil {
		return 0, 0, err
	}
	defer done()
	fail := func(format string, args ...any) (uint64, uint64, error) { return 0, 0, c.errorf(format, args...) }
	flags, deepWidth := saved.exits&^0xff, saved.exits&0xff
	want := uint64(0)
	if s.exits != nil {
		want = savedExits
		if s.exits.codes.alternate {
			want |= alternateExits
		}
	}
	// Lanes may have been widened for deeper levels than the solve starts
	// with: never narrowed.
	if saved.n != s.n || !laneWidthOK(saved.width, uint64(s.lanes.Width())) || flags != want ||
		deepWidth != 0 && deepWidth != 8 && deepWidth != 16 && deepWidth != 32 {
		return fail("saved for %d positions (lanes of %d bits, exits %#x), this solve has %d (%d, %#x)",
			saved.n, saved.width, saved.exits, s.n, s.lanes.Width(), want)
	}
	if uint(saved.width) != s.lanes.Width() {
		s.lanes = bitset.NewCounters(s.n, uint(saved.width))
		s.ws.keepLanes(s.lanes)
	}
	s.setWidth(uint(saved.width))
	if deepWidth != 0 {
		s.deep.setLane(bitset.NewCounters(s.n, uint(deepWidth)))
	}
	front := bitset.NewSet(s.n)
	err = readWords(r, s.lanes.Words())
	if err == nil {
		err = readWords(r, front.Words())
	}
	if err != nil {
		err = errors.New("truncated")
	}
	if err == nil && s.exits != nil {
		err = s.resumeDeep(r)
	}
	if err != nil {
		return fail("%v", err)
	}
	if s.exits != nil {
		if err := s.exits.restore(r); err != nil {
			return fail("%v", err)
		}
	}
	if _, err := r.ReadByte(); err != io.EOF {
		return fail("longer than its solve's state")
	}
	s.cur.Reset()
	s.resumedFrontier = 0
	for wi, x := range front.Words() {
		for ; x != 0; x &= x - 1 {
			s.cur.Emit(0, uint64(wi)<<6|uint64(bits.TrailingZeros64(x)))
			s.resumedFrontier++
		}
	}
	runtime.KeepAlive(front) // its words are unmapped once it is unreachable
	s.bufs[0].edges = saved.edges
	c.last = time.Now()
	return saved.depth, saved.maxDepth, nil
}
