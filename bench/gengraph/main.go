// Command gengraph writes a random graph in the `graph` text format, for
// measuring the reader and the engines on large inputs:
//
//	go run ./bench/gengraph -n 10000000 -m 50000000 -seed 1 > big.graph
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
)

func main() {
	n := flag.Uint64("n", 1000, "number of `vertices`")
	m := flag.Uint64("m", 5000, "number of `edges`")
	seed := flag.Uint64("seed", 1, "random `seed`")
	flag.Parse()
	if *n == 0 && *m > 0 {
		fmt.Fprintln(os.Stderr, "gengraph: edges need at least one vertex")
		os.Exit(2)
	}
	r := rand.New(rand.NewPCG(*seed, 0x67656e))
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	fmt.Fprintf(w, "%d %d\n", *n, *m)
	var line []byte
	for range *m {
		line = strconv.AppendUint(line[:0], r.Uint64N(*n), 10)
		line = append(line, ' ')
		line = strconv.AppendUint(line, r.Uint64N(*n), 10)
		line = append(line, '\n')
		w.Write(line)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "gengraph:", err)
		os.Exit(1)
	}
}
