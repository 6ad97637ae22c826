package text

import "fmt"

// HumanBytes formats a byte count for the messages that refuse a game too
// large for memory: "512 B", "1.5 GiB".
func HumanBytes(b uint64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	div, exp := uint64(unit), 0
	for x := b / unit; x >= unit && exp < 5; x /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(b)/float64(div), "KMGTPE"[exp])
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
