//go:build mpi

package dist

/*
#cgo pkg-config: ompi-c
#include <mpi.h>
#include <stdint.h>

static int retro_init(int *provided) {
	int done = 0;
	MPI_Initialized(&done);
	if (done) {
		return MPI_Query_thread(provided);
	}
	return MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, provided);
}
static int retro_serialized(int provided) { return provided >= MPI_THREAD_SERIALIZED; }
static int retro_rank(int *r) { return MPI_Comm_rank(MPI_COMM_WORLD, r); }
static int retro_size(int *n) { return MPI_Comm_size(MPI_COMM_WORLD, n); }
static int retro_alltoall_u64(uint64_t *send, uint64_t *recv) {
	return MPI_Alltoall(send, 1, MPI_UINT64_T, recv, 1, MPI_UINT64_T, MPI_COMM_WORLD);
}
static int retro_alltoallv(uint64_t *send, int *scounts, int *sdispls, uint64_t *recv, int *rcounts, int *rdispls) {
	return MPI_Alltoallv(send, scounts, sdispls, MPI_UINT64_T, recv, rcounts, rdispls, MPI_UINT64_T, MPI_COMM_WORLD);
}
static int retro_allreduce(uint64_t *in, uint64_t *out, int n, int isMax) {
	return MPI_Allreduce(in, out, n, MPI_UINT64_T, isMax ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD);
}
static int retro_send(uint64_t *buf, int n, int to, int tag) {
	return MPI_Send(buf, n, MPI_UINT64_T, to, tag, MPI_COMM_WORLD);
}
static int retro_recv(uint64_t *buf, int n, int from, int tag) {
	return MPI_Recv(buf, n, MPI_UINT64_T, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
// retro_iprobe says whether a message with the tag waits, from which rank
// and of how many words.
static int retro_iprobe(int tag, int *flag, int *source, int *count) {
	MPI_Status st;
	int rc = MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, flag, &st);
	if (rc != MPI_SUCCESS || !*flag) {
		return rc;
	}
	*source = st.MPI_SOURCE;
	return MPI_Get_count(&st, MPI_UINT64_T, count);
}
static int retro_abort(int code) { return MPI_Abort(MPI_COMM_WORLD, code); }
static int retro_finalize(void) { return MPI_Finalize(); }
*/
import "C"

import (
	"context"
	"fmt"
	"sync"
	"time"
	"unsafe"
)

// Available reports whether this build can run over MPI (-tags mpi).
const Available = true

// World is the communicator of all of mpirun's ranks (MPI_COMM_WORLD), a
// Comm. Its calls go to MPI one at a time (MPI_THREAD_SERIALIZED), under
// its lock: Send and Recv may be called from two goroutines.
type World struct {
	mu          sync.Mutex
	rank, ranks int
}

// The tags of messages: the pieces of a Gather, a Mailbox's messages.
const (
	tagGather = 0
	tagMail   = 1
)

// MPI joins the ranks mpirun started (MPI_Init); Close leaves. A process
// not started by mpirun is a world of one rank.
func MPI() (*World, error) {
	var provided C.int
	if err := check("MPI_Init_thread", C.retro_init(&provided)); err != nil {
		return nil, err
	}
	if C.retro_serialized(provided) == 0 {
		return nil, fmt.Errorf("dist: this MPI library does not allow calls from several threads one at a time (MPI_THREAD_SERIALIZED)")
	}
	var rank, size C.int
	if err := check("MPI_Comm_rank", C.retro_rank(&rank)); err != nil {
		return nil, err
	}
	if err := check("MPI_Comm_size", C.retro_size(&size)); err != nil {
		return nil, err
	}
	return &World{rank: int(rank), ranks: int(size)}, nil
}

func check(call string, rc C.int) error {
	if rc != C.MPI_SUCCESS {
		return fmt.Errorf("dist: %s failed with MPI error %d", call, int(rc))
	}
	return nil
}

// Rank returns this process's rank.
func (w *World) Rank() int { return w.rank }

// Ranks returns the number of ranks.
func (w *World) Ranks() int { return w.ranks }

