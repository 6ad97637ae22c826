package tier

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/parallel"
)

// Mailbox carries the short messages of a tiered solve shared by several
// processes, its ranks (GamesmanOne's manager and workers): rank 0 hands
// out tiers whose children are solved, every rank solves the tiers it is
// handed, and says when each is done. dist.MPI implements it over MPI,
// dist.Local over goroutines.
type Mailbox interface {
	// Rank returns this process's number, 0 to Ranks()-1.
	Rank() int
	// Ranks returns the number of processes.
	Ranks() int
	// Send sends msg to rank to; it may return before to receives it.
	Send(to int, msg []uint64) error
	// Recv waits for the next message from any rank, or for ctx's end.
	// Send and Recv may be called at the same time on two goroutines.
	Recv(ctx context.Context) (from int, msg []uint64, err error)
}

// Comm is a rank of a shared solve: the Mailbox's messages, and the
// collectives of the distributed engine that splits big tiers
// (Options.SplitFrom). dist.MPI and dist.Local implement it.
type Comm interface {
	engine.Comm
	Mailbox
}

// The messages: a worker's first word says what it did, the manager's
// what to do.
const (
	msgReady  = iota + 1 // worker: [ready], waiting for its first tier
	msgDone              // worker: [done, k, resumed, nanoseconds]
	msgFailed            // worker: [failed, k]; it stops, with the error
	msgSolve             // manager: [solve, k, tiers whose files it may close...]
	msgStop              // manager: [stop]; no more tiers
	msgSplit             // manager: [split, k, tiers whose files it may close...], to every rank at once
)

// SolveShared solves g tier by tier on all of comm's ranks at once, in a
// folder every rank reads and writes (o.Dir: one file system, or a shared
// one across machines): each tier whole on one rank, but those of at least
// o.SplitFrom positions, which all ranks solve together (split.go). Every
// rank calls it with the same game and options. Rank 0 is the manager: it
// prepares the folder, hands each tier to a rank once its children are
// done (the tier that heads the longest chain of positions still to solve
// first; a big tier as soon as every rank is free, before any other), and
// solves tiers itself between its messages; it returns the solution, the
// others nil. The tiers' files are those Solve writes, so the
// solution and a database written from it do not depend on the ranks. A
// rank that fails returns its error and its tier is not done; the tiers
// finished stay in the folder, so the same solve run again goes on from
// them.
func SolveShared(ctx context.Context, g implicit.Tiered, o Options, comm Comm) (*Solution, error) {
	tiers := g.Tiers()
	order, err := implicit.TierOrder(tiers, g.Size())
	if err != nil {
		return nil, err
	}
	l := newLayout(g, o)
	s := &solver{g: g, tiers: tiers, o: o, l: l, stores: make([]*store, len(tiers)), comm: comm}
	s.sym, _ = g.(implicit.Symmetric)
	defer s.closeAll()
	mb := Mailbox(comm)
	if mb.Rank() != 0 {
		s.o.Progress = nil
		send := func(msg []uint64) error { return mb.Send(0, msg) }
		recv := func() ([]uint64, error) {
			for {
				from, msg, err := mb.Recv(ctx)
				if err != nil || from == 0 {
					return msg, err
				}
			}
		}
		return nil, s.work(ctx, send, recv)
	}
	if err := prepareDir(o.Dir, l.manifest(o, tiers, g.Size())); err != nil {
		for r := 1; r < mb.Ranks(); r++ {
			mb.Send(r, []uint64{msgStop})
		}
		return nil, err
	}
	if err := s.manage(ctx, order, comm); err != nil {
		return nil, err
	}
	s.closeAll()
	return openSolution(g, tiers, l, false, nil)
}

// event is a message to the manager, from a rank or from its own worker.
type event struct {
	from int
	msg  []uint64
	err  error
}

