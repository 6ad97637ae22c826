package db

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// A database written by several processes (the ranks of an MPI solve, each
// holding the values of its own range of the index) is written in parts:
// each rank codes and compresses the blocks that start in its range into a
// part file of its own (WritePart), and the rank that writes the database
// copies the parts' bytes into it in order (Writer.AddParts), fixing their
// offsets in the block table. The file is byte for byte the one Add writes
// from all the values at once.

// Part describes a part file: the blocks [First, Last) of a section, their
// block table entries (offsets from the part's start), and what they hold.
type Part struct {
	First, Last uint64
	Bytes       uint64 // the part file's length: its compressed blocks
	Table       []byte
	Counts      [4]uint64
	Depths      *Depths
}

// BlockSize returns the indices per block of a section of values up to
// maxDepth under options o, as Add and WritePart cut them: the unit in
// which the ranks share out the blocks.
func BlockSize(o Options, maxDepth uint64) (uint64, error) {
	o, err := o.normalized()
	if err != nil {
		return 0, err
	}
	s, err := newSection(o, Source{MaxDepth: maxDepth}, 0)
	return s.BlockSize, err
}

// WritePart writes the blocks [first, last) of the section of n values
// that src describes to a new file at path, as Add would code them under
// options o (which must be the Writer's, but for Workers: the blocks coded
// at once, each with its compressor): src.Values must answer for every
// index of those blocks.
func WritePart(ctx context.Context, path string, src Source, n, first, last uint64, o Options) (*Part, error) {
	o, err := o.normalized()
	if err != nil {
		return nil, err
	}
	s, err := newSection(o, src, n)
	if err != nil {
		return nil, err
	}
	if first > last || last > s.NumBlocks() {
		return nil, fmt.Errorf("db: part of blocks [%d, %d) of a section of %d", first, last, s.NumBlocks())
	}
	enc, err := o.encoder(o.Workers)
	if err != nil {
		return nil, err
	}
	defer enc.close()
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("db: creating %s: %w", path, err)
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	p := &Part{First: first, Last: last}
	write := func(b []byte) error {
		p.Bytes += uint64(len(b))
		if _, err := bw.Write(b); err != nil {
			return fmt.Errorf("db: writing %s: %w", path, err)
		}
		return nil
	}
	if p.Table, err = codeBlocks(ctx, enc, o.Workers, src, &s, first, last, 0, write); err != nil {
		return nil, err
	}
	if err := bw.Flush(); err != nil {
		return nil, fmt.Errorf("db: writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("db: writing %s: %w", path, err)
	}
	p.Counts, p.Depths = s.Counts, s.Depths
	return p, nil
}

// Marshal returns p as bytes, for sending to the rank that writes the
// database; UnmarshalPart reads them back.
func (p *Part) Marshal() []byte {
	b, _ := json.Marshal(p)
	return b
}

// UnmarshalPart returns the Part that Marshal wrote as b.
func UnmarshalPart(b []byte) (*Part, error) {
	p := new(Part)
	if err := json.Unmarshal(b, p); err != nil {
		return nil, fmt.Errorf("db: a part's description: %w", err)
	}
	if p.Depths == nil || uint64(len(p.Table)) != (p.Last-p.First)*entrySize {
		return nil, errors.New("db: a part's description does not hold its block table")
	}
	return p, nil
}

// AddParts adds the section of n values that src describes (src.Values
// unused: the values are in the parts) from parts that cover its blocks in
// order; read(k, w) writes part k's file's bytes to w. The section is the
// one Add writes from all the values.
func (w *Writer) AddParts(src Source, n uint64, parts []*Part, read func(k int, w io.Writer) error) error {
	s, err := newSection(w.o, src, n)
	if err != nil {
		return err
	}
	var next uint64
	table := make([]byte, 0, s.NumBlocks()*entrySize)
	for k, p := range parts {
		if p.First != next || p.Last < p.First || uint64(len(p.Table)) != (p.Last-p.First)*entrySize {
			return fmt.Errorf("db: part %d holds blocks [%d, %d), want them from %d", k, p.First, p.Last, next)
		}
		if p.Depths == nil || p.Depths.Bucket != s.Depths.Bucket || len(p.Depths.Win) != len(s.Depths.Win) || len(p.Depths.Loss) != len(s.Depths.Loss) {
			return fmt.Errorf("db: part %d counts depths for another maximum than %d", k, src.MaxDepth)
		}
		next = p.Last
		base := w.off
		cw := &countingWriter{w: w.f}
		if err := read(k, cw); err != nil {
			return err
		}
		w.off += cw.n
		if cw.n != p.Bytes {
			return fmt.Errorf("db: part %d gave %d bytes, its table says %d", k, cw.n, p.Bytes)
		}
		for e := 0; e < len(p.Table); e += entrySize {
			off := binary.LittleEndian.Uint64(p.Table[e:])
			table = binary.LittleEndian.AppendUint64(table, base+off)
			table = append(table, p.Table[e+8:e+entrySize]...)
		}
		for v := range s.Counts {
			s.Counts[v] += p.Counts[v]
		}
		s.Stored += p.Bytes
		s.Depths.Merge(p.Depths)
	}
	if next != s.NumBlocks() {
		return fmt.Errorf("db: the parts hold %d blocks of %d", next, s.NumBlocks())
	}
	return w.endSection(nil, s, table, src.Directory)
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n uint64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	k, err := c.w.Write(b)
	c.n += uint64(k)
	return k, err
}
