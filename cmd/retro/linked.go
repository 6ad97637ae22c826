package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/text"
	"github.com/retro-solver/retro/tier"
)

// firstTier is a tiered solution's first tiers alone, those of the game
// itself (implicit.GroupRange of tier 0), as solve -linked saves them.
type firstTier struct {
	sol *tier.Solution
	n   uint64
}

func (f firstTier) Size() uint64                                  { return f.n }
func (f firstTier) Lookup(i uint64) (engine.Value, uint64, error) { return f.sol.Lookup(i) }
func (f firstTier) ReadsRuns() bool                               { return true }
func (f firstTier) LookupRange(lo, hi uint64, vals []engine.Value, depths []uint64) error {
	return f.sol.LookupRange(lo, hi, vals, depths)
}

// linkedValues are the values of a game of shared tiers whose database
// holds its first tiers (db.Section.FirstTier): those of the game itself
// from the file, and each other tier from the database of its group (the
// game it is part of, implicit.GroupOf) beside the file, opened when first
// read.
type linkedValues struct {
	own    *db.Table
	path   string // the file's, for errors and to find the others beside it
	header db.Header
	arg    string // the game's flag that names a tier's game ("material")
	tiers  []implicit.Tier
	first  []int // first[k]: the first tier of tier k's group
	// other holds each group's table by its first tier, once opened: read
	// without a lock by every lookup, stored under mu.
	other []atomic.Pointer[db.Table]
	mu    sync.Mutex
}

// FillsIllegal reports whether the file's own illegal indices read as legal
// positions (db.Table.FillsIllegal, which verify asks); the moves into the
// other files reach legal positions only.
func (v *linkedValues) FillsIllegal() bool { return v.own.FillsIllegal() }

func newLinkedValues(f *db.File, tab *db.Table, g implicit.Tiered, arg string) (*linkedValues, error) {
	tiers := g.Tiers()
	_, end := implicit.GroupRange(tiers, 0)
	if own := tiers[end-1].End; tab.Size() != own {
		return nil, fmt.Errorf("%s: holds %d positions of %s, which has %d", f.Path(), tab.Size(), implicit.GroupOf(tiers[0]), own)
	}
	// A lookup finds its tier's group in one step: a chess endgame with
	// pawns has tens of tiers a group, which a search by name would walk
	// at every lookup.
	first := make([]int, len(tiers))
	for k := range tiers {
		if first[k] = k; k > 0 && implicit.GroupOf(tiers[k-1]) == implicit.GroupOf(tiers[k]) {
			first[k] = first[k-1]
		}
	}
	return &linkedValues{own: tab, path: f.Path(), header: f.Header, arg: arg, tiers: tiers, first: first, other: make([]atomic.Pointer[db.Table], len(tiers))}, nil
}

func (l *linkedValues) Size() uint64 { return l.tiers[len(l.tiers)-1].End }

// table returns the table of tier k's group and the group's first index,
// opening its database the first time.
func (l *linkedValues) table(k int) (*db.Table, uint64, error) {
	first := l.first[k]
	start := l.tiers[first].Start
	if first == 0 {
		return l.own, start, nil
	}
	if t := l.other[first].Load(); t != nil {
		return t, start, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if t := l.other[first].Load(); t != nil {
		return t, start, nil
	}
	_, end := implicit.GroupRange(l.tiers, k)
	name := implicit.GroupOf(l.tiers[k])
	path := filepath.Join(filepath.Dir(l.path), text.FileName(name)+".db")
	f, err := db.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: the values of %s are read from %s: %w", l.path, name, path, err)
	}
	// The file stays open as long as the process: its values are read
	// as long as the game is. It holds the game of the group, its own
	// tiers alone or the whole game (whose first tiers they are).
	size, want := f.Table(0).Size(), l.tiers[end-1].End-start
	if len(f.Sections) != 1 || f.Game != l.header.Game || f.GameVersion != l.header.GameVersion ||
		!slices.Contains(f.Args, "-"+l.arg+"="+name) || size != want && (f.Table(0).FirstTier || size < want) {
		f.Close()
		return nil, 0, fmt.Errorf("%s: the values of %s are read from %s, which holds %s", l.path, name, path, gameCommand(f.Header))
	}
	t := f.Table(0)
	l.other[first].Store(t)
	return t, start, nil
}

func (l *linkedValues) Lookup(i uint64) (engine.Value, uint64, error) {
	if i < l.own.Size() { // the game's own tiers, which start at 0: most lookups
		return l.own.Lookup(i)
	}
	if i >= l.Size() {
		return 0, 0, fmt.Errorf("index %d out of range [0, %d)", i, l.Size())
	}
	t, start, err := l.table(implicit.TierOf(l.tiers, i))
	if err != nil {
		return 0, 0, err
	}
	return t.Lookup(i - start)
}

func (l *linkedValues) ReadsRuns() bool { return true }

func (l *linkedValues) LookupRange(lo, hi uint64, vals []engine.Value, depths []uint64) error {
	for lo < hi {
		k := implicit.TierOf(l.tiers, lo)
		t, start, err := l.table(k)
		if err != nil {
			return err
		}
		end := min(hi, l.tiers[k].End)
		if err := t.LookupRange(lo-start, end-start, vals[:end-lo], depths[:end-lo]); err != nil {
			return err
		}
		vals, depths, lo = vals[end-lo:], depths[end-lo:], end
	}
	return nil
}

// hold opens the file of every other group of the game and reads each
// whole (db.Table.Load) while their values fit in budget bytes, in the
// order of the tiers; the others are read a block at a time through their
// caches. A verify reads them at random, every move into a child a lookup.
func (l *linkedValues) hold(ctx context.Context, workers int, budget uint64) error {
	for k := range l.tiers {
		if l.first[k] != k || k == 0 {
			continue
		}
		t, _, err := l.table(k)
		if err != nil {
			return err
		}
		if need := t.LoadBytes(); need <= budget {
			if err := t.Load(ctx, workers); err != nil {
				return err
			}
			budget -= need
		}
	}
	return nil
}
