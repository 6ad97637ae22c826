package chess

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/retro-solver/retro/implicit/gametest"
	"github.com/retro-solver/retro/internal/testsize"
)

// TestEnPassantExample plays e2-e4 beside a black pawn on d4: the move
// leads to the node with e3 as its en-passant square, not to the stored
// position; the node's moves take en passant, its FEN reads back, and an
// en-passant square that opens no capture is dropped on reading.
func TestEnPassantExample(t *testing.T) {
	g, _ := testGame(t, "KPvKP")
	index := func(fen string) uint64 {
		t.Helper()
		s, err := g.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := index("4k3/8/8/8/3p4/8/4P3/4K3 w - -")
	node := index("4k3/8/8/8/3pP3/8/8/4K3 b - e3")
	stored := index("4k3/8/8/8/3pP3/8/8/4K3 b - -")
	if node == stored {
		t.Fatalf("the en-passant node and the stored position share index %d", node)
	}
	// The class's representative is the mirror image, kings on files a-d.
	if got := g.Describe(node); got != "3k4/8/8/8/3Pp3/8/8/3K4 b - d3" || index(got) != node {
		t.Errorf("the node reads %q", got)
	}
	moves := g.Moves(before, nil)
	if !slices.Contains(moves, node) || slices.Contains(moves, stored) {
		t.Errorf("e2-e4 reaches %v; want the node %d, not the stored %d", moves, node, stored)
	}
	if taken := index("4k3/8/8/8/8/4p3/8/4K3 w - -"); !slices.Contains(g.Moves(node, nil), taken) || slices.Contains(g.Moves(stored, nil), taken) {
		t.Errorf("d4xe3 en passant: among the node's moves %v, not the stored position's", g.Moves(node, nil))
	}
	if un := g.Unmoves(node, nil); !slices.Equal(un, []uint64{before}) {
		t.Errorf("the node's un-moves are %v; want the double step's %d only", un, before)
	}
	if s := index("4k3/8/8/8/2p1P3/8/8/4K3 b - e3"); s != index("4k3/8/8/8/2p1P3/8/8/4K3 b - -") {
		t.Errorf("an en-passant square without a capture reads as %d, not the stored position", s)
	}
}

// TestEnPassantContract checks the game's contract (gametest) on the
// en-passant nodes that the double steps of random positions reach, on
// the positions before them and on those their moves reach, in endgames
// with pawns on both sides; random indices seldom hit such a node.
func TestEnPassantContract(t *testing.T) {
	sigs := []string{"KPvKP"}
	if testsize.Long() {
		sigs = append(sigs, "KPPvKP", "KRPvKP")
	}
	for _, sig := range sigs {
		g, m := testGame(t, sig)
		rng := rand.New(rand.NewPCG(3, 4))
		var check []uint64
		nodes := 0
		tries := 3000
		switch {
		case testing.Short():
			tries = 300 // the race detector's run
		case sig != "KPvKP":
			tries = 1000
		}
		for range tries {
			p := pawnsFacing(rng, m)
			if !p.Legal() {
				continue
			}
			for _, mv := range p.Moves(nil) {
				q := p.Play(mv)
				if q.EP == 0 {
					continue
				}
				nodes++
				s, ok1 := g.Index(p)
				node, ok2 := g.Index(q)
				q.EP = 0
				stored, ok3 := g.Index(q)
				if !ok1 || !ok2 || !ok3 {
					t.Fatalf("%s: %s after %v: no index", sig, p.FEN(), mv)
				}
				check = append(check, s, node, stored)
				check = append(check, g.Moves(node, nil)...)
			}
		}
		if nodes < tries/30 {
			t.Fatalf("%s: %d en-passant nodes reached; want %d or more", sig, nodes, tries/30)
		}
		if err := gametest.CheckPositions(g, check); err != nil {
			t.Fatalf("%s: %v", sig, err)
		}
		t.Logf("%s: %d en-passant nodes, %d positions checked", sig, nodes, len(check))
	}
}

// pawnsFacing returns a position of m (pawns on both sides) drawn at
// random, but for a pawn of the side to move on its second rank and a
// pawn of the other side beside its double step's square: one move from
// an en-passant node. It may be illegal.
func pawnsFacing(rng *rand.Rand, m Material) Position {
	for {
		p := randomPosition(rng, m)
		us := p.Turn
		var mine, theirs []int
		for j, pc := range p.List() {
			if pc.Kind == Pawn && pc.Color == us {
				mine = append(mine, j)
			} else if pc.Kind == Pawn {
				theirs = append(theirs, j)
			}
		}
		if len(mine) == 0 || len(theirs) == 0 {
			return p
		}
		f := rng.IntN(8)
		side := f - 1
		if f == 0 || f < 7 && rng.IntN(2) == 0 {
			side = f + 1
		}
		second := 1
		if us == Black {
			second = 6
		}
		p.Pieces[mine[rng.IntN(len(mine))]].Square = At(f, second)
		p.Pieces[theirs[rng.IntN(len(theirs))]].Square = At(side, doubleRank(us))
		p.Sort()
		return p
	}
}

// TestEPChances checks epChances's filter against the search it spares
// (withEP): in the positions two plies after a double step that opens an
// en-passant capture, every un-move without a capture whose position
// before has an en-passant square (the node the double step made, among
// others) passes possible.
func TestEPChances(t *testing.T) {
	_, m := testGame(t, "KPPvKP")
	rng := rand.New(rand.NewPCG(5, 6))
	found, checked := 0, 0
	tries := 2000
	if testing.Short() {
		tries = 300
	}
	for range tries {
		start := pawnsFacing(rng, m)
		if !start.Legal() {
			continue
		}
		for _, step := range start.Moves(nil) {
			node := start.Play(step)
			if node.EP == 0 {
				continue
			}
			for _, reply := range node.Moves(nil) {
				p := node.Play(reply)
				if p.EP != 0 {
					continue
				}
				all, king, chances := p.occupied(), p.king(p.Turn), p.epChances()
				for j, pc := range p.List() {
					if pc.Color == p.Turn {
						continue
					}
					for from := p.unmoveSquares(j, all, king, nil); from != 0; from &= from - 1 {
						checked++
						q := p.unplay(unmove{uint8(j), from.First(), 0})
						var buf [4]Square
						if len(q.enPassant(buf[:0])) == 0 {
							continue
						}
						found++
						if !chances.possible(from.First(), pc.Square, pc.Kind == Pawn, all) {
							t.Fatalf("%s: the un-move of %v from %v leaves %s, with an en-passant square, which epChances rules out",
								p.FEN(), pc.Square, from.First(), q.FEN())
						}
					}
				}
			}
		}
	}
	if found < tries/10 {
		t.Fatalf("%d un-moves to a position with an en-passant square in %d; want %d or more", found, checked, tries/10)
	}
	t.Logf("%d of %d un-moves reach a position with an en-passant square", found, checked)
}
