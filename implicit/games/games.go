// Package games is the registry of retro's built-in games: one descriptor
// per game, each defined beside its game. The command line reads this list
// and nothing else about the games, so a new game is its own package plus
// one line below.
package games

import (
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/pawns"
	"github.com/retro-solver/retro/implicit/police"
	"github.com/retro-solver/retro/implicit/quixo"
	"github.com/retro-solver/retro/implicit/teeko"
)

// all lists the built-in games in the order of the help: by name.
var all = []*implicit.Descriptor{
	&graph.Descriptor,
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
