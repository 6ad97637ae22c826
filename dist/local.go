// Package dist runs retro's distributed solves on several processes: the
// index-partitioned engine (engine.Distributed) and the tiers shared out
// by a manager (tier.SolveShared), over MPI (MPI, in a build with -tags
// mpi, started by mpirun) or, for tests, over goroutines of one process
// (Local).
package dist

import (
	"context"
	"slices"
	"sync"

	"github.com/retro-solver/retro/tier"
)

// Comm is a rank of a distributed solve: the collectives of the
// index-partitioned engine and the messages of a shared tiered solve.
type Comm = tier.Comm

// Local returns the communicators of n ranks that live in one process,
// one per goroutine: each rank's solve must run on its own goroutine. A
// rank that stops calling a collective (an error) leaves the others
// waiting; it is meant for tests.
func Local(n int) []Comm {
	if n < 1 {
		panic("dist: Local needs at least one rank")
	}
	g := &group{n: n, in: make([]any, n), boxes: make([]chan letter, n)}
	g.cond = sync.NewCond(&g.mu)
	comms := make([]Comm, n)
	for r := range comms {
		comms[r] = &local{rank: r, g: g}
		g.boxes[r] = make(chan letter, 1024)
	}
	return comms
}

// letter is a message between Local's ranks.
type letter struct {
	from int
	msg  []uint64
}

// group is the meeting point of Local's ranks: each collective call
// deposits every rank's part and hands all the parts to each.
type group struct {
	n       int
	mu      sync.Mutex
	cond    *sync.Cond
	in, out []any
	arrived int
	gen     int           // collectives completed
	boxes   []chan letter // boxes[r]: the messages to rank r
}

// all deposits rank's part of a collective and returns every rank's, in
// rank order, once all have come. The parts are only read afterwards.
func (g *group) all(rank int, part any) []any {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.in[rank] = part
	g.arrived++
	if g.arrived == g.n {
		g.out, g.in = g.in, make([]any, g.n)
		g.arrived = 0
		g.gen++
		g.cond.Broadcast()
		return g.out
	}
	// g.out cannot change before this rank has come to the next call.
	for gen := g.gen; gen == g.gen; {
		g.cond.Wait()
	}
	return g.out
}

// local is one of Local's ranks. Its calls take its lock one at a time,
// as World's take World's (MPI_THREAD_SERIALIZED), and a collective holds
// it until every rank has come: a Send or Recv on another goroutine waits
// meanwhile, so that a solve that would deadlock under MPI (a rank that
// must send before the others can join its collective) deadlocks here too.
type local struct {
	rank int
	g    *group
	mu   sync.Mutex
}

func (c *local) Rank() int  { return c.rank }
func (c *local) Ranks() int { return c.g.n }

func (c *local) Exchange(send [][]uint64) ([][]uint64, error) {
	if len(send) != c.g.n {
		panic("dist: Exchange needs one slice per rank")
	}
	// The sends are copied before they are deposited: a rank may use its
	// arrays again as soon as Exchange returns, while others still read.
	mine := make([][]uint64, len(send))
	for r := range send {
		mine[r] = slices.Clone(send[r])
	}
	parts := c.all(mine)
	recv := make([][]uint64, c.g.n)
	for r, p := range parts {
		recv[r] = p.([][]uint64)[c.rank]
	}
	return recv, nil
}

func (c *local) Sum(v []uint64) ([]uint64, error) {
	return c.reduce(v, func(a, b uint64) uint64 { return a + b })
}

func (c *local) Max(v []uint64) ([]uint64, error) {
	return c.reduce(v, func(a, b uint64) uint64 { return max(a, b) })
}

func (c *local) reduce(v []uint64, op func(a, b uint64) uint64) ([]uint64, error) {
	parts := c.all(slices.Clone(v))
	out := slices.Clone(parts[0].([]uint64))
	for _, p := range parts[1:] {
		for i, x := range p.([]uint64) {
			out[i] = op(out[i], x)
		}
	}
	return out, nil
}

func (c *local) Gather(v []uint64) ([][]uint64, error) {
	parts := c.all(slices.Clone(v))
	if c.rank != 0 {
		return nil, nil
	}
	out := make([][]uint64, len(parts))
	for r, p := range parts {
		out[r] = p.([]uint64)
	}
	return out, nil
}

// all is the group's all under the rank's lock.
func (c *local) all(part any) []any {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.g.all(c.rank, part)
}

func (c *local) Send(to int, msg []uint64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.g.boxes[to] <- letter{from: c.rank, msg: slices.Clone(msg)}
	return nil
}

// Recv waits for a letter without the lock, as World's Recv sleeps between
// probes, and takes the lock to receive it.
func (c *local) Recv(ctx context.Context) (int, []uint64, error) {
	select {
	case l := <-c.g.boxes[c.rank]:
		c.mu.Lock()
		defer c.mu.Unlock()
		return l.from, l.msg, nil
	case <-ctx.Done():
		return 0, nil, ctx.Err()
	}
}
