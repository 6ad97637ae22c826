package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/internal/testsize"
	"github.com/retro-solver/retro/query"
)

// saved solves a game with -db and returns the database's path.
func saved(t *testing.T, args ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.db")
	full := append([]string{"solve", args[0], "-db", path}, args[1:]...)
	if _, errs, code := retro(t, "", full...); code != 0 {
		t.Fatalf("%v: exit %d, %s", full, code, errs)
	}
	return path
}

// TestDatabaseEveryGame solves each built-in game with -db, then checks
// that verify passes and that the file holds, index for index, what an
// independent solve in memory finds; queries of random positions print the
// same values.
func TestDatabaseEveryGame(t *testing.T) {
	cases := [][]string{
		{"graph", "../../examples/small.graph"},
		{"graph", "testdata/golden/r2000.graph"},
		{"pawns", "../../examples/pawns.txt"},
		{"police", "../../examples/police.txt"},
		{"police", "testdata/golden/r10x12.police"},
		{"quixo", "-n", "2"},
		{"quixo", "-n", "3"},
		{"dobutsu", "-pieces", "C"},
		{"morris", "-max-stones", "3"}, // queried as played (implicit.AsPlayed)
		{"morris", "-stones", "3"},     // the placement tiers, verified in parts
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			path := saved(t, args...)
			out, errs, code := retro(t, "", "verify", path)
			if code != 0 || errs != "" || !strings.HasPrefix(out, "ok ") {
				t.Fatalf("verify: exit %d, %q %q", code, out, errs)
			}
			if args[0] == "morris" || args[0] == "quixo" {
				// Tier by tier: the same counts and moves.
				byTier, errs, code := retro(t, "", "verify", "-tiered", path)
				if code != 0 || errs != "" || cutTime(byTier) != cutTime(out) {
					t.Fatalf("verify -tiered: exit %d, %q %q; verify said %q", code, byTier, errs, out)
				}
			}
			b, err := openDatabase(path)
			if err != nil {
				t.Fatal(err)
			}
			defer b.f.Close()
			for k := range b.f.Sections {
				p, solved, err := b.instance(k, true)
				if err != nil {
					t.Fatal(err)
				}
				r, err := engine.Sequential(context.Background(), solved, engine.Options{})
				if err != nil {
					t.Fatal(err)
				}
				tab := b.f.Table(k)
				for i := range r.Size() {
					v, d, err := tab.Lookup(i)
					if err != nil || v != r.Value(i) || d != r.Depth(i) {
						t.Fatalf("instance %d, index %d: stored %v %d (%v), solved %v %d", k+1, i, v, d, err, r.Value(i), r.Depth(i))
					}
				}
				checkQueries(t, path, k, p, r)
			}
		})
	}
}

// checkQueries runs query -json on random positions of instance k and
// compares each answer and each move's with the solve in memory.
func checkQueries(t *testing.T, path string, k int, p query.Solved, r *engine.Result) {
	rng := rand.New(rand.NewPCG(uint64(k), 7))
	index := func(s uint64) uint64 {
		if p.Index != nil {
			return p.Index(s)
		}
		return s
	}
	for tries := 0; tries < 20; {
		s := rng.Uint64N(p.Game.Size())
		if r.Value(index(s)) == engine.Illegal {
			continue
		}
		tries++
		out, errs, code := retro(t, "", "query", "-json", "-instance", fmt.Sprint(k+1), "-index", fmt.Sprint(s), path)
		if code != 0 {
			t.Fatalf("query -index %d: exit %d, %s", s, code, errs)
		}
		var got moveJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("query -index %d: %v in %q", s, err, out)
		}
		check := func(m moveJSON) {
			i := index(m.Index)
			want := toJSON(p.Game, m.Index, query.Entry{Value: r.Value(i), Depth: r.Depth(i)})
			if m.Value != want.Value || (m.Depth == nil) != (want.Depth == nil) || m.Depth != nil && *m.Depth != *want.Depth {
				t.Fatalf("query -index %d: position %d is %s %v, solved %s %v", s, m.Index, m.Value, m.Depth, want.Value, want.Depth)
			}
		}
		check(got)
		for _, m := range got.Moves {
			check(m)
		}
		if len(got.Moves) > 0 && got.Value != "draw" {
			// The best move is listed first and keeps the promise of the value.
			best := got.Moves[0]
			if (got.Value == "win") != (best.Value == "loss") || *best.Depth+1 != *got.Depth && got.Value == "win" {
				t.Fatalf("query -index %d: %s %d, but the first move reaches %s %v", s, got.Value, *got.Depth, best.Value, best.Depth)
			}
		}
	}
}

