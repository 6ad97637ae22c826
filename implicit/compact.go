package implicit

import (
	"math/bits"
	"runtime"
	"sort"
	"sync"
)

// Compact is the game over the canonical positions of a Symmetric game,
// renumbered densely: index i of Compact is the i-th canonical position of
// the underlying game in increasing order. It plays like Reduce(g) (moves
// and un-moves deduplicated on both sides), but a solver's arrays shrink
// from the size of g's index to the number of classes, 8 times smaller for
// the 8 symmetries of the square.
//
// It keeps the ClassSet of g, for ranks, and the canonical positions in
// order, 4 bytes each, for the way back; for a Tiered game, one of each per
// tier, so that the index may pass 2^32 as long as each tier stays below.
type Compact struct {
	S      Symmetric
	cm     CanonicalMover // S, if it is one
	cu     ClassNumberer  // S, if it is one that numbers its classes
	parts  []compactPart  // the tiers, or the whole index as one
	counts []uint32       // the running counts of the whole index
}

// compactPart is the classes of the positions [start, ...) of a tier.
type compactPart struct {
	start  uint64
	first  uint64 // the compact index of its first class
	set    ClassSet
	sparse []uint32 // sparse[i]: the i-th canonical position, less start
}

// NewCompact finds the canonical positions of g, on all cores. g's index
// must be below 2^32, or each of its tiers if it is Tiered (a tier at a
// time is then how the classes are kept, see NewTieredCompact).
func NewCompact(g Symmetric) *Compact {
	if tg, ok := g.(Tiered); ok && g.Size() >= 1<<32 {
		return newCompact(g, tg.Tiers())
	}
	return newCompact(g, []Tier{{Start: 0, End: g.Size()}})
}

// NewTieredCompact is NewCompact keeping a tier's classes at a time, each
// tier's index below 2^32: the same numbering as NewCompact's.
func NewTieredCompact[G interface {
	Symmetric
	Tiered
}](g G) *Compact {
	return newCompact(g, g.Tiers())
}

func newCompact(g Symmetric, tiers []Tier) *Compact {
	c := &Compact{S: g}
	c.cm, _ = g.(CanonicalMover)
	c.cu = ClassNumbererOf(g)
	var first uint64
	for _, t := range tiers {
		if t.Size() >= 1<<32 {
			panic("implicit: NewCompact of a game or tier with 2^32 indices or more")
		}
		p := compactPart{start: t.Start, first: first, set: NewClassSetRange(g, t.Start, t.End)}
		p.sparse = p.set.Positions()
		first += p.set.Len()
		c.parts = append(c.parts, p)
	}
	c.counts = c.parts[0].set.Counts
	if len(c.parts) > 1 {
		c.counts = c.directory()
	}
	return c
}

// directory returns the running counts of classes per 512 positions of
// the whole index, from the tiers' sets.
func (c *Compact) directory() []uint32 {
	starts, sets := make([]uint64, len(c.parts)), make([]ClassSet, len(c.parts))
	for k, p := range c.parts {
		starts[k], sets[k] = p.start, p.set
	}
	return JoinCounts(c.S.Size(), starts, sets, nil)
}

// JoinCounts returns the running counts of classes per 512 positions
// (ClassSet.Counts) of an index of n positions whose classes are those of
// sets[k] from position starts[k] on: the counts of the whole index of a
// tiered game from its tiers' sets, numbered as one ClassSet would. If
// done is not nil, it is called with k once sets[k] has been read.
func JoinCounts(n uint64, starts []uint64, sets []ClassSet, done func(k int)) []uint32 {
	dir := make([]uint32, (n+511)/512+1)
	for k, set := range sets {
		for wi, m := range set.Bits {
			for ; m != 0; m &= m - 1 {
				p := starts[k] + uint64(wi)*64 + uint64(bits.TrailingZeros64(m))
				dir[p/512+1]++
			}
		}
		if done != nil {
			done(k)
		}
	}
	for i := 1; i < len(dir); i++ {
		dir[i] += dir[i-1]
	}
	return dir
}

// part returns the part that holds position s.
func (c *Compact) part(s uint64) *compactPart {
	if len(c.parts) == 1 {
		return &c.parts[0]
	}
	k := sort.Search(len(c.parts), func(k int) bool { return c.parts[k].start > s }) - 1
	return &c.parts[k]
}

// rank returns the compact index of canonical position s.
func (c *Compact) rank(s uint64) uint64 {
	p := c.part(s)
	return p.first + p.set.Rank(s-p.start)
}

// ClassSet is the set of the canonical positions of a Symmetric game, a
// bit per index, with a running count per 512 indices: what numbers its
// classes, the i-th canonical position in increasing order being class i.
type ClassSet struct {
	Bits   []uint64 // bit s: s is canonical
	Counts []uint32 // Counts[b]: canonical positions below s = 512b; the last, all of them
}

