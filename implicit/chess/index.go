package chess

import (
	"fmt"
	"math/bits"
	"slices"
)

// Endgame numbers the positions of one material over [0, Size()).
// Without pawns: White to move in the first half, Black in the second;
// within a half, a number in mixed radix: the pair of kings (most
// significant), then each other piece's square in signature order. One
// position of each class under the board's 8 symmetries is legal (its
// representative); the others are illegal indices. The kings are taken to
// the 462 pairs with White's king in the triangle a1-d1-d4 and, where it
// is on the a1-h8 diagonal, Black's on or below it. Where both kings lie
// on the diagonal the other pieces decide: the representative is the
// image with the smallest index. Identical pieces (two white rooks) are
// taken in order of their squares.
//
// With pawns, whose symmetry is the left-right mirror, the index is cut
// into blocks by the pawns' placement (blocks.go), and each position is
// its class's only index. (The game of Played, without symmetry, keeps
// the layout without blocks, its pawns' squares a digit of 48 each, a2 to
// h7, and every pair of kings.)
type Endgame struct {
	m     Material
	slots []Piece // the kinds and colours of the pieces, in signature order
	// blank is a position of the material's pieces, each on a1 with White
	// to move: decodeInto's start, a copy of fixed size.
	blank Position
	bk    int // Black's king's slot (White's is 0)
	syms  int // the symmetries used: 8, or 2 with pawns
	kk    []kingPair
	kkOf  [64][64]int32 // the pair's number, -1 where the pair is not a representative's
	// kkSyms[w][b] has bit t set where symmetry t takes kings on w and b
	// to a representative's pair.
	kkSyms [64][64]uint8
	radix  []uint64 // squares per piece other than a king, in slot order
	others []int    // those pieces' slots
	half   uint64   // positions per side to move
	// For step: the index's stride per square of each slot's piece (0
	// for the kings), the slots [lo, hi) of the pieces of a slot's kind
	// and colour (its twins, hi-lo > 1, whose squares increase over
	// their slots), the stride of the king pair, and whether a pair is
	// brought into the table by the identity alone.
	weight  []uint64
	group   [][2]int
	twins   bool // whether any piece has a twin
	kkWidth uint64
	alone   []bool
	// The en-passant nodes (enpassant.go): a region of half indices per
	// pawn whose double step may be taken en passant (a pawn of a side
	// whose opponent has one), after the stored positions: epSlots[r] is
	// region r's pawn's slot, epRegion[j] slot j's region or -1.
	epSlots  []int
	epRegion []int
	// With pawns (but for the game of Played), the index is cut into
	// blocks by the pawns' placement instead (blocks.go): others and
	// radix are then the pieces other than kings and pawns, kkAll and
	// kkAllOf the table of every pair of kings, blockOf a placement's
	// block (-1 for none), parts the first block of each part, and size
	// the index's. bucket[i>>bucketShift] is the block of the index
	// i&^(1<<bucketShift-1), each block holding at least 1<<bucketShift
	// indices (blockAt).
	pawnSlots   []int
	pawnWeight  []uint32 // by slot: a pawn's weight in the placement's number
	blocks      []pawnBlock
	blockOf     []int32
	parts       []int
	bucket      []int32
	bucketShift uint
	kkAll       []kingPair
	kkAllOf     [64][64]int32
	size        uint64
}

type kingPair struct{ w, b Square }

// symSquare[t][s] is square s under symmetry t: t&4 transposes (a1-h8
// diagonal), then t&1 mirrors the files and t&2 the ranks. Symmetries 0
// and 1 keep the ranks: with pawns only they are used.
var symSquare [8][64]Square

func init() {
	for t := range 8 {
		for s := Square(0); s < NoSquare; s++ {
			f, r := s.File(), s.Rank()
			if t&4 != 0 {
				f, r = r, f
			}
			if t&1 != 0 {
				f = 7 - f
			}
			if t&2 != 0 {
				r = 7 - r
			}
			symSquare[t][s] = At(f, r)
		}
	}
}

