package dobutsu

import (
	"math/bits"

	"github.com/retro-solver/retro/implicit"
)

// position is a position as the player to move (side 0) sees it.
type position struct {
	side [2]uint16          // squares of each side's pieces, lions included
	lion [2]int8            // each side's lion's square; side 0's is -1 once captured
	kind [4]uint16          // squares of the giraffes, elephants, chicks and hens of both sides
	hand [2][handKinds]int8 // pieces in hand, [side][giraffe, elephant, chick]
}

// lions returns the squares of the lions on the board.
func (p *position) lions() uint16 {
	m := uint16(1) << p.lion[1]
	if p.lion[0] >= 0 {
		m |= 1 << p.lion[0]
	}
	return m
}

// occupied returns the squares holding a piece.
func (p *position) occupied() uint16 { return p.side[0] | p.side[1] }

// flip returns the position as the other side sees it: the board turned by
// 180 degrees and the colours swapped.
func (p *position) flip() position {
	q := position{
		side: [2]uint16{rotate(p.side[1]), rotate(p.side[0])},
		lion: [2]int8{rotateSq(p.lion[1]), rotateSq(p.lion[0])},
		hand: [2][handKinds]int8{p.hand[1], p.hand[0]},
	}
	for k, m := range p.kind {
		q.kind[k] = rotate(m)
	}
	return q
}

func rotateSq(sq int8) int8 {
	if sq < 0 {
		return sq
	}
	return squares - 1 - sq
}

// mirrored returns the position's left-right mirror image.
func (p *position) mirrored() position {
	q := position{side: [2]uint16{mirror12[p.side[0]], mirror12[p.side[1]]}, hand: p.hand}
	for i, sq := range p.lion {
		q.lion[i] = sq
		if sq >= 0 {
			q.lion[i] = int8(mirrorSq(int(sq)))
		}
	}
	for k, m := range p.kind {
		q.kind[k] = mirror12[m]
	}
	return q
}

// pieceAt returns the kind of the non-lion piece on sq.
func (p *position) pieceAt(sq int8) int {
	b := uint16(1) << sq
	for k, m := range p.kind {
		if m&b != 0 {
			return k
		}
	}
	return lion
}

// piece is a piece of the board: its square and kind.
type piece struct {
	sq   int8
	kind int
}

// lionTakers returns side 0's pieces that can take their lion, out[:n]:
// those of the lion's neighbours that step onto its square. (An array, not
// a slice: the hot paths that call it allocate nothing.)
func (p *position) lionTakers() (out [8]piece, n int) {
	for m := from[lion][p.lion[1]] & p.side[0]; m != 0; m &= m - 1 {
		y := int8(bits.TrailingZeros16(m))
		if k := p.pieceOn(y); from[k][p.lion[1]]>>y&1 != 0 {
			out[n] = piece{y, k}
			n++
		}
	}
	return out, n
}

// pieceOn returns the kind of the piece on sq, the lions included.
func (p *position) pieceOn(sq int8) int {
	if p.lion[0] == sq || p.lion[1] == sq {
		return lion
	}
	return p.pieceAt(sq)
}

// attacked reports whether a piece of side 0 could step onto sq.
func (p *position) attacked(sq int8) bool {
	if p.lion[0] >= 0 && from[lion][sq]>>p.lion[0]&1 != 0 {
		return true
	}
	for k, m := range p.kind {
		if from[k][sq]&m&p.side[0] != 0 {
			return true
		}
	}
	return false
}

// classify returns the game's classification of p, side 0 to move.
func (p *position) classify() implicit.Kind {
	switch {
	case p.lion[0] < 0:
		return implicit.TerminalLoss // our lion was captured
	case p.lion[0] < cols:
		return implicit.TerminalWin // our lion reached their home row and survived
	case p.lion[1] >= squares-cols && !p.attacked(p.lion[1]):
		return implicit.TerminalLoss // theirs reached ours and cannot be taken
	}
	return implicit.Inner
}
