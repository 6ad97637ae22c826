package db_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/engine"
)

// window is a Values that answers for [lo, hi) only, as a rank that holds
// its own range does.
type window struct {
	engine.Values
	lo, hi uint64
}

func (w window) Lookup(i uint64) (engine.Value, uint64, error) {
	if i < w.lo || i >= w.hi {
		return 0, 0, fmt.Errorf("index %d is outside [%d, %d)", i, w.lo, w.hi)
	}
	return w.Values.Lookup(i)
}

// TestParts writes a section in parts cut at random blocks (some empty),
// each part from the values of its own blocks only, and joins them with
// AddParts: the file must be, byte for byte, the one Add writes from all
// the values, for codes of 1, 2 and 4 bytes in both codings and a section
// with a symmetry directory. Parts that skip or repeat a block are
// refused.
func TestParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, coding := range []db.Coding{db.AllDepths, db.LossDepths} {
		for _, max := range []uint64{100, 5000, 70000} {
			src := synthetic{n: 150_000 + uint64(rng.IntN(50_000)), max: max}
			o := db.Options{BlockSize: 1 << 12, Coding: coding, Workers: 2}
			start := src.n / 3
			source := db.Source{Label: "board 1", Values: src, MaxDepth: max, Start: &start}
			if coding == db.AllDepths && max == 100 {
				dir := make([]uint32, src.n/512+2)
				for k := range dir {
					dir[k] = uint32(k * 512)
				}
				source.Directory, source.IndexSize = dir, src.n
			}
			dir := t.TempDir()
			whole := filepath.Join(dir, "whole.db")
			writeDB(t, whole, "graph", []string{"-x=1"}, o, source)
			want, err := os.ReadFile(whole)
			if err != nil {
				t.Fatal(err)
			}
			bs, err := db.BlockSize(o, max)
			if err != nil {
				t.Fatal(err)
			}
			nb := (src.n + bs - 1) / bs
			cuts := []uint64{0, nb}
			for range 1 + rng.IntN(5) {
				cuts = append(cuts, uint64(rng.IntN(int(nb)+1)))
			}
			slices.Sort(cuts)
			var parts []*db.Part
			var files []string
			for k := range len(cuts) - 1 {
				first, last := cuts[k], cuts[k+1]
				path := filepath.Join(dir, fmt.Sprintf("part-%d", k))
				in := source
				in.Values = window{src, first * bs, min(last*bs, src.n)}
				p, err := db.WritePart(context.Background(), path, in, src.n, first, last, o)
				if err != nil {
					t.Fatal(err)
				}
				if p, err = db.UnmarshalPart(p.Marshal()); err != nil {
					t.Fatal(err)
				}
				parts, files = append(parts, p), append(files, path)
			}
			read := func(k int, w io.Writer) error {
				f, err := os.Open(files[k])
				if err != nil {
					return err
				}
				defer f.Close()
				_, err = io.Copy(w, f)
				return err
			}
			joined := filepath.Join(dir, "joined.db")
			w, err := db.Create(joined, "graph", []string{"-x=1"}, nil, o)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.AddParts(source, src.n, parts, read); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(joined)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%q, max depth %d, parts at blocks %v: the joined file (%d bytes) differs from the whole one (%d)", coding, max, cuts, len(got), len(want))
			}
			if len(parts) > 1 {
				w, err := db.Create(filepath.Join(dir, "bad.db"), "graph", nil, nil, o)
				if err != nil {
					t.Fatal(err)
				}
				// The first part with blocks given twice.
				k := 0
				for parts[k].First == parts[k].Last {
					k++
				}
				twice := append(append(slices.Clone(parts[:k+1]), parts[k]), parts[k+1:]...)
				if err := w.AddParts(source, src.n, twice, func(j int, w io.Writer) error { return read(min(j, k), w) }); err == nil {
					t.Fatalf("parts at blocks %v with part %d twice were joined", cuts, k)
				}
				if err := w.AddParts(source, src.n, append(slices.Clone(parts[:k]), parts[k+1:]...), read); err == nil {
					t.Fatalf("parts at blocks %v without part %d were joined", cuts, k)
				}
				w.Abort()
			}
		}
	}
}
