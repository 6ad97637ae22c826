package implicit

import (
	"flag"
	"io"
)

// A Descriptor is a game as the command line and its users see it: its
// name, its help, its own flags, how it turns its input into games to
// solve, and how it words the answer. Each built-in game's package has one;
// the registry (package games) lists them, and cmd/retro reads nothing
// else, so a new game is its own package plus one line there.
type Descriptor struct {
	Name    string // as typed after `retro solve`
	Summary string // one line for the list of games
	Help    string // the input and the output, for `retro help NAME`
	// Input says the game reads an input file (FILE, or - for standard
	// input); a game without one starts from its own position.
	Input bool
	// Arg, if not empty, names the game's own flag that its one argument
	// sets, for a game whose input is a word, not a file: chess's
	// `retro solve chess KQvKR` is `-material KQvKR`. ArgName is how the
	// usage line writes it ("SIGNATURE").
	Arg, ArgName string
	// Setup adds the game's own flags, if any, to fs and returns the Loader
	// that reads them once fs is parsed.
	Setup func(fs *flag.FlagSet) Loader
	// Answers words the start's value, for games with a start (see
	// Starter): the line for a win, a loss and a draw, in that order, where
	// %d stands for the depth: {"Red %d", "Black %d", "Tie"}. A game
	// without a start answers with the value of every index instead.
	Answers [3]string
	// Counts says that a game without a start answers with its counts
	// ("N positions: W wins, L losses, D draws; max depth D"), as a tiered
	// solve does, not with a line per index: for games whose indices no
	// user would list one by one (a morris ending).
	Counts bool
	// Version numbers the game's index: databases record it, and one of
	// another version (the positions numbered otherwise) is refused. 0
	// until a game's index first changes.
	Version int
	// Family, if not nil, lists the members of the game's family of up to
	// n pieces (chess: every endgame of up to n pieces) for `retro solve
	// NAME -all N -dir DIR`: the values of Arg that name them, children
	// before parents, or an error for an n out of the family's range.
	// The game's tiers are then SharedTiers, each member's solve reusing
	// the tiers the ones before it finished.
	Family func(n int) ([]string, error)
	// List, if not empty, is the JSON key under which -json lists one
	// summary per instance ("boards"), for inputs that hold several.
	List string
}

// A Loader reads a game's input (nil for a game without one) and returns
// the instances to solve, in order. Problems with the input are errors
// that say where they are (a *text.ParseError from the game's parser).
type Loader func(in io.Reader, c LoadConfig) ([]Instance, error)

// LoadConfig is what a Loader may need besides its input.
type LoadConfig struct {
	// MaxMemory bounds the bytes the game's own structures may take (an
	// explicit graph's arrays); a larger input is refused as it is read.
	MaxMemory uint64
	// SolverBytes returns the bytes the solver needs for n indices of at
	// most maxMoves moves each, for games that refuse sizes out of reach
	// with an estimate.
	SolverBytes func(n, maxMoves uint64) uint64
}

// An Instance is one game to solve from a descriptor's input: a board, a
// graph, a board size.
type Instance struct {
	// Game returns the game. It is called once, just before the solve, and
	// may reuse the storage of the instance before it (the boards of one
	// input share one game's tables), so an instance's game is valid until
	// the next one's is made.
	Game func() Game
	// Label, if not empty, names the instance in the errors of its solve
	// ("64 x 64 board").
	Label string
}

// Starter is a Game that starts from one position, whose value is the
// game's answer.
type Starter interface {
	Start() uint64
}
