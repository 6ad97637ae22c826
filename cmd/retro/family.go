package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/retro-solver/retro/dist"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/games"
	"github.com/retro-solver/retro/internal/text"
	"github.com/retro-solver/retro/tier"
)

// familyFlags are the flags of `retro solve NAME -all N -dir DIR` for a
// game with a family (Descriptor.Family).
type familyFlags struct {
	all int
	dir string
}

func (f *familyFlags) add(fs *flag.FlagSet, d *implicit.Descriptor) {
	fs.IntVar(&f.all, "all", 0, fmt.Sprintf("solve every member of the %s family of up to `N` pieces into -dir's folder, children first, a database each (compact unless -compact=false), skipping those already there", d.Name))
	fs.StringVar(&f.dir, "dir", "", "with -all: the `folder` of the databases (NAME.db) and of the finished tiers they share (tiers/, each kept while a member still to solve reads it)")
}

// solveFamily solves every member of d's family of up to c.all pieces, each
// as `retro solve NAME MEMBER -db DIR/MEMBER.db -checkpoint DIR/tiers`
// with the run's other flags (-compact unless it says -compact=false, and
// -linked where its children are members already there: its database
// holds its own tier alone), and prints a line per member: its answer
// lines joined and the time it took, or that its database was there. The
// tiers are shared (implicit.SharedTiers): each member solves its own tiers
// only, its children's read from the files the members before it left in
// DIR/tiers; a member's files are removed once no member still to solve
// reads them (5-piece chess leaves 44 GB of them otherwise), and the
// members are ordered so that it is soon (soonest). It does not start
// where the disk lacks the room the tiers take at the peak (tierPeak).
func (c *solveRun) solveFamily(d *implicit.Descriptor, fs *flag.FlagSet) error {
	switch {
	case c.dir == "":
		return usagef("solve %s: -all needs -dir, the folder of the databases", d.Name)
	case fs.NArg() != 0:
		return usagef("solve %s: -all solves every %s: no %s argument (got %q)", d.Name, d.Arg, d.ArgName, fs.Arg(0))
	case c.dbPath != "" || c.checkpoint != "":
		return usagef("solve %s: -all writes DIR/NAME.db with its tiers in DIR/tiers: no -db or -checkpoint", d.Name)
	case c.plan || c.stats || c.json || c.reachable:
		return usagef("solve %s: -all prints a line per member: no -plan, -stats, -json or -reachable", d.Name)
	case dist.Launched():
		// Each member's solve would join MPI again after the last left it.
		return usagef("solve %s: -all does not run under mpirun: run each member's solve under it (retro solve %s MEMBER -tiered -linked -db DIR/MEMBER.db -checkpoint DIR/tiers)", d.Name, d.Name)
	}
	var argSet bool
	fs.Visit(func(f *flag.Flag) { argSet = argSet || f.Name == d.Arg })
	if argSet {
		return usagef("solve %s: -all solves every %s: no -%s", d.Name, d.Arg, d.Arg)
	}
	members, err := d.Family(c.all)
	if err != nil {
		return usagef("solve %s: -all %d: %v", d.Name, c.all, err)
	}
	listed := len(members)
	tiers := map[string][]string{}         // each member's tiers' games, its own first
	groups := map[string][]implicit.Tier{} // each game's tiers
	for _, m := range members {
		if tiers[m], err = tierGroups(d, m, groups); err != nil {
			return err
		}
	}
	members = soonest(withOthers(members, tiers), tiers)
	tierDir := filepath.Join(c.dir, "tiers")
	if err := os.MkdirAll(tierDir, 0o755); err != nil {
		return err
	}
	// Each member's solve is the command line it stands for, with the
	// flags of this one that it shares. Its database keeps the depths of
	// losses only (-compact) unless -compact=false says otherwise: a set
	// of tablebases is kept for long, and that halves it.
	var shared []string
	compactSet := false
	fs.Visit(func(f *flag.Flag) {
		compactSet = compactSet || f.Name == "compact"
		if f.Name != "all" && f.Name != "dir" {
			shared = append(shared, "-"+f.Name+"="+f.Value.String())
		}
	})
	if !compactSet {
		shared = append(shared, "-compact=true")
	}
	out := bufio.NewWriter(c.env.stdout)
	defer out.Flush()
	begin := time.Now()
	var bytesAll uint64
	done := map[string]bool{} // the members whose databases are there
	sizes := map[string]uint64{}
	for _, name := range members {
		path := filepath.Join(c.dir, text.FileName(name)+".db")
		size, err := memberThere(path, d, name)
		if err == nil {
			done[name], sizes[name] = true, size
		} else if _, serr := os.Stat(path); serr == nil && c.wantProgress() {
			fmt.Fprintf(c.env.stderr, "retro: %v; solving %s again\n", err, name)
		}
	}
	// The tiers of the members there already that no other member still
	// to solve reads go first (a run stopped before left them).
	var progress io.Writer
	if c.wantProgress() {
		progress = c.env.stderr
	}
	readers := newTierReaders(members, tiers, done)
	if err := readers.sweep(progress, tierDir, groups, nil); err != nil {
		return err
	}
	if err := c.checkTierDisk(d, tierDir, tierPeak(members, tiers, groups, done), progress); err != nil {
		return err
	}
	// The members' own positions measure the way: each line before a
	// member says where the run is and how long the rest may take.
	own := func(m string) uint64 {
		if len(tiers[m]) == 0 {
			return 0
		}
		return groupSize(groups, tiers[m][0])
	}
	var toSolve, solvedSoFar uint64
	count, at := 0, 0
	for _, m := range members {
		if !done[m] {
			toSolve += own(m)
			count++
		}
	}
	solveBegin := time.Now()
	for _, name := range members {
		path := filepath.Join(c.dir, text.FileName(name)+".db")
		if done[name] {
			bytesAll += sizes[name]
			fmt.Fprintf(out, "%s: in %s already\n", name, path)
			out.Flush()
			continue
		}
		at++
		if progress != nil {
			fmt.Fprintf(progress, "retro: -all %d: %s, %d of %d to solve, %s%s\n", c.all, name, at, count,
				familyShare(solvedSoFar, toSolve), familyLeft(time.Since(solveBegin), solvedSoFar, toSolve))
		}
		args := append(append([]string{d.Name}, shared...), "-tiered", "-db="+path, "-checkpoint="+tierDir)
		if allThere(tiers[name], done) {
			args = append(args, "-linked")
		}
		args = append(args, name)
		var lines bytes.Buffer
		member := *c.env
		member.stdout = &lines
		start := time.Now()
		if err := solveCmd(args, &member); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		st, err := os.Stat(path)
		if err != nil {
			return err
		}
		bytesAll += uint64(st.Size())
		done[name] = true
		solvedSoFar += own(name)
		answer := strings.ReplaceAll(strings.TrimSpace(lines.String()), "\n", "; ")
		fmt.Fprintf(out, "%s: %s; %s, %s\n", name, answer, time.Since(start).Round(time.Millisecond), text.HumanBytes(uint64(st.Size())))
		out.Flush()
		if err := readers.sweep(progress, tierDir, groups, tiers[name]); err != nil {
			return err
		}
	}
	// Every tier is gone: the folder's manifest goes, and the folder if
	// nothing else is in it.
	os.Remove(filepath.Join(tierDir, "manifest.json"))
	os.Remove(tierDir)
	others := ""
	if extra := members[:len(members)-listed]; len(extra) > 0 {
		others = fmt.Sprintf(" (and %s, which they reach)", strings.Join(extra, ", "))
	}
	fmt.Fprintf(out, "%d of %s's family%s in %s: %s of databases, in %s\n", listed, d.Name, others, c.dir, text.HumanBytes(bytesAll), time.Since(begin).Round(time.Millisecond))
	return nil
}

