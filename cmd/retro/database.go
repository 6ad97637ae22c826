package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/games"
	"github.com/retro-solver/retro/internal/text"
	"github.com/retro-solver/retro/parallel"
	"github.com/retro-solver/retro/query"
)

// database is an open database with its games rebuilt from the file.
type database struct {
	f     *db.File
	d     *implicit.Descriptor
	insts []implicit.Instance
	shelf *shelf // the files beside it that its values are read from (solve -linked)
}

// openDatabase opens the database at path and rebuilds its games from the
// name, flags and input it holds.
func openDatabase(path string) (*database, error) {
	sh := newShelf()
	b, err := openShelved(path, sh)
	if err != nil {
		sh.close()
		return nil, err
	}
	return b, nil
}

// openShelved is openDatabase for a command that opens many (serve): the
// file and those beside it that its values are read from are opened once
// on sh, which closes them.
func openShelved(path string, sh *shelf) (*database, error) {
	f, err := sh.open(path)
	if err != nil {
		return nil, err
	}
	b := &database{f: f, shelf: sh}
	return b, b.rebuild()
}

// rebuild makes the database's instances anew from the name, flags and
// input the file holds. The instances of one input may share storage (see
// implicit.Instance), so a caller that keeps several instances' games at
// once rebuilds before each.
func (b *database) rebuild() error {
	input, err := b.f.Input()
	if err != nil {
		return err
	}
	d, insts, err := games.Load(b.f.Game, b.f.Args, input, implicit.LoadConfig{MaxMemory: 1 << 62})
	if err == nil && d.Version != b.f.GameVersion {
		err = fmt.Errorf("the file numbers the positions as version %d of %s's index, this retro as version %d: solve it again", b.f.GameVersion, d.Name, d.Version)
	}
	if err == nil && len(insts) != len(b.f.Sections) {
		err = fmt.Errorf("the input gives %d instances, the file holds %d", len(insts), len(b.f.Sections))
	}
	if err != nil {
		return fmt.Errorf("%s: rebuilding the game: %w", b.f.Path(), err)
	}
	b.d, b.insts = d, insts
	return nil
}

// instance returns section k's game as played, its values, and the game
// the values are indexed by (the compact game of a symmetric one, built
// only when full is set: verify needs it, a query does not).
func (b *database) instance(k int, full bool) (query.Solved, implicit.Game, error) {
	tab := b.f.Table(k)
	g := b.insts[k].Game()
	p := query.Solved{Game: g, Values: tab}
	mismatch := func(what string, file, game uint64) error {
		return fmt.Errorf("%s: the file's %s (%d) differs from the game's (%d) as this retro builds %s",
			b.f.Path(), what, file, game, gameCommand(b.f.Header))
	}
	if tab.Section.FirstTier {
		tg, ok := g.(implicit.Tiered)
		if !ok {
			return p, nil, fmt.Errorf("%s: holds a first tier, and %s has no tiers", b.f.Path(), gameCommand(b.f.Header))
		}
		lv, err := newLinkedValues(b.f, tab, tg, b.d.Arg, b.shelf)
		if err != nil {
			return p, nil, err
		}
		p.Values = lv
		if ap, ok := g.(implicit.AsPlayed); ok {
			p.Game, p.Index = ap.Played(), ap.Class
		}
		return p, g, nil
	}
	if tab.Section.Directory == nil {
		if g.Size() != tab.Size() {
			return p, nil, mismatch("size", tab.Size(), g.Size())
		}
		if ap, ok := g.(implicit.AsPlayed); ok {
			p.Game, p.Index = ap.Played(), ap.Class
		}
		return p, g, nil
	}
	sg, ok := g.(implicit.Symmetric)
	if !ok || g.Size() != tab.IndexSize {
		return p, nil, mismatch("index size", tab.IndexSize, g.Size())
	}
	dir, err := tab.Directory()
	if err != nil {
		return p, nil, err
	}
	ranks := implicit.Ranks{S: sg, Counts: dir}
	p.Index = ranks.Index
	if !full {
		return p, nil, nil
	}
	cg := implicit.NewCompact(sg)
	if cg.Size() != tab.Size() || !slices.Equal(cg.Counts(), dir) {
		return p, nil, fmt.Errorf("%s: the file's symmetry classes differ from the game's as this retro builds %s",
			b.f.Path(), gameCommand(b.f.Header))
	}
	return p, cg, nil
}

