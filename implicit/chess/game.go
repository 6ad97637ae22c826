package chess

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/retro-solver/retro/implicit"
)

// Game is an endgame with the smaller endgames its captures and
// promotions lead to, each a tier: the positions of one material, both
// sides to move, numbered by its Endgame. The root keeps the colours it
// was given; every other material is kept as Syzygy names it (whiteFirst:
// the side with more pieces as White, or with as many the stronger), so
// that a tier is the root of the game of its name (implicit.SharedTiers),
// and a position reached with the colours the other way round is looked
// up with them exchanged and the board turned over (flip).
//
// A position's moves are the distinct classes its legal moves reach, and
// its un-moves the distinct classes that reach it: where two moves reach
// one class they count once, which leaves every value and depth as they
// are. A stalemate moves to itself (a draw); a checkmate is a terminal
// loss. A double step that the opponent can take en passant leads to a
// node of its own, indexed after the tier's stored positions
// (enpassant.go).
type Game struct {
	mats   []gameMaterial
	byKey  keyTable // a material (materialKey, as it is kept) to its number in mats
	size   uint64
	itiers []implicit.Tier
	// reach[{t, c}] says which part of child tier c the moves of tier t
	// reach (ChildReach): a bit for each side to move there (1<<Color,
	// as c keeps its colours), and reachEP where a double step leads
	// into c (its en-passant nodes).
	reach map[[2]int]uint8
	pawns bool // some material of the game has pawns
	// plain: the game of Played, every position its own index, every
	// material in its own colours.
	plain      bool
	playedOnce sync.Once
	played     *Game
}

// gameMaterial is one of a game's materials: its Endgame, the index of
// its first position in the game, and its first tier's number (a material
// with pawns is solved as several: Endgame.Parts).
type gameMaterial struct {
	e     *Endgame
	start uint64
	tier  int
	key   uint32 // its materialKey
	// neverLost[c]: side c's opponent has a king alone, which never gives
	// check, so that a position with c to move is never lost
	// (implicit.LossBounder); pawns[c]: side c has pawns.
	neverLost, pawns [2]bool
}

// keyTable maps the materialKeys of a game's tiers to their numbers: a
// table of open addressing, as a Go map costs a fifth of a solve's time on
// the lookup of every move's material.
type keyTable struct {
	keys  [keySlots]uint32 // key+1; 0 for an empty slot
	tiers [keySlots]int32
}

// keySlots is a power of two above the most materials a game of
// MaxPieces pieces reaches.
const keySlots = 512

func (t *keyTable) slot(key uint32) uint32 { return key * 0x9E3779B1 >> 23 }

// get returns the tier of key.
func (t *keyTable) get(key uint32) (int, bool) {
	for i := t.slot(key); ; i = (i + 1) % keySlots {
		switch t.keys[i] {
		case key + 1:
			return int(t.tiers[i]), true
		case 0:
			return 0, false
		}
	}
}

// put records key's tier (key not yet in t, and t not full).
func (t *keyTable) put(key uint32, tier int) {
	i := t.slot(key)
	for t.keys[i] != 0 {
		i = (i + 1) % keySlots
	}
	t.keys[i], t.tiers[i] = key+1, int32(tier)
}

// sideKey packs the counts of one side's pieces other than its king, the
// queens in the highest bits.
func sideKey(kinds []Kind) uint32 {
	var k uint32
	for _, kind := range kinds {
		if kind != King {
			k += 1 << (3 * (Pawn - kind))
		}
	}
	return k
}

// materialKey is White's sideKey above Black's.
func materialKey(m Material) uint32 { return sideKey(m.Pieces[0])<<15 | sideKey(m.Pieces[1]) }

// pieceKey is what a piece of side c of kind k adds to a materialKey: 0
// for a king.
func pieceKey(c Color, k Kind) uint32 {
	if k == King {
		return 0
	}
	return 1 << (3*uint32(Pawn-k) + 15*uint32(1-c))
}

