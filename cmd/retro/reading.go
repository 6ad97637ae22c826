package main

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/retro-solver/retro/implicit"
	"github.com/retro-solver/retro/internal/text"
)

// readingProgress wraps r so that, while it is read, a line every second on
// standard error says how much has been read; the returned stop ends the
// lines. It does nothing unless progress lines are wanted.
func (c *solveConfig) readingProgress(r io.Reader, name string) (io.Reader, func()) {
	if !c.progress && !c.env.isTerminal {
		return r, func() {}
	}
	cr := &countingReader{r: r}
	done := make(chan struct{})
	finished := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				what := "read"
				if cr.eof.Load() {
					what = "read; building the game"
				}
				fmt.Fprintf(c.env.stderr, "retro: loading %s: %s %s, %v\n", name,
					text.HumanBytes(cr.n.Load()), what, time.Since(start).Round(time.Millisecond))
			}
		}
	}()
	return cr, func() { close(done); <-finished }
}

type countingReader struct {
	r   io.Reader
	n   atomic.Uint64
	eof atomic.Bool // the whole input has been read
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n.Add(uint64(k))
	if err == io.EOF {
		c.eof.Store(true)
	}
	return k, err
}

// compact renumbers g over its symmetry classes, saying so on standard error
// when progress lines are wanted (it takes seconds on large games).
func (c *solveConfig) compact(g implicit.Symmetric) *implicit.Compact {
	if !c.progress && !c.env.isTerminal {
		return implicit.NewCompact(g)
	}
	start := time.Now()
	fmt.Fprintf(c.env.stderr, "retro: finding one position per symmetry class among %d\n", g.Size())
	cg := implicit.NewCompact(g)
	fmt.Fprintf(c.env.stderr, "retro: %d classes, %v\n", cg.Size(), time.Since(start).Round(time.Millisecond))
	return cg
}