// gameCommand is the solve that made a database: "quixo -n=4".
func gameCommand(h db.Header) string {
	return strings.Join(append([]string{h.Game}, h.Args...), " ")
}

// instanceFlag adds -instance to fs.
func instanceFlag(fs *flag.FlagSet) *int {
	return fs.Int("instance", 1, "which solved instance `K` of the file to use (the boards of a pawns input: 1, 2, ...)")
}

// openSolved opens the database at path for the query or play command cmd
// and returns instance k (1-based, as -instance gives it) as a solved game.
// The caller closes the database.
func openSolved(path string, k int, cmd string) (*database, query.Solved, error) {
	b, err := openDatabase(path)
	if err != nil {
		return nil, query.Solved{}, err
	}
	if k < 1 || k > len(b.f.Sections) {
		b.f.Close()
		return nil, query.Solved{}, usagef("%s: -instance %d: the file holds %d (1 to %d)", cmd, k, len(b.f.Sections), len(b.f.Sections))
	}
	p, _, err := b.instance(k-1, false)
	if err != nil {
		b.f.Close()
		return nil, query.Solved{}, err
	}
	return b, p, nil
}

const queryHelp = `Usage: retro query [flags] FILE [POSITION ...]

The value and depth of each POSITION (in the game's own notation, its lines
separated by newlines or '/'; none: the start), then each of its moves with
the value and depth of the position it leads to, best first: for a win the
move to the shallowest loss, for a loss the move to the deepest win, for a
draw a move to a draw.

Flags:
`

func queryCmd(args []string, e *env) error {
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	index := fs.String("index", "", "query the position at the game's own index `N` instead of positions")
	asJSON := fs.Bool("json", false, "print one JSON object per position")
	inst := instanceFlag(fs)
	fs.Usage = func() { fmt.Fprint(fs.Output(), queryHelp); fs.PrintDefaults() }
	if err := parseFlags(fs, args, e); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("query: no database FILE given")
	}
	b, p, err := openSolved(fs.Arg(0), *inst, "query")
	if err != nil {
		return err
	}
	defer b.f.Close()
	// The positions: -index, the arguments, or the start.
	var positions []uint64
	var failed error
	switch {
	case *index != "":
		if fs.NArg() > 1 {
			return usagef("query: -index and positions both given")
		}
		s, err := strconv.ParseUint(*index, 10, 64)
		if err != nil || s >= p.Game.Size() {
			return fmt.Errorf("query: -index %s: want an index from 0 to %d", *index, p.Game.Size()-1)
		}
		if p.Game.Classify(s) == implicit.Illegal {
			return fmt.Errorf("query: -index %d: not a legal position", s)
		}
		positions = append(positions, s)
	case fs.NArg() > 1:
		for i, arg := range fs.Args()[1:] {
			s, err := query.ReadPosition(p.Game, arg)
			if err != nil {
				// One line per bad position; the good ones are answered.
				failed = errSilent
				fmt.Fprintf(e.stderr, "retro: query: position %d %q: %v\n", i+1, arg, err)
				continue
			}
			positions = append(positions, s)
		}
	default:
		st, ok := p.Game.(implicit.Starter)
		if !ok {
			return usagef("query: the game has no start: give a POSITION or -index")
		}
		positions = append(positions, st.Start())
	}
	out := bufio.NewWriter(e.stdout)
	for _, s := range positions {
		if err := writeQuery(out, p, s, *asJSON); err != nil {
			return err
		}
	}
	if err := out.Flush(); err != nil {
		return err
	}
	return failed
}

