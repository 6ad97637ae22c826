package tier

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"time"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/parallel"
)

// A big tier of a shared solve (Options.SplitFrom) is solved by every rank
// at once: each owns a contiguous range of the tier's entries
// (engine.RankRange) and keeps only that range's states and exit actions
// (a symmetric tier's class bits are whole on each rank, its classes'
// positions found from them); the children's files are read by all. The
// ranks then write the tier's file together, each its own codes at their
// offset in one file of the shared folder, and rank 0 the rest. The file
// is the one a single process writes, byte for byte.

// solveSplit solves tier k on all ranks unless its file is there already,
// whole, from the same solve; it reports which. Every rank calls it, and
// all return the same error or none.
func (s *solver) solveSplit(ctx context.Context, k int) (resumed bool, err error) {
	t := s.tiers[k]
	path := s.l.path(k, t)
	rank, ranks := s.comm.Rank(), s.comm.Ranks()
	have := uint64(0)
	if s.finished(k) {
		have = 1
	}
	all, err := s.comm.Sum([]uint64{have})
	if err != nil {
		return false, err
	}
	if all[0] == uint64(ranks) {
		return true, nil
	}
	v, err := s.newView(k)
	defer s.doneReading(t.Children)
	if err := agree(s.comm, err); err != nil {
		return false, err
	}
	// A symmetric tier's class positions are found from its class bits
	// (view.pos), not kept: 4 bytes an entry less.
	opt := s.o.Engine
	if rank != 0 {
		opt.Progress = nil
	}
	opt.Checkpoint = &engine.Checkpoint{Path: path + ".levels", Every: s.o.CheckpointEvery,
		Fingerprint: s.l.checkpointName(s.o, k, t)}
	if s.o.Progress != nil {
		opt.Checkpoint.Saved = func(level uint64) {
			fmt.Fprintf(s.o.Progress, "retro: tier %s: checkpoint at level %d saved by every rank\n", t.Name, level)
		}
		opt.Checkpoint.Resumed = func(level uint64) {
			fmt.Fprintf(s.o.Progress, "retro: tier %s: going on from the checkpoint at level %d\n", t.Name, level)
		}
	}
	r, err := engine.Distributed(ctx, v, s.comm, opt)
	if err != nil {
		return false, err
	}
	if s.o.Progress != nil {
		sum := r.Record.Totals()
		fmt.Fprintf(s.o.Progress, "retro: tier %s on %d ranks: %d levels, %d un-moves, %d crossing ranks (%.1f%%), %d bytes sent, compute %v, exchange %v (the slowest rank's)\n",
			t.Name, ranks, len(r.Record.Levels), sum.Edges, sum.Crossing, 100*float64(sum.Crossing)/float64(max(sum.Edges, 1)), sum.Bytes,
			sum.Compute.Round(time.Millisecond), sum.Exchange.Round(time.Millisecond))
	}
	if err := writeSplitStore(ctx, s.comm, path, s.want(k, r.Size()), r, v, parallel.Workers(opt.Workers)); err != nil {
		return false, err
	}
	opt.Checkpoint.RemoveRank(rank, ranks)
	return false, nil
}

// agree returns, on every rank, this rank's err or, if another rank had
// one, an error that says so: the ranks go on or stop together. Every rank
// calls it.
func agree(comm Comm, err error) error {
	failed := uint64(0)
	if err != nil {
		failed = 1
	}
	all, cerr := comm.Sum([]uint64{failed})
	switch {
	case cerr != nil:
		return cerr
	case err != nil:
		return err
	case all[0] != 0:
		return fmt.Errorf("%d other ranks failed", all[0])
	}
	return nil
}

// writeSplitStore writes the file of a tier split across ranks, r being
// this rank's part of its solution: every rank encodes its range's codes
// and writes them in place into one temporary file of the shared folder,
// then rank 0 gathers the overflow, reads the codes back for their
// checksum, writes the class bits and the header, and renames the file.
// Every rank calls it, and all return the same error or none.
func writeSplitStore(ctx context.Context, comm Comm, path string, h storeHeader, r *engine.DistResult, v *view, workers int) error {
	rank := comm.Rank()
	n := r.Size()
	own, err := countOverflow(ctx, r, r.Lo, r.Hi, workers)
	if err := agree(comm, err); err != nil {
		return err
	}
	over, err := comm.Sum([]uint64{own})
	if err != nil {
		return err
	}
	c, err := newCoder(r, r.MaxDepth(), n, over[0], workers)
	if err != nil {
		return err // every rank has the same depth and counts
	}
	// Rank 0 makes the file; the others open it once it is there.
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp-split")
	var f *os.File
	if rank == 0 {
		f, err = os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
		defer os.Remove(tmp) // after the rename, there is nothing to remove
	}
	if err := agree(comm, err); err != nil {
		return err
	}
	if rank != 0 {
		f, err = os.OpenFile(tmp, os.O_WRONLY, 0)
	}
	if err == nil {
		defer f.Close()
		err = c.encode(ctx, r.Lo, r.Hi, func(first uint64, codes []byte) error {
			_, err := f.WriteAt(codes, headerSize+int64(first)*int64(c.width))
			return err
		})
	}
	if err == nil && rank != 0 {
		// Written and closed before rank 0 reads, on a shared file system
		// too.
		err = errors.Join(f.Sync(), f.Close())
	}
	if err := agree(comm, err); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	parts, err := comm.Gather(append(c.overEntries, c.overCodes...))
	if err != nil {
		return err
	}
	if rank == 0 {
		c.overEntries, c.overCodes = nil, nil
		for _, p := range parts { // in rank order, so in entry order
			c.overEntries = append(c.overEntries, p[:len(p)/2]...)
			c.overCodes = append(c.overCodes, p[len(p)/2:]...)
		}
		h.entries, h.maxDepth, h.edges = n, r.MaxDepth(), r.Edges()
		for val := range h.counts {
			h.counts[val] = r.Count(engine.Value(val))
		}
		h.codesCRC, err = codesChecksum(tmp, n*uint64(c.width))
		if err == nil {
			err = finishStore(f, path, h, c, v.classes)
		}
	}
	// The file is renamed before any rank reports the tier done.
	return agree(comm, err)
}

// codesChecksum returns the CRC-32C of the codes of a tier's file, size
// bytes from the header's end, read anew (on a shared file system, a file
// opened before another machine wrote to it may not see its writes).
func codesChecksum(path string, size uint64) (uint32, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	buf := make([]byte, min(size, 1<<20))
	crc := uint32(0)
	for at := uint64(0); at < size; {
		b := buf[:min(size-at, uint64(len(buf)))]
		if _, err := f.ReadAt(b, headerSize+int64(at)); err != nil {
			return 0, err
		}
		crc = crc32.Update(crc, castagnoli, b)
		at += uint64(len(b))
	}
	return crc, nil
}
