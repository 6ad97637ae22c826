package smith

import (
	"slices"
	"strconv"
)

// Sum is the value of a sum of games, in which a move is a move in exactly
// one term, built one term at a time by Add. The zero Sum is the empty sum,
// *0.
//
// The rules are Smith's (C. A. B. Smith, "Graphs and composite games",
// J. Combin. Theory 1, 1966): *i + *j = *(i xor j),
// inf{K} + *i = inf{K xor i}, and inf{K} + inf{L} = inf{}.
type Sum struct {
	infinite bool
	nim      uint32   // the sum *nim, while it is finite
	k        []uint32 // K of inf{K}, increasing, once it is infinite
}

// Add adds position i of the solved game r as a term of the sum.
func (s *Sum) Add(r *Result, i uint64) {
	switch v := r.Value(i); {
	case v != Inf && !s.infinite:
		s.nim ^= v
	case v != Inf:
		s.k = xorAll(s.k, v)
	case !s.infinite:
		s.infinite, s.k = true, xorAll(r.MoveValues(i, s.k[:0]), s.nim)
	default:
		s.k = s.k[:0]
	}
}

// AppendOutcome appends the sum's value and its outcome for the player to
// move, as retro sum prints them (docs/formats.md): "g win" (g > 0), "0 loss", "inf{K} win"
// when 0 is in K, and "inf{K} draw" otherwise.
func (s *Sum) AppendOutcome(dst []byte) []byte {
	switch {
	case !s.infinite && s.nim == 0:
		return append(dst, "0 loss"...)
	case !s.infinite:
		return append(strconv.AppendUint(dst, uint64(s.nim), 10), " win"...)
	case slices.Contains(s.k, 0):
		return append(AppendInf(dst, s.k), " win"...)
	}
	return append(AppendInf(dst, s.k), " draw"...)
}

// xorAll returns {x xor i : x in k}, increasing.
func xorAll(k []uint32, i uint32) []uint32 {
	for j := range k {
		k[j] ^= i
	}
	slices.Sort(k)
	return k
}
