package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestGolden")

// TestGolden runs every case of testdata/golden/cases.txt and compares its
// exit status, standard output and standard error with NAME.want, byte for
// byte: the outputs are a contract (GAMES.md), and a change of layout must
// not change them.
func TestGolden(t *testing.T) {
	f, err := os.Open("testdata/golden/cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.Fields(line)
		name, args := fields[0], fields[1:]
		t.Run(name, func(t *testing.T) {
			out, errs, code := retro(t, "", args...)
			got := fmt.Sprintf("exit %d\n-- stdout --\n%s-- stderr --\n%s", code, out, errs)
			path := filepath.Join("testdata", "golden", name+".want")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("retro %s:\ngot:\n%s\nwant:\n%s", strings.Join(args, " "), got, want)
			}
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}