// NewEndgame returns the index of material m's positions.
func NewEndgame(m Material) (*Endgame, error) { return newEndgame(m, false) }

// newEndgame is NewEndgame, or with plain set the index of every position
// as it stands: no symmetry, every pair of kings (Game.Played).
func newEndgame(m Material, plain bool) (*Endgame, error) {
	if len(m.Pieces[0]) == 0 || len(m.Pieces[1]) == 0 || m.Pieces[0][0] != King || m.Pieces[1][0] != King {
		return nil, fmt.Errorf("material %v: each side needs its king first", m)
	}
	if m.Count() > MaxPieces {
		return nil, fmt.Errorf("material %v: %d pieces, more than the %d retro solves", m, m.Count(), MaxPieces)
	}
	e := &Endgame{m: m.clone(), syms: 8, bk: len(m.Pieces[0])}
	if m.HasPawns() {
		e.syms = 2
	}
	if plain {
		e.syms = 1
	}
	for c := range m.Pieces {
		for _, k := range m.Pieces[c] {
			e.slots = append(e.slots, Piece{Kind: k, Color: Color(c)})
		}
	}
	for _, pc := range e.slots {
		e.blank.add(pc)
	}
	blocked := m.HasPawns() && !plain
	for i, pc := range e.slots {
		if pc.Kind == King || blocked && pc.Kind == Pawn {
			continue
		}
		e.others = append(e.others, i)
		if pc.Kind == Pawn {
			e.radix = append(e.radix, 48)
		} else {
			e.radix = append(e.radix, 64)
		}
	}
	for w := Square(0); w < NoSquare; w++ {
		for b := Square(0); b < NoSquare; b++ {
			e.kkOf[w][b] = -1
			e.kkAllOf[w][b] = -1
			if w == b || kingAttacks[w].Has(b) {
				continue
			}
			if e.kingsCanonical(w, b) {
				e.kkOf[w][b] = int32(len(e.kk))
				e.kk = append(e.kk, kingPair{w, b})
			}
			if blocked {
				e.kkAllOf[w][b] = int32(len(e.kkAll))
				e.kkAll = append(e.kkAll, kingPair{w, b})
			}
		}
	}
	e.kkWidth = 1
	for _, r := range e.radix {
		e.kkWidth *= r
	}
	e.half = uint64(len(e.kk)) * e.kkWidth
	e.weight = make([]uint64, len(e.slots))
	w := uint64(1)
	for j := len(e.others) - 1; j >= 0; j-- {
		e.weight[e.others[j]] = w
		w *= e.radix[j]
	}
	for j, pc := range e.slots {
		lo, hi := j, j+1
		for lo > 0 && e.slots[lo-1] == pc {
			lo--
		}
		for hi < len(e.slots) && e.slots[hi] == pc {
			hi++
		}
		e.group = append(e.group, [2]int{lo, hi})
		e.twins = e.twins || hi-lo > 1
	}
	if blocked {
		e.makeBlocks()
		return e, nil
	}
	for j, pc := range e.slots {
		e.epRegion = append(e.epRegion, -1)
		if pc.Kind == Pawn && slices.Contains(m.Pieces[pc.Color.Other()], Pawn) {
			e.epRegion[j] = len(e.epSlots)
			e.epSlots = append(e.epSlots, j)
		}
	}
	for w := range Square(64) {
		for b := range Square(64) {
			for t := range e.syms {
				if e.kkOf[symSquare[t][w]][symSquare[t][b]] >= 0 {
					e.kkSyms[w][b] |= 1 << t
				}
			}
		}
	}
	for _, kk := range e.kk {
		images := 0
		for t := range e.syms {
			if e.kkOf[symSquare[t][kk.w]][symSquare[t][kk.b]] >= 0 {
				images++
			}
		}
		e.alone = append(e.alone, images == 1)
	}
	return e, nil
}

