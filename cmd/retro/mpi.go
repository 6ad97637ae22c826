package main

import (
	"fmt"
	"io"
	"time"

	"github.com/retro-solver/retro/dist"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/text"
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

// runDistributed solves g over the MPI ranks; the result is rank 0's, nil
// on the others. With -progress or -stats rank 0 prints what each level
// sent between the ranks.
func (c *solveRun) runDistributed(g implicit.Game, o engine.Options) (*engine.Result, error) {
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
	r, st, err := engine.Distributed(c.ctx, g, c.world, o)
	if err != nil || r == nil || !(c.wantProgress() || c.stats) {
		return r, err
	}
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
