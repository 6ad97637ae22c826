// Package smith computes Smith's values of loopy impartial games (C. A. B.
// Smith, "Graphs and composite games", J. Combin. Theory 1, 1966; the
// generalized Sprague-Grundy function of Fraenkel and Yesha, 1986): every position is equivalent either to a nim heap *g
// or to inf{K}, Smith's infinity with the set K of the finite values among
// its moves. On an acyclic game these are the Sprague-Grundy values. Sum
// adds games by Smith's rules. It is a different computation from the
// win/loss/draw engines of package engine, over the same implicit games.
package smith

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
)

// Inf marks a position that is equivalent to no nim heap: Smith's infinity.
const Inf = math.MaxUint32

// unlabelled marks a position whose value is not known yet, while Solve
// runs.
const unlabelled = Inf - 1

// Result holds the Smith value of every position of a game: a finite g
// when the position is equivalent to the nim heap *g, or Inf when it is
// equivalent to inf{K}, K the finite values of its moves.
type Result struct {
	g      implicit.Game
	values []uint32
	max    uint32 // the largest finite value
	rounds int
}

// Value returns the value of position i: finite, or Inf.
func (r *Result) Value(i uint64) uint32 { return r.values[i] }

// MoveValues appends to dst the finite values of the moves of i, in
// increasing order without repeats: the set K of inf{K} when i's value is
// Inf.
func (r *Result) MoveValues(i uint64, dst []uint32) []uint32 {
	start := len(dst)
	var buf [16]uint64
	for _, t := range r.g.Moves(i, buf[:0]) {
		if v := r.values[t]; v != Inf {
			dst = append(dst, v)
		}
	}
	slices.Sort(dst[start:])
	return append(dst[:start], slices.Compact(dst[start:])...)
}

// AppendValue appends position i's value as retro grundy prints it (docs/formats.md): "4" or
// "inf{0,3}"; k is scratch space for the set K.
func (r *Result) AppendValue(dst []byte, i uint64, k []uint32) []byte {
	if v := r.values[i]; v != Inf {
		return strconv.AppendUint(dst, uint64(v), 10)
	}
	return AppendInf(dst, r.MoveValues(i, k[:0]))
}

// AppendInf appends "inf{k1,k2,...}" for the increasing values k.
func AppendInf(dst []byte, k []uint32) []byte {
	dst = append(dst, "inf{"...)
	for j, v := range k {
		if j > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendUint(dst, uint64(v), 10)
	}
	return append(dst, '}')
}

// Solve labels every position of g with its Smith value.
//
// First, in O(N + E), the positions from which no cycle can be reached get
// their Sprague-Grundy values (see acyclic). On an acyclic graph that is the
// whole answer. The rest are labelled by Fraenkel and Yesha's algorithm
// GSG, one round per candidate value (see round).
//
// g must be a normal-play game: every legal position Inner (a position with
// no moves is lost by the player to move); terminal wins or losses are
// refused. Illegal indices get the value Inf and are never moves.
// opt.Workers is ignored: the labelling is sequential.
func Solve(ctx context.Context, g implicit.Game, opt engine.Options) (*Result, error) {
	n := g.Size()
	if err := opt.CheckMemory(n, 4+4+0.25+8); err != nil {
		return nil, err
	}
	s := &solver{g: g, r: &Result{g: g, values: make([]uint32, n)}, count: make([]uint32, n)}
	for i := range n {
		switch k := g.Classify(i); k {
		case implicit.Illegal:
			s.r.values[i] = Inf
		case implicit.Inner:
			s.r.values[i] = unlabelled
			s.open++
		default:
			return nil, fmt.Errorf("position %d is a %v: Smith values are defined for normal-play games only", i, k)
		}
	}
	p := engine.StartProgress(opt, n)
	defer p.Stop()
	byValue := s.acyclic()
	s.answers = bitset.NewSet(n)
	for g := uint32(0); s.open > 0; g++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if g == unlabelled {
			return nil, fmt.Errorf("more than %d rounds of Smith's labelling", unlabelled)
		}
		p.Level(uint64(g), 0)
		var valued []uint64
		if int(g) < len(byValue) {
			valued = byValue[g]
		}
		s.round(g, valued)
	}
	return s.r, nil
}

// solver is the state of one Solve.
type solver struct {
	g     implicit.Game
	r     *Result
	count []uint32 // acyclic: moves not valued yet; round: moves that cannot answer
	// answers marks, in a round g, the positions with a move to a position
	// labelled g.
	answers           bitset.Set
	open              uint64 // positions not labelled yet
	buf, preds, queue []uint64
}

