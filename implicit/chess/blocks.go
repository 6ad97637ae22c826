package chess

import (
	"cmp"
	"math/bits"
	"slices"
	"sort"

	"github.com/retro-solver/retro/implicit"
)

// Blocks: a material with pawns is numbered a placement of its pawns at a
// time. Pawns never move back, so the positions of one placement reach
// only their own placement's (by the other pieces' moves) and placements
// further on (by the pawns' moves, captures and promotions): a game can
// solve it a group of placements at a time (Endgame.Parts, each a tier of
// its Game), as Syzygy's generator solves its endgames with pawns a
// placement at a time, in the memory of one part instead of the whole.
//
// A placement is the pawns' squares in slot order, identical pawns in
// order of their squares; of a placement and its mirror image (files a-h
// turned to h-a) the one with the smaller number is kept, and a block holds
// the positions of a kept placement: its pairs of kings times the other
// pieces' squares, White to move, then Black, then an en-passant region
// per pawn of the placement that can just have made a double step to be
// taken en passant (enpassant.go). The kings are every pair of a
// placement that is not its own mirror image (the mirror is then used up
// by the pawns), and the pairs with White's king on files a to d for one
// that is. Either way each position is its class's only index, and
// moves of pieces other than pawns stay in its block.

// pawnBlock is one block of an Endgame with pawns.
type pawnBlock struct {
	start  uint64 // its first index in the endgame
	half   uint64 // the positions per side to move: pairs of kings times the other pieces' squares
	mirror bool   // the placement is its own mirror image: kings as in e.kk, else in e.kkAll
	eps    []int  // the slots of its en-passant regions' pawns, in slot order
	cfg    uint32 // its placement's number (see placement)
	sum    int    // its pawns' advance (see advance)
}

// size returns the block's number of indices.
func (b *pawnBlock) size() uint64 { return uint64(2+len(b.eps)) * b.half }

// partTarget is the positions a part of an endgame with pawns holds at
// least (but its last part of an advance), so that a part fills the cores
// and its start costs little beside its solve.
const partTarget = 1 << 24

// advance returns how far a pawn of colour c on s stands from its first
// rank: 1 on its second rank to 6 on its seventh. A pawn's move adds 1 or
// 2 to its side's pawns' sum; nothing lowers a pawn's.
func advance(c Color, s Square) int {
	if c == White {
		return s.Rank()
	}
	return 7 - s.Rank()
}

// placement returns the number of p's pawns' placement: their squares
// (a2 = 0 to h7 = 47) in mixed radix 48, in slot order.
func (e *Endgame) placement(p *Position) uint32 {
	var cfg uint32
	for _, j := range e.pawnSlots {
		cfg = cfg*48 + uint32(p.Pieces[j].Square-8)
	}
	return cfg
}

// placementSquares returns the squares of placement cfg's pawns, in slot
// order.
func (e *Endgame) placementSquares(cfg uint32) []Square {
	out := make([]Square, len(e.pawnSlots))
	for k := len(out) - 1; k >= 0; k-- {
		out[k] = Square(cfg%48) + 8
		cfg /= 48
	}
	return out
}

// mirrorPlacement returns the number of the mirror image of placement
// cfg, identical pawns put back in order of their squares.
func (e *Endgame) mirrorPlacement(cfg uint32) uint32 {
	sq := e.placementSquares(cfg)
	for k := range sq {
		sq[k] = symSquare[1][sq[k]]
	}
	// Identical pawns are neighbours in slot order: sort each run.
	for a := 0; a < len(sq); {
		b := a + 1
		for b < len(sq) && e.slots[e.pawnSlots[b]] == e.slots[e.pawnSlots[a]] {
			b++
		}
		slices.Sort(sq[a:b])
		a = b
	}
	var m uint32
	for _, s := range sq {
		m = m*48 + uint32(s-8)
	}
	return m
}