// stepper finds the index a move or an un-move of one position reaches
// where plain arithmetic does (step): what its moves share is found once,
// when the position is.
type stepper struct {
	e      *Endgame
	turned uint64         // the position's index with the turn passed
	kkOf   *[64][64]int32 // the table of kings its index uses
	kk     int32          // its kings' pair in that table
	// Without blocks: no other symmetry brings the kings into the table,
	// so that a move of another piece keeps the position its class's
	// representative.
	alone bool
	// With blocks: the placement of the pawns and its block.
	cfg   uint32
	block *pawnBlock
	// The square of the piece whose slot was found last, and the slot
	// (slot): a position's moves come a piece at a time.
	from Square
	j    int
}

// initStepper makes s the stepper of p, of index i (legal, a
// representative, not an en-passant node), in place as decodeLegal
// writes a position.
func (e *Endgame) initStepper(s *stepper, p *Position, i uint64) {
	*s = stepper{e: e, kkOf: &e.kkOf, from: NoSquare}
	half, start := e.half, uint64(0)
	if e.blocks != nil {
		s.cfg = e.placement(p)
		s.block = &e.blocks[e.blockOf[s.cfg]]
		half, start = s.block.half, s.block.start
		if !s.block.mirror {
			s.kkOf = &e.kkAllOf
		}
	}
	s.turned = i + half
	if i >= start+half {
		s.turned = i - half
	}
	s.kk = s.kkOf[p.Pieces[0].Square][p.Pieces[e.bk].Square]
	s.alone = e.blocks == nil && e.alone[s.kk]
}

// slot returns p.slot(sq), the slot of p's piece on sq, p being the
// stepper's position.
func (s *stepper) slot(p *Position, sq Square) int {
	if sq != s.from {
		s.from, s.j = sq, p.slot(sq)
	}
	return s.j
}

// step returns the index after the piece of slot j of p moves from square
// from to to, the turn passing, where plain arithmetic finds it; ok is
// false otherwise, and the index must be found from the position.
//
// Without blocks: kings that no other symmetry brings into the table (the
// moved position is its class's representative); a twin's move may
// reorder the twins' squares (twinDelta). Where others do (classStep),
// the least index of the moved position's images under them, with the
// board's 8 symmetries. A king's move is found so too where the kings'
// new pair is in the table as it stands and no other symmetry brings it
// there: the other pieces keep their squares, and the pair's number
// changes.
//
// With blocks: a move of a piece other than a pawn within the block, the
// kings staying in its table; or a pawn's move (a step, a capture's or a
// double step's squares alike) into another block where both placements
// are kept as they stand and not their own mirror images (the same table
// of kings).
func (s *stepper) step(p *Position, j int, from, to Square) (uint64, bool) {
	e := s.e
	switch {
	case j == 0 || j == e.bk:
		w, b := p.Pieces[0].Square, p.Pieces[e.bk].Square
		if j == 0 {
			w = to
		} else {
			b = to
		}
		next := s.kkOf[w][b]
		switch {
		case next >= 0 && (e.blocks != nil || e.alone[next]):
			return uint64(int64(s.turned) + int64(next-s.kk)*int64(e.kkWidth)), true
		case e.blocks == nil:
			return e.kingImage(p, w, b, s.turned)
		}
		return 0, false
	case e.blocks != nil && e.slots[j].Kind == Pawn:
		next := int64(s.cfg) + (int64(to)-int64(from))*int64(e.pawnWeight[j])
		if next < 0 || next >= int64(len(e.blockOf)) || e.blockOf[next] < 0 {
			return 0, false
		}
		nb := &e.blocks[e.blockOf[next]]
		if s.block.mirror || nb.mirror {
			return 0, false
		}
		return s.turned - s.block.start + nb.start, true
	case e.blocks == nil && !s.alone:
		return e.classStep(p, j, to, s.turned)
	case e.twin(j):
		return uint64(int64(s.turned) + e.twinDelta(p, j, from, to)), true
	}
	return uint64(int64(s.turned) + (int64(to)-int64(from))*int64(e.weight[j])), true
}

