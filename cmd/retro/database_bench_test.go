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
	path := benchDatabase(b, "quixo", "-n", "3")
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
	path := benchDatabase(b, "chess", "KQvKR", "-compact")
	d, err := openDatabase(path)
	if err != nil {
		b.Fatal(err)
	}
	size := d.f.Table(0).Size()
	d.f.Close()
	for b.Loop() {
		quietRun(b, "verify", path)
	}
	b.ReportMetric(float64(size)*float64(b.N)/b.Elapsed().Seconds(), "indices/s")
}

// benchDatabase returns the file named by $RETRO_BENCH_DB, or a database
// of `retro solve GAME ARGS...` written for the benchmark.
func benchDatabase(b *testing.B, game string, args ...string) string {
	if path := os.Getenv("RETRO_BENCH_DB"); path != "" {
		return path
	}
	path := b.TempDir() + "/bench.db"
	quietRun(b, append(append([]string{"solve", game}, args...), "-db", path)...)
	return path
}

// quietRun runs retro with args, its output discarded, and stops the
// benchmark if it fails.
func quietRun(b *testing.B, args ...string) {
	if code := run(args, &env{ctx: b.Context(), stdout: discard{}, stderr: discard{}}); code != 0 {
		b.Fatalf("retro %s: exit %d", args[0], code)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
