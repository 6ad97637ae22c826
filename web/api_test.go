package web_test

import (
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit/police"
	"github.com/retro-solver/retro/query"
	"github.com/retro-solver/retro/web"
)

type moveResp struct {
	Position string
	Index    uint64
	Value    string
	Depth    *uint64
	Changed  [][2]int
	Cells    string
}

type positionResp struct {
	Position string
	Index    uint64
	Value    string
	Depth    *uint64
	Board    *struct {
		Rows    []string
		Caption string
	}
	Moves []moveResp
}

type gameResp struct {
	ID, Title, Kind    string
	Positions, Indices uint64
	Start, Notation    bool
	Counts             map[string]uint64
	MaxDepth           uint64
	Depths             *struct {
		Bucket    uint64
		Win, Loss []uint64
	}
}

// entryOf reads a value and depth of the API back into an entry.
func entryOf(value string, depth *uint64) query.Entry {
	e := query.Entry{}
	switch value {
	case "win":
		e.Value = engine.Win
	case "loss":
		e.Value = engine.Loss
	case "draw":
		e.Value = engine.Draw
	default:
		e.Value = engine.Illegal
	}
	if depth != nil {
		e.Depth = *depth
	}
	return e
}

func TestGames(t *testing.T) {
	fx := newFixture(t)
	var list struct{ Games []gameResp }
	fx.getJSON(t, "/api/games", &list)
	if len(list.Games) != len(fx.games) {
		t.Fatalf("%d games, want %d", len(list.Games), len(fx.games))
	}
	for _, g := range list.Games {
		sg := fx.games[g.ID]
		if sg == nil {
			t.Fatalf("unknown game %q", g.ID)
		}
		var one gameResp
		fx.getJSON(t, "/api/games/"+g.ID, &one)
		if one.Depths == nil || g.Depths != nil {
			t.Fatalf("%s: the histogram is in the game's route only", g.ID)
		}
		var w, l uint64
		for k := range one.Depths.Win {
			w += one.Depths.Win[k]
			l += one.Depths.Loss[k]
		}
		r := sg.result
		if w != r.Count(engine.Win) || l != r.Count(engine.Loss) || one.Counts["draw"] != r.Count(engine.Draw) ||
			one.MaxDepth != r.MaxDepth() || one.Positions != r.Size() || one.Indices != sg.game.Size() {
			t.Errorf("%s: %+v; the solve has %d wins, %d losses, %d draws, max depth %d", g.ID, one,
				r.Count(engine.Win), r.Count(engine.Loss), r.Count(engine.Draw), r.MaxDepth())
		}
		if one.Kind != sg.Kind || one.Start != (sg.Start != nil) || !one.Notation {
			t.Errorf("%s: %+v", g.ID, one)
		}
	}
}

// checkPosition checks a position's answer against the solve in memory:
// its value, and every move's (the game's distinct moves, best first).
func checkPosition(t *testing.T, sg *solvedGame, p positionResp) {
	t.Helper()
	if got, want := entryOf(p.Value, p.Depth), sg.oracle(p.Index); got != want {
		t.Fatalf("%s: position %d is %v, the solve says %v", sg.ID, p.Index, got, want)
	}
	if want := query.OneLine(sg.game, p.Index); p.Position != want {
		t.Fatalf("%s: position %d written %q, want %q", sg.ID, p.Index, p.Position, want)
	}
	distinct := map[uint64]bool{}
	for _, m := range sg.game.Moves(p.Index, nil) {
		distinct[m] = true
	}
	if len(p.Moves) != len(distinct) {
		t.Fatalf("%s: position %d: %d moves, the game has %d", sg.ID, p.Index, len(p.Moves), len(distinct))
	}
	for i, m := range p.Moves {
		if !distinct[m.Index] {
			t.Fatalf("%s: position %d: move %d to %d is not a move", sg.ID, p.Index, i, m.Index)
		}
		if got, want := entryOf(m.Value, m.Depth), sg.oracle(m.Index); got != want {
			t.Fatalf("%s: move to %d is %v, the solve says %v", sg.ID, m.Index, got, want)
		}
	}
	// Best first: the first move keeps the position's value.
	if len(p.Moves) > 0 {
		first := entryOf(p.Moves[0].Value, p.Moves[0].Depth)
		switch e := entryOf(p.Value, p.Depth); e.Value {
		case engine.Win:
			if first != (query.Entry{Value: engine.Loss, Depth: e.Depth - 1}) {
				t.Fatalf("%s: a win %v whose first move goes to %v", sg.ID, e, first)
			}
		case engine.Loss:
			if first != (query.Entry{Value: engine.Win, Depth: e.Depth - 1}) {
				t.Fatalf("%s: a loss %v whose first move goes to %v", sg.ID, e, first)
			}
		case engine.Draw:
			if first.Value != engine.Draw {
				t.Fatalf("%s: a draw whose first move goes to %v", sg.ID, first)
			}
		}
	}
}