// manage hands out the tiers in dependence order to the ranks, rank 0's own
// worker included, until all are done, then stops the workers.
func (s *solver) manage(ctx context.Context, order []int, mb Mailbox) error {
	ctx, cancel := context.WithCancel(ctx)
	events := make(chan event, 2*mb.Ranks())
	post := func(ev event) {
		select {
		case events <- ev:
		case <-ctx.Done(): // the manager has stopped reading
		}
	}
	// Rank 0's own worker talks to the manager over channels; its error
	// comes whole in an event, not as a failure message.
	toLocal := make(chan []uint64, 1)
	localDone := make(chan struct{})
	go func() {
		defer close(localDone)
		send := func(msg []uint64) error {
			if msg[0] != msgFailed {
				post(event{from: 0, msg: msg})
			}
			return nil
		}
		recv := func() ([]uint64, error) {
			select {
			case msg := <-toLocal:
				return msg, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if err := s.work(ctx, send, recv); err != nil {
			post(event{from: 0, err: err})
		}
	}()
	// The other ranks' messages, read on their own goroutine.
	remoteDone := make(chan struct{})
	go func() {
		defer close(remoteDone)
		for {
			from, msg, err := mb.Recv(ctx)
			if err != nil {
				post(event{from: -1, err: err})
				return
			}
			post(event{from: from, msg: msg})
		}
	}()
	send := func(r int, msg []uint64) error {
		if r == 0 {
			toLocal <- msg
			return nil
		}
		return mb.Send(r, msg)
	}
	m := newManager(s.tiers, order, mb.Ranks())
	for k, t := range s.tiers {
		m.split[k] = s.o.SplitFrom > 0 && t.Size() >= s.o.SplitFrom
	}
	err := m.run(ctx, s, events, send)
	// Every worker stops: when all tiers are done they are all waiting;
	// after a failure the others finish the tier in hand first (or die
	// with the run, under MPI).
	for r := range mb.Ranks() {
		if r != 0 || err == nil {
			send(r, []uint64{msgStop})
		}
	}
	cancel()
	<-localDone
	<-remoteDone
	return err
}

// manager is rank 0's record of the tiers: which are done, which can be
// handed out, which rank is idle.
type manager struct {
	tiers     []implicit.Tier
	order     []int    // the order of a single process's solve, for progress lines
	left      []int    // left[k]: children of k not yet done
	parents   []int    // parents[k]: parents of k not yet done
	parentsOf [][]int  // the tiers that have k as a child
	weight    []uint64 // positions of k and of its heaviest chain of ancestors
	ready     []int    // tiers whose children are done, not handed out
	idle      []int    // ranks waiting for a tier
	retired   []int    // tiers no parent needs any more, in the order they were
	told      []int    // told[r]: how many of retired rank r was told
	done      int
	split     []bool // split[k]: tier k is solved by all ranks together
	splitting int    // the split tier being solved, or -1
	waiting   int    // the ranks that have not finished it yet
}

func newManager(tiers []implicit.Tier, order []int, ranks int) *manager {
	m := &manager{tiers: tiers, order: order, left: make([]int, len(tiers)), parents: make([]int, len(tiers)),
		parentsOf: make([][]int, len(tiers)), weight: make([]uint64, len(tiers)), told: make([]int, ranks),
		split: make([]bool, len(tiers)), splitting: -1}
	for k, t := range tiers {
		m.left[k] = len(t.Children)
		for _, c := range t.Children {
			m.parents[c]++
			m.parentsOf[c] = append(m.parentsOf[c], k)
		}
	}
	// A tier's weight is its size plus its heaviest parent's weight: the
	// positions that wait for it, along the longest chain. Parents come
	// after their children in order, so go backwards.
	for i := len(order) - 1; i >= 0; i-- {
		k := order[i]
		var heaviest uint64
		for _, p := range m.parentsOf[k] {
			heaviest = max(heaviest, m.weight[p])
		}
		m.weight[k] = tiers[k].Size() + heaviest
	}
	for _, k := range order {
		if m.left[k] == 0 {
			m.ready = append(m.ready, k)
		}
	}
	return m
}

// next takes the ready tier of most weight (the first in order on a tie)
// of those that split says, and reports whether there is one.
func (m *manager) next(split bool) (int, bool) {
	best := -1
	for i, k := range m.ready {
		if m.split[k] == split && (best < 0 || m.weight[k] > m.weight[m.ready[best]]) {
			best = i
		}
	}
	if best < 0 {
		return 0, false
	}
	k := m.ready[best]
	m.ready = slices.Delete(m.ready, best, best+1)
	return k, true
}

// message returns the solve message for rank r, its first word what
// and its tier k: the tiers retired since r was last told follow.
func (m *manager) message(r int, what uint64, k int) []uint64 {
	msg := append([]uint64{what, uint64(k)}, intsToWords(m.retired[m.told[r]:])...)
	m.told[r] = len(m.retired)
	return msg
}

// handOut gives the idle ranks work: a ready big tier to all of them at
// once when all are idle (none gets another tier while one waits), else a
// ready tier to each.
func (m *manager) handOut(send func(int, []uint64) error) error {
	if m.splitting >= 0 {
		return nil
	}
	if slices.ContainsFunc(m.ready, func(k int) bool { return m.split[k] }) {
		if len(m.idle) < len(m.told) {
			return nil
		}
		k, _ := m.next(true)
		m.splitting, m.waiting = k, len(m.idle)
		for _, r := range splitOrder(m.idle) {
			if err := send(r, m.message(r, msgSplit, k)); err != nil {
				return err
			}
		}
		m.idle = m.idle[:0]
		return nil
	}
	for len(m.idle) > 0 {
		k, ok := m.next(false)
		if !ok {
			break
		}
		r := m.idle[0]
		m.idle = m.idle[1:]
		if err := send(r, m.message(r, msgSolve, k)); err != nil {
			return err
		}
	}
	return nil
}

// splitOrder returns the ranks to tell of a split tier: rank 0 last. Its
// own worker starts the tier's first collective at once, which holds rank
// 0's communicator (MPI calls go one at a time: dist.World) until every
// rank has joined; a message to a rank not told yet would wait behind it,
// and that rank would never join.
func splitOrder(idle []int) []int {
	order := slices.DeleteFunc(slices.Clone(idle), func(r int) bool { return r == 0 })
	if len(order) < len(idle) {
		order = append(order, 0)
	}
	return order
}

// run answers the workers' messages until every tier is done.
func (m *manager) run(ctx context.Context, s *solver, events <-chan event, send func(int, []uint64) error) error {
	start := time.Now()
	var total, finished, solvedHere uint64
	for _, t := range m.tiers {
		total += t.Size()
	}
	for m.done < len(m.tiers) {
		var ev event
		select {
		case ev = <-events:
		case <-ctx.Done():
			return ctx.Err()
		}
		switch {
		case ev.err != nil && ev.from < 0:
			return fmt.Errorf("receiving the ranks' messages: %w", ev.err)
		case ev.err != nil:
			return ev.err // rank 0's worker's; it names its tier
		case len(ev.msg) == 2 && ev.msg[0] == msgFailed:
			return fmt.Errorf("rank %d failed on tier %d", ev.from, ev.msg[1])
		case len(ev.msg) == 4 && ev.msg[0] == msgDone && ev.msg[1] < uint64(len(m.tiers)):
			k := int(ev.msg[1])
			if m.split[k] {
				if k != m.splitting {
					return fmt.Errorf("rank %d says it finished tier %d, which is not being solved", ev.from, k)
				}
				if m.waiting--; m.waiting > 0 {
					m.idle = append(m.idle, ev.from)
					continue
				}
				m.splitting = -1
			}
			m.finish(k)
			finished += m.tiers[k].Size()
			resumed := ev.msg[2] == 1
			if !resumed {
				solvedHere += m.tiers[k].Size()
			}
			if s.o.Progress != nil {
				how := fmt.Sprintf("solved on rank %d in %s", ev.from, time.Duration(ev.msg[3]).Round(time.Millisecond))
				if m.split[k] {
					how = fmt.Sprintf("solved on all %d ranks in %s", len(m.told), time.Duration(ev.msg[3]).Round(time.Millisecond))
				}
				if resumed {
					how = "already done in " + s.o.Dir
				}
				fmt.Fprintln(s.o.Progress, progressLine(m.done, len(m.tiers), m.tiers[k], how, finished, solvedHere, total, time.Since(start)))
			}
		case len(ev.msg) == 1 && ev.msg[0] == msgReady:
		default:
			return fmt.Errorf("rank %d sent a message retro does not know: %v", ev.from, ev.msg)
		}
		m.idle = append(m.idle, ev.from)
		if err := m.handOut(send); err != nil {
			return err
		}
		if len(m.idle) == len(m.told) && len(m.ready) == 0 && m.done < len(m.tiers) {
			return errors.New("tier: every rank is idle and no tier can be solved (a cycle of tiers?)")
		}
	}
	return nil
}

// finish records tier k done: its parents may become ready, and its
// children whose parents are all done are retired.
func (m *manager) finish(k int) {
	m.done++
	for _, p := range m.parentsOf[k] {
		if m.left[p]--; m.left[p] == 0 {
			m.ready = append(m.ready, p)
		}
	}
	for _, c := range m.tiers[k].Children {
		if m.parents[c]--; m.parents[c] == 0 {
			m.retired = append(m.retired, c)
		}
	}
}

func intsToWords(ks []int) []uint64 {
	w := make([]uint64, len(ks))
	for i, k := range ks {
		w[i] = uint64(k)
	}
	return w
}

// work is a worker's loop: say it is ready, then solve each tier it is
// handed, closing the files it is told no tier needs any more, until told
// to stop.
func (s *solver) work(ctx context.Context, send func([]uint64) error, recv func() ([]uint64, error)) error {
	if err := send([]uint64{msgReady}); err != nil {
		return err
	}
	for {
		msg, err := recv()
		if err != nil {
			return err
		}
		switch {
		case len(msg) == 1 && msg[0] == msgStop:
			return nil
		case len(msg) >= 2 && (msg[0] == msgSolve || msg[0] == msgSplit) && msg[1] < uint64(len(s.tiers)):
		default:
			return fmt.Errorf("the manager sent a message retro does not know: %v", msg)
		}
		for _, c := range msg[2:] {
			if c < uint64(len(s.stores)) && s.stores[c] != nil {
				s.stores[c].close()
				s.stores[c] = nil
			}
		}
		k := int(msg[1])
		began := time.Now()
		var resumed bool
		if msg[0] == msgSplit {
			resumed, err = s.solveSplit(ctx, k)
		} else {
			resumed, err = s.solveTier(ctx, k, parallel.Workers(s.o.Engine.Workers))
		}
		if err != nil {
			send([]uint64{msgFailed, uint64(k)})
			return fmt.Errorf("tier %d (%s): %w", k, s.tiers[k].Name, err)
		}
		if !resumed {
			s.release(k)
		}
		var flag uint64
		if resumed {
			flag = 1
		}
		if err := send([]uint64{msgDone, uint64(k), flag, uint64(time.Since(began))}); err != nil {
			return err
		}
	}
}