// moveJSON is a position in query -json; a move's name (Move) where the
// game names its moves (implicit.MoveNamer).
type moveJSON struct {
	Move     string     `json:"move,omitempty"`
	Position string     `json:"position"`
	Index    uint64     `json:"index"`
	Value    string     `json:"value"`
	Depth    *uint64    `json:"depth,omitempty"`
	Moves    []moveJSON `json:"moves,omitempty"`
}

func toJSON(g implicit.Game, s uint64, e query.Entry) moveJSON {
	return moveJSON{Position: query.OneLine(g, s), Index: s, Value: e.Name(), Depth: e.DepthOf()}
}

// writeQuery prints position s, its value and its moves.
func writeQuery(out *bufio.Writer, p query.Solved, s uint64, asJSON bool) error {
	e, err := p.Lookup(s)
	if err != nil {
		return err
	}
	moves, err := p.Moves(s)
	if err != nil {
		return err
	}
	name := func(t uint64) string { return "" }
	if mn, ok := p.Game.(implicit.MoveNamer); ok {
		name = func(t uint64) string { return mn.MoveName(s, t) }
	}
	if asJSON {
		m := toJSON(p.Game, s, e)
		m.Moves = []moveJSON{}
		for _, mv := range moves {
			j := toJSON(p.Game, mv.To, mv.Entry)
			j.Move = name(mv.To)
			m.Moves = append(m.Moves, j)
		}
		return json.NewEncoder(out).Encode(m)
	}
	fmt.Fprintf(out, "position %s (index %d)\n%v\n", query.OneLine(p.Game, s), s, e)
	if len(moves) == 0 {
		fmt.Fprintln(out, "no moves: the game is over")
		return nil
	}
	fmt.Fprintf(out, "%d %s, best first:\n", len(moves), plural(uint64(len(moves)), "move", "moves"))
	for i, m := range moves {
		if n := name(m.To); n != "" {
			fmt.Fprintf(out, "%3d. %-9v %-6s %s\n", i+1, m.Entry, n, query.OneLine(p.Game, m.To))
			continue
		}
		fmt.Fprintf(out, "%3d. %-9v %s\n", i+1, m.Entry, query.OneLine(p.Game, m.To))
	}
	return nil
}

// fitValues readies tab's values for a pass over them within limit beside
// what the process holds now (its code and the game's tables): every block
// decompressed in memory when they fit (Load), otherwise a cache of the
// blocks read last, as large as what is left; an error if not even the
// cache's fewest blocks fit. memo is what the caller took off its bound
// before for the depths of wins found from moves (memoBytes), which the
// error's figure and the progress line count, so that they read against
// the bound named.
func fitValues(e *env, tab *db.Table, workers int, limit, memo uint64, bound string, progress bool) error {
	held := valuesHeld(tab, workers)
	if held+tab.LoadBytes() <= limit {
		return tab.Load(e.ctx, workers)
	}
	// The runtime's soft limit makes the collector run more often near
	// the limit, less so on a busy machine: a reserve is kept for garbage.
	reserve := garbageReserve(limit - min(limit, held))
	least := held + reserve + db.MinCacheBlocks*tab.BlockBytes()
	if least > limit {
		wins := ""
		if memo > 0 {
			wins, least = " and the depths of wins found from their moves", withMemo(least)
		}
		return fmt.Errorf("verify: %s: reading %d positions a block at a time needs at least %s (the game's tables, the workers' blocks, a cache of %d blocks%s)",
			bound, tab.Size(), text.HumanBytesUp(least), db.MinCacheBlocks, wins)
	}
	cache := limit - held - reserve
	tab.SetCacheBytes(cache)
	if progress {
		wins := ""
		if memo > 0 {
			wins = ", " + text.HumanBytes(memo) + " of it for the depths of wins found from their moves"
		}
		fmt.Fprintf(e.stderr, "retro: verify: the values (%s decompressed) do not fit in %s%s: reading them a block at a time through a cache of %s\n",
			text.HumanBytes(tab.LoadBytes()), text.HumanBytes(limit+memo), wins, text.HumanBytes(cache))
	}
	return nil
}

