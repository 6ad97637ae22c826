package engine

import (
	"bufio"
	"io"
	"math/bits"
	"runtime"
	"time"

	"github.com/retro-solver/retro/bitset"
)

// A parallel solve's checkpoint (RETROCK1). At the barrier before level d
// the whole state is the lanes (each position's code and count or depth),
// the frontier of level d, and for an ExitGame the exits' lanes.
const (
	parCheckpointMagic   = "RETROCK1"
	parCheckpointVersion = 1
)

// parHeader is what a parallel checkpoint says besides its arrays.
type parHeader struct {
	n, depth, maxDepth, edges uint64
	// The lanes' bits; the exits' (0: no exits), with alternateExits set
	// where they are coded as an Alternating game's (files of a retro
	// before that coding never have it).
	width, exitWidth uint64
}

// alternateExits marks a checkpoint's exits' lanes coded as an
// Alternating game's, in its exitWidth.
const alternateExits = 1 << 8

func (h *parHeader) fields() []*uint64 {
	return []*uint64{&h.n, &h.depth, &h.maxDepth, &h.edges, &h.width, &h.exitWidth}
}

// save writes the solver's state at the barrier before level depth.
func (s *parSolver) save(depth, maxDepth uint64) error {
	c := s.ckpt
	st := parHeader{n: s.n, depth: depth, maxDepth: maxDepth, width: uint64(s.lanes.Width())}
	for i := range s.bufs {
		st.edges += s.bufs[i].edges
	}
	if s.exits != nil {
		st.exitWidth = uint64(s.exits.lanes.Width())
		if s.exits.alternate {
			st.exitWidth |= alternateExits
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
	return c.saveLevel(depth, func(w *bufio.Writer) {
		writeHead(w, c, parCheckpointMagic, parCheckpointVersion, st.fields())
		writeWords(w, s.lanes.Words())
		writeWords(w, front.Words())
		// front's words are mapped outside the Go heap and unmapped once
		// front is unreachable: keep it until they are written (a
		// collection during the write faulted, on a 242M-position tier).
		runtime.KeepAlive(front)
		if s.exits != nil {
			writeWords(w, s.exits.lanes.Words())
		}
	})
}

// laneWidthOK reports whether lanes saved of the given width can be those
// of a solve that starts with lanes of width start: as wide or wider.
func laneWidthOK(saved, start uint64) bool {
	return saved == start || saved > start && (saved == 16 || saved == 32)
}

// resume loads the state saved in the checkpoint file, if there is one,
// into the solver: its lanes, the frontier as the current one, the exits'
// lanes; it returns the level to expand next and the deepest so far. It
// returns errNoCheckpoint if there is no file, and an error naming the
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
	exitWidth := uint64(0)
	if s.exits != nil {
		exitWidth = uint64(s.exits.lanes.Width())
	}
	// Lanes may have been widened for deeper levels than the solve starts
	// with: never narrowed. The exits' keep the coding they were saved in
	// (an older retro's, in a game that now alternates: then as wide as
	// that coding needs, which may be wider than this solve's start).
	alternate := saved.exitWidth&alternateExits != 0
	saved.exitWidth &^= alternateExits
	if s.exits != nil && alternate != s.exits.alternate {
		exitWidth = uint64((&exitEvents{alternate: alternate}).width(s.g.(ExitGame).MaxExitDepth()))
	}
	if saved.n != s.n || !laneWidthOK(saved.width, uint64(s.lanes.Width())) || !laneWidthOK(saved.exitWidth, exitWidth) ||
		(exitWidth == 0) != (saved.exitWidth == 0) || alternate && s.exits == nil {
		return fail("saved for %d positions (lanes of %d bits, exits' of %d), this solve has %d (%d, %d)",
			saved.n, saved.width, saved.exitWidth, s.n, s.lanes.Width(), exitWidth)
	}
	if uint(saved.width) != s.lanes.Width() {
		s.lanes = bitset.NewCounters(s.n, uint(saved.width))
		s.ws.keepLanes(s.lanes)
		s.setWidth(uint(saved.width))
	}
	if s.exits != nil && (saved.exitWidth != uint64(s.exits.lanes.Width()) || alternate != s.exits.alternate) {
		s.exits.alternate = alternate
		s.exits.setLanes(bitset.NewCounters(s.n, uint(saved.exitWidth)))
	}
	front := bitset.NewSet(s.n)
	err = readWords(r, s.lanes.Words())
	if err == nil {
		err = readWords(r, front.Words())
	}
	if err == nil && s.exits != nil {
		err = readWords(r, s.exits.lanes.Words())
	}
	if err != nil {
		return fail("truncated")
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
