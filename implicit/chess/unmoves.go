package chess

// The game's un-moves: within a material (a piece's squares stepped back
// to by plain arithmetic where the index allows), and from the larger
// materials (un-captures, un-promotions), each class once.

// Unmoves appends the classes with a move to t, each once: moves within
// its material, and captures and promotions from the game's larger
// materials. A class's moves are played from its position as the game
// keeps it, and reach a position that is looked up turned over (flip)
// where its material is kept the other way round. So a capture that
// reaches t's position comes from a parent's position kept as it is, or,
// where t's material differs from its colour swap, turned over; and one
// that reaches t's position turned over (which is looked up as t) comes
// from either.
func (g *Game) Unmoves(t uint64, dst []uint64) []uint64 {
	return g.unmoves(t, true, dst)
}

// TierUnmoves appends the un-moves of t within its tier: Unmoves without
// the captures and promotions and, in a material with pawns, the pawns'
// moves, which come from other tiers (implicit.TierUnmover).
func (g *Game) TierUnmoves(t uint64, _ bool, dst []uint64) []uint64 {
	return g.unmoves(t, false, dst)
}

// unmoves is Unmoves, with the un-conversions only if conversions is set.
func (g *Game) unmoves(t uint64, conversions bool, dst []uint64) []uint64 {
	var p Position
	k, i := g.decodeLegal(t, &p)
	from := len(dst)
	// A stalemate moves to itself: TierUnmoves may leave that out
	// (implicit.TierUnmover), and does, sparing the test.
	if conversions && p.EP == 0 && !p.hasMove() && !p.InCheck(p.Turn) {
		dst = append(dst, t)
	}
	tier := &g.mats[k]
	var st stepper
	if p.EP == 0 {
		tier.e.initStepper(&st, &p, i)
	}
	// plainUnmoves leaves out the en-passant nodes before p and the double
	// steps that would have made one: where both sides have pawns, it
	// serves a tier's un-moves that leave the pawns' out (blocks) when no
	// pawn of the side to move stands where a double step ends.
	if p.EP == 0 && (!p.bothPawns() || !conversions && tier.e.blocks != nil && !p.pawnOnDoubleRank(p.Turn)) {
		dst = g.plainUnmoves(&p, tier, &st, conversions, dst)
		return g.unconverted(&p, tier, conversions, from, dst)
	}
	var steps [128]unmove
	for _, u := range p.unmoves(steps[:0]) {
		if !conversions && tier.e.blocks != nil && p.Pieces[u.j].Kind == Pawn {
			continue // from another block, of a tier solved after this one
		}
		if p.EP == 0 && u.ep == 0 {
			if prev, ok := st.step(&p, int(u.j), p.Pieces[u.j].Square, u.from); ok {
				dst = append(dst, tier.start+prev)
				continue
			}
		}
		q := p.unplay(u)
		if s, ok := g.index(&q); ok {
			dst = append(dst, s)
		}
	}
	return g.unconverted(&p, tier, conversions, from, dst)
}

// plainUnmoves appends the un-moves within p's material of p, a position
// of tier that is not an en-passant node and can have none before it (a
// side without pawns), st its stepper: Position.unmoves and its steps in
// one loop, a piece's squares stepped to in a few operations each where
// the index of every square it came from is plain arithmetic. Pawns' are
// left out without conversions in a material in blocks: they come from
// another block's tier.
func (g *Game) plainUnmoves(p *Position, tier *gameMaterial, st *stepper, conversions bool, dst []uint64) []uint64 {
	all := p.occupied()
	them := p.Turn.Other()
	king := p.king(p.Turn)
	blocks := tier.e.blocks != nil
	for j, pc := range p.List() {
		if pc.Color != them || !conversions && blocks && pc.Kind == Pawn {
			continue
		}
		from := p.unmoveSquares(j, all, king, nil)
		if w, ok := st.weight(j); ok {
			// prev = turned + (sq - pc.Square) * w, modulo 2^64.
			base := tier.start + st.turned - uint64(pc.Square)*w
			for ; from != 0; from &= from - 1 {
				dst = append(dst, base+uint64(from.First())*w)
			}
			continue
		}
		if lo, ok := st.pair(j); ok {
			// The twins' squares a < b in slots lo, lo+1, one of them
			// pc's and o the other's: from sq below o the pair is (sq, o),
			// above it (o, sq).
			wa, wb := tier.e.weight[lo], tier.e.weight[lo+1]
			a, b := uint64(p.Pieces[lo].Square), uint64(p.Pieces[lo+1].Square)
			o := p.Pieces[lo].Square
			if o == pc.Square {
				o = p.Pieces[lo+1].Square
			}
			base := tier.start + st.turned - a*wa - b*wb
			below := from & (Bit(o) - 1)
			for ; below != 0; below &= below - 1 {
				dst = append(dst, base+uint64(below.First())*wa+uint64(o)*wb)
			}
			for above := from &^ (Bit(o) - 1); above != 0; above &= above - 1 {
				dst = append(dst, base+uint64(o)*wa+uint64(above.First())*wb)
			}
			continue
		}
		for ; from != 0; from &= from - 1 {
			sq := from.First()
			if prev, ok := st.step(p, j, pc.Square, sq); ok {
				dst = append(dst, tier.start+prev)
				continue
			}
			q := p.unplay(unmove{uint8(j), sq, 0})
			if s, ok := g.index(&q); ok {
				dst = append(dst, s)
			}
		}
	}
	return dst
}

