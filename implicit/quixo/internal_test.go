package quixo

import (
	"math/rand/v2"
	"testing"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/square"
	"github.com/retro-solver/retro/internal/testsize"
)

// benchBoards returns canonical inner boards of the n x n game, drawn at
// random, for the benchmarks of the move generators.
func benchBoards(b *testing.B, g *Game, count int) []uint64 {
	b.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	var boards []uint64
	for len(boards) < count {
		s := g.Canonical(r.Uint64N(g.Size()))
		if g.Classify(s) == implicit.Inner {
			boards = append(boards, s)
		}
	}
	return boards
}

// BenchmarkCanonical measures, per 4 x 4 board, the canonical forms of its
// un-moves (a symmetric solve's retrograde pass) and their class numbers,
// of its moves, and the count of its moves' classes (the classification
// pass).
func BenchmarkCanonical(b *testing.B) {
	g, _ := New(4)
	boards := benchBoards(b, g, 4096)
	for name, list := range map[string]func(s uint64, dst []uint64) []uint64{
		"Unmoves": g.CanonicalUnmoves,
		"ClassUnmoves": func(s uint64, dst []uint64) []uint64 {
			return g.ClassUnmoves(s, false, dst)
		},
		"Moves": g.CanonicalMoves,
		"ClassifyClasses": func(s uint64, dst []uint64) []uint64 {
			_, n := g.ClassifyClasses(s)
			return append(dst, n)
		},
	} {
		b.Run(name, func(b *testing.B) {
			var dst []uint64
			for i := 0; b.Loop(); i++ {
				dst = list(boards[i%len(boards)], dst[:0])
			}
		})
	}
}

// TestSmallest4 checks the 4 x 4 canonical form of shifts and masks
// against the symmetry tables: the smallest image of random boards.
func TestSmallest4(t *testing.T) {
	sym := square.Symmetries16(4)
	r := rand.New(rand.NewPCG(4, 4))
	for range 200000 {
		x := uint32(r.IntN(1 << 16))
		o := uint32(r.IntN(1<<16)) &^ x
		want := uint64(x)<<32 | uint64(o)
		for k := range 8 {
			want = min(want, uint64(sym[k].Apply(x))<<32|uint64(sym[k].Apply(o)))
		}
		if got := smallest4(x<<16 | o); uint64(got>>16)<<32|uint64(got&0xffff) != want {
			t.Fatalf("x %04x o %04x: smallest image %08x, want %x", x, o, got, want)
		}
	}
}

// TestClassTables checks the class tables against IsCanonical on every
// board: ClassesBelow counts the canonical boards below each index, the
// class of each canonical board is its ClassesBelow, and MarkCanonical
// from the tables marks the canonical boards of ranges of every
// alignment. 4 x 4 (86 million boards) in the long run only.
func TestClassTables(t *testing.T) {
	testsize.SkipUnderRace(t, "one goroutine's checks; quixo under parallel workers is raced in TestThreeByThree and TestTieredSolve")
	type size struct{ n, minCubes int }
	sizes := []size{{2, 0}, {3, 0}, {3, 4}, {4, 12}}
	if testsize.Long() {
		sizes = append(sizes, size{4, 0})
	}
	for _, sz := range sizes {
		g, err := NewFrom(sz.n, sz.minCubes)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]uint64, (g.Size()+63)/64)
		var below uint64
		for s := range g.Size() {
			if got := g.ClassesBelow(s); got != below {
				t.Fatalf("%+v: ClassesBelow(%d) = %d, want %d", sz, s, got, below)
			}
			if !g.IsCanonical(s) {
				continue
			}
			if x, o, _ := g.Board(s); g.class(x, o) != below {
				t.Fatalf("%+v: board %d is class %d, want %d\n%s", sz, s, g.class(x, o), below, g.Describe(s))
			}
			want[s/64] |= 1 << (s % 64)
			below++
		}
		if got := g.ClassesBelow(g.Size()); got != below {
			t.Fatalf("%+v: ClassesBelow(Size) = %d, want %d", sz, got, below)
		}
		r := rand.New(rand.NewPCG(uint64(sz.n), uint64(sz.minCubes)))
		for range 200 {
			from := r.Uint64N(g.Size())
			to := from + r.Uint64N(min(g.Size()-from, 5000)+1)
			words := make([]uint64, (to-from+63)/64)
			g.MarkCanonical(from, to, words)
			for s := from; s < to; s++ {
				if got, w := words[(s-from)/64]>>((s-from)%64)&1, want[s/64]>>(s%64)&1; got != w {
					t.Fatalf("%+v: MarkCanonical(%d, %d) marks %d as %d, want %d", sz, from, to, s, got, w)
				}
			}
		}
	}
}
