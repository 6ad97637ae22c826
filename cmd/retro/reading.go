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
func (c *solveRun) readingProgress(r io.Reader, name string) (io.Reader, func()) {
	if !c.wantProgress() {
		return r, func() {}
	}
	cr := &countingReader{r: r}
	return cr, progressLines(c.env, func() string {
		what := "read"
		if cr.eof.Load() {
			what = "read; building the game"
		}
		return fmt.Sprintf("loading %s: %s %s", name, text.HumanBytes(cr.n.Load()), what)
	})
}

// wantProgress reports whether progress lines are wanted: -progress, or
// standard error is a terminal.
func (c *solveRun) wantProgress() bool { return c.progress || c.env.isTerminal }

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
func (c *solveRun) compact(g implicit.Symmetric) *implicit.Compact {
	if !c.wantProgress() {
		return implicit.NewCompact(g)
	}
	start := time.Now()
	fmt.Fprintf(c.env.stderr, "retro: finding one position per symmetry class among %d\n", g.Size())
	cg := implicit.NewCompact(g)
	fmt.Fprintf(c.env.stderr, "retro: %d classes, %v\n", cg.Size(), time.Since(start).Round(time.Millisecond))
	return cg
}

// progressLines prints "retro: " and what line returns to standard error
// every second, with the time since it started, until the returned stop is
// called.
func progressLines(e *env, line func() string) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
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
				fmt.Fprintf(e.stderr, "retro: %s, %v\n", line(), time.Since(start).Round(time.Millisecond))
			}
		}
	}()
	return func() { close(done); <-finished }
}