// twinDelta returns what the index gains when the piece of slot j of p,
// one of twins (or triplets), moves from square from to to: the twins'
// squares are kept in increasing order over their slots, so the move may
// reorder them, and each slot's digit changes by its new square less its
// old one.
func (e *Endgame) twinDelta(p *Position, j int, from, to Square) int64 {
	lo, hi := e.group[j][0], e.group[j][1]
	// The group's squares after the move, in increasing order: to takes
	// the place among the others' squares that its order gives it.
	var after [MaxPieces]Square
	n := 0
	placed := false
	for k := lo; k < hi; k++ {
		sq := p.Pieces[k].Square
		if sq == from {
			continue
		}
		if !placed && to < sq {
			after[n], n, placed = to, n+1, true
		}
		after[n], n = sq, n+1
	}
	if !placed {
		after[n] = to
	}
	var delta int64
	for k := lo; k < hi; k++ {
		delta += (int64(after[k-lo]) - int64(p.Pieces[k].Square)) * int64(e.weight[k])
	}
	return delta
}

// kingImage returns the index of p with its kings moved to w and b (one
// of them where it stood), the turn passing (turned is p's index with it
// passed), where the kings' new pair is out of the table and one symmetry
// alone brings it in: the position's representative is then its image by
// that symmetry (imageIndex). ok is false where none or several do (the
// other pieces then decide). Without blocks only.
func (e *Endgame) kingImage(p *Position, w, b Square, turned uint64) (uint64, bool) {
	syms := e.kkSyms[w][b]
	if e.syms != 8 || bits.OnesCount8(syms) != 1 { // the digits are squares without pawns
		return 0, false
	}
	return e.imageIndex(p, &symSquare[bits.TrailingZeros8(syms)], w, b, 0, 0, turned), true
}

// classStep returns the index after the piece of slot j of p, not a king,
// moves to square to, the turn passing (turned is p's index with it
// passed), where p's kings are in the table under several symmetries (not
// alone, as on the long diagonal): the least of the indices of the moved
// position's images under them, as canonical finds it, each by imageIndex
// in place of a position sorted and encoded. ok is false without the
// board's 8 symmetries. Without blocks only.
func (e *Endgame) classStep(p *Position, j int, to Square, turned uint64) (uint64, bool) {
	if e.syms != 8 {
		return 0, false
	}
	return e.leastImage(p, j, to, turned), true
}

// leastImage returns the least of imageIndex's indices of p, the piece of
// slot j on square to (j a king's slot: no piece moves), under the
// symmetries that bring p's kings into the table (^0 where none does).
// With the board's 8 symmetries only.
func (e *Endgame) leastImage(p *Position, j int, to Square, turned uint64) uint64 {
	w, b := p.Pieces[0].Square, p.Pieces[e.bk].Square
	best := ^uint64(0)
	for syms := e.kkSyms[w][b]; syms != 0; syms &= syms - 1 {
		best = min(best, e.imageIndex(p, &symSquare[bits.TrailingZeros8(syms)], w, b, j, to, turned))
	}
	return best
}

// imageIndex returns the index, the turn passing (turned is p's index with
// it passed), of the image under the symmetry of squares sq of p with its
// kings on w and b and the piece of slot j on square to (j a king's slot:
// no other piece moves), every piece's square mapped and twins put back in
// order. The kings' image must be in the table.
func (e *Endgame) imageIndex(p *Position, sq *[64]Square, w, b Square, j int, to Square, turned uint64) uint64 {
	i := turned - turned%e.half + uint64(e.kkOf[sq[w]][sq[b]])*e.kkWidth
	if !e.twins { // each piece its own digit: no order to restore
		for _, k := range e.others {
			s := p.Pieces[k].Square
			if k == j {
				s = to
			}
			i += uint64(sq[s]) * e.weight[k]
		}
		return i
	}
	for lo := 1; lo < p.N; {
		if lo == e.bk {
			lo++
			continue
		}
		hi := e.group[lo][1]
		var img [MaxPieces]Square
		for k := lo; k < hi; k++ {
			s := p.Pieces[k].Square
			if k == j {
				s = to
			}
			img[k-lo] = sq[s]
		}
		switch hi - lo { // twins in order: a piece alone or a pair without a call to sort
		case 1:
		case 2:
			if img[1] < img[0] {
				img[0], img[1] = img[1], img[0]
			}
		default:
			slices.Sort(img[:hi-lo])
		}
		for k := lo; k < hi; k++ {
			i += uint64(img[k-lo]) * e.weight[k]
		}
		lo = hi
	}
	return i
}

