// Package games is the registry of retro's built-in games: one descriptor
// per game, each defined beside its game. The command line reads this list
// and nothing else about the games, so a new game is its own package plus
// one line below.
package games

import (
	"bytes"
	"flag"
	"fmt"
	"io"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/chess"
	"github.com/retro-solver/retro/implicit/dobutsu"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/morris"
	"github.com/retro-solver/retro/implicit/pawns"
	"github.com/retro-solver/retro/implicit/police"
	"github.com/retro-solver/retro/implicit/quixo"
	"github.com/retro-solver/retro/implicit/teeko"
)

// all lists the built-in games in the order of the help: by name.
var all = []*implicit.Descriptor{
	&chess.Descriptor,
	&dobutsu.Descriptor,
	&graph.Descriptor,
	&morris.Descriptor,
	&pawns.Descriptor,
	&police.Descriptor,
	&quixo.Descriptor,
	&teeko.Descriptor,
}

// All returns the built-in games, by name.
func All() []*implicit.Descriptor { return all }

// Lookup returns the built-in game called name.
func Lookup(name string) (*implicit.Descriptor, bool) {
	for _, d := range all {
		if d.Name == name {
			return d, true
		}
	}
	return nil, false
}

// Load rebuilds the instances of the game called name from its own flags
// (args, as "-name=value") and its input (nil for a game without one), as
// `retro solve` built them: what a database needs to find its games again.
func Load(name string, args []string, input []byte, c implicit.LoadConfig) (*implicit.Descriptor, []implicit.Instance, error) {
	d, ok := Lookup(name)
	if !ok {
		return nil, nil, fmt.Errorf("unknown game %q", name)
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	load := d.Setup(fs)
	if err := fs.Parse(args); err != nil {
		return nil, nil, fmt.Errorf("%s: flags %q: %v", name, args, err)
	}
	if fs.NArg() != 0 {
		return nil, nil, fmt.Errorf("%s: flags %q: unexpected %q", name, args, fs.Arg(0))
	}
	var in io.Reader
	if d.Input {
		if input == nil {
			return nil, nil, fmt.Errorf("%s: no input", name)
		}
		in = bytes.NewReader(input)
	}
	insts, err := load(in, c)
	return d, insts, err
}
