package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/implicit/police"
	"github.com/retro-solver/retro/internal/testsize"
)

// child runs retro (this test binary standing in for it) in a process of
// its own and returns its standard error, exit status and peak memory.
func child(t *testing.T, args ...string) (string, int, uint64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"=1", peakEnv+"=1")
	var errb strings.Builder
	cmd.Stderr = &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	m := peakLine.FindStringSubmatch(errb.String())
	if m == nil {
		t.Fatalf("%v: no peak in %q", args, errb.String())
	}
	peak, _ := strconv.ParseUint(m[1], 10, 64)
	if peak == 0 {
		t.Skip("no peak memory on this system")
	}
	return errb.String(), code, peak
}

var peakLine = regexp.MustCompile(`peak (\d+) bytes`)

var estimateLine = regexp.MustCompile(`retro: memory about .* \((\d+) bytes in all\)`)

// estimateOf returns the estimate that the solve args (with -progress)
// makes in a child process of its own.
func estimateOf(t *testing.T, args ...string) uint64 {
	t.Helper()
	errs, code, _ := child(t, append(args, "-progress")...)
	m := estimateLine.FindStringSubmatch(errs)
	if code != 0 || m == nil {
		t.Fatalf("%v: exit %d, no estimate in %q", args, code, errs)
	}
	est, _ := strconv.ParseUint(m[1], 10, 64)
	return est
}

// leastLine is verify's refusal of a limit too small for a cache of its
// fewest blocks (of each file its moves read, for a file whose moves read
// others), with the least it needs.
var leastLine = regexp.MustCompile(`needs? at least ([0-9.]+) MiB`)

// TestMemoryEstimate checks, game by game, that the estimate -max-memory
// is checked against is within 10% of the peak the solve reaches, with and
// without -db (and -compact), and with -stats.
func TestMemoryEstimate(t *testing.T) {
	dir := t.TempDir()
	policeFile := filepath.Join(dir, "p.police")
	os.WriteFile(policeFile, []byte(police.Random(48, 48, 0.1, 0.005, 1).String()), 0o644)
	graphFile := filepath.Join(dir, "g.graph")
	f, _ := os.Create(graphFile)
	graph.Write(f, graph.Random(1e6, 3e6, 1))
	f.Close()
	cases := [][]string{
		{"police", policeFile},
		{"police", policeFile, "-db", filepath.Join(dir, "p.db")},
		{"police", policeFile, "-db", filepath.Join(dir, "c.db"), "-compact"}, // compressors at the best level
		{"police", policeFile, "-stats"},                                      // the count of reachable positions after the solve
		{"graph", graphFile},
		{"pawns", "testdata/golden/big.pawns"},
		{"pawns", "testdata/golden/big.pawns", "-engine", "par"},
	}
	if testsize.Long() {
		// Teeko's estimate is the same as Quixo's: a symmetric game solved
		// over its classes.
		cases = append(cases, []string{"quixo", "-n", "4"}, []string{"quixo", "-n", "4", "-db", filepath.Join(dir, "q.db")})
	}
	for _, args := range cases {
		errs, code, peak := child(t, append([]string{"solve"}, append(args, "-progress")...)...)
		m := estimateLine.FindStringSubmatch(errs)
		if code != 0 || m == nil {
			t.Fatalf("%v: exit %d, no estimate in %q", args, code, errs)
		}
		est, _ := strconv.ParseUint(m[1], 10, 64)
		ratio := float64(peak) / float64(est)
		t.Logf("%v: estimate %d, peak %d, peak/estimate %.3f", args, est, peak, ratio)
		if ratio < 0.9 || ratio > 1.1 {
			t.Errorf("%v: estimate %d, peak %d: off by more than 10%%", args, est, peak)
		}
	}
}

