package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/dobutsu"
	"github.com/retro-solver/retro/implicit/police"
)

// retro runs the command line with the given standard input and returns its
// standard output, standard error and exit status.
func retro(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{ctx: context.Background(), stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb,
		resident: func() uint64 { return 8 << 20 }}
	code := run(args, e)
	return out.String(), errb.String(), code
}

func TestSolveGraphExample(t *testing.T) {
	want := "0 win 1\n1 loss 2\n2 win 1\n3 loss 4\n4 win 3\n5 loss 0\n6 draw\n7 draw\n"
	for _, args := range [][]string{
		{"solve", "graph", "../../examples/small.graph"},
		{"solve", "graph", "-engine", "seq", "../../examples/small.graph"},
		{"solve", "graph", "-workers", "3", "../../examples/small.graph"},
	} {
		out, errs, code := retro(t, "", args...)
		if code != 0 || out != want || errs != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	data, err := os.ReadFile("../../examples/small.graph")
	if err != nil {
		t.Fatal(err)
	}
	if out, _, code := retro(t, string(data), "solve", "graph", "-"); code != 0 || out != want {
		t.Errorf("from stdin: exit %d, stdout %q", code, out)
	}
}

func TestSolveGraphBadInput(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"3 2\n0 1\n", "retro: stdin: line 2: the header promises 2 edges, but the input ends after 1\n"},
		{"3 1\n0 9\n", "retro: stdin: line 2: vertex 9 out of range [0, 3)\n"},
		{"2 1\nzero one\n", "retro: stdin: line 2: \"zero\" is not a number\n"},
	} {
		out, errs, code := retro(t, tc.in, "solve", "graph", "-")
		if code != 1 || out != "" || errs != tc.want {
			t.Errorf("input %q: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.in, code, out, errs, tc.want)
		}
	}
	if _, errs, code := retro(t, "", "solve", "chess", "KQvKX"); code != 1 || errs != "retro: material \"KQvKX\": 'X' at character 5 is not a piece (K, Q, R, B, N, P)\n" {
		t.Errorf("bad material: exit %d, stderr %q", code, errs)
	}
	path := filepath.Join(t.TempDir(), "bad.graph")
	os.WriteFile(path, []byte("1 1\n0 1\n"), 0o644)
	if _, errs, code := retro(t, "", "solve", "graph", path); code != 1 || errs != "retro: "+path+": line 2: vertex 1 out of range [0, 1)\n" {
		t.Errorf("bad file: exit %d, stderr %q", code, errs)
	}
	if _, errs, code := retro(t, "", "solve", "graph", "/no/such/file"); code != 1 || !strings.HasPrefix(errs, "retro: open /no/such/file") {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
	if _, errs, code := retro(t, "2000 0\n", "solve", "graph", "-max-memory", "1K", "-"); code != 1 || !strings.HasPrefix(errs, "retro: -max-memory 1.0 KiB: less than the ") {
		t.Errorf("-max-memory 1K: exit %d, stderr %q", code, errs)
	}
	if _, errs, code := retro(t, "100000000 100000000\n", "solve", "graph", "-max-memory", "1G", "-"); code != 1 ||
		!strings.Contains(errs, "needs about 3.0 GiB to build, more than the ") {
		t.Errorf("-max-memory 1G: exit %d, stderr %q", code, errs)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"solve"},
		{"solve", "chess"},
		{"solve", "chess", "KQvK", "KRvK"},
		{"solve", "chess", "-material", "KQvK", "KRvK"},
		{"solve", "graph"},
		{"solve", "graph", "a", "b"},
		{"solve", "graph", "-engine", "fast", "x"},
		{"solve", "graph", "-workers", "-2", "x"},
		{"solve", "graph", "-workers", "100000", "x"},
		{"solve", "graph", "-no-such-flag", "x"},
		{"solve", "graph", "-max-memory", "lots", "x"},
		{"help", "nothing"},
	} {
		out, errs, code := retro(t, "", args...)
		if code != 2 || out != "" || !strings.Contains(errs, "retro: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and a message", args, code, out, errs)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"help", "solve"}, {"help", "graph"}, {"-h"}} {
		out, _, code := retro(t, "", args...)
		if code != 0 || !strings.Contains(out, "retro solve") {
			t.Errorf("%v: exit %d, stdout %q", args, code, out)
		}
	}
	if _, errs, code := retro(t, "", "solve", "graph", "-h"); code != 0 || !strings.Contains(errs, "Usage: retro solve graph") {
		t.Errorf("solve graph -h: exit %d, stderr %q", code, errs)
	}
}

func TestProgressGoesToStderr(t *testing.T) {
	var out, errb bytes.Buffer
	e := &env{ctx: context.Background(), stdin: strings.NewReader("2 1\n0 1\n"), stdout: &out, stderr: &errb}
	if code := run([]string{"solve", "graph", "-progress", "-"}, e); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if out.String() != "0 win 1\n1 loss 0\n" {
		t.Fatalf("stdout %q", out.String())
	}
}

// TestProfileCPU writes a CPU profile and reads it back with go tool pprof.
func TestProfileCPU(t *testing.T) {
	dir := t.TempDir()
	_, errs, code := retro(t, "", "solve", "graph", "-profile", "cpu", "-profile-dir", dir, "../../examples/small.graph")
	path := filepath.Join(dir, "cpu.pprof")
	if code != 0 || !strings.Contains(errs, "cpu profile written to "+path) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	out, err := exec.Command("go", "tool", "pprof", "-top", path).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof -top %s: %v\n%s", path, err, out)
	}
	if _, errs, code := retro(t, "", "solve", "graph", "-profile", "heap", "../../examples/small.graph"); code != 2 {
		t.Fatalf("-profile heap: exit %d, stderr %q", code, errs)
	}
}

