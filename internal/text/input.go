package text

import (
	"bytes"
	"context"
	"io"
)

// Input wraps a reader of text input for retro's parsers: it stops at once
// when ctx is done, even while the underlying Read blocks (a terminal, a
// pipe, a FIFO with no writer yet), and it refuses CR-only line endings,
// which every parser would otherwise read as one long line.
//
// The underlying reader is read by a goroutine of its own, a chunk at a
// time; after a cancellation that goroutine ends with its blocked Read.
type Input struct {
	ctx    context.Context
	chunks chan chunk
	stop   chan struct{} // closed by Close
	cur    []byte
	err    error
	line   int  // lines passed, for the CR error
	cr     bool // the last byte seen was '\r'
}

type chunk struct {
	b   []byte
	err error
}

// NewInput starts reading r.
func NewInput(ctx context.Context, r io.Reader) *Input {
	in := &Input{ctx: ctx, chunks: make(chan chunk, 1), stop: make(chan struct{}), line: 1}
	go func() {
		for {
			buf := make([]byte, 256<<10)
			n, err := r.Read(buf)
			select {
			case in.chunks <- chunk{buf[:n], err}:
			case <-ctx.Done():
				return
			case <-in.stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return in
}

// Close lets the reading goroutine end once its Read returns; it does not
// close the underlying reader.
func (in *Input) Close() { close(in.stop) }

// Read reads from the chunks read so far, or waits for the next one or for
// the cancellation, whichever comes first.
func (in *Input) Read(p []byte) (int, error) {
	for len(in.cur) == 0 {
		if in.err != nil {
			return 0, in.err
		}
		select {
		case <-in.ctx.Done():
			in.err = in.ctx.Err()
			return 0, in.err
		case c := <-in.chunks:
			if err := in.checkCR(c.b); err != nil {
				in.err = err
				return 0, err
			}
			in.cur, in.err = c.b, c.err
		}
	}
	n := copy(p, in.cur)
	in.cur = in.cur[n:]
	return n, nil
}

// checkCR counts the lines of b and refuses a '\r' that no '\n' follows.
// It looks for the '\r's alone and counts the lines between them in one
// call: a call per line took 10% of a graph's solve (2x10^7 lines).
func (in *Input) checkCR(b []byte) error {
	if in.cr && len(b) > 0 && b[0] != '\n' {
		return in.crError()
	}
	in.cr = len(b) > 0 && b[len(b)-1] == '\r'
	for len(b) > 0 {
		k := bytes.IndexByte(b, '\r')
		if k < 0 {
			in.line += bytes.Count(b, newline)
			break
		}
		in.line += bytes.Count(b[:k], newline)
		if k+1 < len(b) && b[k+1] != '\n' {
			return in.crError()
		}
		b = b[k+1:]
	}
	return nil
}

var newline = []byte{'\n'}

func (in *Input) crError() error {
	return Errorf(in.line, "a carriage return (CR) without a line feed: lines must end with LF or CR LF, not CR alone (convert with tr '\\r' '\\n')")
}
