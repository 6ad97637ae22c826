package chess

import (
	"flag"
	"io"

	"github.com/retro-solver/retro/implicit"
)

// Descriptor is a chess endgame as `retro solve chess SIGNATURE` solves
// it: every position of its material, with the endgames its captures and
// promotions lead to as tiers.
var Descriptor = implicit.Descriptor{
	Name:    "chess",
	Summary: "chess endgames of 3 to 5 pieces with depth to mate (KQvKR); tiered by material",
	Help: `The argument is the endgame's material as Syzygy names it: White's pieces,
'v', Black's, each side's king first and then Q, R, B, N, P in that order
(KQvKR, KRPvKR, KBNvK), 3 to 5 pieces. Its positions are every placement of
those pieces with either side to move; a capture or a promotion leads into
a smaller endgame, solved first, as a tier of the same solve.

The rules are the laws of chess without castling, the 50-move rule or the
dead-position rule; a repeated position is a draw, a stalemate a draw and
a checkmate a loss for the side to move. A stored position has no
en-passant right, but a double step that the opponent can take en passant
leads to a position where that capture is open, and its value counts it.

Positions are written in FEN, its first four fields (castling "-", en
passant "-" or the square passed over): "8/8/8/8/8/2k5/8/KQ1r4 w - -".

Output: a line per side to move,
  white to move: W wins, D draws, L losses; longest win A plies, longest loss B plies
counting one position per class under the board's symmetries (the 8 of
the square without pawns, the left-right mirror with), values from the
side to move's view, depths in plies to mate; a position with identical
pieces counts as the classes of those pieces told apart, as Syzygy's
published statistics count.

With -all N -dir DIR, every endgame of up to N pieces is solved, children
first, into DIR/SIGNATURE.db, a line each; those already there are skipped.
`,
	Arg:     "material",
	ArgName: "SIGNATURE",
	Setup: func(fs *flag.FlagSet) implicit.Loader {
		material := fs.String("material", "", "the endgame's `SIGNATURE` (KQvKR); the same as the argument")
		return func(io.Reader, implicit.LoadConfig) ([]implicit.Instance, error) {
			m, err := ParseMaterial(*material)
			if err != nil {
				return nil, err
			}
			g, err := NewGame(m)
			if err != nil {
				return nil, err
			}
			return []implicit.Instance{{Game: func() implicit.Game { return g }}}, nil
		}
	},
	Counts:  true,
	Version: indexVersion,
	Family:  family,
}

// Sections returns the root endgame's positions with White to move, then
// with Black to move: the game's answer (implicit.Sectioned); with pawns,
// those of each block in turn.
// With identical pieces each index counts for its labelled classes.
func (g *Game) Sections() []implicit.Section {
	e := g.mats[0].e
	var weight func(uint64) uint64
	if s := e.labellings(); s > 1 {
		weight = func(i uint64) uint64 {
			var p Position
			e.decodeInto(i, &p)
			return e.labelledClasses(&p, s)
		}
	}
	if e.blocks == nil {
		return []implicit.Section{
			{Name: "white to move", Start: 0, End: e.half, Weight: weight},
			{Name: "black to move", Start: e.half, End: 2 * e.half, Weight: weight},
		}
	}
	// A block's positions with White to move, then with Black: the
	// sections of one name add up.
	out := make([]implicit.Section, 0, 2*len(e.blocks))
	for _, b := range e.blocks {
		out = append(out, implicit.Section{Name: "white to move", Start: b.start, End: b.start + b.half, Weight: weight},
			implicit.Section{Name: "black to move", Start: b.start + b.half, End: b.start + 2*b.half, Weight: weight})
	}
	return out
}

// labellings is the number of ways to tell the endgame's identical pieces
// apart: the product of k! over each colour's kinds held k times.
func (e *Endgame) labellings() uint64 {
	n := uint64(1)
	for c := range e.m.Pieces {
		run := uint64(0)
		for i, k := range e.m.Pieces[c] {
			run++
			if i+1 == len(e.m.Pieces[c]) || e.m.Pieces[c][i+1] != k {
				for ; run > 1; run-- {
					n *= run
				}
				run = 0
			}
		}
	}
	return n
}

// labelledClasses is the number of symmetry classes that p's class
// splits into when its identical pieces are told apart, as Syzygy's
// published statistics count them. The labellings of p (S of them) fall
// into classes of |Stab(p)|/|Stab(labelled p)| each, where Stab(p) holds
// the board's symmetries that map p to itself as a position and
// Stab(labelled p) those that keep every piece on its square: S
// |Stab(labelled p)| / |Stab(p)| classes. Only a symmetry that keeps both
// kings in place can be in either, so the count is S but for positions
// with both kings on one diagonal. s is the endgame's labellings().
func (e *Endgame) labelledClasses(p *Position, s uint64) uint64 {
	var q Position // p in signature order, once a symmetry keeps the kings
	fixed, same := 1, 1
	for t := 1; t < e.syms; t++ {
		sq := &symSquare[t]
		if sq[p.Pieces[0].Square] != p.Pieces[0].Square || sq[p.Pieces[e.bk].Square] != p.Pieces[e.bk].Square {
			continue
		}
		if q.N == 0 {
			q = *p
			q.Sort()
		}
		if img := q.image(t); img.Pieces != q.Pieces {
			continue
		}
		same++
		all := true
		for _, pc := range p.List() {
			all = all && sq[pc.Square] == pc.Square
		}
		if all {
			fixed++
		}
	}
	return s * uint64(fixed) / uint64(same)
}
