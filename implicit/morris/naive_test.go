package morris

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/internal/testsize"
)

// A naive reference for the endings, written apart from the package: its
// own board (points by name, lines as lists of names), a position as an
// array of 24 cells, every move listed by looking at every cell, and the
// fixpoint iteration over all positions of the ending (pass n decides the
// positions whose value and depth n follow from those decided before);
// the placements, which move one level of hands down, by the definitions
// from the level below.

var naiveLines = []string{
	"a7 d7 g7", "b6 d6 f6", "c5 d5 e5", "a4 b4 c4", "e4 f4 g4", "c3 d3 e3", "b2 d2 f2", "a1 d1 g1",
	"a7 a4 a1", "b6 b4 b2", "c5 c4 c3", "d7 d6 d5", "d3 d2 d1", "e5 e4 e3", "f6 f4 f2", "g7 g4 g1",
}

type naiveBoard struct {
	names  []string
	index  map[string]int
	millOf [24][][3]int // the mills through each point
	near   [24][24]bool
}

func newNaiveBoard() *naiveBoard {
	nb := &naiveBoard{index: map[string]int{}}
	// Reading order: row 7 to row 1, columns a to g.
	for row := 7; row >= 1; row-- {
		for col := 'a'; col <= 'g'; col++ {
			name := fmt.Sprintf("%c%d", col, row)
			for _, l := range naiveLines {
				if strings.Contains(l, name) {
					nb.index[name] = len(nb.names)
					nb.names = append(nb.names, name)
					break
				}
			}
		}
	}
	for _, l := range naiveLines {
		f := strings.Fields(l)
		m := [3]int{nb.index[f[0]], nb.index[f[1]], nb.index[f[2]]}
		for _, p := range m {
			nb.millOf[p] = append(nb.millOf[p], m)
		}
		nb.near[m[0]][m[1]], nb.near[m[1]][m[0]] = true, true
		nb.near[m[1]][m[2]], nb.near[m[2]][m[1]] = true, true
	}
	return nb
}

// cells: 0 empty, 1 the player to move, 2 the other.
type naivePos [24]int8

func (nb *naiveBoard) inMill(c *naivePos, p int) bool {
	for _, m := range nb.millOf[p] {
		if c[m[0]] == c[p] && c[m[1]] == c[p] && c[m[2]] == c[p] {
			return true
		}
	}
	return false
}

func count(c *naivePos, who int8) int {
	n := 0
	for _, x := range c {
		if x == who {
			n++
		}
	}
	return n
}

// naiveState is a position as the player to move sees it: the cells and
// the stones in hand, the mover's then the other's.
type naiveState struct {
	c     naivePos
	hands [2]int
}

// moves appends to out the positions after each move of the player to
// move, as the next player sees them: a placement while stones are in
// hand, otherwise a slide (a flight with three stones left), each followed
// by each removal a closed mill allows.
func (nb *naiveBoard) moves(x naiveState, out []naiveState) []naiveState {
	c := x.c
	mine := count(&c, 1) + x.hands[0]
	// after adds the position once the stone is on to, the cells next.
	after := func(next naivePos, to int, hand int) {
		if nb.inMill(&next, to) && count(&next, 2) > 0 {
			allInMills := true
			for r := range 24 {
				if next[r] == 2 && !nb.inMill(&next, r) {
					allInMills = false
				}
			}
			for r := range 24 {
				if next[r] == 2 && (allInMills || !nb.inMill(&next, r)) {
					removed := next
					removed[r] = 0
					out = append(out, naiveState{swap(removed), [2]int{x.hands[1], hand}})
				}
			}
			return
		}
		out = append(out, naiveState{swap(next), [2]int{x.hands[1], hand}})
	}
	if x.hands[0] > 0 {
		for to := range 24 {
			if c[to] == 0 {
				next := c
				next[to] = 1
				after(next, to, x.hands[0]-1)
			}
		}
		return out
	}
	for from := range 24 {
		if c[from] != 1 {
			continue
		}
		for to := range 24 {
			if c[to] != 0 || (mine > 3 && !nb.near[from][to]) {
				continue
			}
			next := c
			next[from], next[to] = 0, 1
			after(next, to, 0)
		}
	}
	return out
}

// other[x] is cell x as the other player sees it (0 stays 0).
var other = [256]int8{1: 2, 2: 1}

func swap(c naivePos) naivePos {
	for i, x := range c {
		c[i] = other[uint8(x)]
	}
	return c
}

func key(c naivePos) [2]uint32 {
	var k [2]uint32
	for i, x := range c {
		k[0] |= uint32(x&1) << i  // 1: the player to move's
		k[1] |= uint32(x>>1) << i // 2: the other's
	}
	return k
}

// naiveKey is a position by its sets and hands.
type naiveKey struct {
	mover, other uint32
	hands        [2]int
}

