package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/games"
	"github.com/retro-solver/retro/query"
	"github.com/retro-solver/retro/web"
)

// solvedGame is a game served from a database, with the solve's values in
// memory beside it as the oracle.
type solvedGame struct {
	*web.Game
	path   string // the database file
	game   implicit.Game
	result *engine.Result
	index  func(uint64) uint64 // game index -> index in result
}

// oracle returns the solve's entry for game position s.
func (g *solvedGame) oracle(s uint64) query.Entry {
	i := s
	if g.index != nil {
		i = g.index(s)
	}
	return query.Entry{Value: g.result.Value(i), Depth: g.result.Depth(i)}
}

// solveToDB solves a built-in game as retro solve -db does (over its
// symmetry classes if it has them), writes the database, opens it and
// returns it ready to serve.
func solveToDB(t testing.TB, id, name string, args []string, inputFile string) *solvedGame {
	t.Helper()
	var input []byte
	if inputFile != "" {
		var err error
		if input, err = os.ReadFile(inputFile); err != nil {
			t.Fatal(err)
		}
	}
	_, insts, err := games.Load(name, args, input, implicit.LoadConfig{MaxMemory: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	g := insts[0].Game()
	sg := &solvedGame{game: g}
	solved := g
	var dir []uint32
	if s, ok := g.(implicit.Symmetric); ok {
		cg := implicit.NewCompact(s)
		solved, dir, sg.index = cg, cg.Counts(), cg.Index
	}
	if sg.result, err = engine.Parallel(context.Background(), solved, engine.Options{}); err != nil {
		t.Fatal(err)
	}
	var start, stored *uint64
	if st, ok := g.(implicit.Starter); ok {
		s := st.Start()
		start = &s
		i := s
		if sg.index != nil {
			i = sg.index(s)
		}
		stored = &i
	}
	path := filepath.Join(t.TempDir(), id+".db")
	sg.path = path
	w, err := db.Create(path, name, args, input, db.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	if err := w.Add(context.Background(), db.Source{Values: sg.result, MaxDepth: sg.result.MaxDepth(), Start: stored,
		Directory: dir, IndexSize: g.Size()}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := db.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	p := query.Solved{Game: g, Values: f.Table(0)}
	if dir != nil {
		p.Index = implicit.Ranks{S: g.(implicit.Symmetric), Counts: dir}.Index
	}
	sg.Game = &web.Game{ID: id, Title: name + " " + strings.Join(args, " "), Kind: name, Solved: p, Start: start,
		Section: &f.Sections[0]}
	return sg
}

// fixture serves quixo 3 x 3, the first board of the pawns example, the
// police example and the small graph.
type fixture struct {
	games map[string]*solvedGame
	srv   *httptest.Server
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	fx := &fixture{games: map[string]*solvedGame{
		"q3":     solveToDB(t, "q3", "quixo", []string{"-n=3"}, ""),
		"police": solveToDB(t, "police", "police", nil, "../examples/police.txt"),
		"graph":  solveToDB(t, "graph", "graph", nil, "../examples/small.graph"),
		"pawns":  solveToDB(t, "pawns", "pawns", nil, "../examples/pawns.txt"),
	}}
	var list []*web.Game
	for _, id := range []string{"q3", "pawns", "police", "graph"} {
		list = append(list, fx.games[id].Game)
	}
	s, err := web.New(list)
	if err != nil {
		t.Fatal(err)
	}
	fx.srv = httptest.NewServer(s)
	t.Cleanup(fx.srv.Close)
	return fx
}

// get fetches path and returns the status and the body.
func (fx *fixture) get(t testing.TB, path string) (int, []byte) {
	t.Helper()
	r, err := http.Get(fx.srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return r.StatusCode, b
}

// getJSON fetches an API path that must succeed and decodes its JSON.
func (fx *fixture) getJSON(t testing.TB, path string, v any) {
	t.Helper()
	code, b := fx.get(t, path)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, code, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("GET %s: %v in %s", path, err, b)
	}
}