// memoBytes is what verify sets aside of its memory limit for the memo of
// the depths of wins found from their moves (a file that keeps the
// losses' alone): a sixteenth, up to query.MaxMemoBytes.
func memoBytes(limit uint64) uint64 { return min(limit/16, query.MaxMemoBytes) }

// withMemo returns the least limit that leaves need bytes beside the memo
// it sets aside, the figure a refusal names: the memo grows with the limit.
func withMemo(need uint64) uint64 {
	// l - memoBytes(l) grows with l, and this first guess is off by one
	// or two at most.
	l := need + min(need/15, query.MaxMemoBytes)
	for l > need && l-1-memoBytes(l-1) >= need {
		l--
	}
	for l-memoBytes(l) < need {
		l++
	}
	return l
}

// boundName names the memory a command holds itself to in its errors:
// the -max-memory given, or the memory available, its default.
func boundName(flag byteSize, limit uint64) string {
	if flag != 0 {
		return "-max-memory " + text.HumanBytes(limit)
	}
	return "the " + text.HumanBytes(limit) + " of memory available (see -max-memory)"
}

// valuesHeld is the memory held besides the values while they are read:
// what the process holds now, and for each worker reading a block, the
// block compressed and decompressed.
func valuesHeld(tab *db.Table, workers int) uint64 {
	return heldReading(tab.BlockBytes(), workers)
}

// heldReading is valuesHeld for blocks of blockBytes decompressed.
func heldReading(blockBytes uint64, workers int) uint64 {
	return heldBytes() + uint64(parallel.Workers(workers))*(2*blockBytes+1<<20)
}

// withGarbage returns the least left bytes that leave n beside their
// garbageReserve: n and 4 MiB, or n and a ninth.
func withGarbage(n uint64) uint64 { return max(n+4<<20, n+n/9+1) }

// garbageReserve is what a command reading through caches keeps free of
// the left bytes its limit leaves: the blocks read are garbage until the
// collector runs (their compressed bytes, the decompressor's buffers, the
// blocks dropped), a tenth, 4 MiB at least.
func garbageReserve(left uint64) uint64 { return max(left/10, 4<<20) }

// verifyTiers verifies a tiered game's values a tier at a time, children
// first, each with its children's values held (db.Table.Keep), within
// limit bytes; vals reads tab. A file that keeps the depths of losses only
// holds the grandchildren too: a loss's check reads the depths of the wins
// it moves to, found from their moves.
func verifyTiers(e *env, g implicit.Tiered, tab *db.Table, vals engine.Values, workers int, limit, memo uint64, bound string, checked *atomic.Uint64) (query.Report, error) {
	tiers := g.Tiers()
	order, err := implicit.TierOrder(tiers, g.Size())
	if err != nil {
		return query.Report{}, err
	}
	held := valuesHeld(tab, workers)
	var rep query.Report
	for _, k := range order {
		ranges := implicit.TierRanges(tiers, k, keptGenerations(tab))
		if need := held + tab.KeptBytes(ranges); need > limit {
			wins := ""
			if memo > 0 {
				wins, need = " and the depths of wins found from their moves", withMemo(need)
			}
			return rep, fmt.Errorf("verify: %s: tier %d (%s) and its children need %s of values%s",
				bound, k, tiers[k].Name, text.HumanBytesUp(need), wins)
		}
		if err := tab.Keep(e.ctx, workers, ranges); err != nil {
			return rep, err
		}
		r, err := query.VerifyTier(e.ctx, g, vals, k, workers, checked)
		if err != nil {
			return rep, err
		}
		rep.Merge(r)
	}
	return rep, tab.Keep(e.ctx, workers, nil)
}

// keptGenerations is how deep below a tier a pass over its moves reads
// tab's values: its children, and their children where tab leaves out what
// moves tell (the depths of wins, whether a position is a win or a draw).
func keptGenerations(tab *db.Table) int {
	if tab.Coding.FromMoves() {
		return 2
	}
	return 1
}

