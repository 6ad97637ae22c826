package chess

import (
	"fmt"
	"slices"
)

// Move is a move of the piece on From to To, promoting a pawn to Promotion
// (King where it is not a promotion).
type Move struct {
	From, To  Square
	Promotion Kind
}

// String writes the move as UCI does: "e2e4", "e7e8q".
func (m Move) String() string {
	s := m.From.String() + m.To.String()
	if m.Promotion != King {
		s += string(m.Promotion.Letter() + 'a' - 'A')
	}
	return s
}

// promotions are the kinds a pawn may become, strongest first.
var promotions = [4]Kind{Queen, Rook, Bishop, Knight}

// Moves appends the legal moves of the side to move in p to dst: every
// move of the rules but castling (GAMES.md, chess) that does not leave its
// own king attacked; en passant where p.EP is set.
func (p *Position) Moves(dst []Move) []Move {
	dst, _ = p.generate(dst, listAll)
	return dst
}

// hasMove reports whether the side to move in p has a legal move.
func (p *Position) hasMove() bool {
	// Most often the king has one: each of its squares is checked on its
	// own, stopping at the first, before every piece's moves are listed.
	us := p.Turn
	king := p.king(us)
	occ := p.occupancy()
	rest := (occ[0] | occ[1]) &^ Bit(king)
	for to := kingAttacks[king] &^ occ[us]; to != 0; to &= to - 1 {
		if !p.attacked(to.First(), us.Other(), rest) {
			return true
		}
	}
	var buf [8]Move
	moves, _ := p.generate(buf[:0], listFirst)
	return len(moves) > 0
}

// listing says what generate lists.
type listing uint8

const (
	listAll   listing = iota // every legal move
	listFirst                // the first legal move only, if any
	// listLoud counts the quiet moves of the kings, knights and sliders
	// (to an empty square) instead of listing them: a tier's solve needs
	// only their number, as they stay in the material.
	listLoud
)

// generate appends the legal moves of p to dst as how says, and returns
// the number of quiet moves it counted instead (listLoud).
func (p *Position) generate(dst []Move, how listing) ([]Move, int) {
	occ := p.occupancy()
	all := occ[0] | occ[1]
	us := p.Turn
	king := p.king(us)
	var safe [MaxPieces]Bitboard
	p.uncheckedSquares(king, all, occ[us], &safe)
	quiet := 0
	for j, pc := range p.List() {
		if pc.Color != us {
			continue
		}
		var targets Bitboard
		if pc.Kind == Pawn {
			targets = pawnAttacks[us][pc.Square] & occ[us.Other()]
			step := 8
			if us == Black {
				step = -8
			}
			one := Square(int(pc.Square) + step)
			if !all.Has(one) {
				targets |= Bit(one)
				start := 1
				if us == Black {
					start = 6
				}
				if two := Square(int(one) + step); pc.Square.Rank() == start && !all.Has(two) {
					targets |= Bit(two)
				}
			}
		} else {
			targets = attacks(pc.Kind, us, pc.Square, all) &^ occ[us]
		}
		switch {
		case pc.Kind == King:
			// The squares the other side attacks with the king off its
			// square (a slider's ray goes on past it), a piece there
			// defended.
			targets &^= p.attackedBy(us.Other(), all&^Bit(king))
			if how == listLoud {
				quiet += (targets &^ all).Count()
				targets &= all
			}
		default:
			targets &= safe[j]
			if how == listLoud && pc.Kind != Pawn {
				quiet += (targets &^ all).Count()
				targets &= all
			}
		}
		for ; targets != 0; targets &= targets - 1 {
			if how == listFirst && len(dst) > 0 {
				return dst, 0
			}
			to := targets.First()
			switch {
			case pc.Kind == Pawn && (to.Rank() == 0 || to.Rank() == 7):
				for _, k := range promotions {
					dst = append(dst, Move{pc.Square, to, k})
				}
			default:
				dst = append(dst, Move{pc.Square, to, King})
			}
		}
		if pc.Kind == Pawn && p.EP != 0 && pawnAttacks[us][pc.Square].Has(p.EP) && p.epSafe(pc.Square, p.EP, king, all) {
			dst = append(dst, Move{pc.Square, p.EP, King})
		}
	}
	return dst, quiet
}