// TestMemoryRefusal checks that a board refused for memory is named, that
// the answers before it stay printed, and that nothing is allocated for it.
func TestMemoryRefusal(t *testing.T) {
	small, err := os.ReadFile("../../examples/pawns.txt")
	if err != nil {
		t.Fatal(err)
	}
	big, err := os.ReadFile("testdata/golden/big.pawns")
	if err != nil {
		t.Fatal(err)
	}
	// The first board of the examples, then the 16 x 16 board.
	first := strings.SplitN(string(small), "\n", 2)[1]
	first = strings.Join(strings.Split(first, "\n")[:5], "\n") + "\n"
	second := strings.SplitN(string(big), "\n", 2)[1]
	input := filepath.Join(t.TempDir(), "two.pawns")
	os.WriteFile(input, []byte("0 2\n"+first+second), 0o644)
	cmd := exec.Command(os.Args[0], "solve", "pawns", "-engine", "par", "-max-memory", "18M", input)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || out.String() != "Black 0\n" ||
		!strings.HasPrefix(errb.String(), "retro: "+input+": board 2: solving 6788934 positions needs about") {
		t.Fatalf("%v; stdout %q, stderr %q", err, out.String(), errb.String())
	}
}

// TestMemoryLimits runs each path that -max-memory bounds in a process of
// its own, with a limit it fits in (each fails with exit 1 if its estimate
// says it does not), and checks that its peak stays within the limit and
// 5%: a solve tier by tier with -db, -reachable, -stats, verify reading
// the values whole and a block at a time, a chess database's with those
// of the files it reads, and serve with many databases.
func TestMemoryLimits(t *testing.T) {
	dir := t.TempDir()
	policeFile := filepath.Join(dir, "p.police")
	os.WriteFile(policeFile, []byte(police.Random(48, 48, 0.1, 0.005, 1).String()), 0o644)
	policeDB := filepath.Join(dir, "p.db")
	if _, code, _ := child(t, "solve", "police", policeFile, "-db", policeDB); code != 0 {
		t.Fatalf("solve police -db: exit %d", code)
	}
	// Its verify with the depths of wins left out holds them in a byte per
	// position where that fits beside the values, a memo otherwise. Its
	// board is larger: at a byte per position, 48 x 48's values (8.3 MiB)
	// leave a range of limits of 3.5 MiB that read them a block at a time,
	// which the process's own share, measured by each run, moved out of.
	compactFile := filepath.Join(dir, "pc.police")
	os.WriteFile(compactFile, []byte(police.Random(56, 56, 0.1, 0.005, 1).String()), 0o644)
	compactDB := filepath.Join(dir, "pc.db")
	if _, code, _ := child(t, "solve", "police", compactFile, "-db", compactDB, "-compact"); code != 0 {
		t.Fatalf("solve police -db -compact: exit %d", code)
	}
	type limited struct {
		limit string
		args  []string
		says  string // what the progress lines must say, if anything
	}
	// A solve in memory is given its own estimate and 2 MiB: the process's
	// own share of it (its resident set as it starts, 10.6 to 13.4 MiB for
	// this test binary as more or less of it lies in the page cache) is
	// measured, not fixed.
	fit := func(args ...string) string { return strconv.FormatUint(estimateOf(t, args...)+2<<20, 10) }
	// A verify a block at a time is given the least its refusal of 8M
	// names and 2.5 MiB: the values, 8 MiB and more, do not fit whole in
	// that, nor does a cache of its fewest blocks in much less (its
	// share of the process moves as the solve's does, and with the size
	// of the executable's mapped segments, which it counts whole).
	blockwise := func(file string) string {
		errs, code, _ := child(t, "verify", file, "-max-memory", "8M")
		m := leastLine.FindStringSubmatch(errs)
		if code != 1 || m == nil {
			t.Fatalf("verify %s -max-memory 8M: exit %d, no least in %q", file, code, errs)
		}
		mib, _ := strconv.ParseFloat(m[1], 64)
		return strconv.FormatUint(uint64((mib+2.5)*(1<<20)), 10)
	}
	reachable := []string{"solve", "police", policeFile, "-reachable"}
	stats := []string{"solve", "police", policeFile, "-stats"}
	cases := []limited{
		{fit(reachable...), reachable, ""},
		{fit(stats...), stats, ""},
		{"60M", []string{"verify", policeDB}, ""},
		{blockwise(policeDB), []string{"verify", policeDB}, "a block at a time"},
		{"60M", []string{"verify", compactDB}, ""},
		{blockwise(compactDB), []string{"verify", compactDB}, "a block at a time"},
	}
	if testsize.Long() {
		cases = append(cases, limited{"36M", []string{"solve", "quixo", "-n", "4", "-db", filepath.Join(dir, "q.db")}, "tier by tier"})
		// A chess endgame with pawns keeps its own tiers alone and reads
		// the 10 endgames its captures and promotions reach from their
		// files (16.5 MiB of values): verify holds some, reads the others
		// through caches. KBvKP's are those of 3 pieces and 4 others,
		// each solved as -all solves a member (a tenth of -all 4's time);
		// at 72M one of them is read through a cache, in 4.5 s (at 60M, 4
		// of them, in 13 s: caches of a few blocks are slow to miss).
		tb := filepath.Join(dir, "tb")
		if _, code, _ := child(t, "solve", "chess", "-all", "3", "-dir", tb); code != 0 {
			t.Fatalf("solve chess -all 3: exit %d", code)
		}
		for _, sig := range []string{"KQvKB", "KRvKB", "KBvKB", "KBvKN", "KBvKP"} {
			args := []string{"solve", "chess", sig, "-compact", "-tiered", "-linked", "-db", filepath.Join(tb, sig+".db"), "-checkpoint", filepath.Join(tb, "tiers")}
			if _, code, _ := child(t, args...); code != 0 {
				t.Fatalf("%v: exit %d", args, code)
			}
		}
		// KPvK's file reads 5 others: given the least its refusal names,
		// and a little more, it holds them (it set aside a table of its
		// wins' depths before, and had too little left for them).
		kpk := filepath.Join(tb, "KPvK.db")
		cases = append(cases,
			limited{"72M", []string{"verify", filepath.Join(tb, "KBvKP.db")}, "a block at a time through caches"},
			limited{blockwise(kpk), []string{"verify", kpk}, ""})
	}
	for _, c := range cases {
		errs, code, peak := child(t, append(c.args, "-max-memory", c.limit, "-progress")...)
		var limit byteSize
		limit.Set(c.limit)
		t.Logf("%v -max-memory %s: peak %d, %.3f of the limit", c.args, c.limit, peak, float64(peak)/float64(limit))
		if code != 0 || !strings.Contains(errs, c.says) {
			t.Fatalf("%v -max-memory %s: exit %d, want 0 and progress that says %q; stderr:\n%s", c.args, c.limit, code, c.says, errs)
		}
		if float64(peak) > 1.05*float64(limit) {
			t.Errorf("%v -max-memory %s: peak %d, more than the limit and 5%%", c.args, c.limit, peak)
		}
	}
}

