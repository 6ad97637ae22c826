package dobutsu

import (
	"flag"
	"io"

	"github.com/retro-solver/retro/implicit"
)

// Descriptor is Dōbutsu shōgi as `retro solve dobutsu` plays it: from the
// starting position, over one position of each mirror pair.
var Descriptor = implicit.Descriptor{
	Name:    "dobutsu",
	Summary: "Dōbutsu shōgi (\"Let's Catch the Lion!\", 3 x 4), solved from the start",
	Help: `No input: the game starts from gle / .c. / .C. / ELG, Sente (upper case) to
move. Positions are kept as the player to move sees them (as Sente) and one
of each left-right mirror pair is solved: 1,038,408,432 indices, about 2.6
GB for the solve. A player who can take the opponent's lion takes it (the
win in 1; the other moves are not listed). -pieces plays with fewer kinds
besides the lions (C: lions and chicks only), small games for experiments
and tests.

Position notation: four rows of three cells, row 1 (Gote's home row)
first, Sente upper case (L lion, G giraffe, E elephant, C chick, H hen),
then "Sente to move; in hand: Ge" (or "-"), the lines separated by
newlines or '/'. A position with Gote to move is read as its 180-degree
turn with the colours swapped, and written that way.

Output: the start's value for Sente, as a graph line without the vertex:
"win D", "loss D" or "draw".
`,
	Setup: func(fs *flag.FlagSet) implicit.Loader {
		kinds := fs.String("pieces", "GEC", "the `kinds` in play besides the lions, from GEC (giraffe, elephant, chick)")
		return func(io.Reader, implicit.LoadConfig) ([]implicit.Instance, error) {
			g, err := New(Config{Kinds: *kinds, Mirror: true})
			if err != nil {
				return nil, err
			}
			return []implicit.Instance{{Game: func() implicit.Game { return g }}}, nil
		}
	},
	Answers: [3]string{"win %d", "loss %d", "draw"},
}
