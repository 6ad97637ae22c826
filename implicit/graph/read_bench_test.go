package graph

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

func BenchmarkRead(b *testing.B) {
	const n, m = 1 << 20, 5 << 20
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%d %d\n", n, m)
	r := rand.New(rand.NewPCG(1, 1))
	for range m {
		fmt.Fprintf(&buf, "%d %d\n", r.IntN(n), r.IntN(n))
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		if _, err := Read(bytes.NewReader(data), 1<<40); err != nil {
			b.Fatal(err)
		}
	}
}
