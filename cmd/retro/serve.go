package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/text"
	"github.com/retro-solver/retro/web"
)

const serveHelp = `Usage: retro serve [flags] FILE...

A web explorer for the databases FILE... (saved by solve -db): open the
address it prints in a browser to see any position's board, every move
coloured by its value and depth, play either side, and the statistics.
The same answers are a JSON API:

	GET /api/games                      the games served
	GET /api/games/ID                   one game's counts and depth histogram
	GET /api/games/ID/start             the start, its value and its moves
	GET /api/games/ID/position?p=TEXT   a position in the game's notation
	                                    (lines joined by '/'), or ?index=N
	GET /api/games/ID/random            a legal position drawn at random

It listens on the loopback interface unless -addr says otherwise; it only
reads the databases, and stops on an interrupt.

Flags:
`

func serveCmd(args []string, e *env) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `HOST:PORT` (port 0: any free port; host empty: every interface)")
	var maxMemory byteSize
	fs.Var(&maxMemory, "max-memory", "hold at most this `size` of memory, e.g. 512M: the games' tables, and what is left shared by the databases' caches of recently read blocks (default: the machine's memory, at most 64 MiB of cache per database)")
	fs.Usage = func() { fmt.Fprint(fs.Output(), serveHelp); fs.PrintDefaults() }
	if err := parseFlags(fs, args, e); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("serve: no database FILE given")
	}
	games, closeAll, err := serveGames(fs.Args(), e)
	defer closeAll()
	if err != nil {
		return err
	}
	if err := shareCaches(games, maxMemory); err != nil {
		return err
	}
	srv, err := web.New(games)
	if err != nil {
		return err
	}
	srv.Log = log.New(e.stderr, "retro: serve: ", log.LstdFlags)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("serve: %v", err)
	}
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    128 << 10, // a request line with a large board's position
		ErrorLog:          srv.Log,
	}
	where := "on the loopback interface only; -addr :8080 listens on every interface"
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		where = "on every interface: anyone who can reach this machine can read these databases"
		if !ip.IsUnspecified() {
			where = "on " + ip.String()
		}
	}
	fmt.Fprintf(e.stderr, "retro: serving %d %s at http://%s/ (%s); interrupt to stop\n",
		len(games), plural(uint64(len(games)), "game", "games"), ln.Addr(), where)
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve: %v", err)
	case <-e.ctx.Done():
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("serve: %v", err)
	}
	fmt.Fprintln(e.stderr, "retro: serve: stopped")
	return nil
}

// serveGames opens the databases at paths and returns one web.Game per
// instance, and a function that closes the files.
func serveGames(paths []string, e *env) ([]*web.Game, func(), error) {
	sh := newShelf()
	closeAll := sh.close
	var games []*web.Game
	ids := map[string]bool{}
	for _, path := range paths {
		b, err := openShelved(path, sh)
		if err != nil {
			return nil, closeAll, err
		}
		base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		for k := range b.f.Sections {
			if k > 0 {
				// Instance k-1's game stays as it is, served beside k's.
				if err := b.rebuild(); err != nil {
					return nil, closeAll, err
				}
			}
			p, _, err := b.instance(k, false)
			if err != nil {
				return nil, closeAll, err
			}
			sec := &b.f.Sections[k]
			if sec.Depths == nil {
				// A file from before the header counted depths.
				fmt.Fprintf(e.stderr, "retro: serve: counting the depths of %s\n", path)
				if sec.Depths, err = b.f.Table(k).CountDepths(e.ctx, 0); err != nil {
					return nil, closeAll, err
				}
			}
			id, title := base, gameCommand(b.f.Header)
			if len(b.f.Sections) > 1 {
				id = fmt.Sprintf("%s.%d", base, k+1)
				if sec.Label != "" {
					title += ", " + sec.Label
				}
			}
			id = uniqueID(web.SafeID(id), ids)
			g := &web.Game{ID: id, Title: fmt.Sprintf("%s (%s)", title, filepath.Base(path)), Kind: b.f.Game,
				Solved: p, Section: sec}
			if st, ok := p.Game.(implicit.Starter); ok {
				s := st.Start()
				g.Start = &s
			}
			games = append(games, g)
		}
	}
	return games, closeAll, nil
}

// shareCaches bounds the caches of the games' tables so that the server
// holds at most -max-memory: what the process holds now (the games'
// tables, its code), then for each database a block being read beside its
// cache and its decompressor's state, and an equal share of the rest for
// each cache, less a tenth (4 MiB at least) for the garbage of the requests
// under way and of the blocks dropped.
// Without -max-memory each cache keeps its default bound.
func shareCaches(games []*web.Game, maxMemory byteSize) error {
	limit := churnLimit(maxMemory)
	if maxMemory == 0 {
		return nil
	}
	var tables []*db.Table
	for _, g := range games {
		switch v := g.Solved.Values.(type) {
		case *db.Table:
			tables = append(tables, v)
		case *linkedValues:
			// Every file a game of shared tiers reads from, opened now
			// (their block tables are then in heldBytes): a player goes
			// into any of them.
			all, err := v.tables()
			if err != nil {
				return err
			}
			tables = append(tables, all...)
		}
	}
	// A file read by several games (shelf) is counted once.
	seen := map[*db.Table]bool{}
	tables = slices.DeleteFunc(tables, func(t *db.Table) bool {
		dup := seen[t]
		seen[t] = true
		return dup
	})
	need := heldBytes()
	for _, t := range tables {
		need += t.BlockBytes() + decoderBytes + db.MinCacheBlocks*t.BlockBytes()
	}
	if need > limit {
		return fmt.Errorf("serve: -max-memory %s: the games' tables and the smallest caches of %d databases take %s",
			text.HumanBytes(limit), len(tables), text.HumanBytesUp(need))
	}
	for _, t := range tables {
		need -= db.MinCacheBlocks * t.BlockBytes()
	}
	room := limit - need
	room -= min(room, garbageReserve(room)) // for the garbage of requests and dropped blocks
	share := room / uint64(max(len(tables), 1))
	for _, t := range tables {
		t.SetCacheBytes(min(share, db.DefaultCacheBytes))
	}
	return nil
}

// decoderBytes is the memory of a database's decompressor once it has
// read blocks (measured on police databases: about 400 KiB).
const decoderBytes = 512 << 10

// uniqueID returns id, or id with a suffix if it is taken, and takes it.
func uniqueID(id string, taken map[string]bool) string {
	u := id
	for k := 2; taken[u]; k++ {
		u = fmt.Sprintf("%s_%d", id, k)
	}
	taken[u] = true
	return u
}
