package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/dist"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/text"
	"github.com/retro-solver/retro/parallel"
)

// joinMPI makes c a rank of the solve that mpirun started, when it started
// this process: rank 0 reads, prints and writes the database as a single
// process does; the other ranks solve their part and print nothing. It
// returns what ends the rank's part: leave MPI, or on an error stop every
// rank (so that no rank waits for one that failed).
func (c *solveRun) joinMPI(d *implicit.Descriptor) (func(err error) error, error) {
	if !dist.Launched() {
		return func(err error) error { return err }, nil
	}
	switch why := (engine.Request{Distributed: true}).Refusal(c.engine); {
	case why != "":
		return nil, usagef("solve %s: -engine %s %s", d.Name, c.engine, why)
	case c.tiered && c.checkpoint == "" && c.dbPath == "":
		return nil, usagef("solve %s: -tiered under mpirun needs -checkpoint FOLDER or -db FILE: the ranks share the finished tiers in a folder", d.Name)
	case c.reachable:
		return nil, usagef("solve %s: -reachable does not run under mpirun yet", d.Name)
	}
	w, err := dist.MPI()
	if err != nil {
		return nil, err
	}
	c.world = w
	if w.Rank() != 0 {
		// Rank 0 speaks for all and writes the database; the others only
		// say why they failed.
		c.rankLine = c.progress || c.env.isTerminal // each rank's engine and memory
		c.progress, c.stats = false, false
		quiet := *c.env
		quiet.stdout, quiet.isTerminal = io.Discard, false
		c.env = &quiet
	}
	return func(err error) error {
		if err == nil && len(c.rankCleanup) > 0 {
			// Each rank removes its checkpoint files once all have
			// finished, rank 0's database written.
			_, err = w.Sum([]uint64{0})
		}
		if err != nil {
			fmt.Fprintf(c.env.stderr, "retro: rank %d of %d: %v\n", w.Rank(), w.Ranks(), err)
			w.Abort(1)
			return err
		}
		for _, f := range c.rankCleanup {
			f()
		}
		return w.Close()
	}, nil
}

// root reports whether this process prints the answers and writes the
// database: a single process, or rank 0 of mpirun's.
func (c *solveRun) root() bool { return c.world == nil || c.world.Rank() == 0 }

// runDistributed solves inst over the MPI ranks. Each rank keeps its own
// range's values: with -db each writes its blocks of the database, which
// rank 0 joins (saveParts); rank 0 returns a summary that knows the
// start's value and depth and the statistics, or, for a game without a
// start (every index's value printed), every value gathered. The other
// ranks return nil. With -progress or -stats rank 0 prints what each level
// sent between the ranks.
func (c *solveRun) runDistributed(inst *instance, kind engine.Kind, o engine.Options) (*engine.Result, error) {
	ck, cleanup, err := c.levelCheckpoint()
	if err != nil {
		return nil, err
	}
	if ck != nil {
		rank, ranks := c.world.Rank(), c.world.Ranks()
		if c.wantProgress() {
			ck.Resumed = func(level uint64) {
				fmt.Fprintf(c.env.stderr, "retro: going on from the checkpoint %s.rank-*-of-%d.level-%d\n", ck.Path, ranks, level)
			}
			ck.Saved = func(level uint64) {
				size, took := ck.LastSave() // rank 0's file
				fmt.Fprintf(c.env.stderr, "retro: checkpoint at level %d saved to %s.rank-*-of-%d.level-%d (rank 0: %s in %s)\n",
					level, ck.Path, ranks, level, text.HumanBytes(uint64(size)), took.Round(time.Millisecond))
			}
		}
		o.Checkpoint = ck
		c.rankCleanup = append(c.rankCleanup, func() { ck.RemoveRank(rank, ranks); cleanup() })
	}
	if inst.start != nil {
		o.Keep = []uint64{*inst.start}
	}
	solve := engine.Distributed
	if kind == engine.KindDistLean {
		solve, o.DepthDir = engine.DistributedLean, c.depthDir()
	}
	d, err := solve(c.ctx, inst.solved, c.world, o)
	if err != nil {
		return nil, err
	}
	if c.dbPath != "" {
		if err := c.saveParts(inst, d); err != nil {
			return nil, err
		}
		inst.saved = true
	}
	var r *engine.Result
	if inst.start != nil {
		if c.root() {
			r = d.Summary()
		}
	} else if r, err = d.Gather(); err != nil {
		return nil, err
	}
	if r == nil || !(c.wantProgress() || c.stats) {
		return r, nil
	}
	st := d.Record
	w := c.env.stderr
	fmt.Fprintf(w, "retro: %d ranks; per level: frontier, un-moves, crossing ranks, bytes sent, compute, exchange (the slowest rank's)\n", st.Ranks)
	for d, l := range st.Levels {
		fmt.Fprintf(w, "retro: level %d: %d, %d, %d, %d, %v, %v\n", d, l.Frontier, l.Edges, l.Crossing, l.Bytes,
			l.Compute.Round(time.Microsecond), l.Exchange.Round(time.Microsecond))
	}
	t := st.Totals()
	fmt.Fprintf(w, "retro: in all: %d un-moves, %d crossing ranks (%.1f%%), %d bytes sent, compute %v, exchange %v\n",
		t.Edges, t.Crossing, 100*float64(t.Crossing)/float64(max(t.Edges, 1)), t.Bytes,
		t.Compute.Round(time.Millisecond), t.Exchange.Round(time.Millisecond))
	return r, nil
}

// depthDir returns the folder of a lean rank's depths' file: its
// checkpoint's folder (-checkpoint, or FILE.checkpoint with -db), or the
// system's temporary folder without either.
func (c *solveRun) depthDir() string {
	switch {
	case c.checkpoint != "":
		return c.checkpoint
	case c.dbPath != "":
		return c.dbPath + ".checkpoint"
	}
	return os.TempDir()
}

