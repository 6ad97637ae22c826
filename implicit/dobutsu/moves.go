package dobutsu

import (
	"math/bits"

	"github.com/retro-solver/retro/implicit"
)

// Classify returns the kind of index s.
func (g *Game) Classify(s uint64) implicit.Kind {
	p, ok := g.decode(s)
	if !ok {
		return implicit.Illegal
	}
	return p.classify()
}

// Moves appends the positions s moves to, each once.
func (g *Game) Moves(s uint64, dst []uint64) []uint64 {
	p, _ := g.decode(s)
	if p.classify() != implicit.Inner {
		return dst
	}
	start := len(dst)
	emit := func(q *position) {
		f := q.flip()
		dst = append(dst, g.index(&f))
	}
	empty := all &^ p.occupied()
	if takers, n := p.lionTakers(); n > 0 {
		// Taking their lion wins at once: it is the only move kept.
		for _, tk := range takers[:n] {
			q := p.step(tk.sq, p.lion[1], tk.kind)
			emit(&q)
		}
		if n > 1 {
			dst = append(dst[:start], implicit.SortedSet(dst[start:])...)
		}
		return dst
	}
	g.eachStep(&p, func(y, x int8, k int) {
		q := p.step(y, x, k)
		emit(&q)
	})
	for _, k := range g.kinds {
		if p.hand[0][k] == 0 {
			continue
		}
		for m := empty; m != 0; m &= m - 1 {
			q := p
			q.hand[0][k]--
			q.put(0, int8(bits.TrailingZeros16(m)), k)
			emit(&q)
		}
	}
	if g.mayRepeat(&p) {
		dst = append(dst[:start], implicit.SortedSet(dst[start:])...)
	}
	return dst
}

// mayRepeat reports whether two moves of p (or two un-moves) may lead to
// mirror images of each other, one index: only if p's lions are both in the
// middle column (see NumMoves). Two captures of their lion may too (the
// lone lions' squares can match): Moves and count sort those apart.
func (g *Game) mayRepeat(p *position) bool {
	return g.classes[g.classOf[p.lion[0]+1][p.lion[1]]].selfMirror
}

// step returns p after side 0's piece of kind k on y steps to x: a capture
// puts the piece taken in our hand (a hen as a chick; a lion leaves the
// board), and a chick reaching the far row is promoted.
func (p *position) step(y, x int8, k int) position {
	q := *p
	by, bx := uint16(1)<<y, uint16(1)<<x
	q.side[0] ^= by | bx
	if p.side[1]&bx != 0 {
		q.side[1] &^= bx
		if p.lion[1] == x {
			q.lion[1] = -1
		} else {
			c := p.pieceAt(x)
			q.kind[c] &^= bx
			q.hand[0][min(c, chick)]++
		}
	}
	if k == lion {
		q.lion[0] = x
	} else {
		q.kind[k] ^= by
		if k == chick && x < cols {
			k = hen
		}
		q.kind[k] |= bx
	}
	return q
}

// eachStep calls f for each step of a piece of side 0: from y to x, the
// piece's kind before the step.
func (g *Game) eachStep(p *position, f func(y, x int8, k int)) {
	p.eachPiece(func(y int8, k int) {
		for m := step[k][y] &^ p.side[0]; m != 0; m &= m - 1 {
			f(y, int8(bits.TrailingZeros16(m)), k)
		}
	})
}

// eachPiece calls f for each piece of side 0 on the board: its square and
// kind, the lion first.
func (p *position) eachPiece(f func(sq int8, k int)) {
	if p.lion[0] >= 0 {
		f(p.lion[0], lion)
	}
	for k, km := range p.kind {
		for m := km & p.side[0]; m != 0; m &= m - 1 {
			f(int8(bits.TrailingZeros16(m)), k)
		}
	}
}

// put places a piece of the given side and kind (a lion included) on the
// empty square sq.
func (p *position) put(side int, sq int8, k int) {
	p.side[side] |= 1 << sq
	if k == lion {
		p.lion[side] = sq
	} else {
		p.kind[k] |= 1 << sq
	}
}

// NumMoves returns the number of distinct positions s moves to. Distinct
// moves lead to distinct positions; they can only lead to mirror images of
// each other, counted once in the index, if the two lions are in the middle
// column (both moves keep the lions, or one moves ours: its column would
// have to change by two) or if both capture their lion (the lone lions'
// squares can match). Those positions list their moves; the others count
// them, with no index to compute.
func (g *Game) NumMoves(s uint64) uint64 {
	p, _ := g.decode(s)
	if p.classify() != implicit.Inner {
		return 0
	}
	return g.count(s, &p)
}

