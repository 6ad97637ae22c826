package text

import "fmt"

// HumanBytes formats a byte count for the messages that refuse a game too
// large for memory: "512 B", "1.5 GiB".
func HumanBytes(b uint64) string {
	div, unit := humanUnit(b)
	if unit == 0 {
		return fmt.Sprintf("%d B", b)
	}
	return fmt.Sprintf("%.1f %ciB", float64(b)/float64(div), unit)
}

// HumanBytesUp is HumanBytes rounded up, not to the nearest tenth: the
// least memory a refusal names, which a limit given as written is then
// enough for ("41.7 MiB" for 41.61 MiB).
func HumanBytesUp(b uint64) string {
	div, unit := humanUnit(b)
	if unit == 0 {
		return fmt.Sprintf("%d B", b)
	}
	tenths := b/div*10 + (b%div*10+div-1)/div
	return fmt.Sprintf("%d.%d %ciB", tenths/10, tenths%10, unit)
}

// humanUnit returns the unit byte count b is written in: its bytes and
// letter (K to E), or 1 and 0 for bytes alone below a KiB.
func humanUnit(b uint64) (uint64, byte) {
	const unit = 1024
	if b < unit {
		return 1, 0
	}
	div, exp := uint64(unit), 0
	for x := b / unit; x >= unit && exp < 5; x /= unit {
		div *= unit
		exp++
	}
	return div, "KMGTPE"[exp]
}

// FileName is name with every byte other than a letter, a digit, '-' and
// '_' written as '_': a name ("KQvKR", "7+0 v 6+0") made safe for a file's.
func FileName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}