// positionKey is materialKey of p's material.
func positionKey(p *Position) uint32 {
	var k uint32
	for _, pc := range p.List() {
		k += pieceKey(pc.Color, pc.Kind)
	}
	return k
}

// swapKey exchanges the sides of a materialKey.
func swapKey(k uint32) uint32 { return k>>15 | (k&(1<<15-1))<<15 }

// NewGame returns the endgame of material root and its descendants.
func NewGame(root Material) (*Game, error) { return newGame(root, false) }

// newGame is NewGame, or with plain set the game of Played.
func newGame(root Material, plain bool) (*Game, error) {
	g := &Game{plain: plain}
	queue := []Material{root}
	if plain { // every material in both colour orders, as a position may be typed
		queue = append(queue, root.Swapped())
	}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		key := materialKey(m)
		if _, ok := g.byKey.get(key); ok {
			continue
		}
		if len(g.mats) > 0 && !plain {
			if _, ok := g.byKey.get(swapKey(key)); ok {
				continue
			}
		}
		e, err := newEndgame(m, plain)
		if err != nil {
			return nil, err
		}
		g.pawns = g.pawns || m.HasPawns()
		g.byKey.put(key, len(g.mats))
		mat := gameMaterial{e: e, start: g.size, key: key}
		for c := range m.Pieces {
			mat.neverLost[c] = len(m.Pieces[1-c]) == 1
			mat.pawns[c] = slices.Contains(m.Pieces[c], Pawn)
		}
		g.mats = append(g.mats, mat)
		g.size += e.Size()
		for _, c := range children(m) {
			switch {
			case plain:
				queue = append(queue, c.Swapped())
			case !whiteFirst(c.Pieces[0][1:], c.Pieces[1][1:]):
				c = c.Swapped()
			}
			queue = append(queue, c)
		}
	}
	for k := range g.mats {
		mat := &g.mats[k]
		mat.tier = len(g.itiers)
		name := mat.e.m.String()
		for j, part := range mat.e.Parts() {
			it := implicit.Tier{Name: name, Start: mat.start + part[0], End: mat.start + part[1]}
			if mat.e.blocks != nil {
				it.Name, it.Group = fmt.Sprintf("%s.%d", name, j+1), name
			}
			g.itiers = append(g.itiers, it)
		}
	}
	for k := range g.mats {
		g.tierChildren(k)
	}
	return g, nil
}

// children returns the materials one capture or promotion from m: a piece
// other than a king taken, a pawn promoted to Q, R, B or N, or both at
// once.
func children(m Material) []Material {
	var out []Material
	for c := range m.Pieces {
		for i, k := range m.Pieces[c] {
			if k != King {
				out = append(out, m.remove(Color(c), i))
			}
		}
	}
	for c := range m.Pieces {
		for i, k := range m.Pieces[c] {
			if k != Pawn {
				continue
			}
			for _, promo := range promotions {
				p := m.remove(Color(c), i)
				p.Pieces[c] = append(p.Pieces[c], promo)
				slices.Sort(p.Pieces[c])
				out = append(out, p)
				for j, taken := range p.Pieces[1-c] {
					if taken != King {
						out = append(out, p.remove(Color(1-c), j))
					}
				}
			}
		}
	}
	return out
}

// flip returns p with the colours exchanged and the board turned over
// (the first rank becomes the eighth): the same game from the other side.
func flip(p *Position) Position {
	q := Position{N: p.N, Turn: p.Turn.Other()}
	for i, pc := range p.List() {
		q.Pieces[i] = Piece{pc.Kind, pc.Color.Other(), pc.Square ^ 56}
	}
	if p.EP != 0 {
		q.EP = p.EP ^ 56
	}
	q.Sort()
	return q
}

// Size returns the number of indices of every tier.
func (g *Game) Size() uint64 { return g.size }

// Tiers returns the tiers: one per material without pawns, and the parts
// of one with (implicit.Tiered).
func (g *Game) Tiers() []implicit.Tier { return g.itiers }