// TestVerifyProfile writes a CPU profile of a verify, as solve does.
func TestVerifyProfile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "small.db")
	if _, errs, code := retro(t, "", "solve", "graph", "-db", file, "../../examples/small.graph"); code != 0 {
		t.Fatalf("solve: exit %d, stderr %q", code, errs)
	}
	dir := t.TempDir()
	out, errs, code := retro(t, "", "verify", "-profile", "cpu", "-profile-dir", dir, file)
	path := filepath.Join(dir, "cpu.pprof")
	if st, err := os.Stat(path); code != 0 || !strings.HasPrefix(out, "ok ") || !strings.Contains(errs, "cpu profile written to "+path) || err != nil || st.Size() == 0 {
		t.Fatalf("verify -profile cpu: exit %d, stdout %q, stderr %q, file %v", code, out, errs, err)
	}
	for _, args := range [][]string{{"-profile", "heap", file}, {"-profile-dir", dir, file}} {
		if _, errs, code := retro(t, "", append([]string{"verify"}, args...)...); code != 2 || !strings.Contains(errs, "-profile") {
			t.Errorf("verify %q: exit %d, stderr %q; want a usage error", args, code, errs)
		}
	}
}

// TestSolvePawnsSample is the problem's own sample, from GAMES.md.
func TestSolvePawnsSample(t *testing.T) {
	want := "Black 0\nBlack 2\nBlack 2\nTie\nRed 75\n"
	for _, engine := range []string{"par", "seq"} {
		out, errs, code := retro(t, "", "solve", "pawns", "-engine", engine, "../../examples/pawns.txt")
		if code != 0 || out != want {
			t.Errorf("-engine %s: exit %d, stdout %q, stderr %q", engine, code, out, errs)
		}
	}
	if _, errs, code := retro(t, "0 1\n2 2\nO.\nX.\n", "solve", "pawns", "-"); code != 1 ||
		errs != "retro: stdin: board 1, line 4: 1 red pawns 'O': want exactly two\n" {
		t.Errorf("bad board: exit %d, stderr %q", code, errs)
	}
}