const verifyHelp = `Usage: retro verify [flags] FILE

Checks a whole database: every checksum, then every position against the
game's rules (only its moves and the stored values, not the solver): each
win at depth d has a move to a loss at depth d-1 and none to a shallower
loss, each loss at depth d only moves to wins, the deepest at depth d-1,
each draw has no move to a loss and a move to a draw, and terminal
positions hold the game's verdict. Together these prove the values right.
Prints one verdict line per instance; exit status 1 if any check fails.

Flags:
`

func verifyCmd(args []string, e *env) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	workers := fs.Int("workers", 0, "number of `workers`, and the most cores the command keeps busy (default 0: one per core)")
	progress := fs.Bool("progress", false, "print progress lines to standard error (default when it is a terminal)")
	var maxMemory byteSize
	fs.Var(&maxMemory, "max-memory", "hold at most this `size` of memory, e.g. 512M, 1.5G or 8G: the values are read whole when they fit, otherwise a block at a time through a cache of what is left (default: the memory available when it starts)")
	byTier := fs.Bool("tiered", false, "verify a tiered game a tier at a time, holding only its values and its children's (the default where the values do not fit in -max-memory)")
	prof := fs.String("profile", "", "write a `kind` of pprof profile of the check: cpu, mem, block, mutex or trace")
	profDir := fs.String("profile-dir", ".", "`folder` for the -profile file (cpu.pprof, mem.pprof, ..., trace.out)")
	fs.Usage = func() { fmt.Fprint(fs.Output(), verifyHelp); fs.PrintDefaults() }
	if err := parseFlags(fs, args, e); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("verify: want one database FILE, got %d arguments", fs.NArg())
	}
	if err := e.useWorkers("verify", *workers); err != nil {
		return err
	}
	mode, err := profileMode("verify", *prof, fs)
	if err != nil {
		return err
	}
	b, err := openDatabase(fs.Arg(0))
	if err != nil {
		return err
	}
	defer b.f.Close()
	if mode != nil {
		stop, err := startProfile(mode, *profDir, *prof, e)
		if err != nil {
			return err
		}
		defer stop()
	}
	failed := false
	for k := range b.f.Sections {
		start := time.Now()
		sv, solved, err := b.instance(k, true)
		if err != nil {
			return err
		}
		tab := b.f.Table(k)
		limit := churnLimit(maxMemory)
		bound := boundName(maxMemory, limit)
		// A file that keeps the depths of losses only has its wins' found
		// again from their moves (and one that keeps the losses alone its
		// wins and draws told apart so), the most recent kept in a table of
		// up to a sixteenth of the memory.
		var memo uint64
		if tab.Coding.FromMoves() {
			memo = memoBytes(limit)
			limit -= memo
		}
		tg, tiered := solved.(implicit.Tiered)
		// A tiered game too large to hold whole is verified a tier at a
		// time, with its children's values: a cache of blocks would be read
		// again and again by the moves into every other tier. A file of a
		// first tier alone is verified as that tier, its children's values
		// read from their files.
		tiered = tiered && !tab.Section.Reachable && !tab.FirstTier && (*byTier || valuesHeld(tab, *workers)+tab.LoadBytes() > limit)
		// Its values held whole, it keeps the depths of its wins in a byte
		// per position beside them, found as the wins are checked, first
		// (query.WinDepthsTable), where that fits too.
		lv, linked := sv.Values.(*linkedValues)
		var table uint64
		if tab.Coding.FromMoves() && !tiered && (linked || valuesHeld(tab, *workers)+tab.LoadBytes()+tab.Size() <= limit) {
			table = tab.Size()
		}
		if linked {
			// Its own values and the other files' that its moves read, held
			// or through caches as they fit, and the table where all they
			// read fits beside it (linkedValues.fit).
			if table, err = lv.fit(e, *workers, bound, limit, memo, table, keptGenerations(tab), *progress || e.isTerminal); err != nil {
				return err
			}
		} else if !tiered {
			if err := fitValues(e, tab, *workers, limit-table, memo, bound, *progress || e.isTerminal); err != nil {
				return err
			}
		}
		limit -= table
		if tab.Section.Reachable {
			// Only what the start reaches was solved.
			if v, _, err := tab.Lookup(*tab.Start); err != nil || v == engine.Illegal {
				failed = true
				fmt.Fprintf(e.stdout, "FAILED %s: the start is not stored\n", b.f.Path())
				continue
			}
			solved = query.Reached(solved, tab)
		}
		var checked atomic.Uint64
		stop := func() {}
		if *progress || e.isTerminal {
			stop = progressLines(e, func() string {
				n := checked.Load()
				return fmt.Sprintf("verify: %d of %d positions checked (%.1f%%)", n, tab.Size(), 100*float64(n)/float64(tab.Size()))
			})
		}
		vals := sv.Values
		switch {
		case table > 0:
			vals = query.WinDepthsTable(solved, vals, table, memo)
		case tab.Coding.FromMoves():
			vals = query.WinDepthsMemo(solved, vals, memo)
		}
		var rep query.Report
		switch {
		case tab.FirstTier: // the game's own tiers (implicit.GroupRange), which the file holds
			rep, err = query.VerifyRange(e.ctx, solved, vals, 0, tab.Size(), *workers, &checked)
		case tiered:
			rep, err = verifyTiers(e, tg, tab, vals, *workers, limit, memo, bound, &checked)
		default:
			rep, err = query.Verify(e.ctx, solved, vals, *workers, &checked)
		}
		stop()
		if err != nil {
			return err
		}
		prefix := b.f.Path()
		if l := tab.Label; l != "" && len(b.f.Sections) > 1 {
			prefix += ": " + l
		}
		if rep.Counts != tab.Counts || rep.MaxDepth != tab.MaxDepth {
			failed = true
			fmt.Fprintf(e.stdout, "FAILED %s: the counts or the max depth differ from the header's\n", prefix)
		} else if tab.Depths != nil {
			// The depths as checked: a win's found from its moves where
			// the file leaves it out.
			h := db.NewDepths(tab.MaxDepth)
			for d, n := range rep.Wins {
				h.Add(engine.Win, uint64(d), n)
			}
			for d, n := range rep.Losses {
				h.Add(engine.Loss, uint64(d), n)
			}
			if !h.Equal(tab.Depths) {
				failed = true
				fmt.Fprintf(e.stdout, "FAILED %s: the depth histogram differs from the header's\n", prefix)
			}
		}
		if rep.Failures > 0 {
			failed = true
			fmt.Fprintf(e.stdout, "FAILED %s: %d of %d positions break the rules\n", prefix, rep.Failures, tab.Size())
			for _, f := range rep.First {
				fmt.Fprintf(e.stdout, "  index %d (%s): %s\n", f.Index, query.OneLine(solved, f.Index), f.Rule)
			}
			continue
		}
		fmt.Fprintf(e.stdout, "ok %s: %d positions (win %d, loss %d, draw %d, illegal %d), max depth %d; %d %s and every checksum good; %d moves checked in %v\n",
			prefix, tab.Size(), rep.Counts[engine.Win], rep.Counts[engine.Loss], rep.Counts[engine.Draw], rep.Counts[engine.Illegal],
			rep.MaxDepth, tab.NumBlocks(), plural(tab.NumBlocks(), "block", "blocks"), rep.Edges, time.Since(start).Round(time.Millisecond))
	}
	if failed {
		return errSilent
	}
	return nil
}