// naiveSolve solves the game that starts with stones in hand each, White
// placing first (stones 0: the ending with at most max stones a side on
// the board and none in hand), every position where the player who moved
// last has at least three stones, and returns each decided one's value
// (1 won, 0 lost) and depth. Positions are numbered by their hands, then
// the lexicographic place of each side's set among all sets of at most
// max points; each pass reads the moves of the positions still open,
// listed once.
func naiveSolve(nb *naiveBoard, stones, max int) map[naiveKey][2]int {
	var sets []uint32
	var gen func(set uint32, p, left int)
	gen = func(set uint32, p, left int) {
		if p == 24 {
			sets = append(sets, set)
			return
		}
		gen(set, p+1, left)
		if left > 0 {
			gen(set|1<<p, p+1, left-1)
		}
	}
	gen(0, 0, max)
	// place[s] is set s's number in sets (a slice over every 24-bit set
	// rather than a map: each move looks up two).
	place := make([]int32, 1<<24)
	for i, s := range sets {
		place[s] = int32(i)
	}
	// The hands: equal (White to move) or the mover's one more (Black).
	hands := [][2]int{{0, 0}}
	for h := 0; h < stones; h++ {
		hands = append(hands, [2]int{h + 1, h}, [2]int{h + 1, h + 1})
	}
	// The hands (a, b) are the (a+b)th: 0 0, 1 0, 1 1, 2 1, ...
	handOf := func(h [2]int) int {
		if i := h[0] + h[1]; i < len(hands) && hands[i] == h {
			return i
		}
		panic(fmt.Sprintf("hands %v: not a position's", h))
	}
	ns := len(sets)
	const open, lost, won = 0, 1, 2
	state := make([]int8, len(hands)*ns*ns) // by hands, mover's set, other's set
	depth := make([]int16, len(state))
	var todo []int
	stateOf := func(i int) naiveState {
		var c naivePos
		h := hands[i/(ns*ns)]
		i %= ns * ns
		for s := sets[i/ns]; s != 0; s &= s - 1 {
			c[bits.TrailingZeros32(s)] = 1
		}
		for s := sets[i%ns]; s != 0; s &= s - 1 {
			c[bits.TrailingZeros32(s)] = 2
		}
		return naiveState{c, h}
	}
	for i := range state {
		h := hands[i/(ns*ns)]
		x, o := sets[i%(ns*ns)/ns], sets[i%ns]
		if x&o != 0 || count3(o)+h[1] < 3 || count3(x)+h[0] > max || count3(o)+h[1] > max {
			state[i] = -1 // not a position
			continue
		}
		if count3(x)+h[0] < 3 || len(nb.moves(stateOf(i), nil)) == 0 {
			state[i] = lost // over, or blocked: lost at depth 0
			continue
		}
		todo = append(todo, i)
	}
	indexOf := func(x naiveState) int {
		k := key(x.c)
		return (handOf(x.hands)*ns+int(place[k[0]]))*ns + int(place[k[1]])
	}
	// inParts runs do over todo in parallel chunks, each writing only its
	// own lists.
	workers := runtime.GOMAXPROCS(0)
	type decision struct {
		i     int
		state int8
		depth int16
	}
	inParts := func(todo []int, do func(i int, buf []naiveState, found *[]decision, left *[]int) []naiveState) ([]decision, []int) {
		chunk := (len(todo) + workers - 1) / workers
		found := make([][]decision, workers)
		left := make([][]int, workers)
		var wg sync.WaitGroup
		for w := range workers {
			part := todo[min(w*chunk, len(todo)):min((w+1)*chunk, len(todo))]
			wg.Go(func() {
				var buf []naiveState
				for _, i := range part {
					buf = do(i, buf, &found[w], &left[w])
				}
			})
		}
		wg.Wait()
		return slices.Concat(found...), slices.Concat(left...)
	}
	// A move with stones in hand takes the hands (a, b) to (b, a-1), one
	// level down: the ending (level 0) alone has cycles. Its positions are
	// decided by the fixpoint: each pass reads what the passes before it
	// decided and decides the positions it can, at the pass's depth.
	levels := make([][]int, len(hands))
	for _, i := range todo {
		levels[i/(ns*ns)] = append(levels[i/(ns*ns)], i)
	}
	// The ending's moves are listed once, as indices (edges[from[p]:
	// from[p+1]] for its pth open position, p = at[i] for index i), and
	// read again by every pass: 26 of them for three stones. They are
	// generated twice, counted and then written, so that the lists take
	// their own room alone (148M moves for three stones: 590 MB).
	at := make([]int32, ns*ns)
	for p, i := range levels[0] {
		at[i] = int32(p)
	}
	from := make([]int, len(levels[0])+1)
	inParts(levels[0], func(i int, buf []naiveState, _ *[]decision, _ *[]int) []naiveState {
		buf = nb.moves(stateOf(i), buf[:0])
		from[at[i]+1] = len(buf)
		return buf
	})
	for p := range levels[0] {
		from[p+1] += from[p]
	}
	edges := make([]int32, from[len(levels[0])])
	inParts(levels[0], func(i int, buf []naiveState, _ *[]decision, _ *[]int) []naiveState {
		buf = nb.moves(stateOf(i), buf[:0])
		for k, m := range buf {
			edges[from[at[i]]+k] = int32(indexOf(m))
		}
		return buf
	})
	for pass, open := int16(1), levels[0]; len(open) > 0; pass++ {
		found, left := inParts(open, func(i int, buf []naiveState, found *[]decision, left *[]int) []naiveState {
			win, allWins := false, true
			p := at[i]
			for _, j := range edges[from[p]:from[p+1]] {
				if state[j] == lost {
					win = true
				}
				if state[j] != won {
					allWins = false
				}
			}
			switch {
			case win:
				*found = append(*found, decision{i, won, pass})
			case allWins:
				*found = append(*found, decision{i, lost, pass})
			default:
				*left = append(*left, i)
			}
			return buf
		})
		for _, d := range found {
			state[d.i], depth[d.i] = d.state, d.depth
		}
		if len(found) == 0 {
			break
		}
		open = left
	}
	// Each placement level, once the level below is decided, by the
	// definitions alone: a win moves to a loss (its depth one more than the
	// least such loss's), a loss moves to wins only (one more than the
	// deepest's), a draw does neither.
	for _, level := range levels[1:] {
		found, _ := inParts(level, func(i int, buf []naiveState, found *[]decision, _ *[]int) []naiveState {
			win, allWins := false, true
			least, most := int16(-1), int16(0)
			buf = nb.moves(stateOf(i), buf[:0])
			for _, m := range buf {
				j := indexOf(m)
				switch state[j] {
				case lost:
					win = true
					if least < 0 || depth[j] < least {
						least = depth[j]
					}
				case won:
					if depth[j] > most {
						most = depth[j]
					}
				default:
					allWins = false
				}
			}
			switch {
			case win:
				*found = append(*found, decision{i, won, least + 1})
			case allWins:
				*found = append(*found, decision{i, lost, most + 1})
			}
			return buf
		})
		for _, d := range found {
			state[d.i], depth[d.i] = d.state, d.depth
		}
	}
	val := map[naiveKey][2]int{}
	for i, st := range state {
		if st == won || st == lost {
			k := naiveKey{sets[i%(ns*ns)/ns], sets[i%ns], hands[i/(ns*ns)]}
			val[k] = [2]int{int(st - 1), int(depth[i])}
		}
	}
	return val
}

