package tier

import (
	"encoding/binary"
	"unsafe"
)

// littleEndian reports whether the machine stores words little-endian, as
// tier files do: then words are read from a file in place.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// wordsOf returns b, a multiple of 8 bytes, as little-endian words: in
// place on a little-endian machine, copied otherwise.
func wordsOf(b []byte) []uint64 {
	if len(b) == 0 {
		return nil
	}
	if littleEndian && uintptr(unsafe.Pointer(&b[0]))%8 == 0 {
		return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), len(b)/8)
	}
	w := make([]uint64, len(b)/8)
	for i := range w {
		w[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return w
}

// bytesOf returns words as little-endian bytes: in place on a
// little-endian machine, copied otherwise.
func bytesOf(w []uint64) []byte {
	if len(w) == 0 {
		return nil
	}
	if littleEndian {
		return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 8*len(w))
	}
	b := make([]byte, 0, 8*len(w))
	for _, x := range w {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	return b
}

// uint32sOf returns b, a multiple of 4 bytes, as little-endian uint32s: in
// place on a little-endian machine, copied otherwise.
func uint32sOf(b []byte) []uint32 {
	if len(b) == 0 {
		return nil
	}
	if littleEndian && uintptr(unsafe.Pointer(&b[0]))%4 == 0 {
		return unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), len(b)/4)
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}

// bytesOfUint32s returns w as little-endian bytes.
func bytesOfUint32s(w []uint32) []byte {
	b := make([]byte, 0, 4*len(w))
	for _, x := range w {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	return b
}