func plural(n uint64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

const dbHelp = `Usage: retro db info FILE
       retro db compact [-workers N] FILE NEWFILE

info: what a database holds, from its header and block tables alone (their
checksums are checked; the blocks' are checked by retro verify): the game
and its parameters, the counts by value, the max depth, the start's value,
and the sizes and compression.

compact: writes FILE's values to NEWFILE keeping the losses and their
depths only (what retro solve -compact writes): a position that is not a
loss is a win if it moves to a loss, its depth one more than the least
depth among those, and a draw otherwise; query, verify, play and serve find
them again from its moves. About half the size on large games (Nine Men's
Morris: 9.3 GiB to 4.6 keeping the depths of losses only, wins and draws
still apart); a chess endgame whose wins and draws mix shrinks to a third
or a half of that (KBNvKN: 10.2 MiB to 4.3), one that one side wins almost
everywhere hardly at all. An illegal index holds the code before it, which
compresses to less (the game's rules tell the illegal ones): a tenth to a
sixth off a chess endgame's file. A file that keeps the depths of losses
only (written by an earlier retro) is rewritten so too. Every block of FILE
is read and its checksum checked; NEWFILE's counts and depths are checked
against FILE's. Not for a game stored by symmetry classes (quixo, teeko),
whose positions' moves cannot be found from their classes.
`

func dbCmd(args []string, e *env) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprint(e.stderr, dbHelp)
		if len(args) == 0 {
			return usagef("db: want a subcommand: info or compact")
		}
		return errHelpShown
	}
	switch args[0] {
	case "info":
		return dbInfo(args[1:], e)
	case "compact":
		return dbCompact(args[1:], e)
	}
	return usagef("db: unknown subcommand %q: want info or compact", args[0])
}

