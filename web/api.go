package web

import (
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/query"
)

// gameJSON is a game in /api/games, and with its statistics in
// /api/games/ID.
type gameJSON struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Kind  string `json:"kind"`
	// Positions is the number of stored values (classes of a symmetric
	// game), Indices the size of the game's own index.
	Positions uint64            `json:"positions"`
	Indices   uint64            `json:"indices"`
	Start     bool              `json:"start"`
	Notation  bool              `json:"notation"`
	Counts    map[string]uint64 `json:"counts"`
	MaxDepth  uint64            `json:"maxDepth"`
	Depths    *db.Depths        `json:"depths,omitempty"`
}

func (s *Server) info(g *Game, stats bool) gameJSON {
	sec := g.Section
	_, notation := g.Solved.Game.(implicit.Notation)
	j := gameJSON{ID: g.ID, Title: g.Title, Kind: g.Kind, Positions: sec.Size, Indices: sec.IndexSize,
		Start: g.Start != nil, Notation: notation, MaxDepth: sec.MaxDepth, Counts: map[string]uint64{}}
	for v := range engine.Value(4) {
		j.Counts[v.String()] = sec.Counts[v]
	}
	if stats {
		j.Depths = sec.Depths
	}
	return j
}

// positionJSON is a position with its value, its board and its moves.
type positionJSON struct {
	Position string     `json:"position"`
	Index    uint64     `json:"index"`
	Value    string     `json:"value"`
	Depth    *uint64    `json:"depth,omitempty"`
	Board    *board     `json:"board,omitempty"`
	Moves    []moveJSON `json:"moves"`
}

// moveJSON is a move: the position it leads to (its text only up to
// MaxMoveText bytes), that position's value for the player who moves there
// (the opponent), the cells of the board it changes ([row, column]) and
// what they hold after it, one character each.
type moveJSON struct {
	Position string   `json:"position,omitempty"`
	Index    uint64   `json:"index"`
	Value    string   `json:"value"`
	Depth    *uint64  `json:"depth,omitempty"`
	Changed  [][2]int `json:"changed,omitempty"`
	Cells    string   `json:"cells,omitempty"`
}

// position answers for position p of g with turn to move, for games that
// keep positions as the player to move sees them
// (implicit.TurnedDescriber): the position and its moves are then written
// as they stand on the table, and the page keeps the turn by following the
// texts of the moves.
func (s *Server) position(g *Game, p uint64, turn query.Turn) (*positionJSON, error) {
	e, err := g.Solved.Lookup(p)
	if err != nil {
		return nil, err
	}
	moves, err := g.Solved.Moves(p)
	if err != nil {
		return nil, err
	}
	text := query.OneLineAt(g.Solved.Game, p, turn)
	j := &positionJSON{Position: text, Index: p, Value: e.Name(), Depth: e.DepthOf(),
		Board: boardOf(g.Kind, text), Moves: make([]moveJSON, 0, len(moves))}
	for _, m := range moves {
		mt := query.OneLineAt(g.Solved.Game, m.To, turn.Next())
		changed, cells := j.Board.changed(boardOf(g.Kind, mt))
		if len(mt) > MaxMoveText {
			mt = ""
		}
		j.Moves = append(j.Moves, moveJSON{Position: mt, Index: m.To, Value: m.Name(),
			Depth: m.DepthOf(), Changed: changed, Cells: cells})
	}
	return j, nil
}

// random answers for a legal position of g drawn at random.
func (s *Server) random(g *Game) (*positionJSON, error) {
	n := g.Solved.Game.Size()
	for range randomTries {
		p := rand.Uint64N(n)
		if g.Solved.Game.Classify(p) != implicit.Illegal {
			return s.position(g, p, query.First)
		}
	}
	return nil, errorf(http.StatusNotFound, "no legal position found in %d random indices of game %q", randomTries, g.ID)
}

// params is a request's query, checked.
type params url.Values

func parseQuery(r *http.Request) (params, error) {
	v, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "malformed query: %v", err)
	}
	for k, vs := range v {
		if len(vs) > 1 {
			return nil, errorf(http.StatusBadRequest, "parameter %s given %d times", quote(k), len(vs))
		}
	}
	return params(v), nil
}

// none refuses any parameter.
func (q params) none() error {
	for k := range q {
		return errorf(http.StatusBadRequest, "unknown parameter %s", quote(k))
	}
	return nil
}

// position reads the position a request names: p (the game's notation, its
// lines joined by '/') or index (the game's own index), not both, and whose
// turn it is: query.Second if p is written as query.OneLineAt writes the
// second player's positions of a game that keeps positions as the player
// to move sees them, query.First otherwise.
func (q params) position(g *Game) (p uint64, turn query.Turn, err error) {
	for k := range q {
		if k != "p" && k != "index" {
			return 0, query.First, errorf(http.StatusBadRequest, "unknown parameter %s: want p or index", quote(k))
		}
	}
	text, hasP := q["p"]
	idx, hasIndex := q["index"]
	switch {
	case hasP && hasIndex:
		return 0, query.First, errorf(http.StatusBadRequest, "both p and index given: want one")
	case hasIndex:
		n := g.Solved.Game.Size()
		i, err := strconv.ParseUint(idx[0], 10, 64)
		if err != nil || i >= n {
			return 0, query.First, errorf(http.StatusBadRequest, "index %s: want a number from 0 to %d", quote(idx[0]), n-1)
		}
		if g.Solved.Game.Classify(i) == implicit.Illegal {
			return 0, query.First, errorf(http.StatusBadRequest, "index %d: not a legal position", i)
		}
		return i, query.First, nil
	case hasP:
		t := text[0]
		if len(t) > MaxPosition {
			return 0, query.First, errorf(http.StatusBadRequest, "position of %d bytes: at most %d", len(t), MaxPosition)
		}
		if _, ok := g.Solved.Game.(implicit.Notation); !ok {
			return 0, query.First, errorf(http.StatusBadRequest, "game %q has no position notation: give index", g.ID)
		}
		p, err := query.ReadPosition(g.Solved.Game, t)
		if err != nil {
			return 0, query.First, errorf(http.StatusBadRequest, "position %s: %s", quote(t), oneLineError(err))
		}
		turn := query.First
		if _, turned := g.Solved.Game.(implicit.TurnedDescriber); turned && sameText(t, query.OneLineAt(g.Solved.Game, p, query.Second)) {
			turn = query.Second
		}
		return p, turn, nil
	}
	return 0, query.First, errorf(http.StatusBadRequest, "no position: give p (the game's notation) or index")
}

// sameText reports whether two position texts have the same lines, white
// space around them ignored.
func sameText(a, b string) bool {
	lines := func(s string) []string {
		ls := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '/' })
		for i := range ls {
			ls[i] = strings.TrimSpace(ls[i])
		}
		return ls
	}
	return slices.Equal(lines(a), lines(b))
}

// oneLineError writes an error on one line.
func oneLineError(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
