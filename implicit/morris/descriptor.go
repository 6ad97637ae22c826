package morris

import (
	"flag"
	"fmt"
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
ending: no stones in hand, at most N stones a side on the board. -stones N
plays with N stones in hand each from the start instead of the variant's:
a smaller game, for tests and measures.

Positions are written as the seven rows from row 7 down to row 1, each
point '.', 'W' or 'B', joined by '/'; the player to move (W or B); White's
and Black's stones in hand: ".../.../.../....../.../.../... W 9 9".

Output: the start's value for White, as a graph line without the vertex
("win D", "loss D" or "draw"); for an ending, its counts of positions. The
index holds one position of each class under the board's 16 symmetries
(the 8 of the square, and the swap of the inner and outer squares).
`,
	Setup: func(fs *flag.FlagSet) implicit.Loader {
		variant := fs.String("variant", "std", "the rules: std (Nine Men's Morris), lasker (10 stones, place or move) or mora (Morabaraba: 12 stones, diagonals, a full board is a draw)")
		stones := fs.Int("stones", 0, "start with `N` stones in hand each instead of the variant's (3 to 12): a smaller game with the same rules")
		maxStones := fs.Int("max-stones", 0, "solve only the ending with no stones in hand and at most `N` stones a side on the board (3 to the variant's stones; 0: the whole game)")
		return func(io.Reader, implicit.LoadConfig) ([]implicit.Instance, error) {
			v, err := VariantOf(*variant)
			if err != nil {
				return nil, err
			}
			if *stones != 0 {
				if *stones < 3 || *stones > 12 {
					return nil, fmt.Errorf("-stones %d: want 3 to 12", *stones)
				}
				v.Stones = *stones
			}
			g, err := New(v, *maxStones)
			if err != nil {
				return nil, err
			}
			game := implicit.Game(ending{g})
			if g.HasStart() {
				game = whole{ending{g}, g.Start()}
			}
			return []implicit.Instance{{Game: func() implicit.Game { return game }}}, nil
		}
	},
	Answers: [3]string{"win %d", "loss %d", "draw"},
	Counts:  true,
	Version: 2, // 1: the plain index, every position its own
}

// ending is the game without a start, whose answer is its counts.
type ending struct{ endingGame }

// Played returns the ending over every position (implicit.AsPlayed).
func (e ending) Played() implicit.Game { return ending{e.Plain()} }

// whole is the whole game, from its start.
type whole struct {
	ending
	start uint64
}

func (w whole) Start() uint64 { return w.start }

// Played returns the whole game over every position (implicit.AsPlayed).
func (w whole) Played() implicit.Game {
	p := w.Plain()
	return whole{ending{p}, p.Start()}
}

// endingGame is what the command sees of a Game: every method but Start
// (the wrappers say whether there is one). A method missing here is one
// the solve never finds: each optional interface the Game implements is
// listed, and TestDescriptorInterfaces checks that none is left out.
type endingGame interface {
	implicit.Tiered
	implicit.Notation
	implicit.TurnedDescriber
	implicit.PositionCounter
	implicit.TierUnmover
	implicit.TierMover
	implicit.TierOrderer
	Plain() *Game
	Class(s uint64) uint64
}