// Alternates reports that every win's depth is odd and every loss's even
// (implicit.Alternating): a game ends only in checkmate, a loss for the
// side to move, or in a draw.
func (g *Game) Alternates() bool { return true }

// MaxMoves bounds the moves of a position: a king's 8 and three queens'.
func (g *Game) MaxMoves() uint64 { return 8 + 3*27 }

// mobility is the most moves a piece of each kind has: a queen's 27 from
// the centre, a pawn's 12 (a step and two captures, each promoting four
// ways).
var mobility = [...]uint64{King: 8, Queen: 27, Rook: 14, Bishop: 13, Knight: 8, Pawn: 12}

// TierMaxMoves bounds the moves of tier k's positions by its material
// (implicit.TierMoveBounder): the sum of its pieces' mobility on the side
// that has more. KQRvKR's 49 let a tier's solve count moves in a byte.
func (g *Game) TierMaxMoves(k int) uint64 { return g.tierMaxMoves(k, false) }

// TierMaxLosableMoves bounds the moves of tier k's positions that may be
// lost (implicit.LossBounder): those of a side whose opponent has more
// than a king. KQQQvK's 89 moves of White, who never loses there, need
// two bytes a count; Black's 8 one.
func (g *Game) TierMaxLosableMoves(k int) uint64 { return max(g.tierMaxMoves(k, true), 1) }

// tierMaxMoves is TierMaxMoves, or with losable TierMaxLosableMoves but
// for its least of 1.
func (g *Game) tierMaxMoves(k int, losable bool) uint64 {
	m := &g.mats[sort.Search(len(g.mats), func(m int) bool { return g.mats[m].tier > k })-1]
	var most uint64
	for c, side := range m.e.m.Pieces {
		if losable && m.neverLost[c] {
			continue
		}
		var n uint64
		for _, kind := range side {
			n += mobility[kind]
		}
		most = max(most, n)
	}
	return min(most, g.MaxMoves())
}

// Losable reports whether position s may be lost: whether its opponent
// has more than a king (a lone king never gives check, so never mates;
// implicit.LossBounder).
func (g *Game) Losable(s uint64) bool {
	var p Position
	k, i := g.locate(s)
	g.mats[k].e.decodeInto(i, &p)
	return !g.mats[k].neverLost[p.Turn]
}

// Root returns the material the game was made for.
func (g *Game) Root() Material { return g.mats[0].e.Material() }