// TestServeMemoryLimit serves four databases whose values together are
// larger than -max-memory, in a process of its own, asks each for random
// positions until their caches are full, and checks that the server's
// peak stays within the limit and 5%.
func TestServeMemoryLimit(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for k := range 4 {
		in := filepath.Join(dir, fmt.Sprintf("p%d.police", k))
		os.WriteFile(in, []byte(police.Random(40, 40, 0.1, 0.005, uint64(k)).String()), 0o644)
		files = append(files, filepath.Join(dir, fmt.Sprintf("p%d.db", k)))
		if _, code, _ := child(t, "solve", "police", in, "-db", files[k]); code != 0 {
			t.Fatalf("solve police -db: exit %d", code)
		}
	}
	const limit = 32 << 20
	cmd := exec.Command(os.Args[0], append([]string{"serve", "-addr", "127.0.0.1:0", "-max-memory", "32M"}, files...)...)
	cmd.Env = append(os.Environ(), childEnv+"=1", peakEnv+"=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(stderr)
	re := regexp.MustCompile(`at http://(127\.0\.0\.1:\d+)/`)
	var addr string
	var lines []string
	for addr == "" && sc.Scan() {
		lines = append(lines, sc.Text())
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			addr = m[1]
		}
	}
	if addr == "" {
		t.Fatalf("serve did not start: %q", lines)
	}
	// The rest of standard error, read as it comes so that the server never
	// waits on a full pipe: its last line is its peak.
	peakc := make(chan uint64, 1)
	go func() {
		var peak uint64
		for sc.Scan() {
			if m := peakLine.FindStringSubmatch(sc.Text()); m != nil {
				peak, _ = strconv.ParseUint(m[1], 10, 64)
			}
		}
		peakc <- peak
	}()
	for range 400 {
		for k := range files {
			r, err := http.Get(fmt.Sprintf("http://%s/api/games/p%d/random", addr, k))
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, r.Body)
			r.Body.Close()
			if r.StatusCode != http.StatusOK {
				t.Fatalf("random position of p%d: %s", k, r.Status)
			}
		}
	}
	cmd.Process.Signal(os.Interrupt)
	peak := <-peakc
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	t.Logf("serve -max-memory 32M, 4 databases: peak %d, %.3f of the limit", peak, float64(peak)/limit)
	if peak == 0 {
		t.Skip("no peak memory on this system")
	}
	if float64(peak) > 1.05*limit {
		t.Errorf("serve -max-memory 32M: peak %d, more than the limit and 5%%", peak)
	}
}

