package dobutsu_test

import (
	"fmt"
	"slices"
	"strings"
)

// A separate, naive Dōbutsu shōgi: positions as they are on the table
// (Sente and Gote, the board never turned), every position of a small game
// listed by brute force, moves straight from the rules, and values by the
// seeds' fixpoint iteration, level by level. It shares nothing with the
// package but the notation, so it checks the index, the turned boards, the
// moves and un-moves, and the solver at once.

type naivePos struct {
	board [12]byte // letters as in the notation, '.' empty
	hand  string   // sorted letters, Sente's upper case
	turn  int      // 0 Sente, 1 Gote
}

func (p naivePos) text() string {
	var b strings.Builder
	for r := range 4 {
		b.Write(p.board[r*3 : r*3+3])
		b.WriteByte('/')
	}
	b.WriteString([]string{"Sente", "Gote"}[p.turn])
	b.WriteString(" to move; in hand: ")
	if p.hand == "" {
		b.WriteString("-")
	}
	b.WriteString(p.hand)
	return b.String()
}

func isSente(c byte) bool { return c >= 'A' && c <= 'Z' }

func owner(c byte) int {
	if isSente(c) {
		return 0
	}
	return 1
}

func toSide(c byte, side int) byte {
	c = strings.ToUpper(string(c))[0]
	if side == 1 {
		c = strings.ToLower(string(c))[0]
	}
	return c
}

func sortHand(h []byte) string {
	slices.Sort(h)
	return string(h)
}

// naiveStates lists every state of one non-lion piece of kind k ('G', 'E'
// or 'C'): a square with an owner (and for a chick, promoted or not), or a
// hand.
func naiveStates(k byte) []string {
	var out []string
	for side := range 2 {
		kinds := []byte{k}
		if k == 'C' {
			kinds = append(kinds, 'H')
		}
		for _, kk := range kinds {
			for sq := range 12 {
				out = append(out, fmt.Sprintf("%c%d", toSide(kk, side), sq))
			}
		}
		out = append(out, fmt.Sprintf("%c-", toSide(k, side)))
	}
	return out
}

// naiveAll lists every position of the game with the given kinds (each a
// pair of pieces): both lions or only the lion of the player who just
// moved, the pieces anywhere they fit, either player to move.
func naiveAll(kinds string) []naivePos {
	var out []naivePos
	seen := map[string]bool{}
	var pieces [][]string
	for i := range len(kinds) {
		st := naiveStates(kinds[i])
		pieces = append(pieces, st, st)
	}
	var place func(i int, p naivePos, hand []byte)
	place = func(i int, p naivePos, hand []byte) {
		if i == len(pieces) {
			p.hand = sortHand(slices.Clone(hand))
			if k := p.text(); !seen[k] {
				seen[k] = true
				out = append(out, p)
			}
			return
		}
		for _, st := range pieces[i] {
			if st[1] == '-' {
				place(i+1, p, append(hand, st[0]))
				continue
			}
			var sq int
			fmt.Sscan(st[1:], &sq)
			if p.board[sq] != '.' {
				continue
			}
			q := p
			q.board[sq] = st[0]
			place(i+1, q, hand)
		}
	}
	for turn := range 2 {
		for ls := -1; ls < 12; ls++ {
			for lg := -1; lg < 12; lg++ {
				if ls == lg || (ls < 0 && turn == 1) || (lg < 0 && turn == 0) || (ls < 0 && lg < 0) {
					continue // the player who just moved has a lion
				}
				var p naivePos
				p.turn = turn
				for i := range p.board {
					p.board[i] = '.'
				}
				if ls >= 0 {
					p.board[ls] = 'L'
				}
				if lg >= 0 {
					p.board[lg] = 'l'
				}
				place(0, p, nil)
			}
		}
	}
	return out
}

var naiveSteps = map[byte][][2]int{ // (row, column) steps for Sente; Gote's are turned
	'L': {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}},
	'G': {{-1, 0}, {1, 0}, {0, -1}, {0, 1}},
	'E': {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}},
	'C': {{-1, 0}},
	'H': {{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-1, -1}, {-1, 1}},
}

// naiveTerminal returns +1 (the player to move has won), -1 (lost) or 0.
func naiveTerminal(p naivePos) int {
	me, them := toSide('L', p.turn), toSide('L', 1-p.turn)
	mine, theirs := -1, -1
	for sq, c := range p.board {
		switch c {
		case me:
			mine = sq
		case them:
			theirs = sq
		}
	}
	farRow, homeRow := 0, 3 // for Sente
	if p.turn == 1 {
		farRow, homeRow = 3, 0
	}
	if mine < 0 {
		return -1
	}
	if mine/3 == farRow {
		return 1
	}
	if theirs/3 == homeRow {
		for _, m := range naiveMoves(p) {
			if !strings.ContainsRune(string(m.board[:]), rune(them)) {
				return 0 // it can be captured: play goes on
			}
		}
		return -1
	}
	return 0
}

