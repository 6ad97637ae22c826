// Package db is retro's database file: a solved game saved with the value
// and depth of every index, in independently compressed, checksummed blocks,
// and enough to rebuild the game from the file alone (its name, its flags,
// its input). Create writes one; Open reads one a block at a time. A
// damaged file is refused with an error naming the part that is wrong,
// never a wrong value.
//
// The layout, all integers little-endian:
//
//	magic "RETRODB1"
//	section 0: its blocks, then its block table, then its symmetry directory
//	section 1: ...
//	the input, compressed
//	header: JSON (Header)
//	footer: header offset (8 bytes), header length (4), header CRC-32C (4),
//	        magic "RETRODB1"
//
// A block holds BlockSize consecutive indices (the last one fewer), each as
// a code of Width bytes (see Code), stored as Width byte planes (the low
// bytes of every code, then the next bytes) and compressed with zstd. A
// block table has one entry per block: its offset (8 bytes), compressed
// length (4) and the CRC-32C of the compressed bytes (4). Every part the
// header points at carries its CRC-32C in the header, so one flipped bit
// anywhere is found: in the header by the footer's checksum, elsewhere by
// the checksum of the part that holds it.
package db

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"

	"github.com/retro-solver/retro/engine"
)

// FormatVersion is the version of the layout this package writes: 1 for
// codes of every depth, 2 where a section's codes leave out the depths of
// wins (LossDepths), 3 where a section's illegal indices hold the codes of
// positions before them (Section.Filled), 4 where a section's codes keep
// the losses alone (Losses); a reader of an earlier version would misread
// each. Open reads all four.
const FormatVersion = 1

// formatLossDepths, formatFilled and formatLosses are the versions of a
// file with a LossDepths section, with a Filled one, and with a Losses one.
const (
	formatLossDepths = 2
	formatFilled     = 3
	formatLosses     = 4
)