// TestFieldBytes reads the kilobyte fields of /proc files that the
// defaults of -max-memory come from.
func TestFieldBytes(t *testing.T) {
	text := "MemTotal:       24684544 kB\nMemFree:         1000 kB\nMemAvailable:   23456 kB\nHugePages_Total:       0\n"
	for key, want := range map[string]uint64{"MemTotal:": 24684544 << 10, "MemAvailable:": 23456 << 10, "HugePages_Total:": 0, "Missing:": 0, "MemFree": 0} {
		if got := fieldBytes(text, key); got != want {
			t.Errorf("fieldBytes(%q) = %d, want %d", key, got, want)
		}
	}
	if _, err := os.Stat("/proc/meminfo"); err == nil {
		if a, m := availableBytes(), engine.PhysicalMemory(); a == 0 || a > m {
			t.Errorf("available memory %d, want more than 0 and no more than the machine's %d", a, m)
		}
	}
}

// TestExecutableBytes checks the bytes of the executable counted as code:
// its mapped segments, a MiB at least (its code) and no more than the
// file.
func TestExecutableBytes(t *testing.T) {
	path, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	n := executableBytes()
	if n < 1<<20 || n > uint64(st.Size()) {
		t.Errorf("executable's mapped bytes %d, want at least a MiB and at most the file's %d", n, st.Size())
	}
}

// TestPlanSkipsSolvedTiers checks that -plan and the memory check leave
// out the tiers a -checkpoint folder holds finished: after KQvK is solved
// into it, KPvK's plan marks KQvK and KvK solved and no other, and with
// every tier there its peak is none.
func TestPlanSkipsSolvedTiers(t *testing.T) {
	dir := t.TempDir()
	if _, errs, code := retro(t, "", "solve", "chess", "KQvK", "-checkpoint", dir); code != 0 {
		t.Fatalf("solve chess KQvK: exit %d: %s", code, errs)
	}
	out, errs, code := retro(t, "", "solve", "chess", "KPvK", "-checkpoint", dir, "-plan")
	if code != 0 {
		t.Fatalf("-plan: exit %d: %s", code, errs)
	}
	solved := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 2 && strings.Contains(line, "(solved)") {
			solved[f[1]] = true
		}
	}
	if len(solved) != 2 || !solved["KQvK"] || !solved["KvK"] {
		t.Errorf("KPvK's plan marks %v solved, want KQvK and KvK:\n%s", solved, out)
	}
	if _, errs, code := retro(t, "", "solve", "chess", "KPvK", "-checkpoint", dir); code != 0 {
		t.Fatalf("solve chess KPvK: exit %d: %s", code, errs)
	}
	out, _, _ = retro(t, "", "solve", "chess", "KPvK", "-checkpoint", dir, "-plan")
	if !strings.Contains(out, "memory at the peak: none: every tier is solved already") {
		t.Errorf("with every tier solved, the plan says:\n%s", out)
	}
}