// makeBlocks numbers the blocks of e (a material with pawns), by advance
// and then placement, and cuts them into parts.
func (e *Endgame) makeBlocks() {
	for j, pc := range e.slots {
		if pc.Kind == Pawn {
			e.pawnSlots = append(e.pawnSlots, j)
		}
	}
	e.pawnWeight = make([]uint32, len(e.slots))
	w := uint32(1)
	for k := len(e.pawnSlots) - 1; k >= 0; k-- {
		e.pawnWeight[e.pawnSlots[k]] = w
		w *= 48
	}
	total := uint32(1)
	for range e.pawnSlots {
		total *= 48
	}
	e.blockOf = make([]int32, total)
	for cfg := range total {
		e.blockOf[cfg] = -1
		sq := e.placementSquares(cfg)
		ok := true
		for k, s := range sq {
			for l := range k {
				ok = ok && sq[l] != s
				if e.slots[e.pawnSlots[l]] == e.slots[e.pawnSlots[k]] {
					ok = ok && sq[l] < s
				}
			}
		}
		m := e.mirrorPlacement(cfg)
		if !ok || m < cfg {
			continue
		}
		b := pawnBlock{cfg: cfg, mirror: m == cfg}
		for k, s := range sq {
			pc := e.slots[e.pawnSlots[k]]
			b.sum += advance(pc.Color, s)
			if s.Rank() != doubleRank(pc.Color) {
				continue
			}
			for l, o := range sq { // an opponent's pawn beside it can take it
				if e.slots[e.pawnSlots[l]].Color != pc.Color && o.Rank() == s.Rank() && (o.File() == s.File()-1 || o.File() == s.File()+1) {
					b.eps = append(b.eps, e.pawnSlots[k])
					break
				}
			}
		}
		b.half = uint64(len(e.kkAll)) * e.kkWidth
		if b.mirror {
			b.half = uint64(len(e.kk)) * e.kkWidth
		}
		e.blocks = append(e.blocks, b)
	}
	slices.SortStableFunc(e.blocks, func(a, b pawnBlock) int { return cmp.Compare(a.sum, b.sum) })
	var start uint64
	for k := range e.blocks {
		b := &e.blocks[k]
		b.start = start
		start += b.size()
		e.blockOf[b.cfg] = int32(k)
		if k == 0 || b.sum != e.blocks[k-1].sum || b.start-e.blocks[e.parts[len(e.parts)-1]].start >= partTarget {
			e.parts = append(e.parts, k)
		}
	}
	e.size = start
	// Buckets as large as the smallest block: an index's block is its
	// bucket's first, or one of the next ones.
	smallest := e.size
	for k := range e.blocks {
		smallest = min(smallest, e.blocks[k].size())
	}
	e.bucketShift = uint(bits.Len64(smallest) - 1)
	e.bucket = implicit.Buckets(len(e.blocks), func(k int) uint64 { return e.blocks[k].start }, e.size, e.bucketShift)
}

// blockAt returns the block that holds index i.
func (e *Endgame) blockAt(i uint64) int {
	k := int(e.bucket[i>>e.bucketShift])
	for k+1 < len(e.blocks) && e.blocks[k+1].start <= i {
		k++
	}
	return k
}

// Parts returns the ranges of the endgame's index that its Game solves as
// tiers: the whole index without pawns; with pawns, runs of blocks of
// one advance, each of at least partTarget positions but the last of its
// advance. No move leads from a part to another of the same advance, or
// back to a smaller one.
func (e *Endgame) Parts() [][2]uint64 {
	if e.blocks == nil {
		return [][2]uint64{{0, e.Size()}}
	}
	out := make([][2]uint64, len(e.parts))
	for k, first := range e.parts {
		end := e.size
		if k+1 < len(e.parts) {
			end = e.blocks[e.parts[k+1]].start
		}
		out[k] = [2]uint64{e.blocks[first].start, end}
	}
	return out
}

// decodeBlocked is decodeInto for an endgame with blocks.
func (e *Endgame) decodeBlocked(i uint64, p *Position) {
	b := &e.blocks[e.blockAt(i)]
	i -= b.start
	// The side to move's region, by comparisons: a division costs more.
	r := uint64(0)
	for i >= b.half {
		i -= b.half
		r++
	}
	if r == 1 {
		p.Turn = Black
	}
	for j := len(e.others) - 1; j >= 0; j-- {
		p.Pieces[e.others[j]].Square = Square(i % 64)
		i /= 64
	}
	kk := e.kkAll
	if b.mirror {
		kk = e.kk
	}
	p.Pieces[0].Square, p.Pieces[e.bk].Square = kk[i].w, kk[i].b
	cfg := b.cfg
	for k := len(e.pawnSlots) - 1; k >= 0; k-- {
		p.Pieces[e.pawnSlots[k]].Square = Square(cfg%48) + 8
		cfg /= 48
	}
	if r >= 2 { // an en-passant node: the pawn of the region has just made its double step
		pawn := b.eps[r-2]
		p.Turn = e.slots[pawn].Color.Other()
		p.EP = Square(int(p.Pieces[pawn].Square) - pawnStep(e.slots[pawn].Color))
	}
}

