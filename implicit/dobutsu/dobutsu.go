// Package dobutsu is Dōbutsu shōgi ("Let's Catch the Lion!", docs/formats.md,
// section `dobutsu`) as an implicit game: a 3 x 4 board, two lions, two
// giraffes, two elephants and two chicks (hens once promoted), captures into
// the captor's hand, drops, and repetition draws.
//
// # Positions as the player to move sees them
//
// A position is always seen by the player to move: their pieces are "ours"
// (side 0), they move up the board (towards row 1, the opponent's home row),
// and a move is followed by a 180-degree turn of the board with the colours
// swapped, so that the opponent becomes side 0. The colour swap with the turn
// is a symmetry of the game, so a position and its turned image with the
// other player to move share their value and depth: the index holds one of
// them, as Sente to move. Left-right mirroring is the other symmetry: the
// index holds one of each mirror pair (Mirror in Config).
//
// # The index
//
// Squares are numbered 0 to 11, row by row from a1 (the top-left corner,
// row 1 being the opponent's home row) to c4. An index is a lion class and a
// placement of the other pieces:
//
//   - The lion class is the pair (our lion's square, theirs), one of each
//     mirror pair, or, after our lion was captured, their lion's square
//     alone (a terminal loss for us). Positions where their lion is missing
//     cannot occur: the player who just moved still has a lion.
//   - The other pieces, kind by kind (giraffes, elephants, chicks): how many
//     of the two are on the board (0, 1 or 2), on which of the squares the
//     lions and earlier kinds leave free (a colex rank of the set), with an
//     owner for each (and promoted or not for chicks), and how the others
//     split between the two hands (0, 1 or 2 in ours). Two pieces of a kind
//     and owner are interchangeable, so each set of squares counts once.
//
// Every index is a position, except, for the 12 lion pairs in the middle
// column that are their own mirror image (and the 4 such squares of a lone
// lion), the one of each mirror pair of placements that is not the smaller:
// 1,038,408,432 indices for 921,476,208 positions (88.7%). Without
// mirroring, the indices with both lions number 1,567,925,964: every
// position with the player to move as Sente, the count Tanaka's 2009
// analysis gives for the game.
//
// # Taking the lion
//
// A player who can take the opponent's lion has one move only: taking it
// (each capture of the lion, if several pieces can). Taking it wins at once,
// so such a position is a win in 1 whatever its other moves, and every
// value and depth is the same as with every move kept (the tests check it
// against a naive solver that keeps them all). It spares the solver those
// moves and their un-moves, and makes the positions reachable from the
// start the ones the published count counts: 246,803,167 up to symmetry.
//
// # Files
//
// dobutsu.go has the Game and its configuration; tables.go the tables all
// games share (steps, lion classes, counts of placements); position.go a
// decoded position and its board; index.go the index and its decoding;
// moves.go the rules: Classify, Moves and Unmoves; notation.go the text of
// a position, both ways.
package dobutsu

import (
	"fmt"
	"strings"

	"github.com/retro-solver/retro/implicit"
)

const (
	rows    = 4
	cols    = 3
	squares = rows * cols
	all     = 1<<squares - 1
)

// Piece kinds. The first three are also the kinds of the hands: a captured
// hen goes to hand as a chick.
const (
	giraffe = iota
	elephant
	chick
	hen
	lion
	handKinds = 3
)

// letters are the pieces' letters for side 0 (Sente, upper case); side 1
// writes them in lower case.
const letters = "GECHL"

// Config says which Dōbutsu shōgi to play.
type Config struct {
	// Kinds lists the kinds of pieces besides the lions, each as a pair
	// (one per player at the start), from "GEC": "GEC" is the real game,
	// "C" lions and chicks only, a small game for tests.
	Kinds string
	// Mirror keeps one position of each left-right mirror pair in the
	// index, halving it.
	Mirror bool
}

