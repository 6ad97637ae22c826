package chess

import "github.com/retro-solver/retro/implicit"

// A tier's classification visits its indices in order, and consecutive
// indices of a material differ in their last digit alone, the square of
// the last piece other than the kings, 63 times out of 64: a run. A
// runClassifier decodes a run's first index and finds what the legality
// of the run's positions owes to its other pieces once, then for each
// index sets the last piece's square and tests it against those: a
// third of ClassifyTierMoves's work per index, and nearly all of it for
// the illegal ones, was decoding and legality.

// NewTierMoveClassifier returns ClassifyTierMoves for one goroutine
// (implicit.TierMoveRunner): the same results, faster where each index
// follows the one before.
func (g *Game) NewTierMoveClassifier() func(s uint64, dst []uint64) (implicit.Kind, uint64, []uint64) {
	c := &runClassifier{g: g}
	return c.classify
}

var (
	_ implicit.TierMoveRunner = (*Game)(nil)
	_ implicit.LossBounder    = (*Game)(nil)
)

// runClassifier is one goroutine's ClassifyTierMoves, which keeps the
// run of the index it classified last.
type runClassifier struct {
	g    *Game
	next uint64 // the index after the last one classified, which continues its run
	ok   bool   // whether a run is kept (next is meaningful)
	r    run
	// moves is room for an index's moves.
	moves [maxMoves]Move
	// Workers' classifiers are allocated one after the other, and each
	// writes next at every index: a cache line apart, or the line they
	// share goes back and forth between the cores (KBNvKN's own tier:
	// 13% of its CPU in two lines of classify).
	_ [64]byte
}

// run is what the positions of a run share: all but the last piece's
// square, and the squares of the last piece that make them illegal.
type run struct {
	k    int      // the material
	base uint64   // the material's index of the run's first position, less its last digit
	p    Position // the run's first position, the last piece on its square
	last int      // the last piece's slot
	// illegal: the last piece's squares where the position breaks the
	// rules or the index's order (legalIndex), but for its class's
	// representative, which is the index's own where canonical is set (a
	// pair of kings that no other symmetry brings into the table), and
	// otherwise to be checked, with kk, the pair's number.
	illegal   Bitboard
	canonical bool
	kk        int
	// mayRepeat: whether the material has the 8 symmetries and the king
	// of the side not to move stands on a diagonal, without which no
	// position of the run has moves that reach one class twice
	// (diagonalSymmetric).
	mayRepeat bool
}

// classify is ClassifyTierMoves(s, dst).
func (c *runClassifier) classify(s uint64, dst []uint64) (implicit.Kind, uint64, []uint64) {
	if !c.ok || s != c.next || !c.continues(s) {
		c.ok = c.start(s)
	}
	c.next = s + 1
	if !c.ok {
		return c.g.ClassifyTierMoves(s, dst)
	}
	r := &c.r
	k := r.k
	i := s - c.g.mats[k].start
	sq := Square(i & 63)
	p := r.p
	p.Pieces[r.last].Square = sq
	if !r.legal(c.g.mats[k].e, i, &p) {
		return implicit.Illegal, 0, dst
	}
	if c.g.mats[k].neverLost[p.Turn] {
		return implicit.Inner, 1, c.g.neverLostExits(&p, k, i, &c.moves, dst)
	}
	n := len(dst)
	repeat := r.mayRepeat && p.diagonalSymmetric(p.Turn.Other())
	inside, dst := c.g.tierMovesRepeat(&p, k, i, repeat, &c.moves, dst)
	if inside == 0 && len(dst) == n {
		return implicit.TerminalLoss, 0, dst // no legal move: a checkmate
	}
	return implicit.Inner, inside, dst
}

// continues reports whether index s, the one after the last classified,
// is in the same run: in the same material and with the same index but
// for the last digit.
func (c *runClassifier) continues(s uint64) bool {
	m := &c.g.mats[c.r.k]
	return s >= m.start && (s-m.start)&^63 == c.r.base
}

// start sets c's run to that of index s, and reports whether s has one:
// its material's last digit is the square of a piece other than a pawn
// (a material of kings and pawns alone has none), and s is not an
// en-passant node's index (the pawn's square is not a digit of it).
func (c *runClassifier) start(s uint64) bool {
	g := c.g
	if s >= g.size {
		return false
	}
	k, i := g.locate(s)
	e := g.mats[k].e
	if len(e.others) == 0 || e.radix[len(e.others)-1] != 64 || e.slots[e.others[len(e.others)-1]].Kind == Pawn {
		return false
	}
	r := &c.r
	r.k, r.base, r.last = k, i&^63, e.others[len(e.others)-1]
	r.kk = e.decodeInto(i, &r.p)
	if r.p.EP != 0 { // an en-passant node
		return false
	}
	r.prepare(e)
	return true
}

// prepare finds what the legality of r's positions owes to the pieces
// other than the last (of e): a position is illegal where the last piece
// shares a square with another, stands before its twin (identical
// pieces are in consecutive slots, their squares increasing), or where
// the side to move attacks the other king: with a piece that the last
// one cannot block, with a slider unless the last piece stands between
// it and the king, or with the last piece itself.
func (r *run) prepare(e *Endgame) {
	p := &r.p
	lastPc := p.Pieces[r.last]
	twin := func(a, b Piece) bool { return a.Kind == b.Kind && a.Color == b.Color }
	var others Bitboard
	broken := false // by the other pieces alone
	for j, pc := range p.List() {
		if j == r.last {
			continue
		}
		broken = broken || others.Has(pc.Square) ||
			j > 0 && j-1 != r.last && twin(p.Pieces[j-1], pc) && p.Pieces[j-1].Square > pc.Square
		others |= Bit(pc.Square)
	}
	illegal := others
	if j := r.last - 1; twin(p.Pieces[j], lastPc) {
		illegal |= Bit(p.Pieces[j].Square)<<1 - 1 // on or before its twin's square
	}
	them := p.Pieces[0].Square // the king of the side not to move
	if p.Turn == White {
		them = p.Pieces[e.bk].Square
	}
	shield := ^Bitboard(0) // where the last piece blocks every slider that sees them
	for j, pc := range p.List() {
		if j == r.last || pc.Color != p.Turn {
			continue
		}
		switch pc.Kind {
		case King, Knight, Pawn:
			broken = broken || hits(pc.Kind, pc.Color, pc.Square, them, others)
		default:
			if lines[pc.Square][them]&kindLines[pc.Kind] != 0 && between[pc.Square][them]&others == 0 {
				shield &= between[pc.Square][them]
			}
		}
	}
	illegal |= ^shield
	if lastPc.Color == p.Turn {
		// The squares from which it sees them are those it sees from
		// them: it is no pawn, whose attacks have a direction.
		illegal |= attacks(lastPc.Kind, lastPc.Color, them, others)
	}
	if broken {
		illegal = ^Bitboard(0)
	}
	r.illegal = illegal
	r.canonical = e.blocks != nil || e.alone[r.kk]
	r.mayRepeat = e.syms == 8 && mayRepeat(p.king(p.Turn.Other()))
}

// legal is legalIndex(i, r.kk, p) for p, a position of r with the last
// piece on square i&63.
func (r *run) legal(e *Endgame, i uint64, p *Position) bool {
	if r.illegal.Has(p.Pieces[r.last].Square) {
		return false
	}
	if r.canonical {
		return true
	}
	c, ok := e.canonical(p)
	return ok && c == i
}