// locate returns the material of index s and its index in the material's
// Endgame.
func (g *Game) locate(s uint64) (int, uint64) {
	if len(g.mats) == 1 || s < g.mats[1].start {
		return 0, s // the root, whose tiers are solved and classified most
	}
	lo, hi := 1, len(g.mats) // the material is in [lo, hi)
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if g.mats[mid].start > s {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo, s - g.mats[lo].start
}

// Position returns the position of index s and whether s is legal (a
// legal position and its class's representative).
func (g *Game) Position(s uint64) (Position, bool) {
	p, _, _, ok := g.decode(s)
	return p, ok
}

// decode returns the position of index s, its material and its index in
// the material's Endgame, and whether s is legal.
func (g *Game) decode(s uint64) (p Position, k int, i uint64, ok bool) {
	k, i, ok = g.decodeTo(s, &p)
	return p, k, i, ok
}

// decodeTo is decode into p, which the hot paths keep in place: a
// position is not copied on its way out.
func (g *Game) decodeTo(s uint64, p *Position) (k int, i uint64, ok bool) {
	if s >= g.size {
		return 0, 0, false
	}
	k, i = g.locate(s)
	e := g.mats[k].e
	kk := e.decodeInto(i, p)
	return k, i, e.legalIndex(i, kk, p)
}

// decodeLegal is decodeTo of a legal index s, for Moves and Unmoves
// (which the contract defines for legal positions only): it spares the
// check. Like decodeTo it writes p in place: a position returned by value
// is read back whole just after its pieces' squares were written a byte
// at a time, a load the processor cannot forward from those stores (it
// waits for them to reach the cache: a tenth of a tier's un-moves).
func (g *Game) decodeLegal(s uint64, p *Position) (k int, i uint64) {
	k, i = g.locate(s)
	g.mats[k].e.decodeInto(i, p)
	return k, i
}

// Index returns the index of position p's class, and false if p is not a
// legal position of one of the game's materials.
func (g *Game) Index(p Position) (uint64, bool) {
	q := p
	q.Sort()
	if !q.Legal() {
		return 0, false
	}
	return g.index(&q)
}

// index returns the index of the class of p, a legal position in
// signature order, and false if its material is none of the game's.
func (g *Game) index(p *Position) (uint64, bool) {
	i, _, ok := g.indexFlipped(p)
	return i, ok
}

// indexFlipped is index, and says whether p's material is kept the other
// way round (p was turned over to find its class).
func (g *Game) indexFlipped(p *Position) (i uint64, flipped, ok bool) {
	return g.indexKeyed(p, positionKey(p))
}

// indexKeyed is indexFlipped of p, whose positionKey is key.
func (g *Game) indexKeyed(p *Position, key uint32) (i uint64, flipped, ok bool) {
	k, ok := g.byKey.get(key)
	if !ok {
		if k, ok = g.byKey.get(swapKey(key)); !ok || g.plain {
			return 0, false, false
		}
		q := flip(p)
		p, flipped = &q, true
	}
	i, ok = g.mats[k].e.canonical(p)
	return g.mats[k].start + i, flipped, ok
}

// Classify returns Illegal for an index that is not its class's legal
// representative, TerminalLoss for a checkmate, and Inner otherwise (a
// stalemate moves to itself: a draw).
func (g *Game) Classify(s uint64) implicit.Kind {
	p, ok := g.Position(s)
	switch {
	case !ok:
		return implicit.Illegal
	case p.Status() == Checkmate:
		return implicit.TerminalLoss
	}
	return implicit.Inner
}

// ClassifyCount returns Classify(s) and, for an Inner s, its number of
// moves (implicit.ClassifyCounter): the moves are listed once for both.
// (Classify alone stops at the first legal move: it names no class.)
func (g *Game) ClassifyCount(s uint64) (implicit.Kind, uint64) {
	p, k, i, ok := g.decode(s)
	if !ok {
		return implicit.Illegal, 0
	}
	var buf [128]uint64
	n := len(g.moves(&p, k, i, buf[:0]))
	if n == 0 {
		return implicit.TerminalLoss, 0
	}
	return implicit.Inner, uint64(n)
}

// ClassifyMoves returns Classify(s) and, for an Inner s, Moves(s, dst),
// decoding s once (implicit.MoveClassifier).
func (g *Game) ClassifyMoves(s uint64, dst []uint64) (implicit.Kind, []uint64) {
	var p Position
	k, i, ok := g.decodeTo(s, &p)
	if !ok {
		return implicit.Illegal, dst
	}
	n := len(dst)
	if dst = g.moves(&p, k, i, dst); len(dst) == n {
		return implicit.TerminalLoss, dst // no move, not even a stalemate's: a checkmate
	}
	return implicit.Inner, dst
}

// NumMoves returns the number of moves of s (implicit.MoveCounter).
func (g *Game) NumMoves(s uint64) uint64 {
	_, n := g.ClassifyCount(s)
	return n
}

// ClassifyTierMoves returns Classify(s) and, for an Inner s, TierMoves(s,
// dst), decoding s and finding its legal moves once
// (implicit.TierMoveClassifier); for an s whose side to move is never
// lost, a count of 1 in place of its moves inside (implicit.LossBounder).
func (g *Game) ClassifyTierMoves(s uint64, dst []uint64) (implicit.Kind, uint64, []uint64) {
	var p Position
	k, i, ok := g.decodeTo(s, &p)
	if !ok {
		return implicit.Illegal, 0, dst
	}
	if g.mats[k].neverLost[p.Turn] {
		var buf [maxMoves]Move
		return implicit.Inner, 1, g.neverLostExits(&p, k, i, &buf, dst)
	}
	n := len(dst)
	inside, dst := g.tierMoves(&p, k, i, dst)
	if inside == 0 && len(dst) == n {
		return implicit.TerminalLoss, 0, dst // no legal move: a checkmate
	}
	return implicit.Inner, inside, dst
}

// neverLostExits is the exits that ClassifyTierMoves lists for p, a
// position whose side to move is never lost: its count of moves inside
// the tier can stand at 1 (implicit.LossBounder), which spares listing
// them. It has nothing to take but a king, so its exits are its pawns'
// moves that leave the tier (lonePawnMoves), and none without pawns. (It
// is never checkmated: a lone king gives no check.) For KQQRvK's White,
// half the index, no move is listed where 60 were, sorted where the lone
// king stands on a diagonal (tierMovesRepeat).
func (g *Game) neverLostExits(p *Position, k int, i uint64, buf *[maxMoves]Move, dst []uint64) []uint64 {
	if !g.mats[k].pawns[p.Turn] {
		return dst
	}
	var st stepper
	_, dst = g.exits(p, k, i, &st, p.lonePawnMoves(buf[:0]), dst)
	return dst
}

// TierMoves returns the number of s's moves within its material and
// appends the others, its captures and promotions (implicit.TierMover).
func (g *Game) TierMoves(s uint64, dst []uint64) (uint64, []uint64) {
	var p Position
	k, i := g.decodeLegal(s, &p)
	return g.tierMoves(&p, k, i, dst)
}

// tierMoves is TierMoves of p, the position of index i of material k. A move
// within the material is counted without its index where no two can reach
// one class (diagonalSymmetric): the quiet moves of the pieces other than
// pawns, the most, are counted without being listed (generate's
// listLoud). Elsewhere the moves within are numbered, after the exits at
// the end of dst, and counted once per class.
func (g *Game) tierMoves(p *Position, k int, i uint64, dst []uint64) (uint64, []uint64) {
	repeat := g.mats[k].e.syms == 8 && p.diagonalSymmetric(p.Turn.Other())
	var buf [maxMoves]Move
	return g.tierMovesRepeat(p, k, i, repeat, &buf, dst)
}

// maxMoves bounds a position's moves (a promotion counted once for each
// piece it makes): generate's room.
const maxMoves = 128

// tierMovesRepeat is tierMoves where repeat says whether p's moves within
// its material may reach one class twice (diagonalSymmetric); buf is room
// for p's moves, the caller's, so that a worker's classifier does not
// clear one at every index (2% of a classification).
func (g *Game) tierMovesRepeat(p *Position, k int, i uint64, repeat bool, buf *[maxMoves]Move, dst []uint64) (uint64, []uint64) {
	how := listLoud
	if repeat {
		how = listAll
	}
	moves, quiet := p.generate(buf[:0], how)
	if len(moves) == 0 && quiet == 0 {
		if !p.InCheck(p.Turn) {
			return 1, dst // a stalemate moves to itself
		}
		return 0, dst
	}
	var st stepper // found at the first move that needs it
	stay, dst := g.exits(p, k, i, &st, moves, dst)
	if !repeat {
		return uint64(quiet) + stay, dst
	}
	all := p.occupied()
	blocked := g.mats[k].e.blocks != nil
	end := len(dst)
	for _, m := range moves {
		if g.staysInside(p, m, all, blocked) {
			dst = g.moveIndex(p, k, i, &st, m, all, dst)
		}
	}
	return uint64(len(distinct(dst, end)) - end), dst[:end]
}

// exits appends the indices of those of p's moves that leave its tier,
// each class once, and returns the number of the others; st is p's
// stepper, as moveIndex takes it.
func (g *Game) exits(p *Position, k int, i uint64, st *stepper, moves []Move, dst []uint64) (uint64, []uint64) {
	all := p.occupied()
	blocked := g.mats[k].e.blocks != nil
	from := len(dst)
	var stay uint64
	for _, m := range moves {
		if g.staysInside(p, m, all, blocked) {
			stay++
			continue
		}
		dst = g.moveIndex(p, k, i, st, m, all, dst)
	}
	if mayRepeat(p.king(p.Turn.Other())) {
		dst = distinct(dst, from)
	}
	return stay, dst
}

// staysInside reports whether move m of p (its occupied squares all) stays
// in p's tier: not a capture nor a promotion, and no pawn's move where the
// material is in blocks by its pawns (blocks.go), nor en passant.
func (g *Game) staysInside(p *Position, m Move, all Bitboard, blocked bool) bool {
	if m.Promotion != King || all.Has(m.To) {
		return false
	}
	pawn := false
	for _, pc := range p.List() {
		pawn = pawn || pc.Square == m.From && pc.Kind == Pawn
	}
	return !pawn || !blocked && (p.EP == 0 || m.To != p.EP)
}

// Moves appends the classes that s's legal moves reach, each once; a
// stalemate's only move is to itself. s must be legal (see Classify), as
// for Unmoves.
func (g *Game) Moves(s uint64, dst []uint64) []uint64 {
	var p Position
	k, i := g.decodeLegal(s, &p)
	return g.moves(&p, k, i, dst)
}

// moves is Moves of p, the position of index i of material k: none for a
// checkmate.
func (g *Game) moves(p *Position, k int, i uint64, dst []uint64) []uint64 {
	t := &g.mats[k]
	var buf [maxMoves]Move
	moves := p.Moves(buf[:0])
	if len(moves) == 0 {
		if !p.InCheck(p.Turn) {
			dst = append(dst, t.start+i)
		}
		return dst
	}
	occ := p.occupancy()
	from := len(dst)
	var st stepper // found at the first move that needs it
	for _, m := range moves {
		dst = g.moveIndex(p, k, i, &st, m, occ[0]|occ[1], dst)
	}
	if !mayRepeat(p.king(p.Turn.Other())) {
		return dst
	}
	return distinct(dst, from)
}

// mayRepeat reports whether two of a position's moves, or two of its
// un-moves within its material, may reach one class when the king that
// none of them moves stands on s. They reach positions q1 and q2 with
// that king in place, so a symmetry that takes q1 to q2 keeps it in
// place: the identity (the same move: each is listed once) or a
// reflection in a diagonal through s. Elsewhere, no repeat to drop.
func mayRepeat(s Square) bool { return s.File() == s.Rank() || s.File()+s.Rank() == 7 }

// diagonalSymmetric reports whether the reflection in a diagonal takes
// side c's pieces onto themselves (each to a piece of its kind). Moves
// within the material leave the other side's pieces in place, and
// un-moves within it the side to move's, so a symmetry that takes one's
// position to another's keeps those pieces where they are, and only such
// a reflection can (the refinement of mayRepeat for these).
func (p *Position) diagonalSymmetric(c Color) bool {
	king := p.king(c)
	if !mayRepeat(king) {
		return false // the king is off both diagonals
	}
	var byKind [Pawn + 1]Bitboard // side c's squares, by kind
	for _, pc := range p.List() {
		if pc.Color == c {
			byKind[pc.Kind] |= Bit(pc.Square)
		}
	}
next:
	for _, t := range [2]int{4, 7} { // a1-h8, a8-h1
		if symSquare[t][king] != king {
			continue // the king is off this diagonal
		}
		for _, pc := range p.List() {
			if pc.Color == c && !byKind[pc.Kind].Has(symSquare[t][pc.Square]) {
				continue next
			}
		}
		return true
	}
	return false
}

// moveIndex appends the index of the class that move m of p (the
// position of index i of material k, its occupied squares all) reaches.
// st is p's stepper, found here at the first move that needs it if st.e
// is nil, and kept for p's other moves.
func (g *Game) moveIndex(p *Position, k int, i uint64, st *stepper, m Move, all Bitboard, dst []uint64) []uint64 {
	t := &g.mats[k]
	// Not from an en-passant node (whose index is not a position's), nor
	// a pawn's double step where the other side has a pawn (it may lead
	// to one).
	if m.Promotion == King && !all.Has(m.To) && p.EP == 0 {
		if st.e == nil {
			t.e.initStepper(st, p, i)
		}
		j := st.slot(p, m.From)
		double := p.Pieces[j].Kind == Pawn && (m.To-m.From == 16 || m.From-m.To == 16)
		if !double || !p.hasPawn(p.Turn.Other()) {
			if next, ok := st.step(p, j, m.From, m.To); ok {
				return append(dst, t.start+next)
			}
		}
	}
	var q Position
	key := t.key
	if p.EP == 0 && (m.Promotion != King || all.Has(m.To)) {
		key = p.convert(m, key, &q)
	} else {
		q = p.Play(m)
		key = positionKey(&q)
	}
	next, _, ok := g.indexKeyed(&q, key)
	if !ok {
		panic(fmt.Sprintf("chess: %s: the move %v reaches %s, of no material of the game", p.FEN(), m, q.FEN()))
	}
	return append(dst, next)
}

// slot returns the number of p's piece on square s.
func (p *Position) slot(s Square) int {
	for j, pc := range p.List() {
		if pc.Square == s {
			return j
		}
	}
	panic("chess: no piece on " + s.String())
}

// distinct drops the repeats among dst[from:].
func distinct(dst []uint64, from int) []uint64 {
	tail := dst[from:]
	slices.Sort(tail)
	return dst[:from+len(slices.Compact(tail))]
}

// Played returns the game over every position as it stands on the board:
// no symmetry, each material in its own colours (implicit.AsPlayed), for
// queries and play, whose positions and moves are then those the player
// sees. Its Class maps them to this game's classes.
func (g *Game) Played() implicit.Game { return g.playedGame() }

func (g *Game) playedGame() *Game {
	if g.plain {
		return g
	}
	g.playedOnce.Do(func() {
		g.played, _ = newGame(g.Root(), true) // the root was checked
	})
	return g.played
}

// Class returns g's index of position s of Played(): its class's.
func (g *Game) Class(s uint64) uint64 {
	p, _ := g.playedGame().Position(s)
	i, _ := g.Index(p)
	return i
}

// MoveName returns the UCI name of the move from position s to t
// ("e7e8q"; "0000", UCI's null move, for a stalemate's move to itself),
// or "" if t is not among s's moves (implicit.MoveNamer). The names are
// those of the board as it stands in the game of Played; in the class
// game, of its representatives.
func (g *Game) MoveName(s, t uint64) string {
	p, k, i, ok := g.decode(s)
	if !ok {
		return ""
	}
	var buf [maxMoves]Move
	for _, m := range p.Moves(buf[:0]) {
		q := p.Play(m)
		if u, ok := g.index(&q); ok && u == t {
			return m.String()
		}
	}
	if p.InCheck(p.Turn) || t != g.mats[k].start+i {
		return ""
	}
	return "0000" // a stalemate's move to itself: UCI's null move
}

// Describe writes position s as FEN.
func (g *Game) Describe(s uint64) string {
	p, _ := g.Position(s)
	return p.FEN()
}

// ParsePosition reads a position in FEN, of one of the game's materials;
// an en-passant square where no capture is open is dropped.
// The ranks may also stand on lines of their own (query reads a game's
// lines joined by '/' and gives them back on lines).
func (g *Game) ParsePosition(text string) (uint64, error) {
	p, err := ParseFEN(strings.ReplaceAll(strings.TrimSpace(text), "\n", "/"))
	if err != nil {
		return 0, err
	}
	if p.EP != 0 && !p.hasEP() {
		p.EP = 0 // a double step that opens no capture: the position as stored
	}
	if why := p.Illegal(); why != "" {
		return 0, fmt.Errorf("%s: not a legal position: %s", p.FEN(), why)
	}
	i, ok := g.index(&p)
	if !ok {
		return 0, fmt.Errorf("%s: its material %v is not %v or one it leads to", p.FEN(), p.Material(), g.Root())
	}
	return i, nil
}
