package chess

import (
	"fmt"
	"strings"
)

// Color is a side: White or Black.
type Color uint8

// The two sides.
const (
	White Color = iota
	Black
)

// Other returns the opponent of c.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Kind is a kind of piece. Their order is the order of a material
// signature's letters after the king: KQRBNP.
type Kind uint8

// The kinds of piece.
const (
	King Kind = iota
	Queen
	Rook
	Bishop
	Knight
	Pawn
)

// kindLetters are the kinds' letters, as signatures and FEN (in upper case
// for White) write them.
const kindLetters = "KQRBNP"

// Letter returns the kind's letter in upper case ('K', 'Q', ...).
func (k Kind) Letter() byte { return kindLetters[k] }

// MaxPieces is the most pieces, kings included, an endgame may have.
const MaxPieces = 5

// Material is an endgame's pieces: for each side its king, then its other
// pieces in the order Q, R, B, N, P. The zero value has no pieces.
type Material struct {
	Pieces [2][]Kind
}

// ParseMaterial reads a material signature as Syzygy writes it: White's
// pieces, 'v', Black's, each side's king first and the others in the order
// Q, R, B, N, P ("KQvKR", "KRPvKR", "KvK"), at most MaxPieces in all. An
// error names the first character that is wrong.
func ParseMaterial(sig string) (Material, error) {
	var m Material
	sides := strings.Split(sig, "v")
	if len(sides) != 2 {
		return m, fmt.Errorf("material %q: want White's pieces, 'v', Black's (e.g. KQvKR)", sig)
	}
	at := 0
	for c, side := range sides {
		if side == "" || side[0] != 'K' {
			return m, fmt.Errorf("material %q: %s's pieces must start with its king K (at character %d)", sig, Color(c), at+1)
		}
		last := King
		for i := 1; i < len(side); i++ {
			k := strings.IndexByte(kindLetters, side[i])
			switch {
			case k < 0:
				return m, fmt.Errorf("material %q: %q at character %d is not a piece (K, Q, R, B, N, P)", sig, side[i], at+i+1)
			case Kind(k) == King:
				return m, fmt.Errorf("material %q: a second king for %s at character %d", sig, Color(c), at+i+1)
			case Kind(k) < last:
				return m, fmt.Errorf("material %q: %c at character %d is out of order (K, then Q, R, B, N, P)", sig, side[i], at+i+1)
			}
			last = Kind(k)
		}
		for i := range len(side) {
			m.Pieces[c] = append(m.Pieces[c], Kind(strings.IndexByte(kindLetters, side[i])))
		}
		at += len(side) + 1
	}
	if n := m.Count(); n > MaxPieces {
		return m, fmt.Errorf("material %q: %d pieces, more than the %d retro solves", sig, n, MaxPieces)
	}
	return m, nil
}

// String returns the signature ("KQvKR").
func (m Material) String() string {
	var b strings.Builder
	for c := range m.Pieces {
		if c == 1 {
			b.WriteByte('v')
		}
		for _, k := range m.Pieces[c] {
			b.WriteByte(k.Letter())
		}
	}
	return b.String()
}

// Count returns the number of pieces, kings included.
func (m Material) Count() int { return len(m.Pieces[0]) + len(m.Pieces[1]) }

// HasPawns reports whether either side has a pawn.
func (m Material) HasPawns() bool {
	for c := range m.Pieces {
		for _, k := range m.Pieces[c] {
			if k == Pawn {
				return true
			}
		}
	}
	return false
}

// Swapped returns the material with the colours exchanged ("KRvKQ" for
// "KQvKR").
func (m Material) Swapped() Material {
	return Material{Pieces: [2][]Kind{m.Pieces[1], m.Pieces[0]}}
}

// remove returns m without the i-th piece of side c.
func (m Material) remove(c Color, i int) Material {
	out := m.clone()
	out.Pieces[c] = append(out.Pieces[c][:i:i], m.Pieces[c][i+1:]...)
	return out
}

// clone returns a copy of m that shares no memory with it.
func (m Material) clone() Material {
	return Material{Pieces: [2][]Kind{append([]Kind(nil), m.Pieces[0]...), append([]Kind(nil), m.Pieces[1]...)}}
}