// TestDatabaseQuixo4 checks a symmetric game's file of many blocks, its
// directory read to find a class (Quixo 4x4: 21 blocks): verify passes,
// and the start's query gives the value and depth that the solve printed,
// its best move first.
func TestDatabaseQuixo4(t *testing.T) {
	testsize.SkipUnlessLong(t)
	path := filepath.Join(t.TempDir(), "q4.db")
	solved, errs, code := retro(t, "", "solve", "quixo", "-n", "4", "-db", path)
	if code != 0 {
		t.Fatalf("solve: exit %d, %q", code, errs)
	}
	if out, errs, code := retro(t, "", "verify", path); code != 0 || !strings.HasPrefix(out, "ok ") {
		t.Fatalf("verify: exit %d, %q %q", code, out, errs)
	}
	out, _, code := retro(t, "", "query", "-json", path)
	var got moveJSON
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || got.Depth == nil || len(got.Moves) == 0 {
		t.Fatalf("query: exit %d, %v, %+v", code, err, got)
	}
	if line := fmt.Sprintf("%s %d\n", got.Value, *got.Depth); line != solved {
		t.Fatalf("query: the start is %q, the solve printed %q", line, solved)
	}
	if best := got.Moves[0]; got.Value == "win" && (best.Value != "loss" || *best.Depth+1 != *got.Depth) {
		t.Fatalf("the start: win %d, but the first move reaches %s %v", *got.Depth, best.Value, best.Depth)
	}
}

// TestPlay drives retro play through whole games: the side the database
// says wins, playing the first (best) move each turn, wins in exactly the
// depth of the start; the losing side, playing its worst move each turn,
// still loses.
func TestPlay(t *testing.T) {
	for _, args := range [][]string{{"quixo", "-n", "3"}, {"police", "../../examples/police.txt"}, {"dobutsu", "-pieces", "C"}} {
		path := saved(t, args...)
		out, _, _ := retro(t, "", "query", "-json", path)
		var start moveJSON
		if err := json.Unmarshal([]byte(out), &start); err != nil {
			t.Fatal(err)
		}
		winner, loser := "first", "second"
		if start.Value == "loss" {
			winner, loser = loser, winner
		}
		out, errs, code := retro(t, strings.Repeat("1\n", 100), "play", "-as", winner, path)
		if code != 0 || errs != "" || !strings.HasSuffix(out, "game over: retro, to move, loses\n") {
			t.Fatalf("%v as %s: exit %d, stderr %q, output ends %q", args, winner, code, errs, tail(out))
		}
		if plies := strings.Count(out, "\nretro to move") + strings.Count(out, "\nyou to move"); plies != int(*start.Depth) {
			t.Fatalf("%v: the game took %d plies, the start is %s %d", args, plies, start.Value, *start.Depth)
		}
		if args[0] == "dobutsu" {
			// Its index keeps positions as Sente to move; play shows them as
			// they stand, Sente and Gote to move in turn.
			k := 0
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, "Sente to move") || strings.HasPrefix(line, "Gote to move") {
					if want := []string{"Sente", "Gote"}[k%2]; !strings.HasPrefix(line, want) {
						t.Fatalf("board %d says %q, want %s to move:\n%s", k, line, want, out)
					}
					k++
				}
			}
			if k != int(*start.Depth)+1 {
				t.Fatalf("%d boards for %d plies", k, *start.Depth)
			}
		}
		// The loser picks the last move listed, the worst.
		out, _, _ = retro(t, worstMoves(t, path, loser), "play", "-as", loser, path)
		if !strings.HasSuffix(out, "game over: you, to move, loses\n") {
			t.Fatalf("%v as %s: output ends %q", args, loser, tail(out))
		}
	}
}

// worstMoves plays a game as side against retro to find the number of moves
// offered at each of the human's turns, and answers each with the last.
func worstMoves(t *testing.T, path, side string) string {
	var in strings.Builder
	for range 200 {
		out, _, _ := retro(t, in.String(), "play", "-as", side, path)
		if strings.Contains(out, "game over") {
			return in.String()
		}
		// The last prompt says how many moves there are: "(1-N or ...".
		i := strings.LastIndex(out, "your move (1-")
		var n int
		fmt.Sscanf(out[i+len("your move (1-"):], "%d", &n)
		fmt.Fprintf(&in, "%d\n", n)
	}
	t.Fatalf("no end after 200 moves")
	return ""
}

