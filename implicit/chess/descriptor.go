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
side to move's view, depths in plies to mate.
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
	Counts: true,
}

// Sections returns the root endgame's positions with White to move, then
// with Black to move: the game's answer (implicit.Sectioned).
func (g *Game) Sections() []implicit.Section {
	half := g.tiers[0].e.half
	return []implicit.Section{{Name: "white to move", Start: 0, End: half}, {Name: "black to move", Start: half, End: 2 * half}}
}
