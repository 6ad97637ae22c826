package dist

import "os"

// Launched reports whether this process was started by mpirun (Open MPI
// or another launcher of the PMI family), as one rank of several or of one.
func Launched() bool {
	for _, v := range []string{"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"} {
		if _, ok := os.LookupEnv(v); ok {
			return true
		}
	}
	return false
}
