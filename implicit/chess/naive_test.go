package chess

import (
	"slices"
	"strings"
)

// A naive move generator, written apart from the bitboards to check them:
// an 8 x 8 array of letters (upper case White, lower case Black, 0 empty),
// moves walked square by square, legality by looking for an attack on the
// king from every square.

type naiveBoard struct {
	sq   [8][8]byte // [file][rank]
	turn Color
}

func toNaive(p Position) naiveBoard {
	var b naiveBoard
	for _, pc := range p.List() {
		l := pc.Kind.Letter()
		if pc.Color == Black {
			l += 'a' - 'A'
		}
		b.sq[pc.Square.File()][pc.Square.Rank()] = l
	}
	b.turn = p.Turn
	return b
}

func colorOf(l byte) Color {
	if l >= 'a' {
		return Black
	}
	return White
}

func upper(l byte) byte {
	if l >= 'a' {
		return l - ('a' - 'A')
	}
	return l
}

// naiveAttacks reports whether side c attacks square (f, r).
func (b *naiveBoard) naiveAttacks(c Color, f, r int) bool {
	for ff := range 8 {
		for rr := range 8 {
			l := b.sq[ff][rr]
			if l == 0 || colorOf(l) != c || ff == f && rr == r {
				continue
			}
			df, dr := f-ff, r-rr
			adf, adr := max(df, -df), max(dr, -dr)
			switch upper(l) {
			case 'K':
				if adf <= 1 && adr <= 1 {
					return true
				}
			case 'N':
				if adf*adr == 2 {
					return true
				}
			case 'P':
				fwd := 1
				if c == Black {
					fwd = -1
				}
				if adf == 1 && dr == fwd {
					return true
				}
			default:
				straight := df == 0 || dr == 0
				diagonal := adf == adr
				q := upper(l)
				if !(q == 'Q' && (straight || diagonal) || q == 'R' && straight || q == 'B' && diagonal) {
					continue
				}
				sf, sr := sign(df), sign(dr)
				clear := true
				for x, y := ff+sf, rr+sr; x != f || y != r; x, y = x+sf, y+sr {
					if b.sq[x][y] != 0 {
						clear = false
						break
					}
				}
				if clear {
					return true
				}
			}
		}
	}
	return false
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func (b *naiveBoard) inCheck(c Color) bool {
	for f := range 8 {
		for r := range 8 {
			if l := b.sq[f][r]; l != 0 && upper(l) == 'K' && colorOf(l) == c {
				return b.naiveAttacks(c.Other(), f, r)
			}
		}
	}
	return false
}

// naiveMoves returns the UCI names of the legal moves, sorted.
func (b naiveBoard) naiveMoves() []string {
	var out []string
	add := func(f, r, tf, tr int, promo byte) {
		nb := b
		nb.sq[tf][tr] = nb.sq[f][r]
		if promo != 0 {
			nb.sq[tf][tr] = promo
			if b.turn == Black {
				nb.sq[tf][tr] += 'a' - 'A'
			}
		}
		nb.sq[f][r] = 0
		if nb.inCheck(b.turn) {
			return
		}
		m := string([]byte{byte('a' + f), byte('1' + r), byte('a' + tf), byte('1' + tr)})
		if promo != 0 {
			m += string(promo + 'a' - 'A')
		}
		out = append(out, m)
	}
	target := func(f, r int) (ok, empty bool) {
		if f < 0 || f > 7 || r < 0 || r > 7 {
			return false, false
		}
		l := b.sq[f][r]
		return l == 0 || colorOf(l) != b.turn, l == 0
	}
	for f := range 8 {
		for r := range 8 {
			l := b.sq[f][r]
			if l == 0 || colorOf(l) != b.turn {
				continue
			}
			switch upper(l) {
			case 'K', 'N':
				for df := -2; df <= 2; df++ {
					for dr := -2; dr <= 2; dr++ {
						adf, adr := max(df, -df), max(dr, -dr)
						if upper(l) == 'K' && (adf > 1 || adr > 1 || adf+adr == 0) || upper(l) == 'N' && adf*adr != 2 {
							continue
						}
						if ok, _ := target(f+df, r+dr); ok {
							add(f, r, f+df, r+dr, 0)
						}
					}
				}
			case 'P':
				fwd, start, last := 1, 1, 7
				if b.turn == Black {
					fwd, start, last = -1, 6, 0
				}
				pawn := func(tf, tr int) {
					if tr == last {
						for _, k := range []byte("QRBN") {
							add(f, r, tf, tr, k)
						}
					} else {
						add(f, r, tf, tr, 0)
					}
				}
				if _, empty := target(f, r+fwd); empty {
					pawn(f, r+fwd)
					if _, empty2 := target(f, r+2*fwd); r == start && empty2 {
						pawn(f, r+2*fwd)
					}
				}
				for _, df := range []int{-1, 1} {
					if ok, empty := target(f+df, r+fwd); ok && !empty {
						pawn(f+df, r+fwd)
					}
				}
			default:
				q := upper(l)
				for df := -1; df <= 1; df++ {
					for dr := -1; dr <= 1; dr++ {
						straight := df == 0 || dr == 0
						if df == 0 && dr == 0 || q == 'R' && !straight || q == 'B' && straight {
							continue
						}
						for k := 1; ; k++ {
							ok, empty := target(f+k*df, r+k*dr)
							if !ok {
								break
							}
							add(f, r, f+k*df, r+k*dr, 0)
							if !empty {
								break
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// moveNames returns the UCI names of moves, sorted.
func moveNames(moves []Move) []string {
	var out []string
	for _, m := range moves {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}

// joined is a list of names for failure messages.
func joined(names []string) string { return strings.Join(names, " ") }

// naiveSolution is a material solved by naiveSolve: every board, no
// symmetry, its value and depth.
type naiveSolution struct {
	m      Material
	slots  []Piece // kinds and colours in signature order
	value  []int8  // per naive index: 0 unknown or draw, 1 win, 2 loss, -1 not a position
	depth  []int16
	boards uint64 // boards per side to move: 64^pieces
	key    uint64 // the material's naiveKey
}

// naiveIndex numbers a board: the side to move, then each piece's square in
// slot order.
func (s *naiveSolution) naiveIndex(p Position) uint64 {
	i := uint64(0)
	for j := p.N - 1; j >= 0; j-- {
		i = i*64 + uint64(p.Pieces[j].Square)
	}
	return uint64(p.Turn)*s.boards + i
}

func (s *naiveSolution) board(i uint64) Position {
	p := Position{Turn: Color(i / s.boards)}
	i %= s.boards
	for _, sl := range s.slots {
		p.add(Piece{sl.Kind, sl.Color, Square(i % 64)})
		i /= 64
	}
	return p
}

// naiveSolve solves m and, first, every material its captures and
// promotions reach, by rounds: in round d a position becomes a win at
// depth d if a move reaches a loss at depth d-1, a loss at depth d if every
// move reaches a win of depth below d (a checkmate in round 0); a
// stalemate is a draw, and what no round resolves is a draw. Moves come
// from the naive generator, and positions are compared by their boards, in
// the colours they have.
func naiveSolve(m Material, solved map[string]*naiveSolution) *naiveSolution {
	if s, ok := solved[m.String()]; ok {
		return s
	}
	s := &naiveSolution{m: m, boards: 1}
	for c := range m.Pieces {
		for _, k := range m.Pieces[c] {
			s.key += naivePieceKey(Color(c), k)
		}
	}
	for c := range m.Pieces {
		for _, k := range m.Pieces[c] {
			s.slots = append(s.slots, Piece{Kind: k, Color: Color(c)})
			s.boards *= 64
		}
	}
	n := 2 * s.boards
	s.value, s.depth = make([]int8, n), make([]int16, n)
	type edge struct {
		to    *naiveSolution
		index uint64
	}
	// The moves of every board are kept for 3 pieces; for more (64^4
	// boards and more) they are generated again in each round instead.
	lean := s.boards > 64*64*64
	children := map[uint64]*naiveSolution{}
	var succ [][]edge
	if !lean {
		succ = make([][]edge, n)
	}
	edges := func(i uint64, dst []edge) []edge {
		p := s.board(i)
		for _, name := range toNaive(p).naiveMoves() {
			mv, _ := ParseMove(name)
			q := p.Play(mv)
			to := s
			if k := naiveKey(&q); k != s.key {
				if to = children[k]; to == nil {
					to = naiveSolve(q.Material(), solved)
					children[k] = to
				}
			}
			// q is sorted in signature order: its pieces match to's slots.
			dst = append(dst, edge{to, to.naiveIndex(q)})
		}
		return dst
	}
	stalemate := make([]bool, n)
	for i := range n {
		p := s.board(i)
		if !naiveLegal(p) {
			s.value[i] = -1
			continue
		}
		nb := toNaive(p)
		if len(nb.naiveMoves()) == 0 && !nb.inCheck(p.Turn) {
			stalemate[i] = true
		}
		if !lean {
			succ[i] = edges(i, nil)
		}
	}
	maxChild := 0
	for _, c := range solved {
		for _, d := range c.depth {
			maxChild = max(maxChild, int(d))
		}
	}
	done := make([]bool, n)
	var buf []edge
	for d := 0; ; d++ {
		changed := false
		var won, lost []uint64
		for i := range n {
			if s.value[i] != 0 || stalemate[i] {
				continue
			}
			win, allWins := false, true
			moves := buf[:0]
			if lean {
				moves = edges(i, buf[:0])
				buf = moves
			} else {
				moves = succ[i]
			}
			for _, e := range moves {
				v, dd := e.to.value[e.index], int(e.to.depth[e.index])
				known := e.to != s || done[e.index]
				if v == 2 && known && dd == d-1 {
					win = true
				}
				if v != 1 || !known || dd > d-1 {
					allWins = false
				}
			}
			switch {
			case win:
				won = append(won, i)
			case allWins:
				lost = append(lost, i)
			}
		}
		for _, i := range won {
			s.value[i], s.depth[i], changed = 1, int16(d), true
		}
		for _, i := range lost {
			s.value[i], s.depth[i], changed = 2, int16(d), true
		}
		for _, i := range append(won, lost...) {
			done[i] = true
		}
		if !changed && d > maxChild+1 {
			break
		}
	}
	solved[m.String()] = s
	return s
}

// naiveLegal is Legal on the naive board: one square a piece, no pawn on
// the first or last rank, the kings apart, the side not to move not in
// check.
func naiveLegal(p Position) bool {
	seen := map[Square]bool{}
	for _, pc := range p.List() {
		if seen[pc.Square] || pc.Kind == Pawn && (pc.Square.Rank() == 0 || pc.Square.Rank() == 7) {
			return false
		}
		seen[pc.Square] = true
	}
	b := toNaive(p)
	wk, bk := p.king(White), p.king(Black)
	if max(wk.File()-bk.File(), bk.File()-wk.File()) <= 1 && max(wk.Rank()-bk.Rank(), bk.Rank()-wk.Rank()) <= 1 {
		return false
	}
	return !b.inCheck(p.Turn.Other())
}

// naiveKey numbers p's material: a count of 4 bits per kind and colour.
func naiveKey(p *Position) uint64 {
	k := uint64(0)
	for _, pc := range p.List() {
		k += naivePieceKey(pc.Color, pc.Kind)
	}
	return k
}

func naivePieceKey(c Color, k Kind) uint64 { return 1 << (4 * (6*uint64(c) + uint64(k))) }