// Game is Dōbutsu shōgi. It implements implicit.Game, ClassifyCounter,
// Notation, Starter and PositionCounter, and is safe for concurrent use.
type Game struct {
	cfg    Config
	kinds  []int // the kinds in play besides lions, in index order
	mirror bool
	// The lion classes: both lions on the board first, nBoth of them with
	// perBoth placements each, then our lion captured, with perLone each.
	classOf  [squares + 1][squares]int16 // [our lion+1][their lion]: class, or -1 if the mirror is kept
	classes  []lionClass
	nBoth    uint64
	perBoth  uint64
	perLone  uint64
	size     uint64
	restFree [2]restTable // [0]: 10 free squares (two lions), [1]: 11 (one)
}

// New returns the game c describes.
func New(c Config) (*Game, error) {
	setup()
	g := &Game{cfg: c, mirror: c.Mirror}
	seen := 0
	for _, ch := range c.Kinds {
		k := strings.IndexRune("GEC", ch)
		if k < 0 || seen>>k&1 != 0 {
			return nil, fmt.Errorf("dobutsu: pieces %q: want distinct letters from \"GEC\"", c.Kinds)
		}
		seen |= 1 << k
	}
	for k := range handKinds {
		if seen>>k&1 != 0 {
			g.kinds = append(g.kinds, k)
		}
	}
	for i, f := range [2]int{squares - 2, squares - 1} {
		g.restFree[i] = g.newRestTable(f)
	}
	g.perBoth, g.perLone = g.restFree[0].size(), g.restFree[1].size()
	for o := -1; o < squares; o++ {
		for t := range squares {
			g.classOf[o+1][t] = -1
		}
	}
	add := func(o, t int) {
		mo, mt := o, mirrorSq(t)
		if o >= 0 {
			mo = mirrorSq(o)
		}
		if g.mirror && [2]int{mo, mt} != [2]int{o, t} && g.classOf[mo+1][mt] >= 0 {
			return // its mirror image is the class
		}
		g.classOf[o+1][t] = int16(len(g.classes))
		g.classes = append(g.classes, lionClass{ours: int8(o), theirs: int8(t), selfMirror: g.mirror && mo == o && mt == t})
	}
	for o := range squares {
		for t := range squares {
			if o != t {
				add(o, t)
			}
		}
	}
	g.nBoth = uint64(len(g.classes))
	for t := range squares {
		add(-1, t)
	}
	g.size = g.nBoth*g.perBoth + (uint64(len(g.classes))-g.nBoth)*g.perLone
	return g, nil
}

// Size returns the number of indices.
func (g *Game) Size() uint64 { return g.size }

// MaxMoves bounds the moves of a position: the lion's 8 steps, each piece's
// steps, and a drop of each kind on each of up to 10 empty squares.
func (g *Game) MaxMoves() uint64 {
	n := uint64(8)
	for range g.kinds {
		n += 2*6 + 10 // a hen's 6 steps bound every kind's
	}
	return n
}

// Start returns the index of the starting position: gle / .c. / .C. / ELG
// (the kinds not in play left out), Sente to move.
func (g *Game) Start() uint64 {
	var p position
	place := func(k int, ours, theirs int8) {
		if k == lion || g.has(k) {
			p.put(0, ours, k)
			p.put(1, theirs, k)
		}
	}
	place(lion, 10, 1)
	place(giraffe, 11, 0)
	place(elephant, 9, 2)
	place(chick, 7, 4)
	return g.index(&p)
}

func (g *Game) has(k int) bool {
	for _, x := range g.kinds {
		if x == k {
			return true
		}
	}
	return false
}

// Positions returns the number of positions index s stands for: 2 for a
// position kept for itself and its mirror image, 1 for one that is its own
// image (or every position, without Mirror), 0 for a position where our
// lion was captured, which is the end of a game, not a position to play.
func (g *Game) Positions(s uint64) uint64 {
	p, ok := g.decode(s)
	if !ok || p.lion[0] < 0 {
		return 0
	}
	if !g.mirror {
		return 1
	}
	if p.mirrored() == p {
		return 1
	}
	return 2
}

var (
	_ implicit.Notation        = (*Game)(nil)
	_ implicit.MoveCounter     = (*Game)(nil)
	_ implicit.Starter         = (*Game)(nil)
	_ implicit.PositionCounter = (*Game)(nil)
)
