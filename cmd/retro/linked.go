package main

import (
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
	shelf *shelf // where the other files are opened
}

// shelf holds the database files a command opens, each once by its path:
// the games serve gives of one -all folder read the same files beside
// theirs, each with its cache, and a file served is one of them. The files
// stay open as long as the process, read as long as the games are.
type shelf struct {
	mu    sync.Mutex
	files map[string]*db.File
}

func newShelf() *shelf { return &shelf{files: map[string]*db.File{}} }

// open returns the file at path, opened the first time.
func (s *shelf) open(path string) (*db.File, error) {
	key := path
	if abs, err := filepath.Abs(path); err == nil {
		key = abs
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.files[key]; ok {
		return f, nil
	}
	f, err := db.Open(path)
	if err != nil {
		return nil, err
	}
	s.files[key] = f
	return f, nil
}

// close closes every file opened.
func (s *shelf) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for key, f := range s.files {
		f.Close()
		delete(s.files, key)
	}
}

// FillsIllegal reports whether the file's own illegal indices read as legal
// positions (db.Table.FillsIllegal, which verify asks); the moves into the
// other files reach legal positions only.
func (v *linkedValues) FillsIllegal() bool { return v.own.FillsIllegal() }

func newLinkedValues(f *db.File, tab *db.Table, g implicit.Tiered, arg string, sh *shelf) (*linkedValues, error) {
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
	return &linkedValues{own: tab, path: f.Path(), header: f.Header, arg: arg, tiers: tiers, first: first, other: make([]atomic.Pointer[db.Table], len(tiers)), shelf: sh}, nil
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
	f, err := l.shelf.open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: the values of %s are read from %s: %w", l.path, name, path, err)
	}
	// It holds the game of the group, its own tiers alone or the whole
	// game (whose first tiers they are).
	size, want := f.Table(0).Size(), l.tiers[end-1].End-start
	if len(f.Sections) != 1 || f.Game != l.header.Game || f.GameVersion != l.header.GameVersion ||
		!slices.Contains(f.Args, "-"+l.arg+"="+name) || size != want && (f.Table(0).FirstTier || size < want) {
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

// tables opens the file of every other group of the game and returns the
// game's own table, then theirs in the order of the tiers.
func (l *linkedValues) tables() ([]*db.Table, error) {
	tabs := []*db.Table{l.own}
	for k := range l.tiers {
		if l.first[k] != k || k == 0 {
			continue
		}
		t, _, err := l.table(k)
		if err != nil {
			return nil, err
		}
		tabs = append(tabs, t)
	}
	return tabs, nil
}

// readFile is one of the other files a pass over a linked game's own
// tiers reads (linkedValues.reads), with what it reads of them.
type readFile struct {
	t        *db.Table
	children [][2]uint64 // the tiers the game's moves reach
	read     [][2]uint64 // and those their moves reach
	bytes    uint64      // of the blocks it reads
	least    uint64      // the smallest cache: a few blocks, or all read if fewer
	held     bool        // all it reads is held
}

// reads returns the other files a pass over the game's own tiers reads:
// the tiers its moves reach, and those their moves reach down to
// generations.
func (l *linkedValues) reads(generations int) ([]*readFile, error) {
	// gen[k]: how many moves from the game's own tiers reach tier k, -1 if
	// more than generations.
	gen := make([]int, len(l.tiers))
	var front []int
	for k := range l.tiers {
		if gen[k] = -1; l.first[k] == 0 {
			gen[k], front = 0, append(front, k)
		}
	}
	for g := 1; g <= generations; g++ {
		var next []int
		for _, j := range front {
			for _, c := range l.tiers[j].Children {
				if gen[c] < 0 {
					gen[c], next = g, append(next, c)
				}
			}
		}
		front = next
	}
	var files []*readFile
	byFirst := map[int]*readFile{}
	for k, g := range gen {
		if g <= 0 {
			continue
		}
		f := byFirst[l.first[k]]
		if f == nil {
			t, _, err := l.table(k)
			if err != nil {
				return nil, err
			}
			f = &readFile{t: t}
			byFirst[l.first[k]] = f
			files = append(files, f)
		}
		start := l.tiers[l.first[k]].Start
		r := [2]uint64{l.tiers[k].Start - start, l.tiers[k].End - start}
		if f.read = append(f.read, r); g == 1 {
			f.children = append(f.children, r)
		}
	}
	for _, f := range files {
		f.bytes = f.t.KeptBytes(f.read)
		f.least = min(db.MinCacheBlocks*f.t.BlockBytes(), f.bytes)
	}
	return files, nil
}

// fit readies, within limit beside what the process holds, the values a
// pass over the game's own tiers reads (fitValues for many files): the
// game's own, read whole (db.Table.Load); the tiers of the other files its
// moves reach, held (db.Table.Keep) while each file not held keeps a cache
// of up to db.DefaultCacheBytes besides; and the tiers only their moves
// reach (generations 2: a file that keeps the depths of losses alone finds
// a win's from its moves), read a block at a time through caches that
// share what is left. The moves from one part of the game's tiers read
// nearby parts of the others', so a cache catches most lookups: KPPvKP's
// verify with -max-memory 8G took 52.5 s at a peak of 6.0 GiB, and 77 s
// holding all it reads, 20.6 GiB.
//
// It sets aside the table bytes of a table of the wins' depths
// (query.WinDepthsTable) where all it reads would fit held beside them,
// and returns them, or 0: the table speeds a verify up less than caches
// of a few blocks slow it down (KBvKP at -max-memory 60M: 6.4 s without
// the table, 11.2 s with it, its 4 caches then of 1.5 MiB; 4.0 s against
// 8.0 at 72M).
//
// limit is what is left for values of the memory bound names (boundName),
// for errors, beside the memo of win depths set aside.
func (l *linkedValues) fit(e *env, workers int, bound string, limit, memo, table uint64, generations int, progress bool) (uint64, error) {
	files, err := l.reads(generations)
	if err != nil {
		return 0, err
	}
	// What the process holds (the block tables of every file opened), and
	// for each worker a block compressed and decompressed, of the files
	// with the widest codes.
	widest, reads, least := l.own.BlockBytes(), uint64(0), uint64(0)
	for _, f := range files {
		widest = max(widest, f.t.BlockBytes())
		reads += f.bytes
		least += f.least
	}
	held := heldReading(widest, workers)
	left := limit - min(limit, held)
	left -= min(left, garbageReserve(left))
	if need := l.own.LoadBytes() + least; need > left {
		least, wins := held+withGarbage(need), ""
		if memo > 0 {
			wins, least = " and the depths of wins found from their moves", withMemo(least)
		}
		return 0, fmt.Errorf("verify: %s: the game's %d positions and the smallest caches of the %d files its moves reach need at least %s (with the game's tables, the workers' blocks%s)",
			bound, l.own.Size(), len(files), text.HumanBytesUp(least), wins)
	}
	if l.own.LoadBytes()+reads+table <= left {
		left -= table
	} else {
		table = 0
	}
	if err := l.own.Load(e.ctx, workers); err != nil {
		return 0, err
	}
	if len(files) == 0 {
		return table, nil
	}
	left -= l.own.LoadBytes() + least
	// Caches take half of what is left at most, so that some files are
	// held where the limit is small.
	floor := min(db.DefaultCacheBytes, left/uint64(2*len(files)))
	reserved := floor * uint64(len(files)) // the caches of the files not held
	cached := len(files)
	for _, f := range files {
		need := f.t.KeptBytes(f.children)
		if all := need == f.bytes; all && need <= left-reserved+floor {
			reserved -= floor // it needs no cache
			f.held = true
			cached--
		} else if need == 0 || need+reserved > left {
			continue
		}
		if err := f.t.Keep(e.ctx, workers, f.children); err != nil {
			return 0, err
		}
		left -= need
	}
	share := left / uint64(max(cached, 1))
	for _, f := range files {
		if !f.held {
			f.t.SetCacheBytes(f.least + share)
		}
	}
	if progress && cached > 0 {
		fmt.Fprintf(e.stderr, "retro: verify: its moves read %s of values in %d other files: %d held, %d read a block at a time through caches of up to %s each\n",
			text.HumanBytes(reads), len(files), len(files)-cached, cached, text.HumanBytes(share+db.MinCacheBlocks*widest))
	}
	return table, nil
}
