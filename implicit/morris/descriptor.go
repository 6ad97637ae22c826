package morris

import (
	"flag"
	"io"

	"github.com/retro-solver/retro/implicit"
)

// Descriptor is Nine Men's Morris as `retro solve morris` plays it: the
// whole game from the empty board, or with -max-stones its ending.
var Descriptor = implicit.Descriptor{
	Name:    "morris",
	Summary: "Nine Men's Morris (-variant std, lasker or mora), from the empty board or its ending (-max-stones); tiered by the stones on the board and in hand",
	Help: `No input: the game starts from the empty board, White to move with every
stone in hand (std 9, lasker 10, mora 12). -max-stones N solves only the
ending: no stones in hand, at most N stones a side on the board.

Positions are written as the seven rows from row 7 down to row 1, each
point '.', 'W' or 'B', joined by '/'; the player to move (W or B); White's
and Black's stones in hand: ".../.../.../....../.../.../... W 9 9".

Output: the start's value for White, as a graph line without the vertex
("win D", "loss D" or "draw"); for an ending, its counts. The index has no
symmetry in it yet: the endings up to -max-stones 5 fit in memory, the
whole game does not.
`,
	Setup: func(fs *flag.FlagSet) implicit.Loader {
		variant := fs.String("variant", "std", "the rules: std (Nine Men's Morris), lasker (10 stones, place or move) or mora (Morabaraba: 12 stones, diagonals, a full board is a draw)")
		maxStones := fs.Int("max-stones", 0, "solve only the ending with no stones in hand and at most `N` stones a side on the board (3 to the variant's stones; 0: the whole game)")
		return func(io.Reader, implicit.LoadConfig) ([]implicit.Instance, error) {
			v, err := VariantOf(*variant)
			if err != nil {
				return nil, err
			}
			g, err := New(v, *maxStones)
			if err != nil {
				return nil, err
			}
			// Every position is solved, not one per class: the counts are
			// of positions, and the whole game's tiers are beyond the 2^32
			// positions a tier of classes may have (see whole).
			game := implicit.Game(ending{g})
			if g.HasStart() {
				game = whole{ending{g}, g.Start()}
			}
			return []implicit.Instance{{Game: func() implicit.Game { return game }}}, nil
		}
	},
	Answers: [3]string{"win %d", "loss %d", "draw"},
	Counts:  true,
	Version: 1,
}

// ending is the game as the command solves it: every position, without
// its symmetries (Game is implicit.Symmetric, and its classes agree with
// its positions, but its tiers of classes would pass 2^32 positions in the
// whole game, and an ending's counts would be of classes); without a
// start, an ending's answer is its counts.
type ending struct{ endingGame }

// whole is the whole game, from its start.
type whole struct {
	ending
	start uint64
}

func (w whole) Start() uint64 { return w.start }

type endingGame interface {
	implicit.Tiered
	implicit.Notation
	implicit.TurnedDescriber
	TierUnmoves(t uint64, canonical bool, dst []uint64) []uint64
}
