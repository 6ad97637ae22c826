package web

import (
	"strings"
	"unicode/utf8"
)

// board is a position as the page draws it: the built-in board games write
// a position as rows of one character per cell, then a caption ("X to
// move"); a game without a board (a graph's "vertex 7") has only the
// caption.
type board struct {
	Rows    []string `json:"rows,omitempty"`
	Caption string   `json:"caption"`
}

// parseBoard splits a position's one-line text (lines joined by '/') into
// its rows and its caption. Lines with a space in them are words, not
// rows: those after the rows are the caption, those before (a board's
// size, "5 7") are dropped. The rows must be all as long; a text without
// such rows is all caption.
func parseBoard(text string) *board {
	lines := strings.Split(text, "/")
	words := func(l string) bool { return strings.Contains(l, " ") }
	i, k := 0, len(lines)
	for k > 0 && words(lines[k-1]) {
		k--
	}
	for i < k && words(lines[i]) {
		i++
	}
	rows := lines[i:k]
	if len(rows) == 0 {
		return &board{Caption: text}
	}
	for _, r := range rows {
		if r == "" || len(r) != len(rows[0]) || !utf8.ValidString(r) || utf8.RuneCountInString(r) != len(r) {
			return &board{Caption: text}
		}
	}
	return &board{Rows: rows, Caption: strings.Join(lines[k:], " / ")}
}

// changed returns the cells, as [row, column], where to differs from b,
// and what to holds there, one character per cell; none if either has no
// rows or their shapes differ.
func (b *board) changed(to *board) (cells [][2]int, now string) {
	if len(b.Rows) == 0 || len(b.Rows) != len(to.Rows) {
		return nil, ""
	}
	var buf []byte
	for r := range b.Rows {
		if len(b.Rows[r]) != len(to.Rows[r]) {
			return nil, ""
		}
		for c := range len(b.Rows[r]) {
			if b.Rows[r][c] != to.Rows[r][c] {
				cells = append(cells, [2]int{r, c})
				buf = append(buf, to.Rows[r][c])
			}
		}
	}
	return cells, string(buf)
}
