package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/internal/text"
)

// Solve solves the games of workload name with the given engine and workers
// and returns the positions (indices), the predecessor edges walked and the
// time the solves took, game building excluded.
func Solve(ctx context.Context, name, eng string, workers int) (positions, edges uint64, elapsed time.Duration, err error) {
	w, ok := FindWorkload(name)
	if !ok {
		return 0, 0, 0, fmt.Errorf("unknown workload %q", name)
	}
	solve := engine.Parallel
	switch eng {
	case "seq":
		solve = engine.Sequential
	case "lean":
		solve = engine.Lean
	case "par":
	default:
		return 0, 0, 0, fmt.Errorf("unknown engine %q", eng)
	}
	games := w.Games()
	start := time.Now()
	for _, g := range games {
		r, err := solve(ctx, g, engine.Options{Workers: workers})
		if err != nil {
			return 0, 0, 0, err
		}
		positions += g.Size()
		edges += r.Edges()
	}
	return positions, edges, time.Since(start), nil
}

// Config says what Run measures.
type Config struct {
	Exe       string   // the retro executable, re-run once per measurement
	Env       []string // extra environment for it
	Workloads []Workload
	Engines   []string // "par", "lean", "seq"
	Workers   []int    // worker counts for the parallel engine
	Reps      int      // repetitions of each measurement
	Progress  io.Writer
}

// A run is one measurement: one child process solving one workload.
type run struct {
	positions, edges uint64
	elapsed          time.Duration
	peakRSS          uint64 // bytes
}

// Row is the summary of a workload on one engine and worker count.
type Row struct {
	Workload, Engine string
	Workers          int
	Median           time.Duration
	Positions, Edges uint64
	PeakRSS          uint64
	Roof             float64 // random atomic RMW rate over the engine's state (RoofBytes per position), ops/s
	runs             []run
}

// Run measures every workload of c, each in a child process `retro
// bench-child` so that peak memory is the workload's own, and writes the
// machine's facts, a table, and Go benchmark lines (for benchstat) to w.
func Run(ctx context.Context, c Config, w io.Writer) ([]Row, error) {
	for _, line := range ThisMachine().Lines() {
		fmt.Fprintln(w, line)
	}
	most := 1
	for _, n := range c.Workers {
		most = max(most, n)
	}
	if most > 1 { // the ratios of workers mean little where the cores share
		for _, line := range CoreScalingLines(most) {
			fmt.Fprintln(w, line)
		}
	}
	var rows []Row
	for _, wl := range c.Workloads {
		engines, workers, reps := c.Engines, c.Workers, c.Reps
		if wl.Large {
			engines, workers, reps = []string{"par"}, workers[len(workers)-1:], 1
		}
		for _, eng := range engines {
			ws := workers
			if eng == "seq" {
				ws = []int{1}
			}
			for _, nw := range ws {
				row := Row{Workload: wl.Name, Engine: eng, Workers: nw}
				for rep := range reps {
					if c.Progress != nil {
						fmt.Fprintf(c.Progress, "bench: %s, %s engine, %d workers, run %d of %d\n", wl.Name, eng, nw, rep+1, reps)
					}
					r, err := c.child(ctx, wl.Name, eng, nw)
					if err != nil {
						return nil, fmt.Errorf("%s, %s engine, %d workers: %w", wl.Name, eng, nw, err)
					}
					row.runs = append(row.runs, r)
				}
				row.summarize()
				rows = append(rows, row)
			}
		}
	}
	// The roof: one measurement per array size and worker count.
	roofs := map[[2]uint64]float64{}
	for i := range rows {
		r := &rows[i]
		size := uint64(RoofBytes(r.Engine) * float64(largestGame(r.Workload)))
		key := [2]uint64{size, uint64(r.Workers)}
		if _, ok := roofs[key]; !ok {
			roofs[key] = AtomicRate(size, r.Workers, 1<<24)
		}
		r.Roof = roofs[key]
	}
	writeTable(w, rows)
	writeBenchLines(w, rows)
	return rows, nil
}

