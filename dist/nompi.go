//go:build !mpi

package dist

import "errors"

// Available reports whether this build can run over MPI (-tags mpi).
const Available = false

// MPI joins the ranks mpirun started; in this build it says how to get one
// that can.
func MPI() (*World, error) {
	return nil, errors.New("this retro was built without MPI: build it with `go build -tags mpi ./cmd/retro` (needs Open MPI: libopenmpi-dev)")
}

// World is the communicator of all of mpirun's ranks; in this build there
// is none.
type World struct{ Comm }

// Abort stops every rank with the status code.
func (w *World) Abort(code int) {}

// Close leaves MPI.
func (w *World) Close() error { return nil }
