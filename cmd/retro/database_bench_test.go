package main

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/retro-solver/retro/engine"
)

// BenchmarkQuery is a warm query: the value of a random position and of
// each of its moves, from a database whose blocks have been read once.
// The database is Quixo 3 x 3, or the file named by $RETRO_BENCH_DB:
//
//	retro solve quixo -n 4 -db /tmp/q4.db
//	RETRO_BENCH_DB=/tmp/q4.db go test ./cmd/retro -run '^$' -bench Query
func BenchmarkQuery(b *testing.B) {
	path := os.Getenv("RETRO_BENCH_DB")
	if path == "" {
		path = b.TempDir() + "/q3.db"
		if code := run([]string{"solve", "quixo", "-n", "3", "-db", path}, &env{ctx: b.Context(), stdout: discard{}, stderr: discard{}}); code != 0 {
			b.Fatalf("solve: exit %d", code)
		}
	}
	d, err := openDatabase(path)
	if err != nil {
		b.Fatal(err)
	}
	defer d.f.Close()
	p, _, err := d.instance(0, false)
	if err != nil {
		b.Fatal(err)
	}
	// Legal positions, spread over the whole index, each asked once before
	// the clock starts so that its blocks are in memory.
	rng := rand.New(rand.NewPCG(1, 2))
	var positions []uint64
	for len(positions) < 64 {
		s := rng.Uint64N(p.Game.Size())
		if e, err := p.Lookup(s); err == nil && e.Value != engine.Illegal {
			positions = append(positions, s)
		}
	}
	for _, s := range positions[:8] {
		p.Moves(s)
	}
	b.Run("value", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := p.Lookup(positions[i%8]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("value+moves", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := p.Moves(positions[i%8]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkVerify is `retro verify` of a whole database: KQvKR (3.8
// million indices) solved with -compact, so that verify finds the wins and
// draws from their moves as it does on every chess file -all writes, or
// the file named by $RETRO_BENCH_DB:
//
//	RETRO_BENCH_DB=DIR/KQNvKQ.db go test ./cmd/retro -run '^$' -bench Verify -benchtime 1x
func BenchmarkVerify(b *testing.B) {
	path := os.Getenv("RETRO_BENCH_DB")
	if path == "" {
		path = b.TempDir() + "/kqkr.db"
		if code := run([]string{"solve", "chess", "KQvKR", "-compact", "-db", path}, &env{ctx: b.Context(), stdout: discard{}, stderr: discard{}}); code != 0 {
			b.Fatalf("solve: exit %d", code)
		}
	}
	d, err := openDatabase(path)
	if err != nil {
		b.Fatal(err)
	}
	size := d.f.Table(0).Size()
	d.f.Close()
	for b.Loop() {
		if code := run([]string{"verify", path}, &env{ctx: b.Context(), stdout: discard{}, stderr: discard{}}); code != 0 {
			b.Fatalf("verify: exit %d", code)
		}
	}
	b.ReportMetric(float64(size)*float64(b.N)/b.Elapsed().Seconds(), "indices/s")
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