func TestSolvePolice(t *testing.T) {
	for _, tc := range []struct{ board, want string }{
		{"1 5\nP...T\n", "Police catches the thief in 7 moves\n"},
		{"1 6\nET...P\n", "The thief escapes in 2 moves\n"},
		{"1 3\nC*T\n", "Draw\n"},
	} {
		out, errs, code := retro(t, tc.board, "solve", "police", "-")
		if code != 0 || out != tc.want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", tc.board, code, out, errs, tc.want)
		}
	}
	if _, errs, code := retro(t, "2 2\nPT\n.x\n", "solve", "police", "-"); code != 1 ||
		errs != "retro: stdin: line 3: row 2, column 2: unknown cell 'x' (want '.', '*', 'E', 'P', 'C' or 'T')\n" {
		t.Errorf("bad board: exit %d, stderr %q", code, errs)
	}
	big := "300 300\nPT" + strings.Repeat(".", 298) + "\n" + strings.Repeat(strings.Repeat(".", 300)+"\n", 299)
	if out, errs, code := retro(t, big, "solve", "police", "-max-memory", "64M", "-"); code != 1 || out != "" ||
		!strings.Contains(errs, "300 x 300 board: solving 16200000000 positions needs about") {
		t.Errorf("300 x 300 with -max-memory 64M: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestGrundyAndSum(t *testing.T) {
	dir := t.TempDir()
	c3 := filepath.Join(dir, "c3.graph")   // a 3-cycle with an exit to a sink
	inf := filepath.Join(dir, "inf.graph") // a 2-cycle, both with an exit
	os.WriteFile(c3, []byte("4 4\n0 1\n1 2\n2 0\n0 3\n"), 0o644)
	os.WriteFile(inf, []byte("# two players chasing\n3 4\n0 1\n1 0\n0 2\n1 2\n"), 0o644)
	if out, errs, code := retro(t, "", "grundy", c3); code != 0 || out != "0 2\n1 1\n2 0\n3 0\n" {
		t.Errorf("grundy c3: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if out, _, code := retro(t, "3 4\n0 1\n1 0\n0 2\n1 2\n", "grundy", "-"); code != 0 || out != "0 inf{0}\n1 inf{0}\n2 0\n" {
		t.Errorf("grundy inf: exit %d, stdout %q", code, out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{c3 + ":0", c3 + ":1"}, "3 win\n"},
		{[]string{c3 + ":0", c3 + ":0"}, "0 loss\n"},
		{[]string{c3 + ":3"}, "0 loss\n"},
		{[]string{inf + ":0", c3 + ":2"}, "inf{0} win\n"},
		{[]string{inf + ":0", c3 + ":1"}, "inf{1} draw\n"},
		{[]string{inf + ":0", c3 + ":1", c3 + ":1"}, "inf{0} win\n"},
		{[]string{inf + ":0", inf + ":1"}, "inf{} draw\n"},
	} {
		out, errs, code := retro(t, "", append([]string{"sum"}, tc.args...)...)
		if code != 0 || out != tc.want {
			t.Errorf("sum %v: exit %d, stdout %q, stderr %q; want %q", tc.args, code, out, errs, tc.want)
		}
	}
	if _, errs, code := retro(t, "", "sum", c3+":4"); code != 1 || errs != "retro: "+c3+":4: vertex 4 out of range [0, 4)\n" {
		t.Errorf("vertex out of range: exit %d, stderr %q", code, errs)
	}
	if _, errs, code := retro(t, "2 1\n0 7\n", "grundy", "-"); code != 1 || errs != "retro: stdin: line 2: vertex 7 out of range [0, 2)\n" {
		t.Errorf("bad graph: exit %d, stderr %q", code, errs)
	}
	for _, args := range [][]string{{"sum"}, {"sum", c3}, {"sum", c3 + ":x"}, {"sum", "-:0", "-:1"}, {"grundy"}, {"grundy", "a", "b"}} {
		if _, errs, code := retro(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, stderr %q; want a usage error", args, code, errs)
		}
	}
}

// TestBenchQuick runs `retro bench -quick` and checks that its report
// parses: the machine's lines, a table row per measurement, and benchmark
// lines that benchstat reads.
func TestBenchQuick(t *testing.T) {
	out, errs, code := retro(t, "", "bench", "-quick", "-reps", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.HasPrefix(out, "cpu: ") {
		t.Fatalf("the report does not start with the CPU facts:\n%s", out)
	}
	var rows, lines int
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 11 && (f[1] == "par" || f[1] == "lean" || f[1] == "seq"): // "7.7 MiB" is two fields
			rows++
			if !strings.HasSuffix(f[10], "%") {
				t.Errorf("row %q has no edges/roof ratio", line)
			}
		case strings.HasPrefix(line, "BenchmarkSolve/workload="):
			lines++
			if len(f) != 10 || f[1] != "1" || f[3] != "ns/op" || f[5] != "positions/s" || f[7] != "edges/s" || f[9] != "peak-bytes" {
				t.Errorf("benchmark line %q is not in the Go format", line)
			}
		}
	}
	// 4 quick workloads x (par and lean with 1 and 2 workers, seq), 2 runs each.
	if rows != 20 || lines != 40 {
		t.Fatalf("%d table rows and %d benchmark lines, want 20 and 40:\n%s", rows, lines, out)
	}
}

func TestInfo(t *testing.T) {
	out, _, code := retro(t, "", "info")
	if code != 0 || !strings.HasPrefix(out, "cpu: ") || !strings.Contains(out, "GOMAXPROCS") || strings.Contains(out, "cores now") {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	// -cores adds three lines, ratios of integer work, of memory
	// operations and of integer work in phases; an argument is refused.
	out, _, code = retro(t, "", "info", "-cores")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	formats := []string{"cores now: %d threads do %fx the integer work of one", "memory now: %d threads do %fx the random read-modify-writes of one over 256 MiB",
		"phases now: %d threads do %fx the integer work of one in phases of 1 ms, a goroutine each a phase"}
	if code != 0 || len(lines) < len(formats) {
		t.Fatalf("info -cores: exit %d, stdout %q", code, out)
	}
	for k, format := range formats {
		var threads int
		var ratio float64
		line := lines[len(lines)-len(formats)+k]
		if n, err := fmt.Sscanf(line, format, &threads, &ratio); n != 2 || err != nil || threads < 1 || ratio <= 0 {
			t.Fatalf("info -cores: line %q (%v)", line, err)
		}
	}
	if _, errs, code := retro(t, "", "info", "extra"); code != 2 || !strings.Contains(errs, `unexpected argument "extra"`) {
		t.Fatalf("info extra: exit %d, stderr %q", code, errs)
	}
}

// TestJSONMatchesText decodes -json output and compares it with the text
// output of the same solves.
func TestJSONMatchesText(t *testing.T) {
	text, _, _ := retro(t, "", "solve", "graph", "../../examples/small.graph")
	out, errs, code := retro(t, "", "solve", "graph", "-json", "-stats", "../../examples/small.graph")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var s struct {
		summary
		Vertices []valueJSON
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var lines []string
	for v, x := range s.Vertices {
		line := fmt.Sprintf("%d %s", v, x.Value)
		if x.Depth != nil {
			line += fmt.Sprintf(" %d", *x.Depth)
		}
		lines = append(lines, line)
	}
	if got := strings.Join(lines, "\n") + "\n"; got != text {
		t.Fatalf("JSON vertices\n%s\ntext\n%s", got, text)
	}
	checkCounts(t, &s.summary)

	text, _, _ = retro(t, "", "solve", "pawns", "../../examples/pawns.txt")
	out, _, code = retro(t, "", "solve", "pawns", "-json", "-stats", "../../examples/pawns.txt")
	var p struct{ Boards []summary }
	if err := json.Unmarshal([]byte(out), &p); code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	var answers []string
	for i := range p.Boards {
		answers = append(answers, p.Boards[i].Answer)
		checkCounts(t, &p.Boards[i])
		if p.Boards[i].Start == nil {
			t.Fatal("a pawns board without its start value")
		}
	}
	if got := strings.Join(answers, "\n") + "\n"; got != text {
		t.Fatalf("JSON answers\n%s\ntext\n%s", got, text)
	}
}

// checkCounts checks that a summary's counts and histograms add up.
func checkCounts(t *testing.T, s *summary) {
	t.Helper()
	var total uint64
	for _, c := range s.Counts {
		total += c
	}
	if total != s.Positions || len(s.Counts) != 4 {
		t.Fatalf("counts %v add up to %d, not the %d positions", s.Counts, total, s.Positions)
	}
	if s.Stats == nil {
		return
	}
	var wins, losses uint64
	for d := range s.Stats.WinsByDepth {
		wins += s.Stats.WinsByDepth[d]
		losses += s.Stats.LossesByDepth[d]
	}
	if wins != s.Counts["win"] || losses != s.Counts["loss"] {
		t.Fatalf("histograms hold %d wins and %d losses, counts say %d and %d", wins, losses, s.Counts["win"], s.Counts["loss"])
	}
	if s.Counts["win"] > 0 && (s.Stats.LongestWin == nil || s.Stats.LongestWin.Position == "") {
		t.Fatal("no example of the longest win")
	}
}

func TestStatsText(t *testing.T) {
	// The answer alone on standard output, the statistics on standard
	// error, in words with plurals where they belong.
	out, errs, code := retro(t, "1 5\nP...T\n", "solve", "police", "-stats", "-")
	if code != 0 || out != "Police catches the thief in 7 moves\n" || !strings.HasPrefix(errs, "50 positions: 25 wins, 25 losses, 0 draws;") ||
		!strings.Contains(errs, "longest win: 7 plies") || !strings.Contains(errs, "the policeman to move\n") {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, errs)
	}
	_, errs, _ = retro(t, "1 2\nPT\n", "solve", "police", "-stats", "-")
	if !strings.HasPrefix(errs, "8 positions: 4 wins, 4 losses, 0 draws; max depth 2; 8 un-moves walked back\n") ||
		!strings.Contains(errs, "longest win: 1 ply,") {
		t.Fatalf("stderr:\n%s", errs)
	}
}

// TestSolveChess solves KQvK whole and tier by tier: both print the
// counts of Syzygy's published statistics (18081 wins with White to move;
// 2896 draws and 25160 losses with Black to move) and the longest mate,
// 10 moves; its database verifies, and a query by FEN reads its value.
func TestSolveChess(t *testing.T) {
	want := "white to move: 18081 wins, 0 draws, 0 losses; longest win 19 plies, longest loss 0 plies\n" +
		"black to move: 0 wins, 2896 draws, 25160 losses; longest win 0 plies, longest loss 20 plies\n"
	path := filepath.Join(t.TempDir(), "kqk.db")
	// The lean engine asked for solves the whole game (the tiers are the
	// parallel engine's), its depths on disk beside -db's file.
	lean := filepath.Join(t.TempDir(), "lean.db")
	for _, args := range [][]string{{"KQvK"}, {"-material", "KQvK", "-tiered"}, {"KQvK", "-db", path}, {"KQvK", "-engine", "lean", "-db", lean}} {
		out, errs, code := retro(t, "", append([]string{"solve", "chess"}, args...)...)
		if code != 0 || out != want {
			t.Errorf("solve chess %v: exit %d, stdout %q, stderr %q; want %q", args, code, out, errs, want)
		}
	}
	if out, errs, code := retro(t, "", "verify", path); code != 0 || !strings.HasPrefix(out, "ok ") {
		t.Errorf("verify: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if _, errs, code := retro(t, "", "solve", "chess", "KQvK", "-engine", "lean"); code != 2 || !strings.Contains(errs, "-engine lean") {
		t.Errorf("solve chess KQvK -engine lean, no -db: exit %d, stderr %q; want 2 and why", code, errs)
	}
	// Qg8 mates at once; with the queen on c7 instead, Black is
	// stalemated; any position of the lone king to move is lost.
	// The moves are named as UCI names them, on the board as typed.
	for fen, want := range map[string]string{
		"k7/8/1K6/8/8/8/8/6Q1 w - -": "win 1\n25 moves, best first:\n  1. loss 0    g1g8   k5Q1/8/1K6/8/8/8/8/8 b - -\n",
		"k7/2Q5/1K6/8/8/8/8/8 b - -": "draw\n1 move, best first:\n  1. draw      0000   k7/2Q5/1K6/8/8/8/8/8 b - -\n",
		"7k/8/8/8/8/8/8/KQ6 b - -":   "loss ",
		"8/8/8/8/8/1k6/8/K5Q1 w - -": "  1. loss 8    g1d4   8/8/8/8/3Q4/1k6/8/K7 b - -\n",
	} {
		out, errs, code := retro(t, "", "query", path, fen)
		if code != 0 || !strings.Contains(out, "\n"+want) {
			t.Errorf("query %q: exit %d, stdout %q, stderr %q; want a line %q", fen, code, out, errs, want)
		}
	}
	// play takes a move by its UCI name.
	if out, errs, code := retro(t, "g1g8\n", "play", path, "k7/8/1K6/8/8/8/8/6Q1 w - -"); code != 0 ||
		!strings.HasSuffix(out, "k5Q1/8/1K6/8/8/8/8/8 b - -\ngame over: retro, to move, loses\n") {
		t.Errorf("play g1g8: exit %d, stdout %q, stderr %q", code, tail(out), errs)
	}
}

// TestSolveChessTwins solves KNNvK, whose two knights are identical: each
// index counts as the classes of its knights told apart (its section's
// weight), and the counts are Syzygy's published ones (154 mates in one
// with White to move; 30 positions where Black is mated).
func TestSolveChessTwins(t *testing.T) {
	want := "white to move: 154 wins, 1437574 draws, 0 losses; longest win 1 plies, longest loss 0 plies\n" +
		"black to move: 0 wins, 1707858 draws, 30 losses; longest win 0 plies, longest loss 0 plies\n"
	if out, errs, code := retro(t, "", "solve", "chess", "KNNvK"); code != 0 || out != want {
		t.Errorf("solve chess KNNvK: exit %d, stdout %q, stderr %q; want %q", code, out, errs, want)
	}
}

func TestSolveQuixo(t *testing.T) {
	if out, errs, code := retro(t, "", "solve", "quixo", "-n", "3"); code != 0 || out != "win 7\n" {
		t.Errorf("quixo -n 3: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if _, errs, code := retro(t, "", "solve", "quixo", "-n", "5", "-max-memory", "16G"); code != 1 || !strings.Contains(errs, "tier by tier needs about") || !strings.Contains(errs, "GiB") {
		t.Errorf("quixo -n 5: exit %d, stderr %q", code, errs)
	}
	if _, errs, code := retro(t, "", "solve", "quixo", "-n", "9"); code != 1 || !strings.Contains(errs, "not supported") {
		t.Errorf("quixo -n 9: exit %d, stderr %q", code, errs)
	}
	if _, errs, code := retro(t, "", "solve", "quixo", "-n", "3", "board.txt"); code != 2 {
		t.Errorf("quixo with a file: exit %d, stderr %q", code, errs)
	}
}

func TestStatsReachable(t *testing.T) {
	out, errs, code := retro(t, "", "solve", "quixo", "-n", "3", "-json", "-stats")
	var s summary
	if err := json.Unmarshal([]byte(out), &s); code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s %s", code, err, out, errs)
	}
	checkCounts(t, &s)
	legal := s.Positions - s.Counts["illegal"]
	if s.Stats.Reachable == nil || *s.Stats.Reachable == 0 || *s.Stats.Reachable > legal || s.Stats.Counted != "symmetry classes" {
		t.Fatalf("reachable %v %q, with %d canonical positions", s.Stats.Reachable, s.Stats.Counted, legal)
	}
	if s.Answer != "win 7" || s.Start == nil || s.Start.Value != "win" {
		t.Fatalf("answer %q, start %+v", s.Answer, s.Start)
	}
}

// TestStatsReachableDobutsu: a game whose index says how many positions
// each class stands for reports both counts, in text and in JSON, and they
// agree with the engine's count over the game without mirroring.
func TestStatsReachableDobutsu(t *testing.T) {
	out, errs, code := retro(t, "", "solve", "dobutsu", "-pieces", "C", "-json", "-stats")
	var s summary
	if err := json.Unmarshal([]byte(out), &s); code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s %s", code, err, out, errs)
	}
	full, err := dobutsu.New(dobutsu.Config{Kinds: "C"})
	if err != nil {
		t.Fatal(err)
	}
	n, err := engine.Reachable(context.Background(), full, full.Start(), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Without mirroring every index reached is a position, but those where
	// a lion was just taken.
	lone, _, err := engine.ReachableClasses(context.Background(), full, full.Start(), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Stats.Reachable == nil || s.Stats.ReachableImages == nil || *s.Stats.ReachableImages != lone ||
		*s.Stats.Reachable >= lone || lone >= n || s.Stats.Counted != "positions up to symmetry" {
		t.Fatalf("reachable %v, with images %v (%q); %d positions of %d indices reached without mirroring",
			s.Stats.Reachable, s.Stats.ReachableImages, s.Stats.Counted, lone, n)
	}
	_, errs, _ = retro(t, "", "solve", "dobutsu", "-pieces", "C", "-stats")
	want := fmt.Sprintf("reachable from the start: %d positions up to symmetry (%d with their symmetric images)\n", *s.Stats.Reachable, lone)
	if !strings.Contains(errs, want) {
		t.Fatalf("-stats text lacks %q:\n%s", want, errs)
	}
}

// TestLeanEngine checks that the lean engine gives the answers, statistics
// and JSON of the parallel one, that auto picks it, that it is refused
// where every depth is needed, and that it is chosen by itself when the
// parallel engine does not fit in -max-memory.
func TestLeanEngine(t *testing.T) {
	board := police.Random(12, 11, 0.1, 0.02, 5).String()
	for _, tc := range []struct {
		input string
		args  []string
	}{
		{board, []string{"police", "-stats", "-"}},
		{board, []string{"police", "-json", "-stats", "-"}},
		{"", []string{"police", "-stats", "../../examples/police.txt"}},
		{"", []string{"pawns", "-stats", "../../examples/pawns.txt"}},
		{"", []string{"pawns", "-json", "-stats", "../../examples/pawns.txt"}},
		{"", []string{"quixo", "-n", "3", "-stats"}},
	} {
		args := func(engine string) []string {
			return append([]string{"solve", tc.args[0], "-engine", engine}, tc.args[1:]...)
		}
		wantOut, wantErr, code := retro(t, tc.input, args("par")...)
		if code != 0 {
			t.Fatalf("%v with par: exit %d, %s", tc.args, code, wantErr)
		}
		for _, engine := range []string{"lean", "auto"} {
			out, errs, code := retro(t, tc.input, args(engine)...)
			if code != 0 || out != wantOut || errs != wantErr {
				t.Errorf("%v with %s: exit %d, stdout %q, stderr %q; par says %q, %q", tc.args, engine, code, out, errs, wantOut, wantErr)
			}
		}
	}
	db := filepath.Join(t.TempDir(), "p.db")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"police", "-engine", "lean", "-reachable", "../../examples/police.txt"}, "no -reachable"},
		{[]string{"graph", "-engine", "lean", "../../examples/small.graph"}, "the game has no start, and without -db"},
	} {
		out, errs, code := retro(t, "", append([]string{"solve"}, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
	// With -db, the lean engine keeps every depth on disk: its database is
	// the parallel engine's, byte for byte (a game without a start too).
	for _, tc := range [][]string{
		{"police", "../../examples/police.txt"},
		{"pawns", "../../examples/pawns.txt"},
		{"graph", "../../examples/small.graph"},
	} {
		var files [2][]byte
		for k, engine := range []string{"par", "lean"} {
			path := filepath.Join(t.TempDir(), engine+".db")
			if _, errs, code := retro(t, "", "solve", tc[0], "-engine", engine, "-db", path, tc[1]); code != 0 {
				t.Fatalf("%v -engine %s -db: exit %d, %s", tc, engine, code, errs)
			}
			files[k], _ = os.ReadFile(path)
		}
		if len(files[0]) == 0 || !bytes.Equal(files[0], files[1]) {
			t.Errorf("%v: the lean engine's database (%d bytes) differs from the parallel one's (%d bytes)", tc, len(files[1]), len(files[0]))
		}
	}
	// 40 x 40, in a child process (whose memory is its own): the parallel
	// engine needs about 13 MiB, the lean one 5, and the process itself
	// 12 to 14 (auto chooses lean for police anyway, and says so); with
	// -db, whose writer takes 12 MiB more, likewise. Each limit lies
	// halfway between the two engines' estimates as the child makes them,
	// whose own share moves with the test binary's size.
	big := filepath.Join(t.TempDir(), "big.police")
	os.WriteFile(big, []byte(police.Random(40, 40, 0, 0.01, 2).String()), 0o644)
	want, _, _ := retro(t, "", "solve", "police", "-engine", "par", big)
	child := func(args ...string) (string, string, int) {
		cmd := exec.Command(os.Args[0], append(append([]string{"solve", "police"}, args...), big)...)
		cmd.Env = append(os.Environ(), childEnv+"=1")
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		code := 0
		if ee, ok := cmd.Run().(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return out.String(), errb.String(), code
	}
	between := func(args ...string) string {
		var est [2]uint64
		for k, engine := range []string{"lean", "par"} {
			est[k] = estimateOf(t, append(append([]string{"solve", "police", "-engine", engine}, args...), big)...)
		}
		if est[0]+4<<20 > est[1] {
			t.Fatalf("%v: the lean engine's estimate %d is not 4 MiB below the parallel one's %d", args, est[0], est[1])
		}
		return strconv.FormatUint((est[0]+est[1])/2, 10)
	}
	plain, withDB := between(), between("-db", db)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-max-memory", plain, "-engine", "par"}, 1, "needs about"},
		{[]string{"-max-memory", plain, "-progress"}, 0, "solving in the lean mode"},
		{[]string{"-max-memory", withDB, "-engine", "par", "-db", db}, 1, "needs about"},
		{[]string{"-max-memory", withDB, "-db", db, "-progress"}, 0, "every depth on disk"},
	} {
		out, errs, code := child(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) || (code == 0) != (out == want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d, %q and %q", tc.args, code, out, errs, tc.code, tc.want, want)
		}
	}
}

// TestSolveChessAll solves the 3-piece endgames with -all, each line's
// answer the same as the endgame's own solve, the tiers shared (the bare
// kings' tier solved once), a database each holding its own tier, which
// query and verify read with the tiers it reaches from the others (KvK.db
// first), and a second run that finds them all there.
func TestSolveChessAll(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tb")
	out, errs, code := retro(t, "", "solve", "chess", "-all", "3", "-dir", dir, "-workers", "2")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != 7 {
		t.Fatalf("solve chess -all 3: exit %d, stdout %q, stderr %q; want KvK, 5 endgames and a total", code, out, errs)
	}
	for i, sig := range []string{"KvK", "KBvK", "KNvK", "KQvK", "KRvK", "KPvK"} {
		whole, _, _ := retro(t, "", "solve", "chess", sig)
		want := sig + ": " + strings.ReplaceAll(strings.TrimSpace(whole), "\n", "; ") + "; "
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d: %q, want it to start %q", i+1, lines[i], want)
		}
		path := filepath.Join(dir, sig+".db")
		if out, errs, code := retro(t, "", "verify", path); code != 0 || !strings.HasPrefix(out, "ok ") {
			t.Errorf("verify %s: exit %d, stdout %q, stderr %q", path, code, out, errs)
		}
	}
	// The longest mates are the published ones: Black to move is mated in
	// at most 10 moves in KQvK, 16 in KRvK and 28 in KPvK (Gaviota's and
	// Nalimov's tables; bench/chess-dtm.sh compares every endgame).
	for i, plies := range map[int]int{3: 20, 4: 32, 5: 56} {
		_, black, _ := strings.Cut(lines[i], "; black to move: ")
		if !strings.Contains(black, fmt.Sprintf("; longest win 0 plies, longest loss %d plies;", plies)) {
			t.Errorf("line %d: %q, want Black to move mated in at most %d plies", i+1, lines[i], plies)
		}
	}
	if !strings.HasPrefix(lines[6], "5 of chess's family (and KvK, which they reach) in "+dir+": ") {
		t.Errorf("last line %q", lines[6])
	}
	kqk := filepath.Join(dir, "KQvK.db")
	if out, _, _ := retro(t, "", "db", "info", kqk); !strings.Contains(out, "values: 59136 positions") || !strings.Contains(out, "the losses and their depths only") ||
		!strings.Contains(out, "illegal indices filled") {
		t.Errorf("db info KQvK.db: %q; want KQvK's tier alone, 59136 positions, the losses and their depths only and illegal indices filled (-all's default)", out)
	}
	// Qg8 mates; the king that takes the queen leads into KvK, whose
	// value is read from KvK.db.
	for fen, want := range map[string]string{"k7/8/1K6/8/8/8/8/6Q1 w - -": "\nwin 1\n", "7K/8/8/8/8/8/1Q6/k7 b - -": "\ndraw\n1 move"} {
		if out, errs, code := retro(t, "", "query", kqk, fen); code != 0 || !strings.Contains(out, want) {
			t.Errorf("query KQvK.db %s: exit %d, stdout %q, stderr %q; want %q", fen, code, out, errs, want)
		}
	}
	// Once no endgame still to solve reads them, the tiers go.
	if _, err := os.Stat(filepath.Join(dir, "tiers")); !os.IsNotExist(err) {
		t.Errorf("the tiers' folder: %v, want it gone", err)
	}
	// A pawn's step leads into another of KPvK's tiers, a promotion into
	// KQvK.db.
	kpk := filepath.Join(dir, "KPvK.db")
	for fen, want := range map[string]string{"8/8/8/8/8/k7/4P3/4K3 w - -": "\nwin 41\n", "8/4P3/8/8/8/k7/8/4K3 w - -": "\nwin 13\n"} {
		if out, errs, code := retro(t, "", "query", kpk, fen); code != 0 || !strings.Contains(out, want) {
			t.Errorf("query KPvK.db %s: exit %d, stdout %q, stderr %q; want %q", fen, code, out, errs, want)
		}
	}
	out, errs, code = retro(t, "", "solve", "chess", "-all", "3", "-dir", dir)
	if code != 0 || strings.Count(out, " already\n") != 6 {
		t.Errorf("second run: exit %d, stdout %q, stderr %q; want every endgame there already", code, out, errs)
	}
	// Too little memory for the values verify reads from the other files
	// is one error line.
	if _, errs, code := retro(t, "", "verify", "-max-memory", "4M", kpk); code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "-max-memory 4.0 MiB") {
		t.Errorf("verify -max-memory 4M KPvK.db: exit %d, stderr %q; want one error line about -max-memory", code, errs)
	}
	// Without the file of a tier it reaches, a database says which.
	if err := os.Remove(filepath.Join(dir, "KvK.db")); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := retro(t, "", "query", kqk, "7K/8/8/8/8/8/1Q6/k7 b - -"); code != 1 || !strings.Contains(errs, "KvK.db") {
		t.Errorf("query without KvK.db: exit %d, stderr %q; want an error naming KvK.db", code, errs)
	}
	if _, errs, code := retro(t, "", "verify", kqk); code != 1 || !strings.Contains(errs, "KvK.db") {
		t.Errorf("verify without KvK.db: exit %d, stderr %q; want an error naming KvK.db", code, errs)
	}
	// -compact=false keeps every depth.
	full := filepath.Join(t.TempDir(), "full")
	if out, errs, code := retro(t, "", "solve", "chess", "-all", "3", "-dir", full, "-compact=false"); code != 0 || strings.Contains(out, " already") {
		t.Fatalf("solve chess -all 3 -compact=false: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if out, _, _ := retro(t, "", "db", "info", filepath.Join(full, "KQvK.db")); !strings.Contains(out, "values: 59136 positions") || strings.Contains(out, "the losses and their depths only") {
		t.Errorf("db info KQvK.db of -compact=false: %q; want every depth", out)
	}
	if _, errs, code := retro(t, "", "solve", "quixo", "-n", "3", "-tiered", "-linked", "-db", filepath.Join(t.TempDir(), "q.db")); code != 2 || !strings.Contains(errs, "-linked") {
		t.Errorf("quixo -linked: exit %d, stderr %q; want a usage error", code, errs)
	}
	for _, args := range [][]string{
		{"-all", "3"}, {"-all", "6", "-dir", dir}, {"-all", "3", "-dir", dir, "KQvK"},
		{"-all", "3", "-dir", dir, "-db", "x.db"}, {"-dir", dir, "KQvK"},
	} {
		_, errs, code := retro(t, "", append([]string{"solve", "chess"}, args...)...)
		if first, _, _ := strings.Cut(errs, "\n"); code != 2 || !strings.Contains(first, "-all") {
			t.Errorf("solve chess %v: exit %d, stderr %q; want a usage error naming -all", args, code, errs)
		}
	}
}

// TestSolveAllUnderMPI: -all under mpirun (as its variables say) is one
// usage line, not a second MPI_Init at its second member.
func TestSolveAllUnderMPI(t *testing.T) {
	t.Setenv("OMPI_COMM_WORLD_SIZE", "2")
	dir := t.TempDir()
	_, errs, code := retro(t, "", "solve", "chess", "-all", "3", "-dir", dir)
	if first, _, _ := strings.Cut(errs, "\n"); code != 2 || !strings.Contains(first, "-all does not run under mpirun") {
		t.Errorf("solve chess -all 3 under mpirun: exit %d, stderr %q; want a usage error", code, errs)
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("%s holds %d files, want none", dir, len(files))
	}
}

// TestTierReaders: -all removes a member's tiers once no member still to
// solve reads them (tierReaders), never before, and at the start those of
// the members there already that none still to solve reads.
func TestTierReaders(t *testing.T) {
	// C reads A and B, B reads A; D, solved already, reads C.
	members := []string{"A", "B", "C", "D"}
	reads := map[string][]string{"A": {"A"}, "B": {"B", "A"}, "C": {"C", "A", "B"}, "D": {"D", "C"}}
	groups := map[string][]implicit.Tier{}
	for _, m := range members {
		groups[m] = []implicit.Tier{{Name: m + "-1"}, {Name: m + "-2"}}
	}
	for _, tc := range []struct {
		done  map[string]bool
		after [][]string // the tiers there after the first sweep and each member's
	}{
		{map[string]bool{}, [][]string{{}, {"A"}, {"A", "B"}, {"C"}, {}}},
		{map[string]bool{"D": true}, [][]string{{}, {"A"}, {"A", "B"}, {}, {}}},
		{map[string]bool{"B": true, "D": true}, [][]string{{"B"}, {"A", "B"}, nil, {}, nil}}, // nil: no sweep
	} {
		dir := t.TempDir()
		have := func() []string {
			var names []string
			for _, m := range members {
				for _, tr := range groups[m] {
					if _, err := os.Stat(filepath.Join(dir, tr.Name+".tier")); err == nil && !slices.Contains(names, m) {
						names = append(names, m)
					}
				}
			}
			return names
		}
		write := func(m string) {
			for _, tr := range groups[m] {
				os.WriteFile(filepath.Join(dir, tr.Name+".tier"), []byte("tier"), 0o644)
			}
		}
		// The members there already left their tiers (a run stopped).
		for m := range tc.done {
			write(m)
		}
		r := newTierReaders(members, reads, tc.done)
		var solved []string
		for i, want := range tc.after {
			if i > 0 {
				m := members[i-1]
				if tc.done[m] {
					continue
				}
				write(m)
				solved = reads[m]
			}
			if err := r.sweep(nil, dir, groups, solved); err != nil {
				t.Fatal(err)
			}
			if got := have(); !slices.Equal(got, want) && (len(got) > 0 || len(want) > 0) {
				t.Errorf("done %v, after %d sweeps: tiers of %v there, want %v", tc.done, i+1, got, want)
			}
		}
	}
}

// TestTierPeak: the peak that -all's check of the disk expects is the
// most the folder holds as tierReaders keeps and removes the files, each
// a byte per position: measured here on files of those sizes, written as
// each member is solved and swept after it.
func TestTierPeak(t *testing.T) {
	// As TestTierReaders: C reads A and B, B reads A; D reads C.
	members := []string{"A", "B", "C", "D"}
	reads := map[string][]string{"A": {"A"}, "B": {"B", "A"}, "C": {"C", "A", "B"}, "D": {"D", "C"}}
	for _, shift := range []func(i int) int{func(i int) int { return i }, func(i int) int { return 3 - i }} {
		groups := map[string][]implicit.Tier{}
		for i, m := range members {
			size := uint64(1000 << shift(i)) // each member's tiers twice or half the last's
			groups[m] = []implicit.Tier{{Name: m + "-1", End: size}, {Name: m + "-2", End: size}}
		}
		for _, done := range []map[string]bool{{}, {"D": true}, {"B": true, "D": true}, {"A": true}, {"A": true, "B": true, "C": true}} {
			checkTierPeak(t, members, reads, groups, done)
		}
	}
	// B, there already, is read by the last member only: its files count
	// at the first's peak too.
	groups := map[string][]implicit.Tier{"A": {{Name: "A", End: 10000}}, "B": {{Name: "B", End: 5000}}, "C": {{Name: "C", End: 1}}}
	checkTierPeak(t, []string{"A", "B", "C"}, map[string][]string{"A": {"A"}, "B": {"B"}, "C": {"C", "B"}}, groups, map[string]bool{"B": true})
}

// checkTierPeak compares tierPeak with the most that a folder holds as
// the members not done are solved in order, each member's files written
// (a byte per position) before the sweep after it.
func checkTierPeak(t *testing.T, members []string, reads map[string][]string, groups map[string][]implicit.Tier, done map[string]bool) {
	t.Helper()
	dir := t.TempDir()
	write := func(m string) {
		for _, tr := range groups[m] {
			os.WriteFile(filepath.Join(dir, tr.Name+".tier"), make([]byte, tr.Size()), 0o644)
		}
	}
	for m := range done {
		write(m)
	}
	r := newTierReaders(members, reads, done)
	if err := r.sweep(nil, dir, groups, nil); err != nil {
		t.Fatal(err)
	}
	peak := filesBytes(dir)
	for _, m := range members {
		if done[m] {
			continue
		}
		write(m)
		peak = max(peak, filesBytes(dir))
		if err := r.sweep(nil, dir, groups, reads[m]); err != nil {
			t.Fatal(err)
		}
	}
	if got := tierPeak(members, reads, groups, done); got != peak {
		t.Errorf("done %v: tierPeak %d bytes, the folder held %d at the most", done, got, peak)
	}
}

// TestSolveAllProgress: with -progress, -all says before each member
// which it is, how many are to solve, the share of their positions done
// and the time the rest may take at the rate so far.
func TestSolveAllProgress(t *testing.T) {
	_, errs, code := retro(t, "", "solve", "chess", "-all", "3", "-dir", filepath.Join(t.TempDir(), "tb"), "-progress")
	if code != 0 {
		t.Fatalf("solve chess -all 3 -progress: exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"retro: -all 3: KvK, 1 of 6 to solve, 0.0% of the positions done\n", "retro: -all 3: KPvK, 6 of 6 to solve, "} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr %q; want a line %q", errs, want)
		}
	}
	if got, want := familyLeft(10*time.Second, 1, 4), ", 10s so far, about 30s left"; got != want {
		t.Errorf("familyLeft(10s, 1 of 4) = %q, want %q", got, want)
	}
	if got := familyLeft(10*time.Second, 0, 4); got != "" {
		t.Errorf("familyLeft before any position: %q, want none", got)
	}
}

// TestSolveAllDisk: -all refuses to start, in one line and before any
// member, where the disk lacks the room its shared tiers take at the peak.
func TestSolveAllDisk(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tb")
	var out, errb bytes.Buffer
	e := &env{ctx: context.Background(), stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		resident: func() uint64 { return 8 << 20 }, freeDisk: func(string) (uint64, bool) { return 100 << 10, true }}
	code := run([]string{"solve", "chess", "-all", "3", "-dir", dir}, e)
	if errs := errb.String(); code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "need about") || !strings.Contains(errs, "100.0 KiB free") {
		t.Errorf("solve chess -all 3 with 100 KiB free: exit %d, stdout %q, stderr %q; want one error line naming the room needed and free", code, out.String(), errs)
	}
	if dbs, _ := filepath.Glob(filepath.Join(dir, "*.db")); len(dbs) != 0 {
		t.Errorf("databases written: %v", dbs)
	}
	if _, err := os.Stat(filepath.Join(dir, "tiers")); !os.IsNotExist(err) {
		t.Errorf("the tiers' folder: %v, want it gone", err)
	}
}

// TestSoonest: -all solves each member just before the first that reads
// it, children first, from those that none reads, in the family's order.
func TestSoonest(t *testing.T) {
	members := []string{"A", "B", "C", "D", "E", "F"}
	// C reads A; D reads B; E reads D and C, in that order; F reads B.
	reads := map[string][]string{"A": {"A"}, "B": {"B"}, "C": {"C", "A"}, "D": {"D", "B"}, "E": {"E", "D", "C"}, "F": {"F", "B"}}
	if got, want := soonest(members, reads), []string{"A", "C", "B", "D", "E", "F"}; !slices.Equal(got, want) {
		t.Errorf("soonest: %v, want %v", got, want)
	}
}

// TestWorkersBoundCores: -workers N below the process's cores sets its
// parallelism to N, so that the phases beside the engine's workers (a
// symmetric game's classes, a graph's building, a database's compression)
// and the collector keep to N cores too; 0, or N at or above the cores,
// leaves it as it is.
func TestWorkersBoundCores(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	dir := t.TempDir()
	file := filepath.Join(dir, "small.db")
	if _, errs, code := retro(t, "", "solve", "graph", "-db", file, "../../examples/small.graph"); code != 0 {
		t.Fatalf("solve -db: exit %d, %s", code, errs)
	}
	for _, c := range []struct {
		args []string
		want int // the cores set, 0 for none
	}{
		{[]string{"solve", "graph", "-workers", "1", "../../examples/small.graph"}, 1},
		{[]string{"solve", "graph", "-workers", "3", "../../examples/small.graph"}, 3},
		{[]string{"solve", "graph", "../../examples/small.graph"}, 0},
		{[]string{"solve", "graph", "-workers", "4", "../../examples/small.graph"}, 0},
		{[]string{"solve", "graph", "-workers", "9", "../../examples/small.graph"}, 0},
		{[]string{"verify", "-workers", "2", file}, 2},
		{[]string{"db", "compact", "-workers", "1", file, filepath.Join(dir, "compact.db")}, 1},
	} {
		set := 0
		var out, errb bytes.Buffer
		e := &env{ctx: context.Background(), stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
			resident: func() uint64 { return 8 << 20 }, cores: func(n int) { set = n }}
		if code := run(c.args, e); code != 0 {
			t.Fatalf("%v: exit %d, %s", c.args, code, errb.String())
		}
		if set != c.want {
			t.Errorf("%v: cores set to %d, want %d", c.args, set, c.want)
		}
	}
}