// RoofBytes is the size per position of the array an engine's edges update
// at random, over which its roof is measured: the 2-byte lanes of par (and
// seq's counters), the nibbles of lean, which fit in caches that the lanes
// overflow.
func RoofBytes(engine string) float64 {
	if engine == "lean" {
		return 0.5
	}
	return 2
}

func largestGame(name string) uint64 {
	wl, _ := FindWorkload(name)
	var n uint64
	for _, g := range wl.Games() {
		n = max(n, g.Size())
	}
	return n
}

func (c Config) child(ctx context.Context, name, eng string, workers int) (run, error) {
	cmd := exec.CommandContext(ctx, c.Exe, "bench-child", name, eng, strconv.Itoa(workers))
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return run{}, err
	}
	var r run
	var ns int64
	if _, err := fmt.Sscanf(string(out), "%d %d %d", &r.positions, &r.edges, &ns); err != nil {
		return run{}, fmt.Errorf("bench-child printed %q: %v", out, err)
	}
	r.elapsed = time.Duration(ns)
	r.peakRSS = peakRSS(cmd.ProcessState)
	return r, nil
}

// Child is what `retro bench-child` prints: positions, edges, nanoseconds.
func Child(ctx context.Context, w io.Writer, name, eng string, workers int) error {
	positions, edges, elapsed, err := Solve(ctx, name, eng, workers)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%d %d %d\n", positions, edges, elapsed.Nanoseconds())
	return err
}

func (r *Row) summarize() {
	times := make([]time.Duration, len(r.runs))
	for i, x := range r.runs {
		times[i] = x.elapsed
		r.PeakRSS = max(r.PeakRSS, x.peakRSS)
	}
	slices.Sort(times)
	r.Median = times[len(times)/2]
	r.Positions, r.Edges = r.runs[0].positions, r.runs[0].edges
}

// PositionsPerSecond and EdgesPerSecond are the row's rates at its median.
func (r Row) PositionsPerSecond() float64 { return float64(r.Positions) / r.Median.Seconds() }

// EdgesPerSecond is the predecessor edges walked per second at the median.
func (r Row) EdgesPerSecond() float64 { return float64(r.Edges) / r.Median.Seconds() }

func writeTable(w io.Writer, rows []Row) {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "workload\tengine\tworkers\tmedian\tpositions/s\tedges/s\tpeak RSS\tbytes/pos\troof ops/s\tedges/roof\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%v\t%.3g\t%.3g\t%s\t%.2f\t%.3g\t%.0f%%\t\n",
			r.Workload, r.Engine, r.Workers, r.Median.Round(time.Millisecond), r.PositionsPerSecond(), r.EdgesPerSecond(),
			text.HumanBytes(r.PeakRSS), float64(r.PeakRSS)/float64(r.Positions), r.Roof, 100*r.EdgesPerSecond()/r.Roof)
	}
	tw.Flush()
}

// writeBenchLines writes one Go benchmark line per run, so that benchstat
// can compare two reports: go run golang.org/x/perf/cmd/benchstat old new.
func writeBenchLines(w io.Writer, rows []Row) {
	fmt.Fprintln(w)
	for _, r := range rows {
		name := fmt.Sprintf("BenchmarkSolve/workload=%s/engine=%s/workers=%d", r.Workload, r.Engine, r.Workers)
		for _, x := range r.runs {
			fmt.Fprintf(w, "%s\t1\t%d ns/op\t%.4g positions/s\t%.4g edges/s\t%d peak-bytes\n", name, x.elapsed.Nanoseconds(),
				float64(x.positions)/x.elapsed.Seconds(), float64(x.edges)/x.elapsed.Seconds(), x.peakRSS)
		}
	}
}

// ParseWorkers parses a comma-separated list of positive worker counts.
func ParseWorkers(s string) ([]int, error) {
	var ws []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive worker count", f)
		}
		ws = append(ws, n)
	}
	return ws, nil
}