func tail(s string) string { return s[max(0, len(s)-300):] }

// TestPlayCommands checks undo, bad answers and the end of the input.
func TestPlayCommands(t *testing.T) {
	path := saved(t, "quixo", "-n", "3")
	out, errs, code := retro(t, "u\n0\nzz\n1\nu\nq\n", "play", path)
	for _, want := range []string{"nothing to undo", "no move 0: choose 1 to", `"zz": quixo:`, "retro to move", "bye\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, %q", code, errs)
	}
	// After the undo, the start is shown again: twice before the quit.
	if n := strings.Count(out, "you to move: win 7"); n != 2 {
		t.Fatalf("the start shown %d times, want 2:\n%s", n, out)
	}
	if out, _, code := retro(t, "", "play", "-as", "second", path); code != 0 || !strings.HasSuffix(out, "bye\n") {
		t.Fatalf("end of input: exit %d, %q", code, tail(out))
	}
}

// TestQueryErrors checks that bad positions and indices get one error
// line each, and that the good ones are still answered.
func TestQueryErrors(t *testing.T) {
	path := saved(t, "quixo", "-n", "3")
	out, errs, code := retro(t, "", "query", path, "XX./.O./.../X to move", "XXXX", "XXX/XXX/XXX/Z to move")
	if code != 1 || !strings.HasPrefix(out, "position XX./.O./.../X to move") || strings.Count(errs, "\n") != 2 ||
		!strings.Contains(errs, "position 2 \"XXXX\"") || !strings.Contains(errs, "position 3") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for _, idx := range []string{"39366", "-1", "x"} {
		if _, errs, code := retro(t, "", "query", "-index", idx, path); code == 0 || strings.Count(errs, "\n") != 1 {
			t.Fatalf("-index %s: exit %d, %q", idx, code, errs)
		}
	}
	if _, errs, code := retro(t, "", "query", "-instance", "2", path); code != 2 || !strings.Contains(errs, "holds 1") {
		t.Fatalf("-instance 2: exit %d, %q", code, errs)
	}
}

// TestDatabaseDamagedCLI flips a byte of the only block: verify and query
// refuse, naming the block.
func TestDatabaseDamagedCLI(t *testing.T) {
	path := saved(t, "quixo", "-n", "3")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[20] ^= 1
	os.WriteFile(path, b, 0o644)
	for _, cmd := range []string{"verify", "query"} {
		out, errs, code := retro(t, "", cmd, path)
		if code != 1 || out != "" || !strings.Contains(errs, "block 0: checksum mismatch") {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", cmd, code, out, errs)
		}
	}
}

// TestReachableSolve solves quixo 3 x 3 from the start only and checks the
// database against the whole solve's: the same value on every reached
// position, the others unreached, as many reached as -stats counts; verify
// passes, and a query of an unreached position says so.
func TestReachableSolve(t *testing.T) {
	full := saved(t, "quixo", "-n", "3")
	part := saved(t, "quixo", "-n", "3", "-reachable")
	out, errs, code := retro(t, "", "verify", part)
	if code != 0 || !strings.HasPrefix(out, "ok ") {
		t.Fatalf("verify: exit %d, %q %q", code, out, errs)
	}
	if out, _, _ := retro(t, "", "db", "info", part); !strings.Contains(out, "only the positions reachable from the start") {
		t.Fatalf("db info: %q", out)
	}
	_, stats, _ := retro(t, "", "solve", "quixo", "-n", "3", "-stats")
	var reachable uint64
	if _, err := fmt.Sscanf(stats[strings.Index(stats, "reachable from the start:"):], "reachable from the start: %d", &reachable); err != nil {
		t.Fatal(err)
	}
	bf, err := openDatabase(full)
	if err != nil {
		t.Fatal(err)
	}
	defer bf.f.Close()
	bp, err := openDatabase(part)
	if err != nil {
		t.Fatal(err)
	}
	defer bp.f.Close()
	pf, _, err := bf.instance(0, false)
	if err != nil {
		t.Fatal(err)
	}
	pp, _, err := bp.instance(0, false)
	if err != nil {
		t.Fatal(err)
	}
	reached, unreached := uint64(0), uint64(0)
	for s := range pp.Game.Size() {
		ep, err := pp.Lookup(s)
		if err != nil {
			t.Fatal(err)
		}
		if ep.Value == engine.Illegal {
			if unreached == 0 {
				out, _, _ := retro(t, "", "query", "-index", fmt.Sprint(s), part)
				if !strings.Contains(out, "\nunreached\n") {
					t.Errorf("query of unreached index %d: %q", s, out)
				}
			}
			unreached++
			continue
		}
		if ef, _ := pf.Lookup(s); ef != ep {
			t.Fatalf("position %d: %v reached, %v in the whole solve", s, ep, ef)
		}
	}
	for k := range bp.f.Table(0).Size() {
		if v, _, _ := bp.f.Table(0).Lookup(k); v != engine.Illegal {
			reached++
		}
	}
	if reached != reachable || unreached == 0 {
		t.Fatalf("%d classes solved, -stats reaches %d; %d positions unreached", reached, reachable, unreached)
	}
	if _, errs, code := retro(t, "", "solve", "graph", "-reachable", "../../examples/small.graph"); code != 2 || !strings.Contains(errs, "no start") {
		t.Fatalf("graph -reachable: exit %d, %q", code, errs)
	}
}