// NewClassSet finds the canonical positions of g, on all cores. g must have
// fewer than 2^32 classes.
func NewClassSet(g Symmetric) ClassSet { return NewClassSetRange(g, 0, g.Size()) }

// NewClassSetRange is NewClassSet for the positions [lo, hi) of g alone (a
// tier, whose canonical images stay in it): bit s of the set is position
// lo+s.
func NewClassSetRange(g Symmetric, start, end uint64) ClassSet {
	n := end - start
	bitWords := make([]uint64, (n+63)/64)
	// Each goroutine marks whole words, so no two share one.
	words := uint64(len(bitWords))
	workers := uint64(runtime.GOMAXPROCS(0))
	marker, _ := g.(CanonicalMarker)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := words*w/workers, words*(w+1)/workers
		wg.Go(func() {
			if marker != nil {
				marker.MarkCanonical(start+lo*64, min(start+hi*64, end), bitWords[lo:hi])
				return
			}
			for wi := lo; wi < hi; wi++ {
				var m uint64
				for b := range uint64(64) {
					if s := wi*64 + b; s < n && g.IsCanonical(start+s) {
						m |= 1 << b
					}
				}
				bitWords[wi] = m
			}
		})
	}
	wg.Wait()
	return ClassSetOf(bitWords)
}

// ClassSetOf returns the ClassSet whose bits are bitWords, counting them.
func ClassSetOf(bitWords []uint64) ClassSet {
	c := ClassSet{Bits: bitWords, Counts: make([]uint32, (len(bitWords)+7)/8+1)}
	var total uint32
	for wi, m := range bitWords {
		if wi%8 == 0 {
			c.Counts[wi/8] = total
		}
		total += uint32(bits.OnesCount64(m))
	}
	c.Counts[len(c.Counts)-1] = total
	return c
}

// Positions returns the canonical positions in increasing order: class i
// is Positions()[i]. The positions must be below 2^32. It lists them on
// all cores, each a share of the blocks of 512 positions, which the
// running counts place in the list: Quixo 4 x 4's 5.4 million took 45 ms
// on one core, all the while the other one waited to start the solve.
func (c ClassSet) Positions() []uint32 {
	p := make([]uint32, c.Len())
	blocks := uint64(len(c.Counts) - 1)
	workers := min(uint64(runtime.GOMAXPROCS(0)), max(blocks/64, 1))
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := blocks*w/workers, blocks*(w+1)/workers
		wg.Go(func() {
			out := p[c.Counts[lo]:c.Counts[hi]]
			k := 0
			for wi := 8 * lo; wi < min(8*hi, uint64(len(c.Bits))); wi++ {
				for m := c.Bits[wi]; m != 0; m &= m - 1 {
					out[k] = uint32(wi*64 + uint64(bits.TrailingZeros64(m)))
					k++
				}
			}
		})
	}
	wg.Wait()
	return p
}

// PositionsOf returns the canonical positions of the classes [lo, hi), in
// increasing order: class i is PositionsOf(lo, hi)[i-lo].
func (c ClassSet) PositionsOf(lo, hi uint64) []uint32 {
	p := make([]uint32, 0, hi-lo)
	// The running counts skip the blocks of 512 positions below lo.
	b := sort.Search(len(c.Counts)-1, func(b int) bool { return uint64(c.Counts[b+1]) > lo })
	class := uint64(c.Counts[b])
	for wi := 8 * b; wi < len(c.Bits) && class < hi; wi++ {
		m := c.Bits[wi]
		if k := uint64(bits.OnesCount64(m)); class+k <= lo {
			class += k
			continue
		}
		for ; m != 0 && class < hi; m &= m - 1 {
			if class >= lo {
				p = append(p, uint32(wi*64+bits.TrailingZeros64(m)))
			}
			class++
		}
	}
	return p
}

// Select returns the canonical position of class i (i < Len()): a search
// of the running counts, then of at most 8 words, where Positions keeps 4
// bytes a class.
func (c ClassSet) Select(i uint64) uint64 {
	b := sort.Search(len(c.Counts)-1, func(b int) bool { return uint64(c.Counts[b+1]) > i })
	left := i - uint64(c.Counts[b])
	for wi := 8 * b; ; wi++ {
		m := c.Bits[wi]
		if k := uint64(bits.OnesCount64(m)); left >= k {
			left -= k
			continue
		}
		for ; left > 0; left-- {
			m &= m - 1
		}
		return uint64(wi*64 + bits.TrailingZeros64(m))
	}
}

// Len returns the number of classes.
func (c ClassSet) Len() uint64 { return uint64(c.Counts[len(c.Counts)-1]) }

