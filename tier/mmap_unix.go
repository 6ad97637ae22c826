//go:build unix

package tier

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps the file at path read-only and returns its bytes and the
// function that unmaps them. An empty file maps to no bytes.
func mapFile(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Size() == 0 {
		return nil, func() error { return nil }, nil
	}
	if st.Size() != int64(int(st.Size())) {
		return nil, nil, fmt.Errorf("%s: too large to map", path)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("mapping %s: %w", path, err)
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}