const (
	magic      = "RETRODB1"
	footerSize = 8 + 4 + 4 + len(magic)
	entrySize  = 8 + 4 + 4 // a block table entry
	// DefaultBlockSize is the number of indices per block: one query reads
	// and decompresses one block, a few hundred microseconds at most.
	DefaultBlockSize = 1 << 18
	// maxHeader bounds the header a reader accepts.
	maxHeader = 64 << 20
	// dirGroup is the number of indices of a symmetric game per entry of
	// its directory (implicit.Compact's running counts).
	dirGroup = 512
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// Header is what a database says about itself, as JSON at the end of the
// file: what rebuilds its games, and one Section per instance solved.
type Header struct {
	Format int `json:"format"`
	// Game is the game's name (as `retro solve` takes it); Args are the
	// game's own flags as given ("-n=4"), and Input, if the game reads
	// one, where its input text lies in the file.
	Game string   `json:"game"`
	Args []string `json:"args,omitempty"`
	// GameVersion is the version of the game's index (Descriptor.Version).
	GameVersion int       `json:"gameVersion,omitempty"`
	Input       *Extent   `json:"input,omitempty"`
	Sections    []Section `json:"sections"`
}

// Section describes the values of one instance of the game (a board of a
// pawns input; most inputs have one).
type Section struct {
	// Label names the instance ("board 2"); empty when the input has one.
	Label string `json:"label,omitempty"`
	// Size is the number of indices stored. For a symmetric game solved
	// over its classes (Directory not nil) an index is a class, numbered
	// as implicit.Compact numbers them, and IndexSize is the size of the
	// game's own index; otherwise IndexSize equals Size.
	Size      uint64 `json:"size"`
	IndexSize uint64 `json:"indexSize"`
	// Start is the start position's stored index, for games with one.
	Start *uint64 `json:"start,omitempty"`
	// Reachable says that only the positions reachable from the start were
	// solved (retro solve -reachable): the others, "unreached", are stored
	// as illegal.
	Reachable bool `json:"reachable,omitempty"`
	// FirstTier says that the section holds the first tiers of a game
	// whose tiers are shared (implicit.SharedTiers: a chess endgame
	// without the endgames its captures lead to), those of the game itself
	// (implicit.GroupRange of its first tier: one, or the parts of an
	// endgame with pawns): its other tiers are read from the databases
	// named by their games beside the file ("KQvK.db"), each holding its
	// own. Size is the size of those first tiers.
	FirstTier bool `json:"firstTier,omitempty"`
	// Counts holds the number of indices by value (draw, win, loss,
	// illegal, in engine.Value order); MaxDepth the largest depth.
	Counts   [4]uint64 `json:"counts"`
	MaxDepth uint64    `json:"maxDepth"`
	// Depths counts the wins and losses by depth; files written before it
	// existed lack it (Table.CountDepths computes it).
	Depths *Depths `json:"depths,omitempty"`
	// Coding says what a code stores: AllDepths (absent) or LossDepths.
	Coding Coding `json:"coding,omitempty"`
	// Filled says that an illegal index holds the code of the last legal
	// position before it in its block (0 where none is), not 0: runs of
	// one code where the index has holes, which compress to less (a tenth
	// to a sixth of a chess endgame's file). A reader tells the illegal
	// indices by the game's rules, which every command that reads a
	// position applies first; Counts still counts them, and Depths is
	// given. Not with Reachable, whose unreached positions are stored as
	// illegal, nor with a Directory.
	Filled bool `json:"filled,omitempty"`
	// Width is the bytes per code, BlockSize the indices per block.
	Width     int    `json:"width"`
	BlockSize uint64 `json:"blockSize"`
	// Blocks is where the block table lies; Directory, for symmetric
	// games, where the running counts of classes lie (see implicit.Ranks).
	Blocks    Extent  `json:"blocks"`
	Directory *Extent `json:"directory,omitempty"`
	// Stored is the bytes of compressed blocks.
	Stored uint64 `json:"stored"`
}

// Depths is a histogram of the depths of a section's wins and losses:
// Win[k] and Loss[k] count those at depths k*Bucket to (k+1)*Bucket-1.
// Bucket is 1 (one bar per depth) unless the max depth reaches MaxBars.
type Depths struct {
	Bucket uint64   `json:"bucket"`
	Win    []uint64 `json:"win"`
	Loss   []uint64 `json:"loss"`
}

// MaxBars bounds the length of a Depths histogram.
const MaxBars = 1024

// NewDepths returns an empty histogram for depths up to maxDepth.
func NewDepths(maxDepth uint64) *Depths {
	bucket := maxDepth/MaxBars + 1
	bars := maxDepth/bucket + 1
	return &Depths{Bucket: bucket, Win: make([]uint64, bars), Loss: make([]uint64, bars)}
}

// Add counts n positions of value v at depth d; draws and illegal indices
// are not counted.
func (h *Depths) Add(v engine.Value, d, n uint64) {
	switch v {
	case engine.Win:
		h.Win[d/h.Bucket] += n
	case engine.Loss:
		h.Loss[d/h.Bucket] += n
	}
}

// Merge adds o, a histogram of the same shape, to h.
func (h *Depths) Merge(o *Depths) {
	for k := range h.Win {
		h.Win[k] += o.Win[k]
		h.Loss[k] += o.Loss[k]
	}
}

// Equal reports whether h and o count the same.
func (h *Depths) Equal(o *Depths) bool {
	return h.Bucket == o.Bucket && slices.Equal(h.Win, o.Win) && slices.Equal(h.Loss, o.Loss)
}

// fits reports whether h is a histogram of counts and maxDepth.
func (h *Depths) fits(counts [4]uint64, maxDepth uint64) bool {
	want := NewDepths(maxDepth)
	if h.Bucket != want.Bucket || len(h.Win) != len(want.Win) || len(h.Loss) != len(want.Loss) {
		return false
	}
	var w, l uint64
	for k := range h.Win {
		w += h.Win[k]
		l += h.Loss[k]
	}
	return w == counts[engine.Win] && l == counts[engine.Loss]
}

// Extent is a part of the file: where it starts, its length, its CRC-32C,
// and for a compressed part the length once decompressed.
type Extent struct {
	Offset uint64 `json:"offset"`
	Length uint64 `json:"length"`
	CRC    uint32 `json:"crc"`
	Raw    uint64 `json:"raw,omitempty"`
}

// NumBlocks returns the number of blocks of the section.
func (s *Section) NumBlocks() uint64 {
	if s.BlockSize == 0 {
		return 0
	}
	return (s.Size + s.BlockSize - 1) / s.BlockSize
}

// RawBytes returns the bytes of the section's codes before compression.
func (s *Section) RawBytes() uint64 { return s.Size * uint64(s.Width) }

// Code returns the code that stores a value and depth: 0 for an illegal
// index, 1 for a draw, 2+2d for a win at depth d and 3+2d for a loss.
func Code(v engine.Value, depth uint64) uint64 {
	switch v {
	case engine.Draw:
		return 1
	case engine.Win:
		return 2 + 2*depth
	case engine.Loss:
		return 3 + 2*depth
	}
	return 0
}

// Decode returns the value and depth a code stores.
func Decode(c uint64) (engine.Value, uint64) {
	switch c {
	case 0:
		return engine.Illegal, 0
	case 1:
		return engine.Draw, 0
	}
	if c&1 == 0 {
		return engine.Win, c/2 - 1
	}
	return engine.Loss, c/2 - 1
}

// Coding is how a section's codes store values and depths.
type Coding string

const (
	// AllDepths codes are Code's: every win and loss with its depth.
	AllDepths Coding = ""
	// LossDepths codes keep the depths of losses only: 0 for an illegal
	// index, 1 for a draw, 2 for a win, 3+d for a loss at depth d. A win's
	// depth is one more than the least depth among the losses it moves to
	// (0 for a terminal win), found again from its moves (query.WinDepths):
	// on Nine Men's Morris the codes fit in a byte and compress to half the
	// size of AllDepths'.
	LossDepths Coding = "loss-depth"
	// Losses codes keep the losses alone, with their depths: 0 for an
	// illegal index, 1 for a position that is not a loss (a win or a
	// draw), 2+d for a loss at depth d. Such a position is a win if it
	// moves to a loss, at one more than the least depth among those (0 for
	// a terminal win), and a draw otherwise (query.WinDepths): where wins
	// and draws mix (KBNvKN), the boundary between them is what the other
	// codings spend the most bits on, half the file or more.
	Losses Coding = "losses"
)

// known reports whether c is a coding this package reads.
func (c Coding) known() bool { return c == AllDepths || c == LossDepths || c == Losses }

// FromMoves reports whether the coding leaves out what a position's moves
// tell: the depths of wins (LossDepths), and whether a position that is
// not a loss is a win or a draw (Losses). Readers find them with
// query.WinDepths.
func (c Coding) FromMoves() bool { return c != AllDepths }

// tells reports whether the code of a position of value v tells v and its
// depth: not that of a win where the coding leaves out its depth, nor that
// of a win or a draw where it keeps the losses alone.
func (c Coding) tells(v engine.Value) bool {
	switch c {
	case LossDepths:
		return v != engine.Win
	case Losses:
		return v != engine.Win && v != engine.Draw
	}
	return true
}

// Code returns the code of a value and depth.
func (c Coding) Code(v engine.Value, depth uint64) uint64 {
	switch {
	case c == AllDepths:
		return Code(v, depth)
	case c == Losses && v == engine.Loss:
		return 2 + depth
	case c == Losses && (v == engine.Win || v == engine.Draw):
		return 1
	}
	switch v {
	case engine.Draw:
		return 1
	case engine.Win:
		return 2
	case engine.Loss:
		return 3 + depth
	}
	return 0
}

// Decode returns the value and depth a code stores: engine.NoDepth for the
// depth of a win that the coding leaves out, and a draw at engine.NoDepth
// for a position that is a win or a draw (Losses), which its moves tell.
func (c Coding) Decode(code uint64) (engine.Value, uint64) {
	switch {
	case c == AllDepths:
		return Decode(code)
	case code == 0:
		return engine.Illegal, 0
	case c == Losses && code == 1:
		return engine.Draw, engine.NoDepth
	case c == Losses:
		return engine.Loss, code - 2
	case code == 1:
		return engine.Draw, 0
	case code == 2:
		return engine.Win, engine.NoDepth
	}
	return engine.Loss, code - 3
}

// MaxCode returns the largest code of depths up to maxDepth.
func (c Coding) MaxCode(maxDepth uint64) uint64 { return c.Code(engine.Loss, maxDepth) }

// Width returns the bytes per code (1, 2 or 4) for depths up to maxDepth,
// and an error for depths too large to store.
func (c Coding) Width(maxDepth uint64) (int, error) {
	switch max := c.MaxCode(maxDepth); {
	case maxDepth >= 1<<31-2:
		return 0, fmt.Errorf("db: depth %d is too large to store", maxDepth)
	case max < 1<<8:
		return 1, nil
	case max < 1<<16:
		return 2, nil
	}
	return 4, nil
}

// CodeWidth returns the bytes per code (1, 2 or 4) of AllDepths codes for
// depths up to maxDepth, and an error for depths too large to store.
func CodeWidth(maxDepth uint64) (int, error) { return AllDepths.Width(maxDepth) }

// appendFooter appends the footer that points at a header.
func appendFooter(b []byte, offset uint64, header []byte) []byte {
	b = binary.LittleEndian.AppendUint64(b, offset)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(header)))
	b = binary.LittleEndian.AppendUint32(b, checksum(header))
	return append(b, magic...)
}