// cutTime drops the time from verify's lines ("... checked in 1.2s").
func cutTime(out string) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if i := strings.LastIndex(l, " in "); i >= 0 {
			l = l[:i]
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

// earlier writes the file at path as an earlier retro's db compact did,
// keeping the depths of losses only (db.LossDepths), its illegal indices
// stored as such (format 2) or filled (format 3), and returns the new
// file's path.
func earlier(t *testing.T, path string, fill bool) string {
	t.Helper()
	f, err := db.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	input, err := f.Input()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "old.db")
	w, err := db.Create(out, f.Game, f.Args, input, db.Options{Coding: db.LossDepths, Fill: fill, GameVersion: f.GameVersion})
	if err != nil {
		t.Fatal(err)
	}
	for k := range f.Sections {
		s := &f.Sections[k]
		src := db.Source{Label: s.Label, Values: f.Table(k), MaxDepth: s.MaxDepth, Start: s.Start, Reachable: s.Reachable, FirstTier: s.FirstTier}
		if err := w.Add(context.Background(), src); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCompactDatabase checks the files that keep the losses alone: solve
// -compact writes the same bytes as db compact of the full file; verify
// passes it with the full file's counts (tier by tier too); and queries of
// the start and of random positions print what the full file's print, the
// wins, their depths and the draws found from their moves, and illegal
// indices are refused alike. A file that keeps the depths of losses only,
// of format 2 (illegal indices not filled) or 3 (filled), is compacted to
// the same bytes. A game stored by symmetry classes, and a file compact
// already, are refused.
func TestCompactDatabase(t *testing.T) {
	cases := [][]string{
		{"graph", "testdata/golden/r2000.graph"},
		{"pawns", "../../examples/pawns.txt"},
		{"police", "testdata/golden/r10x12.police"},
		{"morris", "-max-stones", "3"},
		{"morris", "-stones", "3", "-tiered"}, // the database written from the tier files
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			full := saved(t, args...)
			solved := saved(t, append([]string{args[0], "-compact"}, args[1:]...)...)
			compacted := filepath.Join(t.TempDir(), "c.db")
			if out, errs, code := retro(t, "", "db", "compact", full, compacted); code != 0 || !strings.Contains(out, "the losses and their depths only") {
				t.Fatalf("db compact: exit %d, %q %q", code, out, errs)
			}
			a, errA := os.ReadFile(solved)
			b, errB := os.ReadFile(compacted)
			if errA != nil || errB != nil || !bytes.Equal(a, b) {
				t.Fatalf("solve -compact and db compact wrote different files (%d and %d bytes; %v %v)", len(a), len(b), errA, errB)
			}
			want, _, _ := retro(t, "", "verify", full)
			flags := [][]string{nil}
			if args[0] == "morris" {
				flags = append(flags, []string{"-tiered"})
			}
			for _, f := range flags {
				out, errs, code := retro(t, "", append(append([]string{"verify"}, f...), solved)...)
				if code != 0 || errs != "" || cutTime(strings.ReplaceAll(out, solved, full)) != cutTime(want) {
					t.Fatalf("verify %v: exit %d, %q %q; the full file: %q", f, code, out, errs, want)
				}
			}
			bf, err := openDatabase(full)
			if err != nil {
				t.Fatal(err)
			}
			defer bf.f.Close()
			for k := range bf.f.Sections {
				inst := fmt.Sprint(k + 1)
				p, _, err := bf.instance(k, false)
				if err != nil {
					t.Fatal(err)
				}
				queries := [][]string{{"query", "-json", "-instance", inst}}
				rng := rand.New(rand.NewPCG(uint64(k), 9))
				for range 30 {
					// Illegal indices too, refused alike where the
					// compact file holds other codes there.
					s := rng.Uint64N(p.Game.Size())
					queries = append(queries, []string{"query", "-json", "-instance", inst, "-index", fmt.Sprint(s)})
				}
				for _, q := range queries {
					want, _, wcode := retro(t, "", append(q, full)...)
					got, errs, code := retro(t, "", append(q, solved)...)
					if code != wcode || got != want {
						t.Fatalf("%v: exit %d, %q (%s); the full file: exit %d, %q", q, code, got, errs, wcode, want)
					}
				}
			}
			if _, errs, code := retro(t, "", "db", "compact", solved, filepath.Join(t.TempDir(), "d.db")); code != 1 || !strings.Contains(errs, "compact already") {
				t.Fatalf("db compact of a compact file: exit %d, %q", code, errs)
			}
			// A compact file of an earlier retro (format 2: its illegal
			// indices hold 0; format 3: the codes before them, which the
			// game's rules tell) is compacted to the same bytes.
			for _, fill := range []bool{false, true} {
				old := earlier(t, full, fill)
				again := filepath.Join(t.TempDir(), "e.db")
				if out, errs, code := retro(t, "", "db", "compact", old, again); code != 0 || !strings.Contains(out, "the losses and their depths only") {
					t.Fatalf("db compact of a file that keeps the depths of losses only, filled %v: exit %d, %q %q", fill, code, out, errs)
				}
				if b, err := os.ReadFile(again); err != nil || !bytes.Equal(a, b) {
					t.Fatalf("db compact of a file that keeps the depths of losses only, filled %v, wrote %d bytes, solve -compact %d (%v)", fill, len(b), len(a), err)
				}
			}
		})
	}
	q := saved(t, "quixo", "-n", "2")
	if _, errs, code := retro(t, "", "db", "compact", q, filepath.Join(t.TempDir(), "q.db")); code != 1 || !strings.Contains(errs, "symmetry classes") {
		t.Fatalf("db compact of quixo: exit %d, %q", code, errs)
	}
	if _, errs, code := retro(t, "", "solve", "quixo", "-n", "2", "-compact", "-db", filepath.Join(t.TempDir(), "q.db")); code != 2 || !strings.Contains(errs, "symmetry classes") {
		t.Fatalf("solve quixo -compact: exit %d, %q", code, errs)
	}
}