// weight returns what the index gains per square a piece of slot j moves
// (toward the higher squares) where step finds every move of it by plain
// arithmetic, as for a piece other than a king or a blocked pawn, no twin,
// with the kings alone in their class or in blocks; false otherwise.
func (s *stepper) weight(j int) (uint64, bool) {
	e := s.e
	if j == 0 || j == e.bk || e.twin(j) || e.blocks != nil && e.slots[j].Kind == Pawn || e.blocks == nil && !s.alone {
		return 0, false
	}
	return uint64(e.weight[j]), true
}

// twin reports whether the piece of slot j has a twin.
func (e *Endgame) twin(j int) bool { return e.group[j][1]-e.group[j][0] > 1 }

// pair returns, for a piece of slot j with exactly one twin, where step
// finds its moves by plain arithmetic (as weight), the slot of the first
// of the two; ok is false otherwise. A move of it to a square below its
// twin's keeps the order and the index gains the first slot's weight per
// square; above, the two swap slots (see twinDelta).
func (s *stepper) pair(j int) (lo int, ok bool) {
	e := s.e
	g := e.group[j]
	if g[1]-g[0] != 2 || e.blocks != nil && e.slots[j].Kind == Pawn || e.blocks == nil && !s.alone {
		return 0, false
	}
	return g[0], true
}

// kingsCanonical reports whether kings on w (White's) and b are in the
// form of a representative (see Endgame).
func (e *Endgame) kingsCanonical(w, b Square) bool {
	switch e.syms {
	case 1:
		return true
	case 2:
		return w.File() <= 3
	}
	f, r := w.File(), w.Rank()
	if f > 3 || r > f {
		return false
	}
	return r < f || b.Rank() <= b.File()
}

// Material returns the endgame's material.
func (e *Endgame) Material() Material { return e.m.clone() }

// Size returns the number of indices: both sides to move, then the
// en-passant nodes' regions.
func (e *Endgame) Size() uint64 {
	if e.blocks != nil {
		return e.size
	}
	return uint64(2+len(e.epSlots)) * e.half
}

// KingPairs returns the number of pairs of kings of representatives (462
// without pawns, 1806 with: those of a placement of the pawns that is its
// own mirror image).
func (e *Endgame) KingPairs() int { return len(e.kk) }

// Decode returns the position of index i, which may be illegal: pieces on
// one square, identical pieces out of order, not its class's
// representative, or against the rules (see Classify).
func (e *Endgame) Decode(i uint64) Position {
	var p Position
	e.decodeInto(i, &p)
	return p
}

// decodeInto is Decode into p. It returns the number of the pair of
// kings in e.kk, or -1 with blocks.
func (e *Endgame) decodeInto(i uint64, p *Position) int {
	*p = e.blank
	if e.blocks != nil {
		e.decodeBlocked(i, p)
		return -1
	}
	pawn := -1
	switch {
	case i >= 2*e.half:
		r := (i - 2*e.half) / e.half
		i = (i - 2*e.half) % e.half
		pawn = e.epSlots[r]
		p.Turn = e.slots[pawn].Color.Other()
	case i >= e.half:
		p.Turn, i = Black, i-e.half
	}

	for j := len(e.others) - 1; j >= 0; j-- {
		if e.radix[j] == 64 { // a shift, not a division
			p.Pieces[e.others[j]].Square = Square(i & 63)
			i >>= 6
			continue
		}
		p.Pieces[e.others[j]].Square = Square(i%48) + 8 // a pawn (Played)
		i /= 48
	}
	kk := e.kk[i]
	p.Pieces[0].Square, p.Pieces[e.bk].Square = kk.w, kk.b
	if pawn >= 0 { // the index has the pawn on the square it passed over
		p.EP = p.Pieces[pawn].Square
		p.Pieces[pawn].Square = Square(int(p.EP) + pawnStep(e.slots[pawn].Color))
		p.Sort()
	}
	return int(i)
}

