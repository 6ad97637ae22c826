package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/text"
	"github.com/retro-solver/retro/tier"
)

// firstTier is a tiered solution's first tier alone, as solve -linked
// saves it.
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
// holds its first tier (db.Section.FirstTier): that tier from the file,
// each other tier from the first tier of the database named by it beside
// the file, opened when first read.
type linkedValues struct {
	own    *db.Table
	path   string // the file's, for errors and to find the others beside it
	header db.Header
	arg    string // the game's flag that names a tier's game ("material")
	tiers  []implicit.Tier
	mu     sync.Mutex
	other  []*db.Table // by tier, once opened
}

func newLinkedValues(f *db.File, tab *db.Table, g implicit.Tiered, arg string) (*linkedValues, error) {
	tiers := g.Tiers()
	if tab.Size() != tiers[0].Size() {
		return nil, fmt.Errorf("%s: holds %d positions of its first tier %s, which has %d", f.Path(), tab.Size(), tiers[0].Name, tiers[0].Size())
	}
	return &linkedValues{own: tab, path: f.Path(), header: f.Header, arg: arg, tiers: tiers, other: make([]*db.Table, len(tiers))}, nil
}

func (l *linkedValues) Size() uint64 { return l.tiers[len(l.tiers)-1].End }

// table returns tier k's table, opening its database the first time.
func (l *linkedValues) table(k int) (*db.Table, error) {
	if k == 0 {
		return l.own, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if t := l.other[k]; t != nil {
		return t, nil
	}
	t := l.tiers[k]
	path := filepath.Join(filepath.Dir(l.path), text.FileName(t.Name)+".db")
	f, err := db.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: the values of %s are read from %s: %w", l.path, t.Name, path, err)
	}
	// The file stays open as long as the process: its values are read
	// as long as the game is. It holds tier t's game, its first tier
	// alone or the whole game (whose first tier is t).
	size := f.Table(0).Size()
	if len(f.Sections) != 1 || f.Game != l.header.Game || f.GameVersion != l.header.GameVersion ||
		!slices.Contains(f.Args, "-"+l.arg+"="+t.Name) || size != t.Size() && (f.Table(0).FirstTier || size < t.Size()) {
		f.Close()
		return nil, fmt.Errorf("%s: the values of %s are read from %s, which holds %s", l.path, t.Name, path, gameCommand(f.Header))
	}
	l.other[k] = f.Table(0)
	return l.other[k], nil
}

func (l *linkedValues) Lookup(i uint64) (engine.Value, uint64, error) {
	if i >= l.Size() {
		return 0, 0, fmt.Errorf("index %d out of range [0, %d)", i, l.Size())
	}
	k := implicit.TierOf(l.tiers, i)
	t, err := l.table(k)
	if err != nil {
		return 0, 0, err
	}
	return t.Lookup(i - l.tiers[k].Start)
}

func (l *linkedValues) ReadsRuns() bool { return true }

func (l *linkedValues) LookupRange(lo, hi uint64, vals []engine.Value, depths []uint64) error {
	for lo < hi {
		k := implicit.TierOf(l.tiers, lo)
		t, err := l.table(k)
		if err != nil {
			return err
		}
		end := min(hi, l.tiers[k].End)
		start := l.tiers[k].Start
		if err := t.LookupRange(lo-start, end-start, vals[:end-lo], depths[:end-lo]); err != nil {
			return err
		}
		vals, depths, lo = vals[end-lo:], depths[end-lo:], end
	}
	return nil
}
