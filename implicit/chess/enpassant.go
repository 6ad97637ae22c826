package chess

// En passant (GAMES.md, chess): a stored position has no en-passant
// right, but a double step after which the opponent can take the pawn en
// passant leads to a node of its own, the position with its EP square
// set: its moves are the position's and the capture. Such a node is
// reached from one position only (the double step's), and is indexed in
// regions after the stored positions (see Endgame.epCanonical).

// pawnStep returns the step of a pawn of colour c: +8 for White, -8 for
// Black.
func pawnStep(c Color) int {
	if c == White {
		return 8
	}
	return -8
}

// doubleRank returns the rank a pawn of colour c reaches with a double
// step: the fourth (index 3) for White, the fifth for Black.
func doubleRank(c Color) int {
	if c == White {
		return 3
	}
	return 4
}

// attackedAfter reports whether a piece of side by attacks square s when
// the board's occupied squares are all, p's piece on from stands on to,
// and p's piece on gone (NoSquare for none) has left the board.
func (p *Position) attackedAfter(s Square, by Color, all Bitboard, from, to, gone Square) bool {
	for _, pc := range p.List() {
		sq := pc.Square
		switch sq {
		case gone:
			continue
		case from:
			sq = to
		}
		if pc.Color == by && hits(pc.Kind, by, sq, s, all) {
			return true
		}
	}
	return false
}

// enPassant appends the squares at which the side to move in p could take
// en passant, were the pawn beyond to have made its double step on the
// move just played: a pawn of the other side on its double step's rank,
// the two squares behind it empty, the position before the step legal
// (the side to move not in check there), and a pawn of the side to move
// beside it whose capture leaves its king safe. p.EP is not looked at.
func (p *Position) enPassant(dst []Square) []Square {
	us := p.Turn
	them := us.Other()
	all := p.occupied()
	king := p.king(us)
	for _, pc := range p.List() {
		if pc.Color != them || pc.Kind != Pawn || pc.Square.Rank() != doubleRank(them) {
			continue
		}
		skip := Square(int(pc.Square) - pawnStep(them))
		origin := Square(int(skip) - pawnStep(them))
		if all.Has(skip) || all.Has(origin) ||
			p.attackedAfter(king, them, all&^Bit(pc.Square)|Bit(origin), pc.Square, origin, NoSquare) {
			continue
		}
		for _, c := range p.List() {
			if c.Color == us && c.Kind == Pawn && pawnAttacks[us][c.Square].Has(skip) && p.epSafe(c.Square, skip, king, all) {
				dst = append(dst, skip)
				break
			}
		}
	}
	return dst
}

// epSafe reports whether the capture en passant of the pawn of p's side to
// move on from, to square skip, leaves its king (on king) safe; all is
// p's occupied squares.
func (p *Position) epSafe(from, skip, king Square, all Bitboard) bool {
	taken := Square(int(skip) + pawnStep(p.Turn.Other()))
	after := all&^Bit(from)&^Bit(taken) | Bit(skip)
	return !p.attackedAfter(king, p.Turn.Other(), after, from, skip, taken)
}

// hasEP reports whether p.EP is one of p's en-passant squares.
func (p *Position) hasEP() bool {
	var buf [4]Square
	for _, s := range p.enPassant(buf[:0]) {
		if s == p.EP {
			return true
		}
	}
	return false
}

// hasPawn reports whether side c has a pawn on p.
func (p *Position) hasPawn(c Color) bool {
	for _, pc := range p.List() {
		if pc.Kind == Pawn && pc.Color == c {
			return true
		}
	}
	return false
}

// bothPawns reports whether both sides have a pawn: only then can a
// position of p's material be an en-passant node.
func (p *Position) bothPawns() bool {
	var has [2]bool
	for _, pc := range p.List() {
		if pc.Kind == Pawn {
			has[pc.Color] = true
		}
	}
	return has[0] && has[1]
}

// pawnOnDoubleRank reports whether a pawn of side c stands on its double
// step's rank. Only then can a position one move before p, the other side
// to move, be an en-passant node (c's pawn having just stepped there), as
// the other side's un-moves leave c's pawns in place.
func (p *Position) pawnOnDoubleRank(c Color) bool {
	for _, pc := range p.List() {
		if pc.Kind == Pawn && pc.Color == c && pc.Square.Rank() == doubleRank(c) {
			return true
		}
	}
	return false
}

// epChances is what a position one un-move before p (the other side to
// move) needs to be an en-passant node, p's side to move having just made
// a double step into it: for each pawn of p's side to move on its double
// step's rank, the square it passed over and the one it came from, both
// empty there, and the squares from which a pawn of the other side would
// take it (one must be there). pawns is the other side's pawns in p.
type epChances struct {
	n            int
	skip, origin [8]Square
	takers       [8]Bitboard
	pawns        Bitboard
}

// epChances returns p's epChances.
func (p *Position) epChances() epChances {
	var c epChances
	us := p.Turn
	for _, pc := range p.List() {
		switch {
		case pc.Kind != Pawn:
		case pc.Color != us:
			c.pawns |= Bit(pc.Square)
		case pc.Square.Rank() == doubleRank(us):
			skip := Square(int(pc.Square) - pawnStep(us))
			c.skip[c.n], c.origin[c.n] = skip, Square(int(skip)-pawnStep(us))
			c.takers[c.n] = pawnAttacks[us][skip]
			c.n++
		}
	}
	return c
}

// possible reports whether the position before p's un-move of a piece of
// the side that moved last from to back to from (pawn: a pawn), without
// a capture, can be an en-passant node: a filter for withEP's search,
// which the position must pass. all is p's occupied squares.
func (c *epChances) possible(from, to Square, pawn bool, all Bitboard) bool {
	before := all&^Bit(to) | Bit(from)
	pawns := c.pawns
	if pawn {
		pawns = pawns&^Bit(to) | Bit(from)
	}
	for k := range c.n {
		if !before.Has(c.skip[k]) && !before.Has(c.origin[k]) && pawns&c.takers[k] != 0 {
			return true
		}
	}
	return false
}

// withEP appends u, and u with each en-passant square of the position
// before it: the un-moves that reach the same position from a node with
// an en-passant right. check is false where p's material cannot have one.
func (p *Position) withEP(dst []unmove, u unmove, check bool) []unmove {
	dst = append(dst, u)
	if !check {
		return dst
	}
	q := p.unplay(u)
	var buf [4]Square
	for _, s := range q.enPassant(buf[:0]) {
		dst = append(dst, unmove{u.j, u.from, s})
	}
	return dst
}

// epCanonical returns the index of the en-passant node p (p.EP set): the
// smallest among its images (the mirror: a material with pawns on both
// sides) of 2*half + r*half + the index of the image with the pawn that
// made the double step put back on the square it passed over, without
// the side to move (which region r implies), where r is that pawn's
// slot's region (epSlots).
func (e *Endgame) epCanonical(p *Position) (uint64, bool) {
	best, found := uint64(0), false
	for t := range e.syms {
		img := p.image(t)
		skip := img.EP
		pawn := img.slot(Square(int(skip) + pawnStep(img.Turn.Other())))
		img.Pieces[pawn].Square = skip
		img.EP = 0
		img.Sort()
		r := e.epRegion[img.slot(skip)]
		i, ok := e.encode(&img)
		if !ok || r < 0 {
			continue
		}
		if i = 2*e.half + uint64(r)*e.half + i%e.half; !found || i < best {
			best, found = i, true
		}
	}
	return best, found
}