// acyclic values the positions that reach no cycle: the mex of their moves'
// values, computed retrogradely from the positions without moves, each
// position waiting until all its moves are valued (count). It returns those
// positions grouped by value, for the rounds of GSG.
func (s *solver) acyclic() (byValue [][]uint64) {
	g, r := s.g, s.r
	numMoves := implicit.MoveCounterOf(g)
	s.queue = s.queue[:0]
	for i := range g.Size() {
		if r.values[i] == unlabelled {
			var k uint64
			k, s.buf = numMoves(i, s.buf)
			s.count[i] = uint32(k)
			if k == 0 {
				s.queue = append(s.queue, i)
			}
		}
	}
	var seen []bool
	for len(s.queue) > 0 {
		w := s.queue[len(s.queue)-1]
		s.queue = s.queue[:len(s.queue)-1]
		s.buf = g.Moves(w, s.buf[:0])
		seen = append(seen[:0], make([]bool, len(s.buf)+1)...)
		for _, t := range s.buf {
			if v := r.values[t]; int(v) < len(seen) {
				seen[v] = true
			}
		}
		v := uint32(0)
		for seen[v] {
			v++
		}
		r.values[w] = v
		s.open--
		for len(byValue) <= int(v) {
			byValue = append(byValue, nil)
		}
		byValue[v] = append(byValue[v], w)
		s.preds = g.Unmoves(w, s.preds[:0])
		for _, u := range s.preds {
			if s.count[u]--; s.count[u] == 0 {
				s.queue = append(s.queue, u)
			}
		}
	}
	return byValue
}

// round is round g of the generalized Sprague-Grundy labelling (Fraenkel
// and Yesha's algorithm GSG), in which the positions
// valued g before (valued) keep their values and act as labelled g:
//
//  1. Label g, as long as there is one, every unlabelled position u with no
//     move to a position labelled g, and each of whose moves to an
//     unlabelled or infinite position v can be answered: v has a move to a
//     position labelled g.
//  2. Label infinite every unlabelled position with no move to a position
//     labelled g: its value cannot be g nor, lacking *g among its options,
//     anything larger.
//
// Step 1 is a retrograde pass: each unlabelled u counts its moves to
// unlabelled or infinite positions that cannot answer yet; labelling w with
// g makes w's predecessors answer, which decrements the counts of their own
// predecessors, and a count reaching zero (with no move to g) labels a new
// position. Each round is O(N + E), and values stay below sqrt(2E), so the
// whole is O((N + E) sqrt E) at worst. Every label meets GSG's
// conditions, so it is the position's value.
func (s *solver) round(g uint32, valued []uint64) {
	r := s.r
	s.answers.Clear()
	s.queue = s.queue[:0]
	for i := range s.g.Size() {
		if r.values[i] != unlabelled {
			continue
		}
		c := uint32(0)
		s.buf = s.g.Moves(i, s.buf[:0])
		for _, t := range s.buf {
			if r.values[t] >= unlabelled {
				c++
			}
		}
		s.count[i] = c
		if c == 0 {
			s.queue = append(s.queue, i)
		}
	}
	for _, w := range valued {
		s.labelled(w)
	}
	for len(s.queue) > 0 {
		w := s.queue[len(s.queue)-1]
		s.queue = s.queue[:len(s.queue)-1]
		if r.values[w] != unlabelled || s.answers.Test(w) || s.count[w] != 0 {
			continue // became able to move to g since it was queued
		}
		r.values[w] = g
		s.open--
		s.labelled(w)
	}
	for i := range s.g.Size() {
		if r.values[i] == unlabelled && !s.answers.Test(i) {
			r.values[i] = Inf
			s.open--
		}
	}
}

// labelled tells w's predecessors that w is labelled with this round's
// value: they can answer, and are no longer candidates for it themselves.
func (s *solver) labelled(w uint64) {
	r := s.r
	s.preds = s.g.Unmoves(w, s.preds[:0])
	for _, u := range s.preds {
		if s.answers.Test(u) {
			continue
		}
		s.answers.Add(u)
		if r.values[u] < unlabelled {
			continue // a finite label: it never counted against anyone
		}
		s.buf = s.g.Unmoves(u, s.buf[:0])
		for _, x := range s.buf {
			if r.values[x] != unlabelled {
				continue
			}
			if s.count[x]--; s.count[x] == 0 && !s.answers.Test(x) {
				s.queue = append(s.queue, x)
			}
		}
	}
}