// lonePawnMoves appends the moves of the side to move's pawns where the
// other side has a king alone (Game.neverLostExits): no check to answer,
// no piece pinned and nothing to take (a king is never taken), so each
// step onto an empty square is legal, a promotion four moves.
func (p *Position) lonePawnMoves(dst []Move) []Move {
	all := p.occupied()
	us := p.Turn
	for _, pc := range p.List() {
		if pc.Kind != Pawn || pc.Color != us {
			continue
		}
		one := Square(int(pc.Square) + pawnStep(us))
		switch {
		case all.Has(one):
		case advance(us, one) == 7:
			for _, k := range promotions {
				dst = append(dst, Move{pc.Square, one, k})
			}
		default:
			dst = append(dst, Move{pc.Square, one, King})
			if two := Square(int(one) + pawnStep(us)); advance(us, pc.Square) == 1 && !all.Has(two) {
				dst = append(dst, Move{pc.Square, two, King})
			}
		}
	}
	return dst
}

// uncheckedSquares returns, by slot, the squares to which each piece of
// the side to move other than its king (on king) can move without leaving
// the king attacked; all holds the occupied squares and ours the side to
// move's. Where a piece that is not a slider gives check, its square only;
// where a slider does, its line to the king or its square; for the one
// piece between a slider and the king (pinned), that line or the slider's
// square. The other side's pieces are looked at once for all of them.
// (En passant, which takes a piece off another square, is epSafe's.) It
// writes them into safe, in place, as decodeLegal writes a position.
func (p *Position) uncheckedSquares(king Square, all, ours Bitboard, safe *[MaxPieces]Bitboard) {
	check := ^Bitboard(0)
	var pinned [MaxPieces]Square // the squares of the pinned pieces, and their lines
	var pins [MaxPieces]Bitboard
	n := 0
	for _, o := range p.List() {
		switch {
		case o.Color == p.Turn:
		case o.Kind == King || o.Kind == Knight || o.Kind == Pawn:
			if hits(o.Kind, o.Color, o.Square, king, all) {
				check &= Bit(o.Square)
			}
		case lines[o.Square][king]&kindLines[o.Kind] != 0:
			line := between[o.Square][king] | Bit(o.Square)
			switch in := between[o.Square][king] & all; {
			case in == 0:
				check &= line
			case in&(in-1) == 0 && in&ours != 0:
				pinned[n], pins[n] = in.First(), line
				n++
			}
		}
	}
	for j := range p.N {
		safe[j] = check
	}
	for k := range n {
		safe[p.slot(pinned[k])] &= pins[k]
	}
}

// Play returns the position after move m, which must be a move of p's
// side to move: the piece on m.To, if any, is captured.
func (p *Position) Play(m Move) Position {
	q := p.play(m)
	q.Sort()
	return q
}

// play is Play without putting the pieces back in order. A pawn's move to
// p.EP takes en passant; a pawn's double step after which the opponent
// can take it en passant sets the new position's EP.
func (p *Position) play(m Move) Position {
	q := Position{Turn: p.Turn.Other()}
	taken, pawn := m.To, false
	for _, pc := range p.List() {
		if pc.Square == m.From && pc.Kind == Pawn {
			pawn = true
			if p.EP != 0 && m.To == p.EP {
				taken = Square(int(m.To) - pawnStep(p.Turn))
			}
		}
	}
	for _, pc := range p.List() {
		switch pc.Square {
		case taken:
			continue // captured
		case m.From:
			pc.Square = m.To
			if m.Promotion != King {
				pc.Kind = m.Promotion
			}
		}
		q.add(pc)
	}
	if pawn && (m.To-m.From == 16 || m.From-m.To == 16) {
		skip := (m.From + m.To) / 2
		var buf [4]Square
		for _, s := range q.enPassant(buf[:0]) {
			if s == skip {
				q.EP = skip
			}
		}
	}
	return q
}

