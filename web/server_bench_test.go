package web_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// BenchmarkPosition measures the server's own cost of one position query by
// text (quixo 3 x 3, a cycle of positions drawn at random), without the
// network: go run ./bench/load measures the whole path.
func BenchmarkPosition(b *testing.B) {
	fx := newFixture(b)
	handler := fx.srv.Config.Handler
	var paths []string
	for range 200 {
		var p positionResp
		fx.getJSON(b, "/api/games/q3/random", &p)
		paths = append(paths, "/api/games/q3/position?p="+url.QueryEscape(p.Position))
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for i := 0; pb.Next(); i++ {
			w := httptest.NewRecorder()
			handler.ServeHTTP(w, httptest.NewRequest(http.MethodGet, paths[i%len(paths)], nil))
			if w.Code != http.StatusOK {
				b.Fatalf("%d %s", w.Code, w.Body)
			}
		}
	})
}
