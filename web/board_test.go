package web

import (
	"slices"
	"testing"
)

// TestMorrisBoard places morris positions on the 7 x 7 grid and finds
// what a placement that closes a mill changes: the point placed on and
// the stone removed.
func TestMorrisBoard(t *testing.T) {
	b := boardOf("morris", "WW./.../..B/B.....//.../.../... W 0 0")
	if b.Rows != nil {
		t.Fatalf("a text of 8 rows drew %q", b.Rows)
	}
	b = boardOf("morris", "WW./.../..B/B...../.../.../... W 2 3")
	want := []string{"W++W++.", "+.+.+.+", "++..B++", "B..+...", "++...++", "+.+.+.+", ".++.++."}
	if !slices.Equal(b.Rows, want) || b.Caption != "W 2 3" {
		t.Fatalf("rows %q, caption %q; want %q, \"W 2 3\"", b.Rows, b.Caption, want)
	}
	// White places on g7, closing the top row's mill, and removes a4.
	to := boardOf("morris", "WWW/.../..B/....../.../.../... B 1 3")
	cells, now := b.changed(to)
	if !slices.Equal(cells, [][2]int{{0, 6}, {3, 0}}) || now != "W." {
		t.Errorf("changed %v %q, want [[0 6] [3 0]] \"W.\"", cells, now)
	}
	if got := boardOf("quixo", ".X./.O./.../X to move"); len(got.Rows) != 3 {
		t.Errorf("a quixo board drew %q", got.Rows)
	}
}

// TestChessBoard places a chess position on 8 rows of 8 cells and finds
// what a move changes: the square left and the square reached.
func TestChessBoard(t *testing.T) {
	b := boardOf("chess", "8/8/8/8/3pP3/8/8/4K2k b - e3")
	want := []string{"........", "........", "........", "........", "...pP...", "........", "........", "....K..k"}
	if !slices.Equal(b.Rows, want) || b.Caption != "black to move, en passant e3" {
		t.Fatalf("rows %q, caption %q; want %q", b.Rows, b.Caption, want)
	}
	to := boardOf("chess", "8/8/8/8/3pP3/8/8/5K1k w - -")
	if cells, now := b.changed(to); !slices.Equal(cells, [][2]int{{7, 4}, {7, 5}}) || now != ".K" {
		t.Errorf("changed %v %q, want [[7 4] [7 5]] \".K\"", cells, now)
	}
	for _, bad := range []string{"8/8/8/8 w - -", "9/8/8/8/8/8/8/8 w - -", "8/8/8/8/8/8/8/8"} {
		if got := chessBoard(bad); got != nil {
			t.Errorf("%q drew %q", bad, got.Rows)
		}
	}
}