func TestPositionRoutes(t *testing.T) {
	fx := newFixture(t)
	for id, sg := range fx.games {
		path := "/api/games/" + id
		var start positionResp
		if sg.Start != nil {
			fx.getJSON(t, path+"/start", &start)
			if start.Index != *sg.Start {
				t.Fatalf("%s: start %d, want %d", id, start.Index, *sg.Start)
			}
		} else {
			fx.getJSON(t, path+"/random", &start)
		}
		checkPosition(t, sg, start)
		for range 20 {
			var p positionResp
			fx.getJSON(t, path+"/random", &p)
			checkPosition(t, sg, p)
			// The same position by its text and by its index.
			var byText, byIndex positionResp
			fx.getJSON(t, path+"/position?p="+url.QueryEscape(p.Position), &byText)
			fx.getJSON(t, fmt.Sprintf("%s/position?index=%d", path, p.Index), &byIndex)
			if byText.Index != p.Index || byIndex.Position != p.Position || len(byText.Moves) != len(p.Moves) {
				t.Fatalf("%s: %q: by text %d, by index %q", id, p.Position, byText.Index, byIndex.Position)
			}
			// Each move's text names the position it leads to.
			for _, m := range p.Moves {
				var to positionResp
				fx.getJSON(t, path+"/position?p="+url.QueryEscape(m.Position), &to)
				if to.Index != m.Index {
					t.Fatalf("%s: move %q leads to %d, its text reads back as %d", id, m.Position, m.Index, to.Index)
				}
			}
		}
	}
}

// TestPlayBestMoves plays the best move from the start of quixo 3 x 3 to
// the end: the game lasts exactly the start's depth, and each board
// differs from the one before where the move said it would.
func TestPlayBestMoves(t *testing.T) {
	fx := newFixture(t)
	var p positionResp
	fx.getJSON(t, "/api/games/q3/start", &p)
	depth := *p.Depth
	for ply := uint64(0); ; ply++ {
		if len(p.Moves) == 0 {
			if ply != depth {
				t.Fatalf("the game ended after %d plies; the start is %s %d", ply, "win", depth)
			}
			return
		}
		m := p.Moves[0]
		var next positionResp
		fx.getJSON(t, "/api/games/q3/position?p="+url.QueryEscape(m.Position), &next)
		rows := p.Board.Rows
		for i, c := range m.Changed {
			if rows[c[0]][c[1]] == next.Board.Rows[c[0]][c[1]] || next.Board.Rows[c[0]][c[1]] != m.Cells[i] {
				t.Fatalf("ply %d: cell %v did not change to %q", ply, c, m.Cells[i])
			}
		}
		if len(m.Changed) == 0 || len(m.Cells) != len(m.Changed) {
			t.Fatalf("ply %d: move %+v changes no cell", ply, m)
		}
		p = next
	}
}

