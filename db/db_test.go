package db_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/chess"
	"github.com/retro-solver/retro/implicit/quixo"
	"github.com/retro-solver/retro/query"
)

// solved is a small game, its values and the file they were written to.
type solved struct {
	path string
	game *implicit.Compact
	res  *engine.Result
}

// writeQuixo3 solves Quixo 3 x 3 over its classes and writes it with small
// blocks, so that the file has many.
func writeQuixo3(t testing.TB, blockSize uint64) solved {
	g, err := quixo.New(3)
	if err != nil {
		t.Fatal(err)
	}
	cg := implicit.NewCompact(g)
	r, err := engine.Parallel(context.Background(), cg, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "q3.db")
	start := cg.Index(g.Start())
	writeDB(t, path, "quixo", []string{"-n=3"}, db.Options{BlockSize: blockSize}, db.Source{Values: r, MaxDepth: r.MaxDepth(), Start: &start,
		Directory: cg.Counts(), IndexSize: g.Size()})
	return solved{path, cg, r}
}

// writeDB writes a database of one section, src, to path.
func writeDB(t testing.TB, path, game string, args []string, o db.Options, src db.Source) {
	t.Helper()
	w, err := db.Create(path, game, args, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(context.Background(), src); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestRoundTrip writes Quixo 3x3's values and reads them back, in blocks
// of a power of two indices and of one that is not (a lookup's block
// found by a shift or a division), a block at a time and read whole.
func TestRoundTrip(t *testing.T) {
	for _, size := range []uint64{512, 1536} {
		t.Run(fmt.Sprint(size), func(t *testing.T) { roundTrip(t, size) })
	}
}

func roundTrip(t *testing.T, blockSize uint64) {
	s := writeQuixo3(t, blockSize)
	f, err := db.Open(s.path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Game != "quixo" || len(f.Args) != 1 || f.Args[0] != "-n=3" || len(f.Sections) != 1 {
		t.Fatalf("header %+v", f.Header)
	}
	tab := f.Table(0)
	if tab.Size() != s.res.Size() || tab.NumBlocks() < 2 || tab.NumBlocks() != (tab.Size()+blockSize-1)/blockSize || *tab.Start != s.game.Index(0) {
		t.Fatalf("size %d, %d blocks, start %v", tab.Size(), tab.NumBlocks(), *tab.Start)
	}
	for v := range engine.Value(4) {
		if tab.Counts[v] != s.res.Count(v) {
			t.Fatalf("%v: %d stored, %d solved", v, tab.Counts[v], s.res.Count(v))
		}
	}
	lookups(t, tab, s.res)
	if _, _, err := tab.Lookup(tab.Size()); err == nil {
		t.Fatal("an index out of range was answered")
	}
	dir, err := tab.Directory()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(dir, s.game.Counts()) {
		t.Fatal("the directory differs from the compact game's counts")
	}
	// The header's depth histogram counts the solve's values, and so does
	// a scan of the blocks, before and after Load.
	want := db.NewDepths(s.res.MaxDepth())
	for i := range s.res.Size() {
		want.Add(s.res.Value(i), s.res.Depth(i), 1)
	}
	if tab.Depths == nil || !tab.Depths.Equal(want) {
		t.Fatalf("header's depths %+v, want %+v", tab.Depths, want)
	}
	for range 2 {
		got, err := tab.CountDepths(context.Background(), 2)
		if err != nil || !got.Equal(want) {
			t.Fatalf("CountDepths: %+v, %v; want %+v", got, err, want)
		}
		if err := tab.Load(context.Background(), 2); err != nil {
			t.Fatal(err)
		}
	}
	lookups(t, tab, s.res)
	rep, err := query.Verify(context.Background(), s.game, tab, 2, nil)
	if err != nil || rep.Failures != 0 {
		t.Fatalf("verify: %v, %+v", err, rep)
	}
}

// lookups checks every index of tab against the solve's r.
func lookups(t *testing.T, tab *db.Table, r *engine.Result) {
	t.Helper()
	for i := range r.Size() {
		v, d, err := tab.Lookup(i)
		if err != nil || v != r.Value(i) || d != r.Depth(i) {
			t.Fatalf("index %d: stored %v %d (%v), solved %v %d", i, v, d, err, r.Value(i), r.Depth(i))
		}
	}
}

// TestKeep holds a few ranges' blocks of a table, then others, and checks
// that every index reads the same whether its block is held or not, and
// what the blocks held take.
func TestKeep(t *testing.T) {
	s := writeQuixo3(t, 512)
	f, err := db.Open(s.path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tab := f.Table(0)
	n := tab.Size()
	for _, ranges := range [][][2]uint64{
		{{0, 700}, {n - 10, n}}, // blocks 0, 1 and the last
		{{600, 1500}, {5, 6}},   // blocks 1, 2 (one held already) and 0
		{{3000, 3000}, {n, n}},  // none
		{{0, n}},                // all
	} {
		if err := tab.Keep(context.Background(), 2, ranges); err != nil {
			t.Fatal(err)
		}
		blocks := map[uint64]bool{}
		for _, r := range ranges {
			for i := r[0]; i < r[1]; i++ {
				blocks[i/512] = true
			}
		}
		if got := tab.KeptBytes(ranges); got != uint64(len(blocks))*tab.BlockBytes() {
			t.Fatalf("%v: KeptBytes %d, want %d blocks of %d", ranges, got, len(blocks), tab.BlockBytes())
		}
		for i := range n {
			v, d, err := tab.Lookup(i)
			if err != nil || v != s.res.Value(i) || d != s.res.Depth(i) {
				t.Fatalf("%v: index %d: stored %v %d (%v), solved %v %d", ranges, i, v, d, err, s.res.Value(i), s.res.Depth(i))
			}
		}
	}
}

// readAll opens path and reads every part of it: the input, the directory
// and every block, returning the first error.
func readAll(path string) error {
	f, err := db.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Input(); err != nil {
		return err
	}
	for k := range f.Sections {
		tab := f.Table(k)
		if _, err := tab.Directory(); err != nil {
			return err
		}
		for i := uint64(0); i < tab.Size(); i += 97 {
			if _, _, err := tab.Lookup(i); err != nil {
				return err
			}
		}
		if err := tab.Load(context.Background(), 2); err != nil {
			return err
		}
	}
	return nil
}

// TestDamage damages a good file in each of its parts and checks that
// reading it fails with a message naming the part, never a wrong value.
func TestDepthsBuckets(t *testing.T) {
	for _, c := range []struct{ max, bucket, bars uint64 }{
		{0, 1, 1}, {7, 1, 8}, {db.MaxBars - 1, 1, db.MaxBars}, {db.MaxBars, 2, db.MaxBars/2 + 1}, {10 * db.MaxBars, 11, 931},
	} {
		h := db.NewDepths(c.max)
		if h.Bucket != c.bucket || uint64(len(h.Win)) != c.bars || len(h.Loss) != len(h.Win) {
			t.Errorf("max depth %d: bucket %d, %d bars; want %d, %d", c.max, h.Bucket, len(h.Win), c.bucket, c.bars)
		}
		h.Add(engine.Loss, c.max, 1) // the deepest fits
		if uint64(len(h.Win)) > db.MaxBars {
			t.Errorf("max depth %d: %d bars", c.max, len(h.Win))
		}
	}
}

func TestDamage(t *testing.T) {
	s := writeQuixo3(t, 512)
	good, err := os.ReadFile(s.path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := db.Open(s.path)
	if err != nil {
		t.Fatal(err)
	}
	sec := f.Sections[0]
	f.Close()
	hoff := len(good) - 24 - int(headerLen(good))
	cases := []struct {
		name string
		edit func([]byte) []byte
		want string
	}{
		{"header byte", flip(hoff + 10), "header: checksum mismatch"},
		{"header last byte", flip(len(good) - 25), "header: checksum mismatch"},
		{"first block", flip(9), "block 0 of"},
		{"a middle block", flip(int(sec.Blocks.Offset) / 2), "block "},
		{"block table", flip(int(sec.Blocks.Offset) + 3), "block table: checksum mismatch"},
		{"directory", flip(int(sec.Directory.Offset) + 1), "symmetry directory: checksum mismatch"},
		{"footer offset", flip(len(good) - 24), "footer"},
		{"footer crc", flip(len(good) - 10), "header: checksum mismatch"},
		{"magic", flip(0), "no retro database magic"},
		{"truncated", func(b []byte) []byte { return b[:len(b)-100] }, "footer"},
		{"truncated to the magic", func(b []byte) []byte { return b[:8] }, "too short"},
		{"garbage appended", func(b []byte) []byte { return append(b, "garbage"...) }, "footer"},
		{"a file appended", func(b []byte) []byte { return append(b, good...) }, ""},
		{"empty", func([]byte) []byte { return nil }, "too short"},
		// A later retro's file, with a field this one does not know: refused
		// by its format, not as damaged.
		{"a later format", newHeader(func(h []byte) []byte {
			return bytes.Replace(h, []byte(`"format":1,`), []byte(`"format":9,"later":true,`), 1)
		}), "database format 9; this retro reads formats 1 to 4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := c.edit(append([]byte(nil), good...))
			path := filepath.Join(t.TempDir(), "bad.db")
			if err := os.WriteFile(path, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			err := readAll(path)
			if err == nil {
				if c.want == "" {
					return // a whole good file after the damage: its own footer points at it
				}
				t.Fatalf("damaged file read without error")
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("error %q: want it to name the file and %q", err, c.want)
			}
		})
	}
}

func headerLen(b []byte) uint32 {
	f := b[len(b)-24:]
	return uint32(f[8]) | uint32(f[9])<<8 | uint32(f[10])<<16 | uint32(f[11])<<24
}

// newHeader returns an edit of a file that replaces its header by edit's
// of it, the footer pointing at it with its checksum.
func newHeader(edit func([]byte) []byte) func([]byte) []byte {
	return func(b []byte) []byte {
		hoff := len(b) - 24 - int(headerLen(b))
		h := edit(append([]byte(nil), b[hoff:len(b)-24]...))
		out := append(b[:hoff:hoff], h...)
		out = binary.LittleEndian.AppendUint64(out, uint64(hoff))
		out = binary.LittleEndian.AppendUint32(out, uint32(len(h)))
		out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(h, crc32.MakeTable(crc32.Castagnoli)))
		return append(out, "RETRODB1"...)
	}
}

func flip(at int) func([]byte) []byte {
	return func(b []byte) []byte { b[at] ^= 0x40; return b }
}

// TestCrashLeavesNoFile checks that an unfinished write leaves nothing
// under the final name, and that it leaves an older file there untouched.
func TestCrashLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.db")
	w, err := db.Create(path, "graph", nil, []byte("1 0\n"), db.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("after Abort: %v", err)
	}
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err = db.Create(path, "graph", nil, nil, db.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("the old file holds %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("%d files left in the folder, want 1", len(ents))
	}
}

// FuzzOpen reads mutations of a good file: never a panic, and never a
// value other than the good one.
func FuzzOpen(f *testing.F) {
	s := writeQuixo3(f, 512)
	good, err := os.ReadFile(s.path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte("RETRODB1"))
	// A file of the losses alone (format 4), its illegal indices filled.
	losses := filepath.Join(f.TempDir(), "losses.db")
	writeDB(f, losses, "graph", nil, db.Options{BlockSize: 1 << 12, Coding: db.Losses, Fill: true}, db.Source{Values: synthetic{n: 10_000, max: 300}, MaxDepth: 300})
	if b, err := os.ReadFile(losses); err == nil {
		f.Add(b)
	} else {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := db.OpenReaderAt(bytes.NewReader(b), int64(len(b)), "fuzz.db")
		if err != nil {
			return
		}
		defer d.Close()
		d.Input()
		for k := range d.Sections {
			tab := d.Table(k)
			tab.Directory()
			for i := uint64(0); i < min(tab.Size(), 1<<16); i += 7 {
				v, dep, err := tab.Lookup(i)
				if err == nil && len(b) == len(good) && i < s.res.Size() && (v != s.res.Value(i) || dep != s.res.Depth(i)) {
					t.Fatalf("index %d read as %v %d, solved %v %d", i, v, dep, s.res.Value(i), s.res.Depth(i))
				}
			}
		}
	})
}

// synthetic is a Values of made-up values and depths up to max, for codes
// of every width.
type synthetic struct{ n, max uint64 }

func (s synthetic) Size() uint64 { return s.n }

func (s synthetic) Lookup(i uint64) (engine.Value, uint64, error) {
	v := engine.Value(i * 2654435761 >> 7 & 3)
	if v != engine.Win && v != engine.Loss {
		return v, 0, nil
	}
	return v, i * 7919 % (s.max + 1), nil
}

// stored returns what a file of coding c reads for a position of value v
// at depth d: a win without its depth where c leaves it out, a draw at
// engine.NoDepth for a win or a draw where c keeps the losses alone.
func stored(c db.Coding, v engine.Value, d uint64) (engine.Value, uint64) {
	switch {
	case c == db.Losses && (v == engine.Win || v == engine.Draw):
		return engine.Draw, engine.NoDepth
	case c == db.LossDepths && v == engine.Win:
		return v, engine.NoDepth
	}
	return v, d
}

// TestCodeWidths writes values whose codes take 1, 2 and 4 bytes, in each
// coding, with a histogram of one depth per bar and of buckets, reads
// every index back (one by one and in runs across blocks) and compares the
// counts and the histogram with the source's; a source with a depth beyond
// the maximum it declares is refused.
func TestCodeWidths(t *testing.T) {
	for _, coding := range []db.Coding{db.AllDepths, db.LossDepths, db.Losses} {
		for _, max := range []uint64{100, 5000, 70000} {
			src := synthetic{n: 200_000, max: max}
			path := filepath.Join(t.TempDir(), "s.db")
			writeDB(t, path, "graph", nil, db.Options{BlockSize: 1 << 14, Coding: coding}, db.Source{Values: src, MaxDepth: max})
			f, err := db.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			tab := f.Table(0)
			if wantFormat := map[db.Coding]int{db.AllDepths: 1, db.LossDepths: 2, db.Losses: 4}[coding]; f.Format != wantFormat || tab.Coding != coding {
				t.Fatalf("%q: format %d, coding %q", coding, f.Format, tab.Coding)
			}
			want := db.NewDepths(max)
			var counts [4]uint64
			vals, depths := make([]engine.Value, src.n), make([]uint64, src.n)
			if err := tab.LookupRange(0, src.n, vals, depths); err != nil {
				t.Fatal(err)
			}
			for i := range src.n {
				v, d, _ := src.Lookup(i)
				counts[v]++
				want.Add(v, d, 1)
				v, d = stored(coding, v, d)
				if gv, gd, err := tab.Lookup(i); err != nil || gv != v || gd != d || vals[i] != v || depths[i] != d {
					t.Fatalf("%q, max depth %d, index %d: stored %v %d (%v), in a run %v %d; want %v %d", coding, max, i, gv, gd, err, vals[i], depths[i], v, d)
				}
			}
			if tab.Counts != counts || !tab.Depths.Equal(want) {
				t.Fatalf("%q, max depth %d: counts %v, histogram %+v; want %v, %+v", coding, max, tab.Counts, tab.Depths, counts, want)
			}
			if w, _ := coding.Width(max); tab.Width != w {
				t.Fatalf("%q, max depth %d: %d-byte codes, want %d", coding, max, tab.Width, w)
			}
			f.Close()
			w, err := db.Create(path, "graph", nil, nil, db.Options{Coding: coding})
			if err != nil {
				t.Fatal(err)
			}
			err = w.Add(context.Background(), db.Source{Values: src, MaxDepth: max - 1})
			if err == nil || !strings.Contains(err.Error(), "more than the maximum") {
				t.Fatalf("max depth %d declared as %d: %v, want an error", max, max-1, err)
			}
			w.Close()
		}
	}
	if _, err := db.Create(filepath.Join(t.TempDir(), "x.db"), "graph", nil, nil, db.Options{Coding: "depth-mod-3"}); err == nil {
		t.Fatal("an unknown coding was taken")
	}
	// A game stored by classes keeps every depth: its wins' moves cannot
	// be named from the file.
	w, err := db.Create(filepath.Join(t.TempDir(), "c.db"), "graph", nil, nil, db.Options{Coding: db.LossDepths})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	src := synthetic{n: 1024, max: 10}
	if err := w.Add(context.Background(), db.Source{Values: src, MaxDepth: 10, Directory: []uint32{0, 512, 1024}, IndexSize: 1024}); err == nil {
		t.Fatal("the depths of losses only, over symmetry classes: no error")
	}
}

// TestFilled writes KRvK (with the bare kings it reaches) with its illegal
// indices filled, every depth and the losses' only: each legal index reads
// its solved value, each illegal one the code of the last legal index
// before it in its block (illegal at the block's head), the counts and
// depths are the solve's, the file is smaller than without filling, and
// Verify passes it, counting the illegal indices by the rules.
func TestFilled(t *testing.T) {
	m, err := chess.ParseMaterial("KRvK")
	if err != nil {
		t.Fatal(err)
	}
	g, err := chess.NewGame(m)
	if err != nil {
		t.Fatal(err)
	}
	r, err := engine.Parallel(context.Background(), g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, coding := range []db.Coding{db.AllDepths, db.LossDepths, db.Losses} {
		var sizes [2]int64
		var tab *db.Table
		for k, fill := range []bool{false, true} {
			path := filepath.Join(t.TempDir(), "krk.db")
			writeDB(t, path, "chess", []string{"-material=KRvK"}, db.Options{BlockSize: 1 << 14, Coding: coding, Fill: fill},
				db.Source{Values: r, MaxDepth: r.MaxDepth()})
			f, err := db.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			sizes[k] = int64(f.FileSize())
			tab = f.Table(0)
		}
		if !tab.Filled || tab.Counts[engine.Illegal] != r.Count(engine.Illegal) || tab.Counts[engine.Win] != r.Count(engine.Win) ||
			tab.Counts[engine.Loss] != r.Count(engine.Loss) || tab.Counts[engine.Draw] != r.Count(engine.Draw) {
			t.Fatalf("%q: filled %v, counts %v", coding, tab.Filled, tab.Counts)
		}
		// A solve from a start keeps its unreached positions as illegal:
		// not filled, and the file of the format its coding needs.
		var start uint64
		for r.Value(start) == engine.Illegal {
			start++
		}
		path := filepath.Join(t.TempDir(), "reached.db")
		writeDB(t, path, "chess", []string{"-material=KRvK"}, db.Options{Coding: coding, Fill: true},
			db.Source{Values: r, MaxDepth: r.MaxDepth(), Start: &start, Reachable: true})
		f, err := db.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if want := map[db.Coding]int{db.AllDepths: 1, db.LossDepths: 2, db.Losses: 4}[coding]; f.Table(0).Filled || f.Format != want {
			t.Errorf("%q from a start: filled %v, format %d; want not filled, format %d", coding, f.Table(0).Filled, f.Format, want)
		}
		if sizes[1] >= sizes[0] {
			t.Errorf("%q: %d bytes filled, %d not", coding, sizes[1], sizes[0])
		}
		want := db.NewDepths(r.MaxDepth())
		var before query.Entry // the last legal index's value in its block
		filled := 0
		for i := range r.Size() {
			if i%tab.BlockSize == 0 {
				before = query.Entry{Value: engine.Illegal}
			}
			v, d, err := tab.Lookup(i)
			if err != nil {
				t.Fatal(err)
			}
			sv, sd := r.Value(i), r.Depth(i)
			want.Add(sv, sd, 1)
			sv, sd = stored(coding, sv, sd)
			switch {
			case sv == engine.Illegal && (query.Entry{Value: v, Depth: d}) != before:
				t.Fatalf("%q: illegal index %d reads %v %d, want the one before it, %v", coding, i, v, d, before)
			case sv != engine.Illegal && (v != sv || d != sd):
				t.Fatalf("%q: index %d reads %v %d, solved %v %d", coding, i, v, d, sv, sd)
			case sv != engine.Illegal:
				before = query.Entry{Value: v, Depth: d}
			case v != engine.Illegal:
				filled++
			}
		}
		if filled == 0 || !tab.Depths.Equal(want) {
			t.Fatalf("%q: %d illegal indices filled; depths %+v, want %+v", coding, filled, tab.Depths, want)
		}
		if _, err := tab.CountDepths(context.Background(), 2); err == nil {
			t.Errorf("%q: CountDepths counted a filled file's codes", coding)
		}
		var vals engine.Values = tab
		if coding.FromMoves() {
			vals = query.WinDepthsMemo(g, tab, 1<<20)
		}
		rep, err := query.Verify(context.Background(), g, vals, 2, nil)
		if err != nil || rep.Failures != 0 || rep.Counts != tab.Counts || rep.MaxDepth != tab.MaxDepth {
			t.Fatalf("%q: verify: %v, %d failures %v, counts %v, max depth %d; header %v, %d", coding, err, rep.Failures, rep.First,
				rep.Counts, rep.MaxDepth, tab.Counts, tab.MaxDepth)
		}
		got := db.NewDepths(r.MaxDepth())
		for d, n := range rep.Wins {
			got.Add(engine.Win, uint64(d), n)
		}
		for d, n := range rep.Losses {
			got.Add(engine.Loss, uint64(d), n)
		}
		if !got.Equal(want) {
			t.Fatalf("%q: verify counts depths %+v, want %+v", coding, got, want)
		}
	}
}

// failing is synthetic with a Lookup that fails at index at.
type failing struct {
	synthetic
	at uint64
}

func (f failing) Lookup(i uint64) (engine.Value, uint64, error) {
	if i == f.at {
		return 0, 0, fmt.Errorf("index %d unreadable", i)
	}
	return f.synthetic.Lookup(i)
}

// TestWorkersWriteOneFile writes the same values on 1 to 5 workers, whose
// blocks are coded out of order and written in order: every file holds
// the same bytes. A source that fails in a block among many, with blocks
// still being coded after it, makes Add return its error (and return).
func TestWorkersWriteOneFile(t *testing.T) {
	src := db.Source{Values: synthetic{n: 300_000, max: 200}, MaxDepth: 200}
	o := db.Options{BlockSize: 1 << 12, Coding: db.LossDepths}
	var first []byte
	for workers := 1; workers <= 5; workers++ {
		o.Workers = workers
		path := filepath.Join(t.TempDir(), "s.db")
		writeDB(t, path, "graph", nil, o, src)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if workers == 1 {
			first = b
			continue
		}
		if !bytes.Equal(b, first) {
			t.Fatalf("%d workers wrote %d bytes unlike one worker's %d", workers, len(b), len(first))
		}
	}
	for _, at := range []uint64{0, 150_001, 299_999} {
		w, err := db.Create(filepath.Join(t.TempDir(), "f.db"), "graph", nil, nil, o)
		if err != nil {
			t.Fatal(err)
		}
		err = w.Add(context.Background(), db.Source{Values: failing{synthetic{n: 300_000, max: 200}, at}, MaxDepth: 200})
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("index %d unreadable", at)) {
			t.Fatalf("a source failing at %d: %v", at, err)
		}
		w.Abort()
	}
}
