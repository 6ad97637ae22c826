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
	for _, pc := range p.Pieces {
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
