package tier

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/retro-solver/retro/db"
	"github.com/retro-solver/retro/engine"
	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/implicit/graph"
	"github.com/retro-solver/retro/internal/tempfile"
)

// TestStoreOverflow writes a tier whose depths pass 126 in a few entries
// (a chain of 300 moves beside 20,000 lost positions): its file keeps one
// byte an entry and the few deep codes in its overflow, and reads back
// every code, a code at a time and in runs; a damaged overflow fails the
// check.
func TestStoreOverflow(t *testing.T) {
	const chain, rest = 300, 20000
	var src, dst []uint32
	for v := uint32(1); v < chain; v++ {
		src, dst = append(src, v), append(dst, v-1)
	}
	g := graph.FromEdges(chain+rest, src, dst)
	ctx := context.Background()
	r, err := engine.Sequential(ctx, g, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tier.bin")
	want := storeHeader{tier: 3, entries: r.Size(), positions: r.Size(), fingerprint: 7}
	if err := writeStore(ctx, path, want, r, implicit.ClassSet{}, 2); err != nil {
		t.Fatal(err)
	}
	st, err := openStore(path, want, true)
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	if st.h.width != 1 || st.h.overflow != chain-126 {
		t.Fatalf("width %d, %d codes overflowed; want 1 and %d", st.h.width, st.h.overflow, chain-126)
	}
	for i := range r.Size() {
		if got, c := st.code(i), db.Code(r.Value(i), r.Depth(i)); got != c {
			t.Fatalf("entry %d: code %d, want %d", i, got, c)
		}
	}
	// decodeRange, as the database writer reads: runs across the
	// overflowed entries and the others, in one loop.
	for _, run := range [][2]uint64{{0, r.Size()}, {100, 130}, {120, 140}, {chain - 5, chain + 5}, {7, 7}} {
		n := run[1] - run[0]
		vals, depths := make([]engine.Value, n), make([]uint64, n)
		st.decodeRange(run[0], run[1], vals, depths)
		for j := range n {
			if i := run[0] + j; vals[j] != r.Value(i) || depths[j] != r.Depth(i) {
				t.Fatalf("decodeRange(%d, %d): entry %d %v at %d, want %v at %d", run[0], run[1], i, vals[j], depths[j], r.Value(i), r.Depth(i))
			}
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 1
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := openStore(path, want, true); err == nil {
		t.Error("a damaged overflow passed the check")
	}
	// A code flipped, the overflow whole again: the codes' check fails,
	// and a check of the header and size alone does not look.
	data[len(data)-1] ^= 1
	data[headerSize+chain/2] ^= 4
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := openStore(path, want, true); err == nil || !strings.Contains(err.Error(), "codes' checksum") {
		t.Errorf("a damaged code: %v, want the codes' checksum named", err)
	}
	st, err = openStore(path, want, false)
	if err != nil {
		t.Fatalf("unchecked: %v", err)
	}
	st.close()
}

// TestManifestUpgrade goes on in a folder of format 1 (its files are read
// as they are) and marks it format 2, and still refuses another solve's.
func TestManifestUpgrade(t *testing.T) {
	dir := t.TempDir()
	m := manifest{Format: 1, Fingerprint: "game", Tiers: 3, Size: 10}
	if err := prepareDir(dir, m); err != nil {
		t.Fatal(err)
	}
	m.Format = storeVersion
	if err := prepareDir(dir, m); err != nil {
		t.Fatalf("a folder of format 1: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil || !strings.Contains(string(b), `"format": 2`) {
		t.Fatalf("the manifest reads %q (%v), want format 2", b, err)
	}
	m.Fingerprint = "another game"
	if err := prepareDir(dir, m); err == nil {
		t.Error("another solve's folder was taken")
	}
}

// TestPrepareDirTemporaries checks what a solve starting in a folder does
// with the temporary files there: it removes those that a killed run left
// (made by a process that no longer runs, or named before names held the
// process), and keeps one that a solve running beside it is writing.
func TestPrepareDirTemporaries(t *testing.T) {
	done := exec.Command("true")
	if err := done.Run(); err != nil {
		t.Skip("no process to wait for:", err)
	}
	dir := t.TempDir()
	live, err := tempfile.Create(filepath.Join(dir, "KQvK.tier"))
	if err != nil {
		t.Fatal(err)
	}
	live.Close()
	stale := []string{
		fmt.Sprintf(".KRvK.tier.tmp%d-123", done.Process.Pid), // its writer has ended
		".KBvK.tier.tmp987654321",                             // named before the process was in it
		".KRPvKR_3.tier.tmp-split",
	}
	for _, name := range stale {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := prepareDir(dir, manifest{Format: storeVersion, Fingerprint: "game"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(live.Name()); err != nil {
		t.Errorf("the file this process writes was removed: %v", err)
	}
	for _, name := range stale {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s, left by a run that ended, is still there (%v)", name, err)
		}
	}
}

// TestHugeCodesFillOnRead reads bytes of a copy made by hugeCodes: each
// reads as the file it is copied from holds it; reads of a line at a few
// places of each small page, or of whole small pages here and there, copy
// those lines alone; a huge page is filled once lookups read lines at more
// than 8 places of a quarter of its small pages, and not before (a page
// never filled reads as zero in the copy).
func TestHugeCodesFillOnRead(t *testing.T) {
	want, src := mappedCodes(t, 5*hugePage+12345)
	h := newHugeCodes(src)
	if h == nil {
		t.Skip("no huge pages to map here")
	}
	defer h.release()
	read := func(h *hugeCodes, b uint64) bool {
		buf, off := h.at(b)
		return buf[off] == want[b]
	}
	// Sparse reads, each line read 3 times, of two copies: whole small
	// pages, one in 8 (as a pawn's promotions read a child whose new piece
	// is its index's first digit), and a line in 8 of every small page (a
	// child whose new piece is the last digit but one): no page is filled,
	// and the pool holds each line read once.
	readAll := func(h *hugeCodes, b uint64) {
		for d := range uint64(3) {
			if !read(h, b+d) {
				buf, off := h.at(b + d)
				t.Fatalf("byte %d reads %d, want %d", b+d, buf[off], want[b+d])
			}
		}
	}
	sparse := func(h *hugeCodes, lines uint64) {
		t.Helper()
		for j := range h.filled {
			if h.filled[j].Load() != 0 {
				t.Fatalf("huge page %d was filled after sparse reads", j)
			}
		}
		if got := h.used.Load(); got != lines {
			t.Fatalf("the pool holds %d lines after reads of %d", got, lines)
		}
	}
	wholeSmall := newHugeCodes(src)
	defer wholeSmall.release()
	lines := uint64(0)
	for b := uint64(0); b+smallPage <= uint64(len(want)); b += 8 * smallPage {
		for l := range uint64(smallPage / lineSize) {
			lines++
			readAll(wholeSmall, b+l*lineSize)
		}
	}
	sparse(wholeSmall, lines)
	lines = 0
	for b := uint64(0); b < uint64(len(want)); b += 8 * lineSize {
		lines++
		readAll(h, b)
	}
	sparse(h, lines)
	// Lines at more than crowdedPlaces places of each of a quarter of the
	// small pages of the copy's second huge page: it is filled, and it
	// alone.
	first := hugePage - h.skew
	for k := range uint64(fillSmall) {
		for q := range uint64(crowdedPlaces + 1) {
			if b := first + k*smallPage + (k+q*7)%64*lineSize + 17; !read(h, b) {
				t.Fatalf("byte %d reads wrong", b)
			}
		}
	}
	for j := range h.filled {
		if filled := h.filled[j].Load() != 0; filled != (j == 1) {
			t.Fatalf("huge page %d filled: %v, after lines all over page 1 were read", j, filled)
		}
	}
	for b := range uint64(len(want)) {
		if j := (h.skew + b) / hugePage; j != 1 && h.copy[b] != 0 || j == 1 && h.copy[b] != want[b] {
			t.Fatalf("byte %d of the copy is %d (huge page %d)", b, h.copy[b], j)
		}
	}
	for b := range uint64(len(want)) {
		if !read(h, b) {
			t.Fatalf("byte %d reads wrong after page 1 was filled", b)
		}
	}
	// Readers at once, as a tier's workers look up its child: each byte
	// reads as the file holds it, whichever reader filled its page, and
	// reads spread over every small page fill every whole huge page.
	g := newHugeCodes(src)
	defer g.release()
	if bad := readAtOnce(g, want, 0, uint64(len(want)), 100000); bad != 0 {
		t.Errorf("read at once, %d bytes read wrong", bad)
	}
	for j := range uint64(len(g.filled)) {
		whole := j*hugePage >= g.skew && (j+1)*hugePage-g.skew <= uint64(len(want))
		if whole && g.filled[j].Load() == 0 {
			t.Errorf("huge page %d not filled after reads all over it", j)
		}
	}
}

// TestHugeBytesBoundsTheCopy reads a stretch of a child's codes all over,
// from several readers at once, as a tier's workers read the half of a
// child that a pawn's promotions reach, and checks that what the copy then
// holds (its filled huge pages, the lines in its pool, the tables of the
// pages not filled) is within hugeBytes, the plan's bound, and more than
// the stretch's whole pages alone: the lines pooled before a page was
// filled are part of what the plan must count.
func TestHugeBytesBoundsTheCopy(t *testing.T) {
	want, src := mappedCodes(t, 8*hugePage)
	h := newHugeCodes(src)
	if h == nil {
		t.Skip("no huge pages to map here")
	}
	defer h.release()
	// A stretch that starts and ends inside pages, read until each of its
	// pages is filled.
	lo, reach := uint64(3<<20+777), uint64(10<<20)
	if bad := readAtOnce(h, want, lo, reach, 200000); bad != 0 {
		t.Fatalf("%d bytes read wrong", bad)
	}
	var filled, tables uint64
	for j := range h.filled {
		if h.filled[j].Load() != 0 {
			filled++
		}
		if h.lines[j].Load() != nil {
			tables++
		}
	}
	held := filled*hugePage + h.used.Load()*lineSize + tables*uint64(unsafe.Sizeof(pageLines{}))
	pages := stretchPages(reach)
	if held > hugeBytes(reach) {
		t.Errorf("the copy holds %d bytes (%d pages filled, %d lines pooled, %d tables), more than hugeBytes's %d",
			held, filled, h.used.Load(), tables, hugeBytes(reach))
	}
	if held <= pages*hugePage {
		t.Errorf("the copy holds %d bytes (%d pages filled, %d lines pooled): no more than the stretch's %d pages; the test no longer reads the pool's share",
			held, filled, h.used.Load(), pages)
	}
}

// mappedCodes writes n bytes of codes to a file and maps it: the codes,
// and the mapping that a hugeCodes copies from.
func mappedCodes(t *testing.T, n int) (want, src []byte) {
	t.Helper()
	want = make([]byte, n)
	for i := range want {
		want[i] = byte(i%251) + 1
	}
	path := filepath.Join(t.TempDir(), "codes")
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	src, unmap, err := mapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unmap() })
	return want, src
}

// readAtOnce reads h at random bytes of [lo, lo+n) from 4 readers at once,
// as a tier's workers look up a child, reads each, and returns the
// number of bytes that read otherwise than want holds them.
func readAtOnce(h *hugeCodes, want []byte, lo, n uint64, reads int) int {
	var wg sync.WaitGroup
	bad := make([]int, 4)
	for w := range bad {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), lo))
			for range reads {
				b := lo + r.Uint64N(n)
				if buf, off := h.at(b); buf[off] != want[b] {
					bad[w]++
				}
			}
		})
	}
	wg.Wait()
	return bad[0] + bad[1] + bad[2] + bad[3]
}