// familyShare says what share of the positions to solve is solved.
func familyShare(solved, total uint64) string {
	return fmt.Sprintf("%.1f%% of the positions done", 100*float64(solved)/float64(max(total, 1)))
}

// familyLeft says how long the rest of an -all run may take, at the rate
// of the positions solved so far in elapsed ("" before any): the endgames
// with pawns solve fewer positions a second than those without, so the
// figure grows as the run reaches them.
func familyLeft(elapsed time.Duration, solved, total uint64) string {
	if solved == 0 || solved >= total {
		return ""
	}
	left := time.Duration(float64(elapsed) * float64(total-solved) / float64(solved))
	return fmt.Sprintf(", %s so far, about %s left", elapsed.Round(time.Second), left.Round(time.Second))
}

// withOthers returns members preceded by the games their tiers reach that
// are not members themselves (chess: the bare kings, KvK), so that each
// member's tiers have a database of their own; tiers holds each member's.
func withOthers(members []string, tiers map[string][]string) []string {
	listed := map[string]bool{}
	for _, m := range members {
		listed[m] = true
	}
	var others []string
	for _, m := range members {
		for _, t := range tiers[m] {
			if !listed[t] {
				listed[t] = true
				others = append(others, t)
			}
		}
	}
	// The others are reached by the members and reach none of them: the
	// smallest first.
	slices.Reverse(others)
	return append(others, members...)
}