func TestPageFiles(t *testing.T) {
	fx := newFixture(t)
	for path, want := range map[string]string{"/": "text/html", "/index.html": "text/html",
		"/app.js": "javascript", "/style.css": "text/css"} {
		r, err := http.Get(fx.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != http.StatusOK || !strings.Contains(r.Header.Get("Content-Type"), want) {
			t.Errorf("GET %s: %d %s, want %s", path, r.StatusCode, r.Header.Get("Content-Type"), want)
		}
	}
	r, err := http.Head(fx.srv.URL + "/api/games/q3/start")
	if err != nil || r.StatusCode != http.StatusOK {
		t.Fatalf("HEAD: %v %v", r, err)
	}
}

// TestBadRequests sends what a hostile or careless client might: each gets
// its 4xx status and a one-line JSON error.
func TestBadRequests(t *testing.T) {
	fx := newFixture(t)
	long := strings.Repeat("X", 40000)
	cases := []struct {
		method, path string
		status       int
		says         string
	}{
		{"POST", "/api/games", 405, "GET or HEAD only"},
		{"GET", "/api/games?all=1", 400, `unknown parameter "all"`},
		{"DELETE", "/", 405, "GET or HEAD only"},
		{"GET", "/nope", 404, "no such page"},
		{"GET", "/static/app.js", 404, "no such page"},
		{"GET", "/api", 404, "no such API route"},
		{"GET", "/api/", 404, "no such API route"},
		{"GET", "/api/nope", 404, "no such API route"},
		{"GET", "/api/games/nope", 404, `no game "nope"`},
		{"GET", "/api/games/q3/nope", 404, "no such API route"},
		{"GET", "/api/games/q3/start/more", 404, "no such API route"},
		{"GET", "/api/games/q3/start?x=1", 400, `unknown parameter "x"`},
		{"GET", "/api/games/q3?x=1", 400, `unknown parameter "x"`},
		{"GET", "/api/games/q3/random?index=1", 400, `unknown parameter "index"`},
		{"GET", "/api/games/q3/position", 400, "no position"},
		{"GET", "/api/games/q3/position?p=", 400, "want 3 rows"},
		{"GET", "/api/games/q3/position?p=bad", 400, "want 3 rows"},
		{"GET", "/api/games/q3/position?p=XX/.../.../X+to+move", 400, "position"},
		{"GET", "/api/games/q3/position?p=" + long, 400, "at most 32768"},
		{"GET", "/api/games/q3/position?p=" + strings.Repeat("%FF", 33000), 414, "at most 98304"},
		{"GET", "/api/games/q3/position?p=%FF%FE%00", 400, "position"},
		{"GET", "/api/games/q3/position?index=abc", 400, "want a number from 0 to 39365"},
		{"GET", "/api/games/q3/position?index=-1", 400, "want a number"},
		{"GET", "/api/games/q3/position?index=39366", 400, "want a number"},
		{"GET", "/api/games/q3/position?index=99999999999999999999999", 400, "want a number"},
		{"GET", "/api/games/q3/position?index=1&p=x", 400, "both p and index"},
		{"GET", "/api/games/q3/position?index=1&index=2", 400, "given 2 times"},
		{"GET", "/api/games/q3/position?q=1", 400, `unknown parameter "q"`},
		{"GET", "/api/games/q3/position?p=%zz", 400, "malformed query"},
		{"GET", "/api/games/q3/position?" + strings.Repeat("a", 99000), 414, "query of 99000 bytes"},
		{"GET", "/api/games/pawns/position?p=" + url.QueryEscape("4 5/...#O/.#..#/#O#../.#..X/Blue to move"), 400, "position"},
		{"GET", "/api/games/graph/position?p=vertex+99", 400, "position"},
		{"GET", "/api/games/graph/start", 404, "has no start"},
	}
	for _, c := range cases {
		req, err := http.NewRequest(c.method, fx.srv.URL+c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct{ Error string }
		err = json.NewDecoder(r.Body).Decode(&body)
		r.Body.Close()
		name := c.method + " " + c.path[:min(len(c.path), 60)]
		switch {
		case err != nil:
			t.Errorf("%s: %d, not JSON: %v", name, r.StatusCode, err)
		case r.StatusCode != c.status || !strings.Contains(body.Error, c.says):
			t.Errorf("%s: %d %q; want %d and %q", name, r.StatusCode, body.Error, c.status, c.says)
		case strings.Contains(body.Error, "\n") || len(body.Error) > 300:
			t.Errorf("%s: the error is not one short line: %q", name, body.Error)
		case r.Header.Get("Content-Type") != "application/json":
			t.Errorf("%s: Content-Type %q", name, r.Header.Get("Content-Type"))
		}
	}
}

// FuzzAPI sends arbitrary paths and queries: the answer is JSON or a page,
// never a 5xx.
func FuzzAPI(f *testing.F) {
	fx := newFixture(f)
	for _, s := range []string{"/api/games", "/api/games/q3/position?p=.../.../.../X+to+move", "/api/games/q3/position?index=5",
		"/api/games/police/random", "/api/games/graph/position?p=3", "/", "/api/games/q3?x", "/api/games/q3/position?p=%2F%2F"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, target string) {
		if !strings.HasPrefix(target, "/") {
			target = "/" + target
		}
		u, err := url.Parse(fx.srv.URL + target)
		if err != nil || strings.ContainsFunc(u.RequestURI(), func(r rune) bool { return r <= ' ' || r == 0x7f }) {
			return // not a request line: net/http answers 400 before any handler
		}
		r, err := http.Get(u.String())
		if err != nil {
			return // a URL the client itself refuses
		}
		defer r.Body.Close()
		if r.StatusCode >= 500 {
			t.Fatalf("GET %q: %d", target, r.StatusCode)
		}
		if strings.HasPrefix(u.Path, "/api") {
			var v map[string]any
			if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
				t.Fatalf("GET %q: %d, not JSON: %v", target, r.StatusCode, err)
			}
		}
	})
}

