package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestRunCountsAndStops runs against a fake game that fails every tenth
// position request: the run stops at its request budget and counts the
// failures.
func TestRunCountsAndStops(t *testing.T) {
	var n, random atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case !strings.HasPrefix(r.URL.Path, "/api/games/g/"):
			http.NotFound(w, r)
		case strings.HasSuffix(r.URL.Path, "/random"):
			k := random.Add(1) % 7
			fmt.Fprintf(w, `{"position":"p%d","index":%d}`, k, k)
		case strings.HasSuffix(r.URL.Path, "/position") && n.Add(1)%10 == 0:
			http.Error(w, `{"error":"no"}`, http.StatusBadRequest)
		case strings.HasSuffix(r.URL.Path, "/position"):
			fmt.Fprint(w, `{"position":"x"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	r, err := run(context.Background(), config{game: srv.URL + "/api/games/g", clients: 5, duration: time.Minute,
		requests: 200, positions: 5})
	if err != nil {
		t.Fatal(err)
	}
	if r.requests != 200 || n.Load() != 200 || r.errors != 20 || !strings.Contains(r.firstErr, "400") {
		t.Fatalf("%d requests (%d served), %d errors, first %q; want 200, 20 errors", r.requests, n.Load(), r.errors, r.firstErr)
	}
	if len(r.latencies) == 0 {
		t.Fatal("no latencies sampled")
	}
	if _, err := run(context.Background(), config{game: srv.URL + "/nope", clients: 1, duration: time.Second,
		requests: 1, positions: 1}); err == nil {
		t.Fatal("a game that is not there was measured")
	}
}
