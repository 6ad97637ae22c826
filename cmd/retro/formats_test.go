package main

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestFormatsExamples runs every `$ retro ...` example of docs/formats.md
// and compares what it prints with the lines the document shows under it.
func TestFormatsExamples(t *testing.T) {
	f, err := os.Open("../../docs/formats.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type example struct {
		args []string
		want string
	}
	var examples []example
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "    $ retro "):
			args := strings.Fields(strings.TrimPrefix(line, "    $ retro "))
			for i, a := range args {
				if strings.HasPrefix(a, "examples/") {
					args[i] = "../../" + a
				}
			}
			examples = append(examples, example{args: args})
		case strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "    $") && len(examples) > 0:
			examples[len(examples)-1].want += strings.TrimPrefix(line, "    ") + "\n"
		case !strings.HasPrefix(line, "    ") && len(examples) > 0 && examples[len(examples)-1].want != "":
			// The output ends with the block; text after it is not output.
			examples = append(examples, example{})
		}
	}
	n := 0
	for _, ex := range examples {
		if ex.args == nil {
			continue
		}
		n++
		if ex.args[1] == "teeko" {
			// A minute of CPU for one line, "draw": implicit/teeko's
			// TestSolve solves the same game the way the command does (its
			// classes, the parallel engine) and checks the start's value,
			// and the command prints every game's value alike.
			continue
		}
		out, errs, code := retro(t, "", ex.args...)
		if code != 0 || out != ex.want {
			t.Errorf("retro %s: exit %d, stderr %q, stdout:\n%s\nthe document says:\n%s", strings.Join(ex.args, " "), code, errs, out, ex.want)
		}
	}
	if n < 5 {
		t.Fatalf("%d examples found in docs/formats.md", n)
	}
}