// Abort stops every rank (MPI_Abort) with the status code.
func (w *World) Abort(code int) { C.retro_abort(C.int(code)) } // no lock: it must work whatever holds it

// Close leaves MPI (MPI_Finalize); every rank calls it.
func (w *World) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return check("MPI_Finalize", C.retro_finalize())
}

// maxCount is the most words one call sends to one rank: MPI counts and
// displacements are C ints.
const maxCount = 1<<31 - 1

// ptr returns the address of b's first word, or of a dummy word when b is
// empty (MPI wants a valid address).
func ptr(b []uint64) *C.uint64_t {
	if len(b) == 0 {
		var dummy [1]uint64
		return (*C.uint64_t)(unsafe.Pointer(&dummy[0]))
	}
	return (*C.uint64_t)(unsafe.Pointer(&b[0]))
}

// Exchange is MPI_Alltoallv, in rounds when a rank's messages would not fit
// the C ints MPI counts with.
func (w *World) Exchange(send [][]uint64) ([][]uint64, error) {
	if len(send) != w.ranks {
		panic("dist: Exchange needs one slice per rank")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	counts := make([]uint64, w.ranks)
	for r, s := range send {
		counts[r] = uint64(len(s))
	}
	incoming := make([]uint64, w.ranks)
	if err := check("MPI_Alltoall", C.retro_alltoall_u64(ptr(counts), ptr(incoming))); err != nil {
		return nil, err
	}
	var most, total uint64
	for r := range incoming {
		most = max(most, incoming[r], counts[r])
		total += incoming[r]
	}
	// Each round moves at most per words between any two ranks, so a
	// rank's total per round fits in a C int.
	per := uint64(maxCount / w.ranks)
	rounds, err := w.allreduce([]uint64{(most + per - 1) / per}, 1)
	if err != nil {
		return nil, err
	}
	// What each rank receives lies in one array, in rank order: in one
	// round, MPI writes it there at once.
	all := make([]uint64, total)
	recv := make([][]uint64, w.ranks)
	scounts, sdispls := make([]C.int, w.ranks), make([]C.int, w.ranks)
	rcounts, rdispls := make([]C.int, w.ranks), make([]C.int, w.ranks)
	var at uint64
	for r := range w.ranks {
		recv[r] = all[at : at+incoming[r] : at+incoming[r]]
		rcounts[r], rdispls[r] = C.int(incoming[r]), C.int(at)
		at += incoming[r]
	}
	if rounds[0] == 1 {
		sbuf, ok := adjacent(send)
		for r := range w.ranks {
			scounts[r] = C.int(len(send[r]))
			if r > 0 {
				sdispls[r] = sdispls[r-1] + scounts[r-1]
			}
			if !ok {
				sbuf = append(sbuf, send[r]...)
			}
		}
		rc := C.retro_alltoallv(ptr(sbuf), &scounts[0], &sdispls[0], ptr(all), &rcounts[0], &rdispls[0])
		return recv, check("MPI_Alltoallv", rc)
	}
	var sbuf, rbuf []uint64
	for k := range rounds[0] {
		sbuf, rbuf = sbuf[:0], rbuf[:0]
		var rtotal int
		for r := range w.ranks {
			part := window(send[r], k, per)
			scounts[r], sdispls[r] = C.int(len(part)), C.int(len(sbuf))
			sbuf = append(sbuf, part...)
			n := len(window(recv[r], k, per))
			rcounts[r], rdispls[r] = C.int(n), C.int(rtotal)
			rtotal += n
		}
		rbuf = append(rbuf, make([]uint64, rtotal)...)
		rc := C.retro_alltoallv(ptr(sbuf), &scounts[0], &sdispls[0], ptr(rbuf), &rcounts[0], &rdispls[0])
		if err := check("MPI_Alltoallv", rc); err != nil {
			return nil, err
		}
		for r := range w.ranks {
			copy(window(recv[r], k, per), rbuf[rdispls[r]:int(rdispls[r])+int(rcounts[r])])
		}
	}
	return recv, nil
}

// adjacent returns the words of the slices of send as one slice, and
// true, where they lie one after another in one array (engine's sends
// do), so that MPI sends them from where they are.
func adjacent(send [][]uint64) ([]uint64, bool) {
	var start unsafe.Pointer
	var n uintptr
	for _, b := range send {
		if len(b) == 0 {
			continue
		}
		p := unsafe.Pointer(&b[0])
		switch {
		case start == nil:
			start = p
		case p != unsafe.Add(start, n*8):
			return nil, false
		}
		n += uintptr(len(b))
	}
	if start == nil {
		return nil, true
	}
	return unsafe.Slice((*uint64)(start), n), true
}

// window returns round k's part of b, rounds of per words.
func window(b []uint64, k, per uint64) []uint64 {
	lo := min(k*per, uint64(len(b)))
	return b[lo:min(lo+per, uint64(len(b)))]
}

// Sum is MPI_Allreduce with MPI_SUM.
func (w *World) Sum(v []uint64) ([]uint64, error) { return w.reduce(v, 0) }

// Max is MPI_Allreduce with MPI_MAX.
func (w *World) Max(v []uint64) ([]uint64, error) { return w.reduce(v, 1) }

func (w *World) reduce(v []uint64, isMax C.int) ([]uint64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.allreduce(v, isMax)
}

func (w *World) allreduce(v []uint64, isMax C.int) ([]uint64, error) {
	out := make([]uint64, len(v))
	if len(v) == 0 {
		return out, nil
	}
	return out, check("MPI_Allreduce", C.retro_allreduce(ptr(v), ptr(out), C.int(len(v)), isMax))
}

// Gather sends every rank's words to rank 0, rank after rank, in messages
// of at most maxCount words.
func (w *World) Gather(v []uint64) ([][]uint64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	sizes, err := w.gatherSizes(uint64(len(v)))
	if err != nil {
		return nil, err
	}
	if w.rank != 0 {
		for k := uint64(0); k*maxCount < uint64(len(v)); k++ {
			part := window(v, k, maxCount)
			if err := check("MPI_Send", C.retro_send(ptr(part), C.int(len(part)), 0, tagGather)); err != nil {
				return nil, err
			}
		}
		return nil, nil
	}
	out := make([][]uint64, w.ranks)
	out[0] = v
	for r := 1; r < w.ranks; r++ {
		out[r] = make([]uint64, sizes[r])
		for k := uint64(0); k*maxCount < sizes[r]; k++ {
			part := window(out[r], k, maxCount)
			if err := check("MPI_Recv", C.retro_recv(ptr(part), C.int(len(part)), C.int(r), tagGather)); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// gatherSizes returns every rank's n, on every rank.
func (w *World) gatherSizes(n uint64) ([]uint64, error) {
	v := make([]uint64, w.ranks)
	v[w.rank] = n
	return w.allreduce(v, 0)
}

// Send sends a short message (a Mailbox's) to rank to.
func (w *World) Send(to int, msg []uint64) error {
	if len(msg) > maxCount {
		return fmt.Errorf("dist: a message of %d words is too long", len(msg))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return check("MPI_Send", C.retro_send(ptr(msg), C.int(len(msg)), C.int(to), tagMail))
}

// Recv waits for a Mailbox's message from any rank, or for ctx's end: it
// probes for one (MPI_Iprobe) and sleeps between probes, a little longer
// each time up to 5 ms, leaving the lock to Send in between.
func (w *World) Recv(ctx context.Context) (int, []uint64, error) {
	pause := 20 * time.Microsecond
	for {
		from, msg, ok, err := w.tryRecv()
		if ok || err != nil {
			return from, msg, err
		}
		select {
		case <-ctx.Done():
			return 0, nil, ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 5*time.Millisecond)
	}
}

func (w *World) tryRecv() (int, []uint64, bool, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var flag, source, count C.int
	if err := check("MPI_Iprobe", C.retro_iprobe(tagMail, &flag, &source, &count)); err != nil || flag == 0 {
		return 0, nil, false, err
	}
	msg := make([]uint64, count)
	err := check("MPI_Recv", C.retro_recv(ptr(msg), count, source, tagMail))
	return int(source), msg, true, err
}
