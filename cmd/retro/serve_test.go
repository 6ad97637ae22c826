package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// startServe runs retro serve on a free loopback port until the test ends
// and returns its address and a function that stops it and returns its exit
// status and standard error.
func startServe(t *testing.T, files ...string) (string, func() (int, string)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var errs strings.Builder
	e := &env{ctx: ctx, stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.MultiWriter(pw, &errs),
		resident: func() uint64 { return 8 << 20 }}
	done := make(chan int, 1)
	go func() {
		done <- run(append([]string{"serve", "-addr", "127.0.0.1:0"}, files...), e)
		pw.Close()
	}()
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		re := regexp.MustCompile(`at http://(127\.0\.0\.1:\d+)/ \(on the loopback interface only`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		close(addr)
	}()
	var a string
	select {
	case a = <-addr:
	case <-time.After(30 * time.Second):
	}
	stop := func() (int, string) {
		cancel()
		code := <-done
		return code, errs.String()
	}
	if a == "" {
		code, s := stop()
		t.Fatalf("serve did not start: exit %d, %s", code, s)
	}
	t.Cleanup(func() { cancel() })
	return a, stop
}

func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	r, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	if r.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(r.Body)
		t.Fatalf("GET %s: %s %s", u, r.Status, b)
	}
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// TestServe serves a quixo database and every board of the pawns example
// at once: each board's start answers as retro query -instance does, which
// needs each board's own game (the boards of one input share storage when
// solved one after the other).
func TestServe(t *testing.T) {
	q3 := saved(t, "quixo", "-n", "3")
	pawns := saved(t, "pawns", "../../examples/pawns.txt")
	addr, stop := startServe(t, q3, pawns)
	var list struct{ Games []struct{ ID, Title string } }
	getJSON(t, "http://"+addr+"/api/games", &list)
	var ids []string
	for _, g := range list.Games {
		ids = append(ids, g.ID)
	}
	if strings.Join(ids, " ") != "x x.1 x.2 x.3 x.4 x.5" {
		t.Fatalf("game IDs %q", ids)
	}
	for k := 1; k <= 5; k++ {
		id := ids[k]
		var start struct {
			Position string
			Value    string
			Depth    *uint64
		}
		getJSON(t, fmt.Sprintf("http://%s/api/games/%s/start", addr, id), &start)
		out, errs, code := retro(t, "", "query", "-json", "-instance", fmt.Sprint(k), pawns)
		if code != 0 {
			t.Fatalf("query: %d %s", code, errs)
		}
		var want moveJSON
		if err := json.Unmarshal([]byte(out), &want); err != nil {
			t.Fatal(err)
		}
		if start.Position != want.Position || start.Value != want.Value || depth(start.Depth) != depth(want.Depth) {
			t.Errorf("board %d: served %s %s %d, query says %s %s %d", k, start.Position, start.Value, depth(start.Depth),
				want.Position, want.Value, depth(want.Depth))
		}
		var byText struct{ Index uint64 }
		getJSON(t, fmt.Sprintf("http://%s/api/games/%s/position?p=%s", addr, id, url.QueryEscape(start.Position)), &byText)
		if byText.Index != want.Index {
			t.Errorf("board %d: the start's text reads back as %d, want %d", k, byText.Index, want.Index)
		}
	}
	if code, errs := stop(); code != 0 || !strings.Contains(errs, "stopped") {
		t.Fatalf("stopping: exit %d, %s", code, errs)
	}
}

func TestServeErrors(t *testing.T) {
	q3 := saved(t, "quixo", "-n", "3")
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"serve"}, 2, "no database FILE"},
		{[]string{"serve", "/nonexistent.db"}, 1, "nonexistent.db"},
		{[]string{"serve", "-addr", "nohost:99999", q3}, 1, "serve:"},
		{[]string{"serve", "-addr", "127.0.0.1", q3}, 1, "missing port"},
	} {
		_, errs, code := retro(t, "", c.args...)
		if code != c.code || !strings.Contains(errs, c.says) || strings.Count(errs, "\n") > 2 {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errs, c.code, c.says)
		}
	}
}

// depth reads an optional depth: -1 for none.
func depth(d *uint64) int64 {
	if d == nil {
		return -1
	}
	return int64(*d)
}

// TestServeSharesFiles serves two chess databases of one -all folder:
// KPvK's promotions read KQvK.db, which is served too, and the file is
// opened once, its table and its cache the same for both.
func TestServeSharesFiles(t *testing.T) {
	dir := t.TempDir()
	if _, errs, code := retro(t, "", "solve", "chess", "-all", "3", "-dir", dir); code != 0 {
		t.Fatalf("solve chess -all 3: exit %d, stderr %q", code, errs)
	}
	e := &env{ctx: context.Background(), stdout: io.Discard, stderr: io.Discard}
	games, closeAll, err := serveGames([]string{filepath.Join(dir, "KPvK.db"), filepath.Join(dir, "KQvK.db")}, e)
	defer closeAll()
	if err != nil {
		t.Fatal(err)
	}
	kpk, ok := games[0].Solved.Values.(*linkedValues)
	kqk, ok2 := games[1].Solved.Values.(*linkedValues)
	if !ok || !ok2 {
		t.Fatalf("values %T and %T, want both read with the files beside them", games[0].Solved.Values, games[1].Solved.Values)
	}
	read, err := kpk.tables()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(read, kqk.own) {
		t.Errorf("KPvK reads %d tables, none of them KQvK's as served", len(read))
	}
}