// Rank returns the class number of canonical position s: the number of
// canonical positions below it.
func (c ClassSet) Rank(s uint64) uint64 {
	wi := s / 64
	r := uint64(c.Counts[wi/8])
	for w := wi &^ 7; w < wi; w++ {
		r += uint64(bits.OnesCount64(c.Bits[w]))
	}
	return r + uint64(bits.OnesCount64(c.Bits[wi]&(1<<(s%64)-1)))
}

// CompactTableBytes returns the bytes NewCompact allocates for a game of n
// indices before it knows the number of classes: a bit per index and a
// count per 512 of them.
func CompactTableBytes(n uint64) uint64 { return (n+63)/64*8 + ((n+63)/64/8+1)*4 }

// Bytes returns the memory of c's tables (a bit per index of the game, a
// count per 512, 4 bytes per class) and of the game's own, if it says.
func (c *Compact) Bytes() uint64 {
	b := BytesOf(c.S)
	for _, p := range c.parts {
		b += uint64(len(p.set.Bits))*8 + uint64(len(p.set.Counts))*4 + uint64(cap(p.sparse))*4
	}
	if len(c.parts) > 1 {
		b += uint64(len(c.counts)) * 4
	}
	return b
}

// Index returns the compact index of any position s of the underlying game:
// the rank of its class's representative.
func (c *Compact) Index(s uint64) uint64 { return c.rank(c.S.Canonical(s)) }

// Position returns the canonical position of the underlying game at compact
// index i.
func (c *Compact) Position(i uint64) uint64 {
	if len(c.parts) == 1 {
		return uint64(c.parts[0].sparse[i])
	}
	k := sort.Search(len(c.parts), func(k int) bool { return c.parts[k].first > i }) - 1
	return c.parts[k].start + uint64(c.parts[k].sparse[i-c.parts[k].first])
}

// Size returns the number of classes.
func (c *Compact) Size() uint64 { return uint64(c.counts[len(c.counts)-1]) }

// MaxMoves returns the underlying bound.
func (c *Compact) MaxMoves() uint64 { return c.S.MaxMoves() }

// Classify returns the kind of the class's representative.
func (c *Compact) Classify(i uint64) Kind { return c.S.Classify(c.Position(i)) }

// classifier uses the underlying game's ClassifyClasses, if it has one.
func (c *Compact) classifier() func(i uint64, buf []uint64) (Kind, uint64, []uint64) {
	cc, ok := c.S.(ClassCounter)
	if !ok {
		return nil
	}
	return func(i uint64, buf []uint64) (Kind, uint64, []uint64) {
		k, n := cc.ClassifyClasses(c.Position(i))
		return k, n, buf
	}
}

// moveProber probes a class through the underlying game's ProbeMoves and
// counts its moves as classifier does (ClassifyClasses), where the game
// has both (MoveProberOf).
func (c *Compact) moveProber() (probe func(i uint64) (Kind, bool), count func(i uint64) uint64) {
	p, ok := c.S.(Prober)
	cc, ok2 := c.S.(ClassCounter)
	if !ok || !ok2 {
		return nil, nil
	}
	probe = func(i uint64) (Kind, bool) { return p.ProbeMoves(c.Position(i)) }
	count = func(i uint64) uint64 {
		_, n := cc.ClassifyClasses(c.Position(i))
		return n
	}
	return probe, count
}

// Moves appends the distinct classes reachable from class i, in
// increasing order.
func (c *Compact) Moves(i uint64, dst []uint64) []uint64 {
	start := len(dst)
	if c.cu != nil {
		dst = c.cu.ClassMoves(c.Position(i), dst)
		return append(dst[:start], SortedSet(dst[start:])...)
	}
	if c.cm != nil {
		return c.canonicalRanks(c.cm.CanonicalMoves(c.Position(i), dst), start, SortedSet)
	}
	return c.ranks(c.S.Moves(c.Position(i), dst), start, SortedSet)
}

// CountUnmoves returns the number of classes that can move into class i
// (UnmoveTallier): where the game numbers its classes itself, its count of
// their representatives, which spares numbering them; otherwise the length
// of Unmoves listed into buf.
func (c *Compact) CountUnmoves(i uint64, buf []uint64) (uint64, []uint64) {
	if c.cu != nil {
		return c.cu.CountClassUnmoves(c.Position(i), false, buf)
	}
	buf = c.Unmoves(i, buf[:0])
	return uint64(len(buf)), buf
}