// TestLargeBoard serves a 34 x 34 police board, whose positions are over
// a kilobyte of text: a move comes without its text, by its index and the
// cells it changes, and the whole board's text is still read back.
func TestLargeBoard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.police")
	if err := os.WriteFile(path, []byte(police.Random(34, 34, 0.3, 0.01, 3).String()), 0o644); err != nil {
		t.Fatal(err)
	}
	sg := solveToDB(t, "big", "police", nil, path)
	s, err := web.New([]*web.Game{sg.Game})
	if err != nil {
		t.Fatal(err)
	}
	fx := &fixture{games: map[string]*solvedGame{"big": sg}, srv: httptest.NewServer(s)}
	defer fx.srv.Close()
	var p positionResp
	fx.getJSON(t, "/api/games/big/start", &p)
	checkPosition(t, sg, p)
	if len(p.Position) <= web.MaxMoveText || len(p.Board.Rows) != 34 || len(p.Moves) == 0 {
		t.Fatalf("start: %d bytes of text, %d rows, %d moves", len(p.Position), len(p.Board.Rows), len(p.Moves))
	}
	for _, m := range p.Moves {
		if m.Position != "" {
			t.Fatalf("a move's text of %d bytes is in the answer", len(m.Position))
		}
		var to positionResp
		fx.getJSON(t, fmt.Sprintf("/api/games/big/position?index=%d", m.Index), &to)
		for i, c := range m.Changed {
			if to.Board.Rows[c[0]][c[1]] != m.Cells[i] {
				t.Fatalf("move to %d: cell %v holds %q, the move said %q", m.Index, c, to.Board.Rows[c[0]][c[1]], m.Cells[i])
			}
		}
	}
	var byText positionResp
	fx.getJSON(t, "/api/games/big/position?p="+url.QueryEscape(p.Position), &byText)
	if byText.Index != p.Index {
		t.Fatalf("the start's text reads back as %d, want %d", byText.Index, p.Index)
	}
}

