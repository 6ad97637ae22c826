package square

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestSymmetries checks the 8 maps on every board side up to 5: each is a
// permutation of the cells, the identity comes first, all 8 differ (n > 1),
// and a quarter turn four times is the identity.
func TestSymmetries(t *testing.T) {
	for n := 1; n <= 5; n++ {
		sym := Symmetries(n)
		all := uint32(1)<<(n*n) - 1
		images := map[[MaxCells]uint32]bool{}
		for k := range sym {
			var img [MaxCells]uint32
			seen := uint32(0)
			for cell := range n * n {
				img[cell] = sym[k].Apply(1 << cell)
				seen |= img[cell]
			}
			if seen != all {
				t.Fatalf("n=%d, symmetry %d is not a permutation", n, k)
			}
			images[img] = true
		}
		if n > 1 && len(images) != 8 {
			t.Errorf("n=%d: %d distinct symmetries, want 8", n, len(images))
		}
		if n <= 4 {
			sym16 := Symmetries16(n)
			for k := range sym {
				for m := range uint32(1) << (n * n) {
					if sym16[k].Apply(m) != sym[k].Apply(m) {
						t.Fatalf("n=%d, symmetry %d: Map16 and Map differ on %b", n, k, m)
					}
				}
			}
		}
		r := rand.New(rand.NewPCG(uint64(n), 1))
		for range 100 {
			m := r.Uint32() & all
			if sym[0].Apply(m) != m {
				t.Fatalf("n=%d: the first symmetry moves %b", n, m)
			}
			q := m
			for range 4 {
				q = sym[1].Apply(q)
			}
			if q != m {
				t.Fatalf("n=%d: four quarter turns of %b give %b", n, m, q)
			}
		}
	}
}

func TestDescribeParse(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 2; n <= 5; n++ {
		for range 200 {
			x := r.Uint32() & (1<<(n*n) - 1)
			o := r.Uint32() & (1<<(n*n) - 1) &^ x
			turn := r.Uint64N(2)
			text := Describe(n, x, o, turn)
			gx, gotO, gt, err := Parse(n, text)
			if err != nil || gx != x || gotO != o || gt != turn {
				t.Fatalf("Parse(Describe) of %q: %b %b %d %v", text, gx, gotO, gt, err)
			}
		}
	}
	if x, o, turn, err := Parse(3, " X../.O./... / O to move "); err != nil || x != 1 || o != 1<<4 || turn != 1 {
		t.Errorf("slashes: %b %b %d %v", x, o, turn, err)
	}
	for _, bad := range []string{"", "X..\n...\n...\n", "X..\n...\n..\nX to move", "X..\n.Q.\n...\nX to move", "X..\n...\n...\nY to move", "X..\n...\n...\n...\nX to move"} {
		if _, _, _, err := Parse(3, bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(3, "X..\n.O.\n...\nX to move\n")
	f.Add(5, "...../...../...../...../.....\nO to move")
	f.Fuzz(func(t *testing.T, n int, s string) {
		if n < 1 || n > 5 {
			return
		}
		x, o, turn, err := Parse(n, s)
		if err != nil {
			return
		}
		if x&o != 0 || x>>(n*n) != 0 || o>>(n*n) != 0 || turn > 1 {
			t.Fatalf("Parse(%d, %q) = %b %b %d", n, s, x, o, turn)
		}
		if x2, o2, t2, err := Parse(n, Describe(n, x, o, turn)); err != nil || x2 != x || o2 != o || t2 != turn {
			t.Fatalf("round trip of %q failed", s)
		}
	})
}

// TestRanks checks the colex ranks against counting: the sets of each size
// of the first 10 cells, in increasing order, are ranked 0, 1, 2, ...;
// Unrank inverts Rank (and Rank16 agrees), and Expand inverts Compress.
func TestRanks(t *testing.T) {
	r := NewRanker()
	next := make([]uint64, 11)
	for m := range uint32(1 << 10) {
		k := bits.OnesCount32(m)
		if got := r.Rank(m); got != next[k] || r.Rank16(m) != got {
			t.Fatalf("Rank(%b) = %d (Rank16 %d), want %d", m, got, r.Rank16(m), next[k])
		}
		next[k]++
		for _, cells := range []int{10, 16, 25} {
			if got := r.Unrank(k, cells, r.Rank(m)); got != m {
				t.Fatalf("Unrank(%d, %d, %d) = %b, want %b", k, cells, r.Rank(m), got, m)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		free, m := rng.Uint32(), rng.Uint32()
		c := r.Compress(m, free)
		if bits.OnesCount32(c) != bits.OnesCount32(m&free) || r.Expand(c, free) != m&free {
			t.Fatalf("Compress(%b, %b) = %b, Expand gives %b", m, free, c, r.Expand(c, free))
		}
		if f16 := free & 0xffff; r.Compress16(m&0xffff, f16) != r.Compress(m&0xffff, f16) {
			t.Fatalf("Compress16(%b, %b) differs from Compress", m&0xffff, f16)
		}
		if f16 := free & 0xffff; r.Expand16(r.Compress16(m, f16), f16) != m&f16 {
			t.Fatalf("Expand16(Compress16(%b, %b)) = %b, want %b", m, f16, r.Expand16(r.Compress16(m, f16), f16), m&f16)
		}
	}
}