// naiveMoves lists the positions the player to move reaches in one move,
// ignoring whether the game is over.
func naiveMoves(p naivePos) []naivePos {
	var out []naivePos
	dir := 1
	if p.turn == 1 {
		dir = -1
	}
	far := 0
	if p.turn == 1 {
		far = 3
	}
	for sq, c := range p.board {
		if c == '.' || owner(c) != p.turn {
			continue
		}
		up := strings.ToUpper(string(c))[0]
		for _, st := range naiveSteps[up] {
			r, col := sq/3+dir*st[0], sq%3+dir*st[1]
			if r < 0 || r > 3 || col < 0 || col > 2 {
				continue
			}
			to := r*3 + col
			target := p.board[to]
			if target != '.' && owner(target) == p.turn {
				continue
			}
			q := p
			q.turn = 1 - p.turn
			hand := []byte(p.hand)
			if target != '.' {
				cap := strings.ToUpper(string(target))[0]
				if cap == 'H' {
					cap = 'C'
				}
				if cap != 'L' {
					hand = append(hand, toSide(cap, p.turn))
				}
			}
			q.hand = sortHand(hand)
			q.board[sq] = '.'
			moved := c
			if up == 'C' && r == far {
				moved = toSide('H', p.turn)
			}
			q.board[to] = moved
			out = append(out, q)
		}
	}
	for i := range len(p.hand) {
		c := p.hand[i]
		if owner(c) != p.turn || (i > 0 && p.hand[i-1] == c) {
			continue
		}
		rest := p.hand[:i] + p.hand[i+1:]
		for sq := range 12 {
			if p.board[sq] != '.' {
				continue
			}
			q := p
			q.turn = 1 - p.turn
			q.hand = rest
			q.board[sq] = c
			out = append(out, q)
		}
	}
	return out
}

type naiveResult struct {
	value string // "win", "loss", "draw"
	depth int
}

// naiveSolve solves every position of the game with the given kinds by
// fixpoint iteration: at level k, a position with a move to a loss of depth
// k-1 is a win in k, and one whose moves all reach wins, the deepest of
// depth k-1, is a loss in k. Those never decided are draws.
func naiveSolve(kinds string) ([]naivePos, []naiveResult) {
	all := naiveAll(kinds)
	id := make(map[string]int, len(all))
	for i, p := range all {
		id[p.text()] = i
	}
	succ := make([][]int, len(all))
	res := make([]naiveResult, len(all))
	decided := make([]bool, len(all))
	for i, p := range all {
		switch naiveTerminal(p) {
		case 1:
			res[i], decided[i] = naiveResult{"win", 0}, true
			continue
		case -1:
			res[i], decided[i] = naiveResult{"loss", 0}, true
			continue
		}
		for _, q := range naiveMoves(p) {
			j, ok := id[q.text()]
			if !ok {
				panic("naive: a move leaves the list: " + q.text())
			}
			succ[i] = append(succ[i], j)
		}
		if len(succ[i]) == 0 {
			res[i], decided[i] = naiveResult{"loss", 0}, true
		}
	}
	for k := 1; ; k++ {
		var now []int
		var vals []naiveResult
		for i := range all {
			if decided[i] {
				continue
			}
			win, allWins, deepest := false, true, -1
			for _, j := range succ[i] {
				if !decided[j] {
					allWins = false
					continue
				}
				switch res[j].value {
				case "loss":
					allWins = false
					if res[j].depth == k-1 {
						win = true
					}
				case "win":
					deepest = max(deepest, res[j].depth)
				}
			}
			switch {
			case win:
				now, vals = append(now, i), append(vals, naiveResult{"win", k})
			case allWins && deepest == k-1:
				now, vals = append(now, i), append(vals, naiveResult{"loss", k})
			}
		}
		if len(now) == 0 {
			// Nothing decided at this level: nothing will be later (a win
			// needs a loss one level down, a loss its deepest win).
			break
		}
		for x, i := range now {
			res[i], decided[i] = vals[x], true
		}
	}
	for i := range all {
		if !decided[i] {
			res[i] = naiveResult{"draw", 0}
		}
	}
	return all, res
}
