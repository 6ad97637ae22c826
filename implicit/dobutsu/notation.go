package dobutsu

import (
	"fmt"
	"strings"
)

// Describe writes index s as four rows of three cells, row 1 (Gote's home
// row) first, then a line with the player to move and the pieces in hand:
//
//	gle
//	.c.
//	.C.
//	ELG
//	Sente to move; in hand: -
//
// Sente's pieces are upper case, Gote's lower case: L lion, G giraffe,
// E elephant, C chick, H hen, '.' an empty square. The index keeps each
// position with the player to move as Sente, so Describe always writes
// "Sente to move"; hands are listed as letters ("in hand: GCe": Sente holds
// a giraffe and a chick, Gote an elephant).
func (g *Game) Describe(s uint64) string {
	p, _ := g.decode(s)
	return p.describe("Sente")
}

// DescribeTurned writes index s as the same position with Gote to move:
// the board turned by 180 degrees, the colours swapped. ParsePosition reads
// it back as s.
func (g *Game) DescribeTurned(s uint64) string {
	p, _ := g.decode(s)
	q := p.flip() // Sente's pieces, side 0 in q, are the ones not to move
	return q.describe("Gote")
}

// describe writes p with side 0 as Sente, and mover ("Sente" or "Gote") to
// move.
func (p *position) describe(mover string) string {
	var b strings.Builder
	for sq := range squares {
		b.WriteByte(p.letter(int8(sq)))
		if sq%cols == cols-1 {
			b.WriteByte('\n')
		}
	}
	b.WriteString(mover + " to move; in hand: ")
	n := 0
	for side := range 2 {
		for k := range handKinds {
			for range p.hand[side][k] {
				c := letters[k]
				if side == 1 {
					c += 'a' - 'A'
				}
				b.WriteByte(c)
				n++
			}
		}
	}
	if n == 0 {
		b.WriteByte('-')
	}
	b.WriteByte('\n')
	return b.String()
}

// letter returns the character of square sq: upper case for side 0.
func (p *position) letter(sq int8) byte {
	bit := uint16(1) << sq
	var c byte
	switch {
	case p.occupied()&bit == 0:
		return '.'
	case p.lion[0] == sq || p.lion[1] == sq:
		c = 'L'
	default:
		c = letters[p.pieceAt(sq)]
	}
	if p.side[1]&bit != 0 {
		c += 'a' - 'A'
	}
	return c
}

// ParsePosition reads a position as Describe writes it, its lines separated
// by newlines or '/', with "Sente to move" or "Gote to move" (a position
// with Gote to move is the index of its 180-degree turn with the colours
// swapped) and "in hand:" followed by letters or '-'. The player to move
// may have no lion (it was just captured: they have lost); the other must.
// Each kind in play has its two pieces on the board or in hand.
func (g *Game) ParsePosition(text string) (uint64, error) {
	p, err := g.parse(text)
	if err != nil {
		return 0, fmt.Errorf("dobutsu: %v", err)
	}
	return g.index(&p), nil
}

func (g *Game) parse(text string) (position, error) {
	var p position
	lines := strings.FieldsFunc(strings.TrimSpace(text), func(r rune) bool { return r == '\n' || r == '/' })
	if len(lines) != rows+1 {
		return p, fmt.Errorf("want %d rows of %d cells and a line \"Sente to move; in hand: -\", got %d lines", rows, cols, len(lines))
	}
	lions := [2]int{}
	p.lion = [2]int8{-1, -1}
	var count [handKinds]int
	for r, row := range lines[:rows] {
		row = strings.TrimSpace(row)
		if len(row) != cols {
			return p, fmt.Errorf("row %d has %d cells, want %d", r+1, len(row), cols)
		}
		for c := range cols {
			sq := int8(r*cols + c)
			ch := row[c]
			if ch == '.' {
				continue
			}
			side, k, err := g.piece(ch, "LGECH")
			if err != nil {
				return p, fmt.Errorf("row %d, column %c: %v", r+1, 'a'+c, err)
			}
			p.side[side] |= 1 << sq
			if k == lion {
				if lions[side]++; lions[side] > 1 {
					return p, fmt.Errorf("row %d, column %c: a second %s lion", r+1, 'a'+c, sideName[side])
				}
				p.lion[side] = sq
				continue
			}
			p.kind[k] |= 1 << sq
			count[min(k, chick)]++
		}
	}
	info := strings.Join(strings.Fields(lines[rows]), " ")
	mover, hand, ok := strings.Cut(info, ";")
	hand = strings.TrimSpace(hand)
	letters, ok2 := strings.CutPrefix(hand, "in hand:")
	if !ok || !ok2 {
		return p, fmt.Errorf("line %d: %q: want \"Sente to move; in hand: ...\" or \"Gote to move; in hand: ...\"", rows+1, cut(info))
	}
	turn := 0
	switch strings.TrimSpace(mover) {
	case "Sente to move":
	case "Gote to move":
		turn = 1
	default:
		return p, fmt.Errorf("line %d: %q: want \"Sente to move\" or \"Gote to move\"", rows+1, cut(mover))
	}
	letters = strings.ReplaceAll(letters, " ", "")
	if letters != "-" {
		for i := range len(letters) {
			side, k, err := g.piece(letters[i], "GEC")
			if err != nil {
				return p, fmt.Errorf("line %d, in hand: %v", rows+1, err)
			}
			p.hand[side][k]++
			count[k]++
		}
	}
	for k := range handKinds {
		want := 0
		if g.has(k) {
			want = 2
		}
		if count[k] != want {
			return p, fmt.Errorf("%d %ss on the board and in hand, want %d", count[k], kindName[k], want)
		}
	}
	if lions[1-turn] == 0 {
		return p, fmt.Errorf("%s (who just moved) has no lion", sideName[1-turn])
	}
	if turn == 1 {
		p = p.flip()
	}
	return p, nil
}

var (
	sideName = [2]string{"Sente", "Gote"}
	kindName = [handKinds]string{"giraffe", "elephant", "chick"}
)

// piece reads a piece's letter among allowed (upper case Sente's, lower
// case Gote's), for a kind in play.
func (g *Game) piece(ch byte, allowed string) (side, kind int, err error) {
	up := ch
	if ch >= 'a' && ch <= 'z' {
		side, up = 1, ch-('a'-'A')
	}
	k := strings.IndexByte(allowed, up)
	if k < 0 {
		return 0, 0, fmt.Errorf("%q is not one of %q", ch, allowed+strings.ToLower(allowed))
	}
	kind = strings.IndexByte(letters, up)
	if kind != lion && !g.has(min(kind, chick)) {
		return 0, 0, fmt.Errorf("%q: no %ss in this game (pieces %q)", ch, kindName[min(kind, chick)], g.cfg.Kinds)
	}
	return side, kind, nil
}

// cut shortens s for an error message.
func cut(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
