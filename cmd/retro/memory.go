package main

import (
	"debug/elf"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/internal/text"
	"github.com/retro-solver/retro/parallel"
)

// memoryPlan is a solve's memory estimate, by part: what -max-memory is
// checked against, and what -progress prints before the solve starts.
type memoryPlan struct {
	runtime uint64 // the process before the input: code, runtime, tables of the games' packages
	game    uint64 // the game's own structures: a graph's arrays, symmetry rank tables
	solver  uint64 // the engine's arrays
	db      uint64 // the database writer's blocks and compressors, with -db
	stats   uint64 // -stats: the forward pass that counts the positions reachable from the start
	loaded  uint64 // the peak while the input was read and the game built (measured)
}

// total returns the peak the plan expects: the solve's, or the loading's
// if that was higher (an explicit graph is built from arrays twice its
// final size).
func (m memoryPlan) total() uint64 { return max(m.sum(), m.loaded) }

// sum returns the parts of the solve's peak together: the pass of -stats
// runs after the solve, while its arrays are still held.
func (m memoryPlan) sum() uint64 { return m.runtime + m.game + m.solver + m.db + m.stats }

// String writes the plan: "about 54.8 MiB: solver ..., ...".
func (m memoryPlan) String() string {
	parts := []string{"solver " + text.HumanBytes(m.solver)}
	if m.game > 0 {
		parts = append(parts, "game tables "+text.HumanBytes(m.game))
	}
	if m.db > 0 {
		parts = append(parts, "database writer "+text.HumanBytes(m.db))
	}
	if m.stats > 0 {
		parts = append(parts, "-stats' count of reachable positions "+text.HumanBytes(m.stats))
	}
	parts = append(parts, "runtime "+text.HumanBytes(m.runtime))
	if m.loaded > m.sum() {
		parts = append(parts, "and loading the input peaked at "+text.HumanBytes(m.loaded))
	}
	return fmt.Sprintf("about %s: %s", text.HumanBytes(m.total()), strings.Join(parts, ", "))
}

// check refuses the plan if it needs more than limit.
func (m memoryPlan) check(n uint64, limit uint64) error {
	if m.total() > limit {
		return fmt.Errorf("solving %d positions needs %s, more than the %s allowed (see -max-memory)",
			n, m, text.HumanBytes(limit))
	}
	return nil
}

// memoryLimit returns the -max-memory of a command, or the machine's
// memory if it was not given, and makes it, less the mapped code the
// runtime does not count, the Go runtime's soft limit: the collector then
// runs before garbage (blocks dropped from a cache) takes the process past
// it.
func memoryLimit(flag byteSize) uint64 {
	limit := uint64(flag)
	if limit == 0 {
		limit = engine.PhysicalMemory()
	}
	if limit == 0 || limit > math.MaxInt64 {
		return math.MaxInt64
	}
	debug.SetMemoryLimit(int64(limit - min(limit/2, codeBytes())))
	return limit
}

// churnLimit is memoryLimit for a command that reads through a cache of
// blocks (verify, serve), whose default is the memory available when it
// starts (MemAvailable), not the machine's: such a command fills what it
// is given with values, and the machine's own share of memory, its other
// processes and the page cache of the files read would push it over. With
// a limit given, the collector also runs when the heap has grown by a
// quarter, not when it has doubled, for the soft limit alone lets the heap
// fill it and then pass it by megabytes while a server answers.
func churnLimit(flag byteSize) uint64 {
	if flag != 0 {
		debug.SetGCPercent(25)
		return memoryLimit(flag)
	}
	return memoryLimit(byteSize(availableBytes()))
}

// availableBytes returns the memory the kernel says is available to a new
// process now (MemAvailable), or 0 where that cannot be read.
func availableBytes() uint64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	return fieldBytes(string(b), "MemAvailable:")
}

// dbWriterBytes is the memory of the database writer under options o:
// per worker, a compressor (db.EncoderBytes: 5 MiB at the usual level, 4
// at -compact's, the C library's, or 36 without cgo) and two blocks of
// DefaultBlockSize bytes in flight, raw and compressed (measured with
// quixo -n 4 and police 48 x 48: about 6 MiB each at the usual level).
func dbWriterBytes(o db.Options) uint64 {
	return uint64(parallel.Workers(o.Workers)) * (db.EncoderBytes(o) + 4*db.DefaultBlockSize)
}

// residentBytes returns the memory the process holds now (its resident
// set, from /proc/self/statm), or 8 MiB where that cannot be read.
func residentBytes() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if f := strings.Fields(string(b)); err == nil && len(f) > 1 {
		if pages, err := strconv.ParseUint(f[1], 10, 64); err == nil {
			return pages * uint64(os.Getpagesize())
		}
	}
	return 8 << 20
}

// peakBytes returns the most memory the process has held so far (VmHWM of
// /proc/self/status), or 0 where that cannot be read.
func peakBytes() uint64 { return statusBytes("VmHWM:") }

// codeBytes bounds the memory of the files the process maps, its code
// (RssFile of /proc/self/status), which the Go runtime does not count
// against its own limit: what is mapped now, or all of the executable
// that may be mapped, which more of the code may be read from later.
func codeBytes() uint64 {
	return max(statusBytes("RssFile:"), executableBytes())
}

// executableBytes returns the bytes of the executable's file that the
// loader maps (its ELF segments' file parts: code, read-only data), or
// the file's size where its segments cannot be read. The rest of the
// file, its debugging sections (a third of retro's 17 MB), is never
// mapped; counted, it took 6 MB from a verify's caches at -max-memory
// 60M.
var executableBytes = sync.OnceValue(func() uint64 {
	path, err := os.Executable()
	if err != nil {
		return 0
	}
	if f, err := elf.Open(path); err == nil {
		defer f.Close()
		var n uint64
		for _, p := range f.Progs {
			if p.Type == elf.PT_LOAD {
				n += p.Filesz
			}
		}
		return n
	}
	if st, err := os.Stat(path); err == nil {
		return uint64(st.Size())
	}
	return 0
})

// heldBytes returns what the process holds, counting its code as
// codeBytes does: its anonymous memory (RssAnon) and its code; the
// resident set where /proc/self/status cannot be read.
func heldBytes() uint64 {
	anon := statusBytes("RssAnon:")
	if anon == 0 {
		return residentBytes()
	}
	return anon + codeBytes()
}

// statusBytes returns the field of /proc/self/status named key, in bytes,
// or 0 where that cannot be read.
func statusBytes(key string) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	return fieldBytes(string(b), key)
}

// fieldBytes returns the line of a /proc file that starts with key and
// gives kilobytes ("VmHWM:  1234 kB"), in bytes, or 0 if there is none.
func fieldBytes(text, key string) uint64 {
	for _, line := range strings.Split(text, "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == key && f[2] == "kB" {
			if kb, err := strconv.ParseUint(f[1], 10, 64); err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