// ClassifyCount returns Classify(s) and NumMoves(s), decoding s once.
func (g *Game) ClassifyCount(s uint64) (implicit.Kind, uint64) {
	p, ok := g.decode(s)
	if !ok {
		return implicit.Illegal, 0
	}
	if k := p.classify(); k != implicit.Inner {
		return k, 0
	}
	return implicit.Inner, g.count(s, &p)
}

// count returns the number of moves of p, the inner position at index s.
func (g *Game) count(s uint64, p *position) uint64 {
	if takers, n := p.lionTakers(); n > 0 {
		// Only the captures of their lion: distinct unless two lead to
		// mirror images, which only their indices tell.
		if n == 1 {
			return 1
		}
		var to [8]uint64
		for i, tk := range takers[:n] {
			q := p.step(tk.sq, p.lion[1], tk.kind)
			f := q.flip()
			to[i] = g.index(&f)
		}
		return uint64(len(implicit.SortedSet(to[:n])))
	}
	if g.mayRepeat(p) {
		return uint64(len(g.Moves(s, make([]uint64, 0, 80))))
	}
	n := uint64(0)
	g.eachStep(p, func(y, x int8, k int) { n++ })
	empty := uint64(bits.OnesCount16(all &^ p.occupied()))
	for _, k := range g.kinds {
		if p.hand[0][k] > 0 {
			n += empty
		}
	}
	return n
}

// Unmoves appends the positions that move to t, each once.
func (g *Game) Unmoves(t uint64, dst []uint64) []uint64 {
	p, _ := g.decode(t)
	// u.q: t as the player who just moved sees it (side 0); its un-moves
	// give positions with side 0 to move, as the index keeps them.
	u := unmover{g: g, q: p.flip(), dst: dst}
	u.lionTaken = u.q.lion[1] < 0
	empty := all &^ u.q.occupied()
	u.q.eachPiece(func(x int8, k int) {
		switch {
		case k == chick && x < cols:
			// A chick on the far row was dropped there: a step would have promoted it.
		case k == hen && x < cols:
			for m := from[hen][x] & empty; m != 0; m &= m - 1 {
				u.back(x, k, int8(bits.TrailingZeros16(m)), hen)
			}
			if y := x + cols; empty>>y&1 != 0 {
				u.back(x, k, y, chick) // the chick promoted on arrival
			}
		default:
			for m := from[k][x] & empty; m != 0; m &= m - 1 {
				u.back(x, k, int8(bits.TrailingZeros16(m)), k)
			}
		}
		if !u.lionTaken && k < hen {
			r := u.q
			r.side[0] &^= 1 << x
			r.kind[k] &^= 1 << x
			r.hand[0][k]++
			u.emit(&r) // un-dropped
		}
	})
	if g.mayRepeat(&p) {
		u.dst = append(u.dst[:len(dst)], implicit.Distinct(u.dst[len(dst):])...)
	}
	return u.dst
}

// unmover lists the un-moves of q, a position as the player who just moved
// (side 0) sees it.
type unmover struct {
	g         *Game
	q         position
	lionTaken bool // side 1's lion was just taken: every un-move puts it back
	dst       []uint64
}

// emit appends r, a predecessor with side 0 to move, if the game lets it
// move: it is not over, and it could not have taken side 1's lion instead
// (a player who can take the lion does), unless the move took it.
func (u *unmover) emit(r *position) {
	if r.classify() == implicit.Inner && (u.lionTaken || !r.attacked(r.lion[1])) {
		u.dst = append(u.dst, u.g.index(r))
	}
}

// back emits the predecessors where side 0's piece of kind k on x came from
// y as a piece of kind was: x was empty, or held a piece of side 1 taken
// from it (one of each kind in side 0's hand; a chick in hand may have been
// a hen; the lion, if it was just taken).
func (u *unmover) back(x int8, k int, y int8, was int) {
	r := u.q
	r.side[0] ^= 1<<x | 1<<y
	if k == lion {
		r.lion[0] = y
	} else {
		r.kind[k] &^= 1 << x
		r.kind[was] |= 1 << y
	}
	if u.lionTaken {
		r.put(1, x, lion)
		u.emit(&r)
		return
	}
	u.emit(&r)
	for c := range handKinds {
		if u.q.hand[0][c] > 0 {
			u.uncapture(r, x, c, c)
			if c == chick {
				u.uncapture(r, x, c, hen)
			}
		}
	}
}

// uncapture emits r with side 1's piece of kind taken back on x from side
// 0's hand, where it went as kind c.
func (u *unmover) uncapture(r position, x int8, c, taken int) {
	r.hand[0][c]--
	r.put(1, x, taken)
	u.emit(&r)
}