// encode returns the index of p, a position of this material in signature
// order whose kings are a representative's pair; ok is false if they are
// not.
func (e *Endgame) encode(p *Position) (uint64, bool) {
	if e.blocks != nil {
		return e.encodeBlocked(p)
	}
	kk := e.kkOf[p.Pieces[0].Square][p.Pieces[e.bk].Square]
	if kk < 0 {
		return 0, false
	}
	i := uint64(kk)
	for j, slot := range e.others {
		d := uint64(p.Pieces[slot].Square)
		if e.radix[j] == 48 {
			d -= 8
		}
		i = i*e.radix[j] + d
	}
	if p.Turn == Black {
		i += e.half
	}
	return i, true
}

// Index returns the index of p's class: the representative's. p must be a
// position of this material (p.Material() equal to Material()) with its
// pieces on distinct squares and its pawns off the first and last ranks;
// ok is false otherwise.
func (e *Endgame) Index(p Position) (uint64, bool) {
	if p.N != len(e.slots) {
		return 0, false
	}
	q := p
	q.Sort()
	var all Bitboard
	for j, pc := range q.List() {
		if pc.Kind != e.slots[j].Kind || pc.Color != e.slots[j].Color || pc.Square >= NoSquare || all.Has(pc.Square) ||
			pc.Kind == Pawn && (pc.Square.Rank() == 0 || pc.Square.Rank() == 7) {
			return 0, false
		}
		all |= Bit(pc.Square)
	}
	return e.canonical(&q)
}

// canonical returns the smallest index among the images of p (sorted, of
// this material, on distinct squares) whose kings are a representative's
// pair; ok is false if none is (a king pair no symmetry brings into the
// table: none, as every pair has an image there).
func (e *Endgame) canonical(p *Position) (uint64, bool) {
	if e.blocks != nil {
		return e.canonicalBlocked(p)
	}
	if p.EP != 0 {
		return e.epCanonical(p)
	}
	if e.syms == 1 { // the index of every position as it stands (Game.Played)
		return e.encode(p)
	}
	// Without pawns the squares are the digits: each image's index by
	// arithmetic, as a move's (classStep), not a position sorted and
	// encoded.
	turned := uint64(0)
	if p.Turn == Black {
		turned = e.half
	}
	return e.leastImage(p, 0, 0, turned), e.kkSyms[p.Pieces[0].Square][p.Pieces[e.bk].Square] != 0
}

// legalAt decodes index i into p and reports whether it is legal and its
// class's representative.
func (e *Endgame) legalAt(i uint64, p *Position) bool {
	return e.legalIndex(i, e.decodeInto(i, p), p)
}

// legalIndex reports whether index i, decoded as p (its pair of kings kk,
// as decodeInto returned it), is a legal position and its class's
// representative.
func (e *Endgame) legalIndex(i uint64, kk int, p *Position) bool {
	var all Bitboard
	for j, pc := range p.List() {
		if all.Has(pc.Square) {
			return false
		}
		all |= Bit(pc.Square)
		if j > 0 && p.Pieces[j-1].Kind == pc.Kind && p.Pieces[j-1].Color == pc.Color && p.Pieces[j-1].Square > pc.Square {
			return false
		}
	}
	// The rest of Legal holds by the index's construction: a king a side,
	// not adjacent (the tables of kings have no such pair), no pawn on
	// the first or last rank (a pawn's digit or placement has none).
	them := p.Pieces[0].Square // the king of the side not to move
	if p.Turn == White {
		them = p.Pieces[e.bk].Square
	}
	if p.attacked(them, p.Turn, all) || p.EP != 0 && !p.hasEP() {
		return false
	}
	if e.blocks != nil {
		return true // a block's index is its position's only one
	}
	if p.EP == 0 && e.alone[kk] {
		return true // no other image has its kings in the table: i is p's class's only index
	}
	c, ok := e.canonical(p)
	return ok && c == i
}