// convert is Play of m, a capture or a promotion (or both) of p other than
// en passant, into q (in place, as decodeLegal writes a position), and
// returns the positionKey of the position it reaches from p's (key): the
// piece on m.To, if any, is taken.
func (p *Position) convert(m Move, key uint32, q *Position) uint32 {
	*q = Position{Turn: p.Turn.Other()}
	moved := 0
	for _, pc := range p.List() {
		switch pc.Square {
		case m.To:
			key -= pieceKey(pc.Color, pc.Kind)
			continue
		case m.From:
			pc.Square = m.To
			if m.Promotion != King {
				key += pieceKey(pc.Color, m.Promotion) - pieceKey(pc.Color, pc.Kind)
				pc.Kind = m.Promotion
			}
			moved = q.N
		}
		q.add(pc)
	}
	// p is in order, and so are q's pieces but the one that moved: it
	// goes to its place, to the left or to the right (a Sort was a fifth
	// of the index of a pawn endgame's capture).
	j := moved
	for j > 0 && before(q.Pieces[j], q.Pieces[j-1]) {
		q.Pieces[j], q.Pieces[j-1] = q.Pieces[j-1], q.Pieces[j]
		j--
	}
	if j == moved {
		for j+1 < q.N && before(q.Pieces[j+1], q.Pieces[j]) {
			q.Pieces[j], q.Pieces[j+1] = q.Pieces[j+1], q.Pieces[j]
			j++
		}
	}
	return key
}

// Unmoves appends the positions of the same material from which a legal
// move reaches p: a piece of the side that moved last stepped back to an
// empty square (a pawn one square back, or two from its fourth rank), with
// that side to move and the other not in check. Captures and promotions
// come from other materials and are not among them.
func (p *Position) Unmoves(dst []Position) []Position {
	var buf [128]unmove
	for _, u := range p.unmoves(buf[:0]) {
		dst = append(dst, p.unplay(u))
	}
	return dst
}

// unmove is an un-move within a material: the piece p.Pieces[j] came from
// square from, in the position with en-passant square ep (0 for none).
type unmove struct {
	j    uint8
	from Square
	ep   Square
}

// unplay returns the position before un-move u, in signature order.
func (p *Position) unplay(u unmove) Position {
	q := *p
	q.Turn = p.Turn.Other()
	q.Pieces[u.j].Square = u.from
	q.EP = u.ep
	q.Sort()
	return q
}

// unmoves appends p's un-moves (see Unmoves). An en-passant node's only
// un-move is its double step. A double step that leads to an en-passant
// node does not lead to p, and each position before p that may be an
// en-passant node precedes p both as it stands and as that node.
func (p *Position) unmoves(dst []unmove) []unmove {
	occ := p.occupancy()
	all := occ[0] | occ[1]
	them := p.Turn.Other() // the side that moved last
	king := p.king(p.Turn)
	ep := p.bothPawns()
	if p.EP != 0 {
		j := p.slot(Square(int(p.EP) + pawnStep(them)))
		return p.withEP(dst, unmove{uint8(j), Square(int(p.EP) - pawnStep(them)), 0}, ep)
	}
	var eps [4]Square
	var opened []Square // the squares a double step into p would open
	// chances says where a position before can be an en-passant node:
	// nowhere without pawns on both sides, or without a pawn of p's side to
	// move where a double step ends.
	var chances epChances
	if ep {
		opened = p.enPassant(eps[:0])
		chances = p.epChances()
	}
	for j, pc := range p.List() {
		if pc.Color != them {
			continue
		}
		for from := p.unmoveSquares(j, all, king, opened); from != 0; from &= from - 1 {
			if u := (unmove{uint8(j), from.First(), 0}); chances.possible(u.from, pc.Square, pc.Kind == Pawn, all) {
				dst = p.withEP(dst, u, ep)
			} else {
				dst = append(dst, u) // withEP's, inline
			}
		}
	}
	return dst
}