// unconverted ends unmoves of p, a position of tier, whose un-moves within
// its material are dst[from:]: with conversions, it appends those from
// other materials (un-captures, un-promotions); it leaves each class once.
func (g *Game) unconverted(p *Position, tier *gameMaterial, conversions bool, from int, dst []uint64) []uint64 {
	if !conversions || p.EP != 0 { // an en-passant node is reached by its double step only
		if tier.e.syms < 8 || !p.diagonalSymmetric(p.Turn) {
			return dst
		}
		return distinct(dst, from)
	}
	var buf [128]Position
	key := positionKey(p)
	symmetric := swapKey(key) == key
	// A material without pawns is kept up to the board's 8 symmetries, a
	// parent with pawns up to the mirror only: its promotions and
	// captures reach every image of t's position.
	images := 1
	if g.pawns && tier.e.syms == 8 {
		images = 8
	}
	for sym := range images {
		b := p.image(sym)
		for _, q := range g.unconversions(&b, buf[:0]) {
			if s, flipped, ok := g.indexFlipped(&q); ok && !(flipped && symmetric) {
				dst = append(dst, s)
			}
		}
		if !symmetric && !g.plain {
			turned := flip(&b)
			for _, q := range g.unconversions(&turned, buf[:0]) {
				if s, ok := g.index(&q); ok {
					dst = append(dst, s)
				}
			}
		}
	}
	return distinct(dst, from)
}

// image returns p under symmetry sym (see symSquare), in signature order.
func (p *Position) image(sym int) Position {
	q := Position{N: p.N, Turn: p.Turn}
	for i, pc := range p.List() {
		q.Pieces[i] = Piece{pc.Kind, pc.Color, symSquare[sym][pc.Square]}
	}
	if p.EP != 0 {
		q.EP = symSquare[sym][p.EP]
	}
	q.Sort()
	return q
}

// has reports whether the game holds the material of key, in either
// colour order (in its own only, for the game of Played).
func (g *Game) has(key uint32) bool {
	if _, ok := g.byKey.get(key); ok {
		return true
	}
	_, ok := g.byKey.get(swapKey(key))
	return ok && !g.plain
}

// unconversions appends the positions of the game's materials from which
// a capture or a promotion by the side that moved last reaches p: its
// piece on a square took a piece of the side to move there, or a pawn of
// its became that piece on its last rank (with a capture or without). Each
// is a legal position with the side that moved last to move.
func (g *Game) unconversions(p *Position, dst []Position) []Position {
	occ := p.occupancy()
	all := occ[0] | occ[1]
	them, us := p.Turn.Other(), p.Turn
	back := -8 // the step back of a pawn of them
	last := 7
	if them == Black {
		back, last = 8, 0
	}
	key := positionKey(p)
	// parent returns the key of p's material with a piece of them of kind
	// was instead of now, and a piece taken of us (King: none).
	parent := func(now, was, taken Kind) uint32 {
		return key - pieceKey(them, now) + pieceKey(them, was) + pieceKey(us, taken)
	}
	add := func(j int, from Square, kind Kind, taken Kind) {
		q := *p
		q.Turn = them
		to := q.Pieces[j].Square
		q.Pieces[j].Square, q.Pieces[j].Kind = from, kind
		if taken != King {
			q.add(Piece{taken, us, to})
		}
		q.Sort()
		if !q.Legal() {
			return
		}
		dst = append(dst, q)
		if q.bothPawns() { // q as an en-passant node makes the same move
			var buf [4]Square
			for _, s := range q.enPassant(buf[:0]) {
				q.EP = s
				dst = append(dst, q)
			}
		}
	}
	for j, pc := range p.List() {
		if pc.Color != them {
			continue
		}
		to := pc.Square
		// Captures without a promotion.
		var froms Bitboard
		if pc.Kind == Pawn {
			froms = pawnAttacks[us][to] &^ all // the squares a pawn of them took from
		} else {
			froms = attacks(pc.Kind, them, to, all) &^ all
		}
		for taken := Queen; taken <= Pawn && froms != 0; taken++ {
			if taken == Pawn && (to.Rank() == 0 || to.Rank() == 7) || !g.has(parent(pc.Kind, pc.Kind, taken)) {
				continue
			}
			for f := froms; f != 0; f &= f - 1 {
				add(j, f.First(), pc.Kind, taken)
			}
		}
		// En passant: a pawn of them on the square a pawn of us passed
		// over, which stood beyond it.
		if taken := Square(int(to) - pawnStep(them)); pc.Kind == Pawn && taken.Rank() == doubleRank(us) &&
			!all.Has(taken) && !all.Has(Square(int(to)+pawnStep(them))) && g.has(parent(Pawn, Pawn, Pawn)) {
			for f := pawnAttacks[us][to] &^ all; f != 0; f &= f - 1 {
				q := *p
				q.Turn = them
				q.Pieces[j].Square = f.First()
				q.add(Piece{Pawn, us, taken})
				q.EP = to
				q.Sort()
				if q.Legal() {
					dst = append(dst, q)
				}
			}
		}
		// Promotions, with a capture or without.
		if pc.Kind == King || pc.Kind == Pawn || to.Rank() != last {
			continue
		}
		if straight := Square(int(to) + back); !all.Has(straight) && g.has(parent(pc.Kind, Pawn, King)) {
			add(j, straight, Pawn, King)
		}
		froms = pawnAttacks[us][to] &^ all
		for taken := Queen; taken < Pawn && froms != 0; taken++ {
			if !g.has(parent(pc.Kind, Pawn, taken)) {
				continue
			}
			for f := froms; f != 0; f &= f - 1 {
				add(j, f.First(), Pawn, taken)
			}
		}
	}
	return dst
}