// encodeBlocked is encode for an endgame with blocks: the index of p (in
// signature order) as it stands, false if its placement or its kings are
// not those of a block, or its en-passant square none of the block's.
func (e *Endgame) encodeBlocked(p *Position) (uint64, bool) {
	bk := e.blockOf[e.placement(p)]
	if bk < 0 {
		return 0, false
	}
	b := &e.blocks[bk]
	kkOf := &e.kkAllOf
	if b.mirror {
		kkOf = &e.kkOf
	}
	kk := kkOf[p.Pieces[0].Square][p.Pieces[e.bk].Square]
	if kk < 0 {
		return 0, false
	}
	i := uint64(kk)
	for _, slot := range e.others {
		i = i*64 + uint64(p.Pieces[slot].Square)
	}
	r := uint64(0)
	switch {
	case p.EP != 0:
		pawn := p.slot(Square(int(p.EP) + pawnStep(p.Turn.Other())))
		k := slices.Index(b.eps, pawn)
		if k < 0 {
			return 0, false
		}
		r = 2 + uint64(k)
	case p.Turn == Black:
		r = 1
	}
	return b.start + r*b.half + i, true
}

// canonicalBlocked is canonical for an endgame with blocks: p as it
// stands or its mirror image, whichever has an index (one does).
func (e *Endgame) canonicalBlocked(p *Position) (uint64, bool) {
	if i, ok := e.encodeBlocked(p); ok {
		return i, true
	}
	img := p.image(1)
	return e.encodeBlocked(&img)
}

// partOf returns the part (of Parts) that holds block b.
func (e *Endgame) partOf(b int) int {
	return sort.SearchInts(e.parts, b+1) - 1
}

// pawnsTier returns the tier of the game's material of key (as a position
// reaches it: it may be kept the other way round) whose pawns stand as in
// pawns (colours and squares, that material's pawns all).
func (g *Game) pawnsTier(key uint32, pawns []Piece) (int, bool) {
	k, ok := g.byKey.get(key)
	if !ok {
		if k, ok = g.byKey.get(swapKey(key)); !ok {
			return 0, false
		}
		turned := make([]Piece, len(pawns))
		for i, pc := range pawns {
			turned[i] = Piece{pc.Kind, pc.Color.Other(), pc.Square ^ 56}
		}
		pawns = turned
	}
	mat := &g.mats[k]
	e := mat.e
	if e.blocks == nil {
		return mat.tier, true
	}
	var q Position
	for _, pc := range pawns {
		q.add(pc)
	}
	q.Sort()
	var cfg uint32
	for _, pc := range q.List() {
		cfg = cfg*48 + uint32(pc.Square-8)
	}
	b := e.blockOf[cfg]
	if b < 0 {
		b = e.blockOf[e.mirrorPlacement(cfg)]
	}
	if b < 0 {
		return 0, false // two pawns on a square
	}
	return mat.tier + e.partOf(int(b)), true
}