func count3(s uint32) int {
	n := 0
	for ; s != 0; s &= s - 1 {
		n++
	}
	return n
}

// TestNaiveGame solves the standard game with three stones in hand each
// (its placements, and the whole ending with at most three stones a side:
// flights, mills, removals) both ways and compares every position's value
// and depth.
func TestNaiveGame(t *testing.T) {
	testsize.SkipUnlessLong(t)
	v := Standard
	v.Stones = 3
	g, plain := symmetricAndPlain(t, v, 0)
	r, err := engine.Parallel(context.Background(), g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The oracle's passes make garbage beside 0.8 GB of live lists and
	// states: a tighter collector keeps its peak near 1 GB, not twice that.
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	want := naiveSolve(newNaiveBoard(), 3, 3)
	if uint64(len(want)) > plain.Size() {
		t.Fatalf("the naive solver has %d positions, the game %d", len(want), plain.Size())
	}
	var wins, losses, draws int
	for s := range plain.Size() {
		bi, mover, other := plain.decode(s)
		bl := &plain.blocks[bi]
		v, ok := want[naiveKey{mover, other, [2]int{bl.hm, bl.ho}}]
		c := g.Class(s)
		got, d := r.Value(c), r.Depth(c)
		switch {
		case !ok && got != engine.Draw:
			t.Fatalf("%s: %v %d, the naive solver a draw", plain.Describe(s), got, d)
		case ok && v[0] == 1 && (got != engine.Win || d != uint64(v[1])):
			t.Fatalf("%s: %v %d, the naive solver a win in %d", plain.Describe(s), got, d, v[1])
		case ok && v[0] == 0 && (got != engine.Loss || d != uint64(v[1])):
			t.Fatalf("%s: %v %d, the naive solver a loss in %d", plain.Describe(s), got, d, v[1])
		}
		switch got {
		case engine.Win:
			wins++
		case engine.Loss:
			losses++
		default:
			draws++
		}
	}
	t.Logf("%d positions: %d wins, %d losses, %d draws; max depth %d; the start: %v %d", plain.Size(), wins, losses, draws,
		r.MaxDepth(), r.Value(g.Start()), r.Depth(g.Start()))
}
