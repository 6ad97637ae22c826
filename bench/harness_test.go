package bench

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// countForm is a field ParseWorkers may take: an integer with an optional
// sign, spaces around it.
var countForm = regexp.MustCompile(`^[+-]?[0-9]+$`)

// FuzzParseWorkers checks `retro bench -workers`' parser: a list is taken
// exactly when each of its comma-separated fields is a positive integer
// (spaces around it allowed), as those integers, and what it returns
// joined by commas reads back the same.
func FuzzParseWorkers(f *testing.F) {
	for _, s := range []string{"1,2", "1, 2, 4", "0", "", "2,", ",2", "-1", "+3", "1,2,4,8,16", "99999999999999999999", "a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ws, err := ParseWorkers(s)
		fields := strings.Split(s, ",")
		ok := true
		for _, fd := range fields {
			fd = strings.TrimSpace(fd)
			n, isInt := new(big.Int).SetString(strings.TrimPrefix(fd, "+"), 10)
			ok = ok && countForm.MatchString(fd) && isInt && n.Sign() > 0 && n.IsInt64()
		}
		if ok != (err == nil) {
			t.Fatalf("ParseWorkers(%q) = %v, %v; each field a positive integer: %v", s, ws, err, ok)
		}
		if err != nil {
			return
		}
		if len(ws) != len(fields) {
			t.Fatalf("ParseWorkers(%q) = %v: %d counts for %d fields", s, ws, len(ws), len(fields))
		}
		text := make([]string, len(ws))
		for k, w := range ws {
			if w < 1 {
				t.Fatalf("ParseWorkers(%q) = %v: a count below 1", s, ws)
			}
			text[k] = strconv.Itoa(w)
		}
		back, err := ParseWorkers(strings.Join(text, ","))
		if err != nil || len(back) != len(ws) {
			t.Fatalf("ParseWorkers(%q) = %v, read back as %v (%v)", s, ws, back, err)
		}
		for k := range ws {
			if back[k] != ws[k] {
				t.Fatalf("ParseWorkers(%q) = %v, read back as %v", s, ws, back)
			}
		}
	})
}
