// Command load measures retro serve under many clients at once: it draws
// positions from a game's /random route, then has each client ask for one
// position after another until the time or the request budget runs out,
// and reports queries per second, latencies, errors and, given the
// server's process ID, its resident memory second by second:
//
//	retro serve -addr 127.0.0.1:8080 q4.db &
//	go run ./bench/load -clients 50 -duration 20s -pid $! http://127.0.0.1:8080/api/games/q4
//
// The run always ends: at -duration or after -requests, whichever comes
// first. Exit status 1 if any request failed.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	fs := flag.NewFlagSet("load", flag.ExitOnError)
	c := config{}
	fs.IntVar(&c.clients, "clients", 50, "concurrent `clients`, each with one request in flight")
	fs.DurationVar(&c.duration, "duration", 10*time.Second, "how long to send requests")
	fs.Int64Var(&c.requests, "requests", 10_000_000, "stop after this many `requests` in all")
	fs.IntVar(&c.positions, "positions", 500, "distinct `positions` to draw first and then ask for")
	fs.IntVar(&c.pid, "pid", 0, "the server's process `ID`, to sample its resident memory")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: load [flags] http://HOST:PORT/api/games/ID")
		fs.PrintDefaults()
	}
	fs.Parse(os.Args[1:])
	if fs.NArg() != 1 || c.clients < 1 || c.duration <= 0 || c.requests < 1 || c.positions < 1 {
		fs.Usage()
		os.Exit(2)
	}
	c.game = strings.TrimRight(fs.Arg(0), "/")
	r, err := run(context.Background(), c)
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
	r.print(os.Stdout)
	if r.errors > 0 {
		os.Exit(1)
	}
}

type config struct {
	game      string // the game's API address, .../api/games/ID
	clients   int
	duration  time.Duration
	requests  int64
	positions int
	pid       int
}

// result is what a run measured.
type result struct {
	clients   int
	requests  int64
	errors    int64
	firstErr  string
	elapsed   time.Duration
	latencies []time.Duration // a sample: every request of the first clients
	rss       []uint64        // the server's resident bytes, once a second
}

func run(ctx context.Context, c config) (*result, error) {
	client := &http.Client{
		Transport: &http.Transport{MaxIdleConnsPerHost: c.clients, MaxConnsPerHost: c.clients},
		Timeout:   10 * time.Second,
	}
	defer client.CloseIdleConnections()
	// The positions to ask for: by their text, as a user types it, or by
	// index where the text is long (a large board), as the page does.
	var texts []string
	seen := map[uint64]bool{}
	for i := 0; len(texts) < c.positions && i < 10*c.positions; i++ {
		var p struct {
			Position string
			Index    uint64
		}
		if err := getJSON(ctx, client, c.game+"/random", &p); err != nil {
			return nil, err
		}
		if seen[p.Index] {
			continue
		}
		seen[p.Index] = true
		if len(p.Position) <= 1024 {
			texts = append(texts, c.game+"/position?p="+url.QueryEscape(p.Position))
		} else {
			texts = append(texts, fmt.Sprintf("%s/position?index=%d", c.game, p.Index))
		}
	}
	r := &result{clients: c.clients}
	var budget atomic.Int64
	budget.Store(c.requests)
	var errCount atomic.Int64
	var firstErr sync.Once
	sampled := min(c.clients, 4)
	lat := make([][]time.Duration, sampled)
	ctx, cancel := context.WithTimeout(ctx, c.duration)
	defer cancel()
	stopRSS := sampleRSS(c.pid, &r.rss)
	start := time.Now()
	var wg sync.WaitGroup
	for k := range c.clients {
		wg.Go(func() {
			var buf bytes.Buffer
			for i := k; ctx.Err() == nil && budget.Add(-1) >= 0; i++ {
				t0 := time.Now()
				err := getPosition(ctx, client, texts[i%len(texts)], &buf)
				if ctx.Err() != nil {
					return // cut off by the end of the run, not a failure
				}
				if k < sampled {
					lat[k] = append(lat[k], time.Since(t0))
				}
				if err != nil {
					errCount.Add(1)
					firstErr.Do(func() { r.firstErr = err.Error() })
				}
			}
		})
	}
	wg.Wait()
	r.elapsed = time.Since(start)
	stopRSS()
	r.requests = c.requests - max(budget.Load(), 0)
	r.errors = errCount.Load()
	for _, l := range lat {
		r.latencies = append(r.latencies, l...)
	}
	slices.Sort(r.latencies)
	return r, nil
}

// get fetches u and returns its body, read into buf, or an error for a
// status other than 200.
func get(ctx context.Context, client *http.Client, u string, buf *bytes.Buffer) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	buf.Reset()
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s: %s", u, resp.Status, strings.TrimSpace(string(buf.Bytes()[:min(buf.Len(), 1024)])))
	}
	return buf.Bytes(), nil
}

// getPosition fetches one position and checks it is a JSON object.
func getPosition(ctx context.Context, client *http.Client, u string, buf *bytes.Buffer) error {
	body, err := get(ctx, client, u, buf)
	if err == nil && (len(body) == 0 || body[0] != '{') {
		err = fmt.Errorf("%s: not a JSON object", u)
	}
	return err
}

func getJSON(ctx context.Context, client *http.Client, u string, v any) error {
	body, err := get(ctx, client, u, new(bytes.Buffer))
	if err != nil {
		return err
	}
	return json.Unmarshal(body, v)
}

// sampleRSS records the resident memory of process pid once a second, and
// once more when stopped; with pid 0 it records nothing.
func sampleRSS(pid int, into *[]uint64) (stop func()) {
	if pid == 0 {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	read := func() {
		if v, err := residentBytes(pid); err == nil {
			*into = append(*into, v)
		}
	}
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		read()
		for {
			select {
			case <-tick.C:
				read()
			case <-done:
				read()
				return
			}
		}
	}()
	return func() { close(done); <-finished }
}

// residentBytes reads VmRSS from /proc/PID/status.
func residentBytes(pid int) (uint64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				kb, err := strconv.ParseUint(f[0], 10, 64)
				return kb << 10, err
			}
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}

func (r *result) print(w io.Writer) {
	qps := float64(r.requests) / r.elapsed.Seconds()
	fmt.Fprintf(w, "%d requests from %d clients in %.2f s: %.0f queries/s, %d errors\n",
		r.requests, r.clients, r.elapsed.Seconds(), qps, r.errors)
	if r.firstErr != "" {
		fmt.Fprintf(w, "first error: %s\n", r.firstErr)
	}
	if n := len(r.latencies); n > 0 {
		q := func(p float64) time.Duration { return r.latencies[min(n-1, int(p*float64(n)))] }
		fmt.Fprintf(w, "latency: median %v, 99th percentile %v, max %v (%d requests sampled)\n",
			q(0.5).Round(time.Microsecond), q(0.99).Round(time.Microsecond), r.latencies[n-1].Round(time.Microsecond), n)
	}
	if len(r.rss) > 0 {
		var mib []string
		for _, v := range r.rss {
			mib = append(mib, fmt.Sprintf("%.1f", float64(v)/(1<<20)))
		}
		fmt.Fprintf(w, "server resident memory, MiB, once a second: %s\n", strings.Join(mib, " "))
	}
}