// tierReaders counts, for each game whose tiers may be in the shared
// folder, the members still to solve whose own tiers read them: its files
// go, and the game leaves the count, when that reaches 0.
type tierReaders struct {
	left map[string]int
}

// newTierReaders counts the readers of each game among the members not
// done (tiers: the games each member's own tiers read, its own first).
func newTierReaders(members []string, tiers map[string][]string, done map[string]bool) *tierReaders {
	r := &tierReaders{left: map[string]int{}}
	for _, m := range members {
		for _, g := range tiers[m] {
			r.left[g] += 0 // every game is counted, a reader or not
			if !done[m] {
				r.left[g]++
			}
		}
	}
	return r
}

// sweep takes a member just solved, whose tiers' games are these (none
// before the first), off the readers and removes from dir the tiers of
// every game that no member still to solve reads, saying so on progress
// if it is not nil.
func (r *tierReaders) sweep(progress io.Writer, dir string, groups map[string][]implicit.Tier, solved []string) error {
	for _, g := range solved {
		r.left[g]--
	}
	for _, g := range slices.Sorted(maps.Keys(r.left)) {
		if r.left[g] > 0 {
			continue
		}
		delete(r.left, g)
		freed, err := tier.RemoveShared(dir, groups[g])
		if err != nil {
			return err
		}
		if freed > 0 && progress != nil {
			fmt.Fprintf(progress, "retro: %s's tiers removed from %s (%s): no member still to solve reads them\n", g, dir, text.HumanBytes(freed))
		}
	}
	return nil
}

// tierPeak returns the most bytes of tier files that the shared folder
// holds while the members not done are solved in order (tiers: the games
// each member's own tiers read, its own first; groups: each game's
// tiers), as solveFamily keeps and removes them: a game's files from its
// member's solve, or from the start where a member done has them and one
// still to solve reads them, until no member still to solve reads them.
// A file takes a byte per position (its codes; the few codes too large
// for a byte add a little). -all 5: 15.3 GB, where 15.5 GB was measured
// at the peak (du every 10 s).
func tierPeak(members []string, tiers map[string][]string, groups map[string][]implicit.Tier, done map[string]bool) uint64 {
	left := newTierReaders(members, tiers, done).left
	live := map[string]bool{}
	var now uint64
	for g, n := range left {
		if n > 0 && done[g] {
			live[g] = true
			now += groupSize(groups, g)
		}
	}
	peak := now
	for _, m := range members {
		if done[m] {
			continue
		}
		for _, g := range tiers[m] {
			if !live[g] {
				live[g] = true
				now += groupSize(groups, g)
			}
		}
		peak = max(peak, now)
		for _, g := range tiers[m] {
			if left[g]--; left[g] == 0 {
				delete(live, g)
				now -= groupSize(groups, g)
			}
		}
	}
	return peak
}

// groupSize returns the positions of game g's tiers: the bytes of their
// files, a byte a position.
func groupSize(groups map[string][]implicit.Tier, g string) uint64 {
	var n uint64
	for _, t := range groups[g] {
		n += t.Size()
	}
	return n
}

// checkTierDisk refuses to start where the file system of dir, the shared
// tiers' folder, lacks the room that the tiers need at the peak (beside
// what its files hold already): better at the start than at the 141st
// member of -all 5, after an hour and a half. It says on progress (if not
// nil) what they need and what is free.
func (c *solveRun) checkTierDisk(d *implicit.Descriptor, dir string, peak uint64, progress io.Writer) error {
	there := filesBytes(dir)
	free, known := c.env.freeBytes(dir)
	if progress != nil {
		room := "free space not known"
		if known {
			room = text.HumanBytes(free) + " free"
		}
		fmt.Fprintf(progress, "retro: the tiers the members share take about %s at the peak in %s (%s there now, %s)\n", text.HumanBytes(peak), dir, text.HumanBytes(there), room)
	}
	if known && peak > there && peak-there > free {
		os.Remove(dir) // made for this run, if nothing is in it
		return fmt.Errorf("solve %s -all %d: the tiers the members share need about %s of disk at the peak in %s (its files hold %s now), and it has %s free; the databases need room beside them",
			d.Name, c.all, text.HumanBytes(peak), dir, text.HumanBytes(there), text.HumanBytes(free))
	}
	return nil
}