// dbInfo is retro db info.
func dbInfo(args []string, e *env) error {
	if len(args) != 1 {
		return usagef("db info: want one database FILE, got %d arguments", len(args))
	}
	f, err := db.Open(args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	out := bufio.NewWriter(e.stdout)
	fmt.Fprintf(out, "file %s: %s, format %d; header and block tables good\n", f.Path(), text.HumanBytes(f.FileSize()), f.Format)
	fmt.Fprintf(out, "game %s", gameCommand(f.Header))
	if f.Header.Input != nil {
		fmt.Fprintf(out, ", input %s", text.HumanBytes(f.Header.Input.Raw))
	}
	fmt.Fprintln(out)
	for k := range f.Sections {
		s := &f.Sections[k]
		name := "values"
		if s.Label != "" {
			name = s.Label
		}
		fmt.Fprintf(out, "%s: %d positions: win %d, loss %d, draw %d, illegal %d; max depth %d\n", name, s.Size,
			s.Counts[engine.Win], s.Counts[engine.Loss], s.Counts[engine.Draw], s.Counts[engine.Illegal], s.MaxDepth)
		if s.Directory != nil {
			fmt.Fprintf(out, "  one per symmetry class of the game's %d indices\n", s.IndexSize)
		}
		if s.Reachable {
			fmt.Fprintln(out, "  only the positions reachable from the start: the illegal count holds the unreached ones")
		}
		if s.Start != nil {
			if v, d, err := f.Table(k).Lookup(*s.Start); err == nil {
				fmt.Fprintf(out, "  start: index %d, %v\n", *s.Start, query.Entry{Value: v, Depth: d})
			} else {
				fmt.Fprintf(out, "  start: index %d, unreadable: %v\n", *s.Start, err)
			}
		}
		switch s.Coding {
		case db.LossDepths:
			fmt.Fprintln(out, "  the depths of losses only: a win's is found from its moves")
		case db.Losses:
			fmt.Fprintln(out, "  the losses and their depths only: a win, with its depth, or a draw is found from its moves")
		}
		if s.Filled {
			fmt.Fprintln(out, "  illegal indices filled: each holds the code before it, the game's rules tell them")
		}
		fmt.Fprintf(out, "  %d %s of %d positions, %d-byte codes: %s raw, %s stored (%.1fx, %.3f bits per position)\n",
			s.NumBlocks(), plural(s.NumBlocks(), "block", "blocks"), s.BlockSize, s.Width, text.HumanBytes(s.RawBytes()),
			text.HumanBytes(s.Stored), float64(s.RawBytes())/float64(max(s.Stored, 1)), 8*float64(s.Stored)/float64(s.Size))
	}
	return out.Flush()
}

// dbCompact is retro db compact: FILE rewritten with the losses and their
// depths only (db.Losses).
func dbCompact(args []string, e *env) error {
	fs := flag.NewFlagSet("db compact", flag.ContinueOnError)
	workers := fs.Int("workers", 0, "number of `workers`, and the most cores the command keeps busy (default 0: one per core)")
	fs.Usage = func() { fmt.Fprint(fs.Output(), dbHelp); fs.PrintDefaults() }
	if err := parseFlags(fs, args, e); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("db compact: want a database FILE and a NEWFILE, got %d arguments", fs.NArg())
	}
	if err := e.useWorkers("db compact", *workers); err != nil {
		return err
	}
	from, to := fs.Arg(0), fs.Arg(1)
	b, err := openDatabase(from) // the game's rules tell the illegal indices of a filled file
	if err != nil {
		return err
	}
	f := b.f
	defer f.Close()
	for k := range f.Sections {
		switch s := &f.Sections[k]; {
		case s.Coding == db.Losses:
			return fmt.Errorf("%s: compact already", from)
		case s.Coding == db.LossDepths && s.Depths == nil:
			return fmt.Errorf("%s: keeps the depths of losses only, and no count of its wins by depth", from)
		case s.Directory != nil:
			return fmt.Errorf("%s: stored by symmetry classes, whose wins' depths could not be found again: it keeps every depth", from)
		}
	}
	if same, err := samePath(from, to); err != nil || same {
		return cmp.Or(err, usagef("db compact: NEWFILE %s is FILE", to))
	}
	input, err := f.Input()
	if err != nil {
		return err
	}
	start := time.Now()
	w, err := db.Create(to, f.Game, f.Args, input, db.Options{Coding: db.Losses, Fill: true, Workers: *workers, GameVersion: f.GameVersion})
	if err != nil {
		return err
	}
	defer w.Abort()
	for k := range f.Sections {
		s := &f.Sections[k]
		src := db.Source{Label: s.Label, Values: f.Table(k), MaxDepth: s.MaxDepth, Start: s.Start, Reachable: s.Reachable, FirstTier: s.FirstTier}
		if s.Coding == db.LossDepths {
			// A compact file of an earlier retro: its wins' depths are
			// in its header only.
			src.WinDepths = s.Depths.Win
		}
		if s.Filled {
			_, g, err := b.instance(k, true)
			if err != nil {
				return err
			}
			src.Values = ruledValues{f.Table(k), g}
		}
		if err := w.Add(e.ctx, src); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	// The new file counts what it stores as it is written: the same values
	// as the old file's header, or a broken write.
	g, err := db.Open(to)
	if err != nil {
		return err
	}
	defer g.Close()
	for k := range f.Sections {
		a, b := &f.Sections[k], &g.Sections[k]
		if a.Counts != b.Counts || a.MaxDepth != b.MaxDepth || (a.Depths != nil && !a.Depths.Equal(b.Depths)) {
			os.Remove(to)
			return fmt.Errorf("%s: the values written differ from %s's header: removed", to, from)
		}
	}
	filled := ""
	if slices.ContainsFunc(g.Sections, func(s db.Section) bool { return s.Filled }) {
		filled = ", illegal indices filled" // not those of a solve from the start
	}
	fmt.Fprintf(e.stdout, "%s: %s, the losses and their depths only%s (%s: %s); written in %v\n", to, text.HumanBytes(g.FileSize()), filled,
		from, text.HumanBytes(f.FileSize()), time.Since(start).Round(time.Millisecond))
	return nil
}

// ruledValues are the values of a table whose illegal indices hold the
// codes before them (db.Section.Filled), with those indices told by the
// rules of g, the game the table's indices number, as a writer counts
// them.
type ruledValues struct {
	*db.Table
	g implicit.Game
}

func (r ruledValues) Lookup(i uint64) (engine.Value, uint64, error) {
	if r.g.Classify(i) == implicit.Illegal {
		return engine.Illegal, 0, nil
	}
	return r.Table.Lookup(i)
}

func (r ruledValues) LookupRange(lo, hi uint64, vals []engine.Value, depths []uint64) error {
	if err := r.Table.LookupRange(lo, hi, vals, depths); err != nil {
		return err
	}
	for i := range hi - lo {
		if r.g.Classify(lo+i) == implicit.Illegal {
			vals[i], depths[i] = engine.Illegal, 0
		}
	}
	return nil
}

// samePath reports whether a and b name the same file (b may not exist).
func samePath(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false, nil
	}
	return os.SameFile(sa, sb), nil
}
