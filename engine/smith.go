package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/retro-solver/retro/bitset"
	"github.com/retro-solver/retro/implicit"
)

// Inf marks a position that is equivalent to no nim heap: Smith's infinity.
const Inf = math.MaxUint32

// SmithResult holds the value of every position of a game under Smith's
// theory of loopy impartial games (seed 004, sections 1.4-1.5): a finite
// g when the position is equivalent to the nim heap *g, or Inf when it is
// equivalent to inf{K}, K the finite values of its moves.
type SmithResult struct {
	g      implicit.Game
	values []uint32
	max    uint32 // the largest finite value
	rounds int
}

// Value returns the value of position i: finite, or Inf.
func (r *SmithResult) Value(i uint64) uint32 { return r.values[i] }

// MaxFinite returns the largest finite value of any position.
func (r *SmithResult) MaxFinite() uint32 { return r.max }

// Rounds returns the number of rounds (one per candidate value) the
// labelling took.
func (r *SmithResult) Rounds() int { return r.rounds }

// K appends to dst the finite values of the moves of i, in increasing order
// without repeats: the set K of inf{K} when i's value is Inf.
func (r *SmithResult) K(i uint64, dst []uint32) []uint32 {
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

// AppendValue appends position i's value as GAMES.md writes it: "4" or
// "inf{0,3}".
func (r *SmithResult) AppendValue(dst []byte, i uint64, k []uint32) []byte {
	if v := r.values[i]; v != Inf {
		return strconv.AppendUint(dst, uint64(v), 10)
	}
	return AppendInf(dst, r.K(i, k[:0]))
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

// Smith labels every position of g with its Smith value.
//
// First, in O(N + E), the positions from which no cycle can be reached get
// their Sprague-Grundy values: the mex of their moves' values, computed
// retrogradely from the positions without moves (each position waits until
// all its moves are known). On an acyclic graph that is the whole answer.
//
// The rest are labelled by Fraenkel and Yesha's algorithm GSG, round g = 0,
// 1, 2, ... (seed 004, theorem 11), in which the positions labelled above
// keep their values and act, in round g, as labelled g when their value is
// g:
//
//  1. Label g, as long as there is one, every unlabelled position u with no
//     move to a position labelled g, and each of whose moves to an
//     unlabelled or infinite position v can be answered: v has a move to a
//     position labelled g.
//  2. Label infinite every unlabelled position with no move to a position
//     labelled g: its value cannot be g nor, lacking *g among its options,
//     anything larger.
//  3. Stop when every position is labelled.
//
// Step 1 is a retrograde pass: each unlabelled u counts its moves to
// unlabelled or infinite positions that cannot answer yet; labelling w with
// g makes w's predecessors answer, which decrements the counts of their own
// predecessors, and a count reaching zero (with no move to g) labels a new
// position. Each round is O(N + E), and values stay below sqrt(2E), so the
// whole is O((N + E) sqrt E) at worst. Every label meets theorem 11's
// conditions, so it is the position's value.
//
// g must be a normal-play game: every legal position Inner (a position with
// no moves is lost by the player to move); terminal wins or losses are
// refused. Illegal indices get the value Inf and are never moves.
func Smith(ctx context.Context, g implicit.Game, opt Options) (*SmithResult, error) {
	n := g.Size()
	if err := checkMemory(g, 4+4+0.25+8, opt); err != nil {
		return nil, err
	}
	const unlabelled = Inf - 1
	r := &SmithResult{g: g, values: make([]uint32, n)}
	count := make([]uint32, n)  // moves to unlabelled or infinite positions that cannot answer g
	answers := bitset.NewSet(n) // positions with a move to a position labelled g this round
	var buf, preds, queue []uint64
	open := uint64(0)
	for s := range n {
		switch k := g.Classify(s); k {
		case implicit.Illegal:
			r.values[s] = Inf
		case implicit.Inner:
			r.values[s] = unlabelled
			open++
		default:
			return nil, fmt.Errorf("position %d is a %v: Smith values are defined for normal-play games only", s, k)
		}
	}
	p := newProgress(opt, n)
	defer p.stop()

	// The acyclic part: count[s] is the number of s's moves whose value is
	// not known yet.
	queue = queue[:0]
	numMoves := moveCounter(g)
	for s := range n {
		if r.values[s] == unlabelled {
			var k uint64
			k, buf = numMoves(s, buf)
			count[s] = uint32(k)
			if count[s] == 0 {
				queue = append(queue, s)
			}
		}
	}
	var seen []bool
	var byValue [][]uint64 // the positions valued in the acyclic part, by value
	for len(queue) > 0 {
		w := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		buf = g.Moves(w, buf[:0])
		seen = append(seen[:0], make([]bool, len(buf)+1)...)
		for _, t := range buf {
			if v := r.values[t]; int(v) < len(seen) {
				seen[v] = true
			}
		}
		v := uint32(0)
		for seen[v] {
			v++
		}
		r.values[w], r.max = v, max(r.max, v)
		open--
		for len(byValue) <= int(v) {
			byValue = append(byValue, nil)
		}
		byValue[v] = append(byValue[v], w)
		preds = g.Unmoves(w, preds[:0])
		for _, u := range preds {
			if count[u]--; count[u] == 0 {
				queue = append(queue, u)
			}
		}
	}

	for round := uint32(0); open > 0; round++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if round == unlabelled {
			return nil, fmt.Errorf("more than %d rounds of Smith's labelling", unlabelled)
		}
		p.level(uint64(round), 0)
		r.rounds++
		answers.Clear()
		queue = queue[:0]
		for s := range n {
			if r.values[s] != unlabelled {
				continue
			}
			c := uint32(0)
			buf = g.Moves(s, buf[:0])
			for _, t := range buf {
				if v := r.values[t]; v >= unlabelled {
					c++
				}
			}
			count[s] = c
			if c == 0 {
				queue = append(queue, s)
			}
		}
		// labelled tells w's predecessors that w is labelled g: they can
		// answer, and are no longer candidates for g themselves.
		labelled := func(w uint64) {
			preds = g.Unmoves(w, preds[:0])
			for _, u := range preds {
				if answers.Test(u) {
					continue
				}
				answers.Add(u)
				if r.values[u] < unlabelled {
					continue // a finite label: it never counted against anyone
				}
				buf = g.Unmoves(u, buf[:0])
				for _, x := range buf {
					if r.values[x] != unlabelled {
						continue
					}
					if count[x]--; count[x] == 0 && !answers.Test(x) {
						queue = append(queue, x)
					}
				}
			}
		}
		if int(round) < len(byValue) {
			for _, w := range byValue[round] {
				labelled(w)
			}
		}
		for len(queue) > 0 {
			w := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			if r.values[w] != unlabelled || answers.Test(w) || count[w] != 0 {
				continue // became able to move to g since it was queued
			}
			r.values[w] = round
			r.max = max(r.max, round)
			open--
			labelled(w)
		}
		for s := range n {
			if r.values[s] == unlabelled && !answers.Test(s) {
				r.values[s] = Inf
				open--
			}
		}
	}
	return r, nil
}
