// Package web serves solved games over HTTP: a JSON API (a position's
// value, depth and moves best first; the start; a random position; each
// game's statistics) and a page, embedded in the binary, that draws the
// board, colours every move by its value and plays. It reads only the
// saved values (a db.Table or any engine.Values): no solve runs in the
// server, and every request does a bounded amount of work.
package web

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"net/http"
	"strconv"
	"strings"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/query"
)

// A Game is one solved instance the server offers.
type Game struct {
	// ID names the game in URLs (/api/games/ID); letters, digits and
	// ".-_" only. Title is what the page shows ("quixo -n=3 (q3.db)").
	ID, Title string
	// Kind is the game's name in the registry ("quixo"), which the page
	// uses to draw its boards.
	Kind   string
	Solved query.Solved
	// Start is the start position, for games with one.
	Start *uint64
	// Section holds the counts, the max depth and the depth histogram
	// (Depths must not be nil: see db.Table.CountDepths).
	Section *db.Section
}

// Limits bound what one request may ask for.
const (
	// MaxPosition is the longest position text accepted, in bytes: a
	// 16 x 16 board with its caption takes under 400, a 128 x 128 one
	// 16.5 KiB. (Larger boards are asked for by index.)
	MaxPosition = 32 << 10
	// maxQuery bounds the raw query string: a position percent-encoded.
	maxQuery = 3 * MaxPosition
	// MaxMoveText is the longest text of a move's position that an answer
	// includes: beyond it, a move is its index and the cells it changes,
	// so that an answer on a large board stays small.
	MaxMoveText = 1024
	// randomTries bounds the indices drawn to find a legal one at random.
	randomTries = 10000
)

//go:embed static
var static embed.FS

// A Server answers the API for its games and serves the page. Build one
// with New; it is safe for concurrent use.
type Server struct {
	games map[string]*Game
	order []*Game
	files http.Handler
	// Log, if not nil, receives one line per request that failed inside
	// the server (a damaged block), not per bad request.
	Log *log.Logger
}

// New returns a server for games, whose IDs must be distinct and valid.
func New(games []*Game) (*Server, error) {
	s := &Server{games: map[string]*Game{}}
	for _, g := range games {
		if !validID(g.ID) {
			return nil, fmt.Errorf("web: game id %q: want letters, digits, '.', '-' or '_'", g.ID)
		}
		if _, dup := s.games[g.ID]; dup {
			return nil, fmt.Errorf("web: two games with id %q", g.ID)
		}
		if g.Section == nil || g.Section.Depths == nil {
			return nil, fmt.Errorf("web: game %q has no depth histogram", g.ID)
		}
		s.games[g.ID] = g
		s.order = append(s.order, g)
	}
	sub, err := fs.Sub(static, "static")
	if err != nil {
		return nil, err
	}
	s.files = http.FileServerFS(sub)
	return s, nil
}

// validID reports whether id may name a game in URLs.
func validID(id string) bool {
	return id != "" && len(id) <= 64 && strings.IndexFunc(id, func(r rune) bool { return !idChar(r) }) < 0
}

// idChar reports whether r may stand in a game's ID.
func idChar(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune(".-_", r)
}

// SafeID turns a name (a file's) into a valid game ID: the characters an
// ID may not hold become '_', it is cut to 48 bytes (room for a suffix that
// tells two apart), and an empty name is "game".
func SafeID(name string) string {
	id := strings.Map(func(r rune) rune {
		if idChar(r) {
			return r
		}
		return '_'
	}, name)
	if id = id[:min(len(id), 48)]; id == "" {
		id = "game"
	}
	return id
}

// apiError is a failure with its HTTP status; its message is one line.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func errorf(status int, format string, args ...any) error {
	return &apiError{status, fmt.Sprintf(format, args...)}
}

// ServeHTTP routes a request: GET or HEAD only, the API under /api/, the
// page's files elsewhere, a one-line JSON error for anything else.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		// The last resort: a bug must not take the server down.
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.logf("panic serving %s: %v", r.URL, v)
			writeError(w, errorf(http.StatusInternalServerError, "internal error"))
		}
	}()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeError(w, errorf(http.StatusMethodNotAllowed, "method %s not allowed: GET or HEAD only", r.Method))
		return
	}
	if len(r.URL.RawQuery) > maxQuery {
		writeError(w, errorf(http.StatusRequestURITooLong, "query of %d bytes: at most %d", len(r.URL.RawQuery), maxQuery))
		return
	}
	path := r.URL.Path
	if path == "/api" || strings.HasPrefix(path, "/api/") {
		v, err := s.api(r, strings.Trim(strings.TrimPrefix(path, "/api"), "/"))
		if err != nil {
			if !errors.As(err, new(*apiError)) {
				s.logf("%s: %v", r.URL.Path, err)
			}
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, v)
		return
	}
	switch path {
	case "/", "/index.html", "/app.js", "/style.css":
		w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		s.files.ServeHTTP(w, r)
	default:
		writeError(w, errorf(http.StatusNotFound, "no such page: %s", quote(path)))
	}
}

// api answers the API route path (without its /api/ prefix).
func (s *Server) api(r *http.Request, path string) (any, error) {
	parts := strings.Split(path, "/")
	q, err := parseQuery(r)
	if err != nil {
		return nil, err
	}
	if len(parts) == 1 && parts[0] == "games" {
		if err := q.none(); err != nil {
			return nil, err
		}
		list := make([]gameJSON, 0, len(s.order))
		for _, g := range s.order {
			list = append(list, s.info(g, false))
		}
		return map[string]any{"games": list}, nil
	}
	if len(parts) < 2 || len(parts) > 3 || parts[0] != "games" {
		return nil, errorf(http.StatusNotFound, "no such API route: %s", quote("/api/"+path))
	}
	g, ok := s.games[parts[1]]
	if !ok {
		return nil, errorf(http.StatusNotFound, "no game %s", quote(parts[1]))
	}
	if len(parts) == 2 {
		return s.info(g, true), q.none()
	}
	switch parts[2] {
	case "start":
		if err := q.none(); err != nil {
			return nil, err
		}
		if g.Start == nil {
			return nil, errorf(http.StatusNotFound, "game %q has no start: ask for a position", g.ID)
		}
		return s.position(g, *g.Start, query.First)
	case "random":
		if err := q.none(); err != nil {
			return nil, err
		}
		return s.random(g)
	case "position":
		p, turn, err := q.position(g)
		if err != nil {
			return nil, err
		}
		return s.position(g, p, turn)
	}
	return nil, errorf(http.StatusNotFound, "no such API route: %s", quote("/api/"+path))
}

// quote writes what a client sent for an error message: quoted, and cut
// short.
func quote(s string) string {
	const n = 60
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "") + "..."
	}
	return strconv.Quote(s)
}

func (s *Server) logf(format string, args ...any) {
	if s.Log != nil {
		s.Log.Printf(format, args...)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"internal error"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, err error) {
	var e *apiError
	if !errors.As(err, &e) {
		e = &apiError{http.StatusInternalServerError, err.Error()}
	}
	writeJSON(w, e.status, map[string]string{"error": strings.ReplaceAll(e.msg, "\n", " ")})
}