// TestWithMemo: the limit a verify refusal names is the least that leaves
// what it needs beside the memo that limit sets aside.
func TestWithMemo(t *testing.T) {
	for _, need := range []uint64{0, 1, 15, 16, 1 << 20, 29<<20 + 12345, query.MaxMemoBytes * 15, query.MaxMemoBytes*16 + 7, 1 << 40} {
		l := withMemo(need)
		if l-memoBytes(l) < need {
			t.Errorf("withMemo(%d) = %d leaves %d", need, l, l-memoBytes(l))
		}
		if l > 0 && l-1-memoBytes(l-1) >= need {
			t.Errorf("withMemo(%d) = %d, but %d leaves %d", need, l, l-1, l-1-memoBytes(l-1))
		}
	}
}

// TestSavingLine checks the progress line of a tiered solve's database:
// the positions it says it saves are the database's, for a chess endgame
// whose database holds its own tiers alone (-linked, as -all writes them)
// as for a game whose database holds every tier.
func TestSavingLine(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"solve", "chess", "-all", "3", "-dir", dir, "-progress"},
		{"solve", "quixo", "-n", "3", "-tiered", "-progress", "-db", filepath.Join(dir, "q3.db")},
	} {
		_, errs, code := retro(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		lines := 0
		for _, line := range strings.Split(errs, "\n") {
			var n uint64
			var rest string
			if _, err := fmt.Sscanf(line, "retro: saving %d positions %s", &n, &rest); err != nil {
				continue
			}
			path := line[strings.LastIndex(line, " to ")+len(" to "):]
			f, err := db.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			// A symmetric game's table holds its classes, of IndexSize
			// positions; any other's IndexSize is its Size.
			if size := f.Table(0).IndexSize; size != n {
				t.Errorf("%q: the database holds %d positions", line, size)
			}
			f.Close()
			lines++
		}
		if lines == 0 {
			t.Errorf("%v: no line says what it saves:\n%s", args, errs)
		}
	}
}