// unmoveSquares returns the squares the piece of slot j, of the side that
// moved last, can have come from without a capture or a promotion into p
// (no en-passant node): all holds the occupied squares, king the square of
// the side to move's king, opened the squares that a double step into p
// would open to an en-passant capture (not double steps, then: the
// position before would be an en-passant node).
func (p *Position) unmoveSquares(j int, all Bitboard, king Square, opened []Square) Bitboard {
	pc := p.Pieces[j]
	them := pc.Color
	var from Bitboard
	if pc.Kind == Pawn {
		step := -8
		if them == Black {
			step = 8
		}
		one := Square(int(pc.Square) + step)
		if !all.Has(one) && one.Rank() != 0 && one.Rank() != 7 {
			from |= Bit(one)
			fourth := 3
			if them == Black {
				fourth = 4
			}
			if two := Square(int(one) + step); pc.Square.Rank() == fourth && !all.Has(two) && !slices.Contains(opened, one) {
				from |= Bit(two)
			}
		}
	} else {
		from = attacks(pc.Kind, them, pc.Square, all) &^ all
	}
	// The side to move in p must not have stood in check with the other
	// to move.
	return from & p.unchecked(j, king, all)
}

// unchecked returns the squares from which the piece of slot j, of the
// side that moved last, can have come without the other side's king (on
// king) standing in check before: none if a piece of its that is not a
// slider gives check; on a slider's line to the king if the piece was
// all that stood between them; not where the piece itself would give
// check. all holds the occupied squares.
func (p *Position) unchecked(j int, king Square, all Bitboard) Bitboard {
	them := p.Pieces[j].Color
	rest := all &^ Bit(p.Pieces[j].Square)
	safe := ^Bitboard(0)
	for k, o := range p.List() {
		switch {
		case o.Color != them:
		case k == j && o.Kind == Pawn:
			safe &^= pawnAttacks[them.Other()][king] // the squares from which a pawn of them attacks king
		case k == j:
			safe &^= attacks(o.Kind, them, king, rest) // a king, knight or slider attacks back alike
		case o.Kind == King || o.Kind == Knight || o.Kind == Pawn:
			if hits(o.Kind, them, o.Square, king, rest) {
				return 0
			}
		case lines[o.Square][king]&kindLines[o.Kind] != 0 && between[o.Square][king]&rest == 0:
			safe &= between[o.Square][king]
		}
	}
	return safe
}

// Status says how a position with no legal moves ends: checkmate (the side
// to move loses) or stalemate (a draw).
type Status uint8

// The statuses of a position.
const (
	Playing Status = iota
	Checkmate
	Stalemate
)

// Status returns whether the side to move in p is mated, stalemated or
// still playing.
func (p *Position) Status() Status {
	if p.hasMove() {
		return Playing
	}
	if p.InCheck(p.Turn) {
		return Checkmate
	}
	return Stalemate
}

// ParseMove reads a move in UCI form ("e2e4", "e7e8q").
func ParseMove(s string) (Move, error) {
	if len(s) != 4 && len(s) != 5 {
		return Move{}, fmt.Errorf("move %q: want UCI form, e.g. e2e4 or e7e8q", s)
	}
	from, err := ParseSquare(s[:2])
	if err != nil {
		return Move{}, fmt.Errorf("move %q: %v", s, err)
	}
	to, err := ParseSquare(s[2:4])
	if err != nil {
		return Move{}, fmt.Errorf("move %q: %v", s, err)
	}
	m := Move{from, to, King}
	if len(s) == 5 {
		switch s[4] {
		case 'q':
			m.Promotion = Queen
		case 'r':
			m.Promotion = Rook
		case 'b':
			m.Promotion = Bishop
		case 'n':
			m.Promotion = Knight
		default:
			return Move{}, fmt.Errorf("move %q: promotion %q: want q, r, b or n", s, s[4])
		}
	}
	return m, nil
}
