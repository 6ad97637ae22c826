package main

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// sizeForm is what -max-memory accepts: a number of bytes, or of KiB,
// MiB, GiB or TiB with the unit's letter in either case, with a decimal
// fraction or not.
var sizeForm = regexp.MustCompile(`^([0-9]+|[0-9]+(\.[0-9]+)?[KMGTkmgt])$`)

// FuzzByteSize checks -max-memory's parser: it takes a size exactly when
// the text has sizeForm and names a positive number of bytes up to 2^63
// (rounded down), that number, and takes back what String writes of it.
func FuzzByteSize(f *testing.F) {
	for _, s := range []string{"512M", "8G", "1", "0", "1T5", "16e", "-3M", "", "9223372036854775807", "8388608T", "8388607t", " 4K", "4KB", "1.5G", "41.7M", "0.0001K", "0.001K", "1.5", ".5M", "1.M", "8388607.9999999999T", "8388608.0T", "1e3M"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b byteSize
		err := b.Set(s)
		if !sizeForm.MatchString(s) {
			if err == nil {
				t.Fatalf("Set(%q) took %d bytes from a text that is not a size", s, b)
			}
			return
		}
		number, unit := strings.TrimRight(s, "KMGTkmgt"), strings.TrimLeft(s, "0123456789.")
		shift := uint(0)
		if unit != "" {
			shift = 10 * uint(1+strings.IndexByte("KMGT", unit[0]&^0x20))
		}
		r, _ := new(big.Rat).SetString(number)
		r.Mul(r, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), shift)))
		v := new(big.Int).Quo(r.Num(), r.Denom())
		want := v.Sign() > 0 && v.Cmp(new(big.Int).Lsh(big.NewInt(1), 63)) <= 0
		switch {
		case want && err != nil:
			t.Fatalf("Set(%q): %v, want %d bytes", s, err, v)
		case !want && err == nil:
			t.Fatalf("Set(%q) took %d bytes, want an error (zero, or more than 2^63 bytes)", s, b)
		case want && uint64(b) != v.Uint64():
			t.Fatalf("Set(%q) = %d bytes, want %d", s, b, v)
		}
		if err != nil {
			if !strings.Contains(err.Error(), "want a positive size") {
				t.Fatalf("Set(%q): %q does not say what a size is", s, err)
			}
			return
		}
		var back byteSize
		if err := back.Set(b.String()); err != nil || back != b {
			t.Fatalf("Set(%q) = %d, written %q, read back as %d (%v)", s, b, b.String(), back, err)
		}
	})
}

// FuzzSplitTiers checks -split-tiers' parser: "auto", or a number of
// positions in decimal, and takes back what String writes.
func FuzzSplitTiers(f *testing.F) {
	for _, s := range []string{"auto", "0", "400000", "18446744073709551615", "18446744073709551616", "-1", "Auto", "1e6", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var sf splitFlag
		err := sf.Set(s)
		n, perr := strconv.ParseUint(s, 10, 64)
		switch {
		case s == "auto":
			if err != nil || sf.set {
				t.Fatalf("Set(auto) = %+v, %v", sf, err)
			}
		case perr == nil:
			if err != nil || !sf.set || sf.from != n {
				t.Fatalf("Set(%q) = %+v, %v, want %d positions", s, sf, err, n)
			}
		default:
			if err == nil {
				t.Fatalf("Set(%q) = %+v from a text that is neither auto nor a number", s, sf)
			}
			return
		}
		var back splitFlag
		if err := back.Set(sf.String()); err != nil || back != sf {
			t.Fatalf("Set(%q) = %+v, written %q, read back as %+v (%v)", s, sf, sf.String(), back, err)
		}
	})
}