// TestDamagedBlock damages the block of a served database: a position in
// it answers 500 with the error naming the block, and the server logs it.
func TestDamagedBlock(t *testing.T) {
	sg := solveToDB(t, "q3", "quixo", []string{"-n=3"}, "")
	f, err := os.OpenFile(sg.path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The first block starts after the 8-byte magic (quixo has no input).
	if _, err := f.WriteAt([]byte{0xff, 0xff, 0xff, 0xff}, 12); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s, err := web.New([]*web.Game{sg.Game})
	if err != nil {
		t.Fatal(err)
	}
	var logged strings.Builder
	s.Log = log.New(&logged, "", 0)
	srv := httptest.NewServer(s)
	defer srv.Close()
	r, err := http.Get(srv.URL + "/api/games/q3/start")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var body struct{ Error string }
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if r.StatusCode != http.StatusInternalServerError || !strings.Contains(body.Error, "block 0: checksum mismatch") ||
		!strings.Contains(logged.String(), "checksum mismatch") {
		t.Fatalf("%d %q, logged %q", r.StatusCode, body.Error, logged.String())
	}
}

// TestSafeID checks that any file name becomes an ID New accepts.
func TestSafeID(t *testing.T) {
	sg := solveToDB(t, "q3", "quixo", []string{"-n=3"}, "")
	for name, want := range map[string]string{"q4": "q4", "a b/ü.db": "a_b__.db", "": "game",
		strings.Repeat("x", 100): strings.Repeat("x", 48)} {
		id := web.SafeID(name)
		g := *sg.Game
		g.ID = id
		if _, err := web.New([]*web.Game{&g}); id != want || err != nil {
			t.Errorf("SafeID(%q) = %q (%v), want %q", name, id, err, want)
		}
	}
}

// TestTurnedPositions plays Dōbutsu shōgi (lions and chicks) through the
// API by the texts of the moves: positions are written as they stand, Sente
// and Gote to move in turn, though the index keeps them all as Sente to
// move, and each answer is the move's index with the solve's value.
func TestTurnedPositions(t *testing.T) {
	sg := solveToDB(t, "d", "dobutsu", []string{"-pieces=C"}, "")
	s, err := web.New([]*web.Game{sg.Game})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	fx := &fixture{games: map[string]*solvedGame{"d": sg}, srv: srv}
	var p positionResp
	fx.getJSON(t, "/api/games/d/start", &p)
	for ply := 0; len(p.Moves) > 0; ply++ {
		mover := []string{"Sente", "Gote"}[ply%2]
		if !strings.Contains(p.Position, mover+" to move") || p.Board == nil || !strings.HasPrefix(p.Board.Caption, mover) {
			t.Fatalf("ply %d: %q, want %s to move", ply, p.Position, mover)
		}
		for _, m := range p.Moves {
			if !strings.Contains(m.Position, []string{"Gote", "Sente"}[ply%2]+" to move") {
				t.Fatalf("ply %d: move to %q", ply, m.Position)
			}
		}
		if got, want := entryOf(p.Value, p.Depth), sg.oracle(p.Index); got != want {
			t.Fatalf("ply %d: %v, the solve says %v", ply, got, want)
		}
		m := p.Moves[0]
		p = positionResp{}
		fx.getJSON(t, "/api/games/d/position?p="+url.QueryEscape(m.Position), &p)
		if p.Index != m.Index || p.Position != m.Position {
			t.Fatalf("ply %d: the move to %d, %q answers %d, %q", ply, m.Index, m.Position, p.Index, p.Position)
		}
	}
	// The same position asked by index is written as Sente to move.
	var q positionResp
	fx.getJSON(t, fmt.Sprintf("/api/games/d/position?index=%d", p.Index), &q)
	if !strings.Contains(q.Position, "Sente to move") {
		t.Fatalf("index %d written %q", p.Index, q.Position)
	}
}
