package prefetch

import (
	"testing"
	"unsafe"
)

// A prefetch is a hint: it must never fault, whatever the address (a
// load would, at nil or past the address space's end).
func TestLineNeverFaults(t *testing.T) {
	buf := make([]byte, 256)
	for _, addr := range []uintptr{0, 1, ^uintptr(0), ^uintptr(0) - 63, uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&buf[255]))} {
		Line(addr)
	}
}