// MovesWithRepeats appends the classes reachable from class i, in no
// particular order, a class that several moves reach once for each
// (RepeatMover): where the game numbers its classes itself, its class
// numbers as they come, without the sort that Moves takes them through
// (Quixo 4x4 with every level pulled: a third faster). Otherwise, Moves:
// ranking a repeated class costs more than dropping it.
func (c *Compact) MovesWithRepeats(i uint64, dst []uint64) []uint64 {
	if c.cu != nil {
		return c.cu.ClassMoves(c.Position(i), dst)
	}
	return c.Moves(i, dst)
}

// Unmoves appends the distinct classes that can move into class i, in no
// particular order (deduplicated without sorting them, which costs more).
func (c *Compact) Unmoves(i uint64, dst []uint64) []uint64 {
	start := len(dst)
	if c.cu != nil {
		return c.cu.ClassUnmoves(c.Position(i), false, dst)
	}
	if c.cm != nil {
		return c.canonicalRanks(c.cm.CanonicalUnmoves(c.Position(i), dst), start, Distinct)
	}
	return c.ranks(c.S.Unmoves(c.Position(i), dst), start, Distinct)
}

// canonicalRanks replaces dst[start:], canonical positions, by their
// distinct compact indices, deduplicated by dedupe (SortedSet or
// Distinct). Ranks keep the positions' order, so the positions are
// deduplicated first: a repeated class (a fifth of a Quixo position's
// un-moves) is never ranked.
func (c *Compact) canonicalRanks(dst []uint64, start int, dedupe func([]uint64) []uint64) []uint64 {
	dst = append(dst[:start], dedupe(dst[start:])...)
	tail := dst[start:]
	for k, s := range tail {
		tail[k] = c.rank(s)
	}
	return dst
}

// ranks replaces dst[start:] by its elements' distinct compact indices,
// deduplicated by dedupe.
func (c *Compact) ranks(dst []uint64, start int, dedupe func([]uint64) []uint64) []uint64 {
	tail := dst[start:]
	for k, s := range tail {
		tail[k] = c.Index(s)
	}
	return append(dst[:start], dedupe(tail)...)
}

// Describe describes class i by its representative, if the game can.
func (c *Compact) Describe(i uint64) string {
	if d, ok := c.S.(Describer); ok {
		return d.Describe(c.Position(i))
	}
	return ""
}

// ParsePosition reads a position in the underlying game's notation and
// returns the compact index of its class. It fails if the game has no
// notation.
func (c *Compact) ParsePosition(text string) (uint64, error) {
	n, ok := c.S.(Notation)
	if !ok {
		return 0, ErrNoNotation
	}
	s, err := n.ParsePosition(text)
	if err != nil {
		return 0, err
	}
	return c.Index(s), nil
}

// Counts returns the running counts of canonical positions: Counts()[k] is
// the number below position 512k, and the last entry the total. They are
// all Ranks needs to number the classes as c does (a database stores them).
func (c *Compact) Counts() []uint32 { return c.counts }

// Ranks numbers a Symmetric game's classes as Compact does, from Compact's
// running counts alone: where Compact keeps a bit per position, Ranks tests
// IsCanonical on the up to 511 positions of a group of 512 that come
// before the one asked about, a few microseconds per call. It is what a
// query needs of the numbering without the seconds NewCompact takes.
type Ranks struct {
	S      Symmetric
	Counts []uint32 // Compact.Counts of S
}

// Size returns the number of classes.
func (r Ranks) Size() uint64 { return uint64(r.Counts[len(r.Counts)-1]) }

// Index returns the compact index of any position s: the rank of its
// class's representative.
func (r Ranks) Index(s uint64) uint64 {
	c := r.S.Canonical(s)
	g := c / 512
	// Count the canonical positions on the shorter side of c in its group:
	// before c up from the group's rank, or after c down from the next's.
	if c%512 < 256 {
		k := uint64(r.Counts[g])
		for p := c &^ 511; p < c; p++ {
			if r.S.IsCanonical(p) {
				k++
			}
		}
		return k
	}
	k := uint64(r.Counts[g+1]) - 1
	for p := c + 1; p < min((g+1)*512, r.S.Size()); p++ {
		if r.S.IsCanonical(p) {
			k--
		}
	}
	return k
}

// Position returns the canonical position at compact index i, and false if
// there is none: i is out of range, or the counts are not S's.
func (r Ranks) Position(i uint64) (uint64, bool) {
	if i >= r.Size() {
		return 0, false
	}
	// The group holding i: the last k with Counts[k] <= i.
	k := sort.Search(len(r.Counts), func(k int) bool { return uint64(r.Counts[k]) > i }) - 1
	rank := uint64(r.Counts[k])
	for p := uint64(k) * 512; p < min(uint64(k+1)*512, r.S.Size()); p++ {
		if r.S.IsCanonical(p) {
			if rank == i {
				return p, true
			}
			rank++
		}
	}
	return 0, false
}