// filesBytes returns the bytes of the files in dir (0 if it cannot be read).
func filesBytes(dir string) uint64 {
	entries, _ := os.ReadDir(dir)
	var b uint64
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			b += uint64(info.Size())
		}
	}
	return b
}

// soonest orders members, children first, so that each is solved just
// before the first member that reads it (tiers: what each reads, its own
// first): from each member that no other reads, in the family's order,
// it places first the members it reads that are not placed yet, the same
// way and in the same order. A game's tiers then wait less for their last
// reader: over -all 5's tier files (44.7 GB), 15.3 GB at the peak instead
// of the family's order's 27.0 GB (a simulation from the solves' plans).
func soonest(members []string, tiers map[string][]string) []string {
	reads := func(m string) []string { return tiers[m][min(1, len(tiers[m])):] } // the games m's tiers read, its own left out
	read := map[string]bool{}
	rank := map[string]int{}
	for i, m := range members {
		rank[m] = i
		for _, g := range reads(m) {
			read[g] = true
		}
	}
	placed := map[string]bool{}
	var order []string
	var place func(m string)
	place = func(m string) {
		if placed[m] {
			return
		}
		placed[m] = true
		first := slices.Clone(reads(m))
		slices.SortFunc(first, func(a, b string) int { return rank[a] - rank[b] })
		for _, g := range first {
			if _, ok := rank[g]; ok {
				place(g)
			}
		}
		order = append(order, m)
	}
	for _, m := range members {
		if !read[m] {
			place(m)
		}
	}
	// Every member is read, at the end of a chain of readers, by one that
	// none reads: a safeguard, which places none.
	for _, m := range members {
		place(m)
	}
	return order
}

// tierGroups returns the names of the games whose tiers member name's own
// tiers read (implicit.GroupOf of their children), each once, its own
// first: what its solve with -linked reads (tier.Options.FirstGroupOnly).
// It adds the tiers of every game its game holds to groups. A game
// without tiers has none.
func tierGroups(d *implicit.Descriptor, name string, groups map[string][]implicit.Tier) ([]string, error) {
	_, insts, err := games.Load(d.Name, []string{"-" + d.Arg + "=" + name}, nil, implicit.LoadConfig{MaxMemory: 1 << 62})
	if err != nil {
		return nil, err
	}
	tg, ok := insts[0].Game().(implicit.Tiered)
	if !ok {
		return nil, nil
	}
	tiers := tg.Tiers()
	seen := map[string]bool{}
	for _, t := range tiers {
		g := implicit.GroupOf(t)
		if !seen[g] {
			seen[g] = true
			groups[g] = groups[g][:0]
		}
		groups[g] = append(groups[g], t)
	}
	names := []string{implicit.GroupOf(tiers[0])}
	_, end := implicit.GroupRange(tiers, 0)
	for _, t := range tiers[:end] {
		for _, c := range t.Children {
			if g := implicit.GroupOf(tiers[c]); !slices.Contains(names, g) {
				names = append(names, g)
			}
		}
	}
	return names, nil
}

// allThere reports whether a member of these tiers (its own first) has
// every other one's database there (done): its own database then holds
// its own tiers alone, the others read from theirs (solve -linked).
func allThere(tiers []string, done map[string]bool) bool {
	if len(tiers) < 2 {
		return false
	}
	for _, t := range tiers[1:] {
		if !done[t] {
			return false
		}
	}
	return true
}

// memberThere returns the size of the database at path if it holds the
// member name of d's family, whole as far as its header says (verify
// checks the rest).
func memberThere(path string, d *implicit.Descriptor, name string) (uint64, error) {
	b, err := openDatabase(path)
	if err != nil {
		return 0, err
	}
	defer b.f.Close()
	if want := "-" + d.Arg + "=" + name; b.d.Name != d.Name || !slices.Contains(b.f.Args, want) {
		return 0, fmt.Errorf("%s: holds %s %s, not %s", path, b.d.Name, strings.Join(b.f.Args, " "), name)
	}
	return b.f.FileSize(), nil
}