// partChunk is the bytes of a part file a rank sends rank 0 at a time.
const partChunk = 1 << 20

// saveParts writes the database of a distributed solve without gathering
// its values: each rank codes and compresses the blocks that start in its
// range (with the few values after its range that the next ranks send it,
// engine.DistResult.Share) into a part file beside the database, then
// sends rank 0 its description and, a chunk at a time in rank order, its
// bytes, which rank 0 appends to the database (db.Writer.AddParts). The
// file is byte for byte the single process's; no rank holds more than a
// block of another's values or a chunk of its bytes.
func (c *solveRun) saveParts(inst *instance, d *engine.DistResult) error {
	w := c.world
	rank, ranks := w.Rank(), w.Ranks()
	o := c.dbOptions()
	o.Workers = partWorkers(d.Hi-d.Lo, o)
	bs, err := db.BlockSize(o, d.MaxDepth())
	if err != nil {
		return err
	}
	first, last, err := d.Share(bs)
	if err != nil {
		return err
	}
	src := c.source(c.label, inst, d.MaxDepth())
	src.Values = d
	path := fmt.Sprintf("%s.part-%d-of-%d", c.dbPath, rank, ranks)
	// What the solve's rounds left is garbage now: collected here, its
	// pages take the compressors' tables instead of new ones.
	runtime.GC()
	if c.wantProgress() {
		fmt.Fprintf(c.env.stderr, "retro: each rank saving its blocks of %d positions to %s.part-*-of-%d\n", d.Size(), c.dbPath, ranks)
	}
	p, err := db.WritePart(c.ctx, path, src, d.Size(), first, last, o)
	defer os.Remove(path)
	if err != nil {
		return err
	}
	descs, err := w.Gather(packBytes(p.Marshal()))
	if err != nil {
		return err
	}
	sizes := make([]uint64, ranks)
	sizes[rank] = p.Bytes
	if sizes, err = w.Sum(sizes); err != nil {
		return err
	}
	if rank != 0 {
		// Rank 0 asks for the parts in rank order, one chunk per gather.
		for k := 1; k < ranks; k++ {
			if err := sendPart(w, k == rank, path, sizes[k]); err != nil {
				return err
			}
		}
		return nil
	}
	parts := make([]*db.Part, ranks)
	for k, words := range descs {
		b, err := unpackBytes(words)
		if err == nil {
			parts[k], err = db.UnmarshalPart(b)
		}
		if err != nil {
			return fmt.Errorf("rank %d's part: %w", k, err)
		}
	}
	return c.dbw.AddParts(src, d.Size(), parts, func(k int, out io.Writer) error {
		if k == 0 {
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = io.Copy(out, f)
			return err
		}
		return receivePart(w, k, sizes[k], out)
	})
}

// partWorkers returns the workers that code a rank's part of the
// database under options o for its range of own positions: as many as
// o's, but their compressors (dbWriterBytes of one each) kept within an
// eighth of the least the range's values take (a lean rank's half byte a
// position), so that a rank with a small range does not outgrow its share
// writing.
func partWorkers(own uint64, o db.Options) int {
	one := o
	one.Workers = 1
	return int(min(max(own/2/8/dbWriterBytes(one), 1), uint64(parallel.Workers(o.Workers))))
}

// sendPart takes part in the gathers that bring rank 0 a part of size
// bytes: this rank's own, read from path, if mine; empty otherwise.
func sendPart(w dist.Comm, mine bool, path string, size uint64) error {
	var f *os.File
	if mine {
		var err error
		if f, err = os.Open(path); err != nil {
			return err
		}
		defer f.Close()
	}
	buf := make([]byte, 0, partChunk)
	for at := uint64(0); at < size; at += partChunk {
		var words []uint64
		if mine {
			buf = buf[:min(partChunk, size-at)]
			if _, err := io.ReadFull(f, buf); err != nil {
				return fmt.Errorf("reading %s: %w", path, err)
			}
			words = packBytes(buf)
		}
		if _, err := w.Gather(words); err != nil {
			return err
		}
	}
	return nil
}

// receivePart writes to out the size bytes of rank k's part, from the
// gathers in which k sends them.
func receivePart(w dist.Comm, k int, size uint64, out io.Writer) error {
	for at := uint64(0); at < size; at += partChunk {
		got, err := w.Gather(nil)
		if err != nil {
			return err
		}
		b, err := unpackBytes(got[k])
		if err != nil {
			return fmt.Errorf("rank %d's part: %w", k, err)
		}
		if uint64(len(b)) != min(partChunk, size-at) {
			return fmt.Errorf("rank %d sent %d bytes of its part at %d, want %d", k, len(b), at, min(partChunk, size-at))
		}
		if _, err := out.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// packBytes returns b as words for a Comm: its length, then its bytes
// eight to a word (little-endian).
func packBytes(b []byte) []uint64 {
	words := make([]uint64, 1+(len(b)+7)/8)
	words[0] = uint64(len(b))
	for i, x := range b {
		words[1+i/8] |= uint64(x) << (8 * (i % 8))
	}
	return words
}

// unpackBytes returns the bytes packBytes packed into words.
func unpackBytes(words []uint64) ([]byte, error) {
	if len(words) == 0 || words[0] > 8*uint64(len(words)-1) || (words[0]+7)/8 != uint64(len(words)-1) {
		return nil, fmt.Errorf("%d words do not hold packed bytes", len(words))
	}
	b := make([]byte, words[0])
	for i := range b {
		b[i] = byte(words[1+i/8] >> (8 * (i % 8)))
	}
	return b, nil
}