// tierChildren fills the children of material k's tiers: the tiers that
// its positions' moves reach but their own. Without pawns, the materials
// of one capture (children). With pawns, for each block of a tier, each
// placement its pawns' moves reach (a step, a double step, a capture, en
// passant, a promotion), and each that a capture of a pawn or of another
// piece leaves, in the material the move reaches. Each child's side to
// move after the move, as the child keeps its colours, goes into g.reach.
func (g *Game) tierChildren(k int) {
	mat := &g.mats[k]
	e := mat.e
	m := e.m
	key := materialKey(m)
	if g.reach == nil {
		g.reach = map[[2]int]uint8{}
	}
	// add records child as a child of tier t, reached with side to move
	// in the material of key as a move leaves it (kept the other way
	// round, the other side), and its en-passant nodes where ep.
	add := func(t, child int, key uint32, side Color, ep bool) {
		if child == t {
			return
		}
		if !slices.Contains(g.itiers[t].Children, child) {
			g.itiers[t].Children = append(g.itiers[t].Children, child)
		}
		if _, direct := g.byKey.get(key); !direct {
			side = side.Other()
		}
		bits := uint8(1) << side
		if ep {
			bits |= reachEP
		}
		g.reach[[2]int{t, child}] |= bits
	}
	if e.blocks == nil {
		// tierOf returns the tier of the material of key, kept either way
		// round.
		tierOf := func(key uint32) int {
			j, ok := g.byKey.get(key)
			if !ok {
				j, _ = g.byKey.get(swapKey(key))
			}
			return g.mats[j].tier
		}
		for c := range m.Pieces {
			for i, kind := range m.Pieces[c] {
				if kind != King { // the side whose piece is taken moves next
					ck := materialKey(m.remove(Color(c), i))
					add(mat.tier, tierOf(ck), ck, Color(c), false)
				}
			}
		}
		if m.HasPawns() { // the plain game's (Played): its promotions, either side to move
			for _, c := range children(m) {
				ck := materialKey(c)
				add(mat.tier, tierOf(ck), ck, White, true)
				add(mat.tier, tierOf(ck), ck, Black, true)
			}
		}
		slices.Sort(g.itiers[mat.tier].Children)
		return
	}
	for b := range e.blocks {
		t := mat.tier + e.partOf(b)
		var pawns []Piece
		for i, s := range e.placementSquares(e.blocks[b].cfg) {
			pawns = append(pawns, Piece{Pawn, e.slots[e.pawnSlots[i]].Color, s})
		}
		reach := func(key uint32, pawns []Piece, side Color, ep bool) {
			if c, ok := g.pawnsTier(key, pawns); ok {
				add(t, c, key, side, ep)
			}
		}
		without := func(i int) []Piece { return slices.Delete(slices.Clone(pawns), i, i+1) }
		moved := func(i int, to Square) []Piece {
			out := slices.Clone(pawns)
			out[i].Square = to
			return out
		}
		// Captures of a piece other than a pawn, by one other than a pawn.
		for _, pc := range e.slots {
			if pc.Kind != King && pc.Kind != Pawn {
				reach(key-pieceKey(pc.Color, pc.Kind), pawns, pc.Color, false)
			}
		}
		for i, pc := range pawns {
			us, them := pc.Color, pc.Color.Other()
			// Taken by a piece other than a pawn.
			reach(key-pieceKey(us, Pawn), without(i), us, false)
			// Its steps, promotions and captures.
			var tos []Square
			step := Square(int(pc.Square) + pawnStep(us))
			tos = append(tos, step)
			if advance(us, pc.Square) == 1 {
				tos = append(tos, Square(int(step)+pawnStep(us)))
			}
			for _, to := range tos {
				if slices.ContainsFunc(pawns, func(o Piece) bool { return o.Square == to }) {
					continue
				}
				if advance(us, to) == 7 {
					for _, promo := range promotions {
						reach(key-pieceKey(us, Pawn)+pieceKey(us, promo), without(i), them, false)
					}
				} else {
					reach(key, moved(i, to), them, to != step)
				}
			}
			for capture := pawnAttacks[us][pc.Square]; capture != 0; capture &= capture - 1 {
				to := capture.First()
				// A piece other than a pawn taken, with a promotion or without.
				for _, taken := range e.slots {
					if taken.Color != them || taken.Kind == King || taken.Kind == Pawn {
						continue
					}
					if advance(us, to) == 7 {
						for _, promo := range promotions {
							reach(key-pieceKey(them, taken.Kind)-pieceKey(us, Pawn)+pieceKey(us, promo), without(i), them, false)
						}
					} else {
						reach(key-pieceKey(them, taken.Kind), moved(i, to), them, false)
					}
				}
				// A pawn taken on to, or en passant beside it.
				for j, o := range pawns {
					beside := Square(int(to) - pawnStep(us))
					if o.Color != them || o.Square != to && !(o.Square == beside && advance(them, o.Square) == 3 && advance(us, pc.Square) == 4) {
						continue
					}
					rest := moved(i, to)
					rest = slices.Delete(rest, j, j+1)
					reach(key-pieceKey(them, Pawn), rest, them, false)
				}
			}
		}
	}
	for j := range e.parts {
		slices.Sort(g.itiers[mat.tier+j].Children)
	}
}

// reachEP is the bit of Game.reach for a child's en-passant nodes.
const reachEP = 1 << 2

// ChildReach bounds the indices of child tier c that the moves of tier
// k's positions reach (implicit.ChildReacher): the half of each of c's
// blocks with the side to move that the moves leave there, or both
// halves, and the en-passant nodes where a double step leads into c.
// The tiered solve's memory plan counts their codes, where the whole
// child's would count twice what it reads (KRPvKR's promotions).
func (g *Game) ChildReach(k, c int) uint64 {
	bits, ok := g.reach[[2]int{k, c}]
	size := g.itiers[c].Size()
	if !ok || g.plain {
		return size
	}
	j, _ := g.locate(g.itiers[c].Start) // the material of tier c
	e := g.mats[j].e
	sides := uint64(bits&1 + bits>>1&1)
	if e.blocks == nil { // no pawns (a plain game's, with them, returned above)
		return min(sides*e.half, size)
	}
	part := c - g.mats[j].tier
	end := len(e.blocks)
	if part+1 < len(e.parts) {
		end = e.parts[part+1]
	}
	var n uint64
	for b := e.parts[part]; b < end; b++ {
		blk := &e.blocks[b]
		n += sides * blk.half
		if bits&reachEP != 0 {
			n += uint64(len(blk.eps)) * blk.half
		}
	}
	return min(n, size)
}
