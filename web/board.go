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

// boardOf returns the board the page draws for a position of a game of
// the given kind: a layout of the game's own (layouts), or parseBoard's
// rows and caption.
func boardOf(kind, text string) *board {
	if layout, ok := layouts[kind]; ok {
		if b := layout(text); b != nil {
			return b
		}
	}
	return parseBoard(text)
}

// layouts place the points of games whose boards are not rows of cells on
// a grid, by game: the page draws the grid's cells that are points, and
// the game's lines between them.
var layouts = map[string]func(text string) *board{"morris": morrisBoard, "chess": chessBoard}

// chessBoard places a chess position in FEN ("8/8/8/8/8/2k5/8/KQ6 b - -")
// on 8 rows of 8 cells, rank 8 first, '.' for an empty square, the FEN's
// letters for the pieces; the caption is the side to move and the
// en-passant square. nil if the text is not one.
func chessBoard(text string) *board {
	fields := strings.Fields(text)
	if len(fields) < 4 {
		return nil
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return nil
	}
	b := &board{Caption: "white to move"}
	if fields[1] == "b" {
		b.Caption = "black to move"
	}
	if fields[3] != "-" {
		b.Caption += ", en passant " + fields[3]
	}
	for _, rank := range ranks {
		var row []byte
		for i := range len(rank) {
			if c := rank[i]; c >= '1' && c <= '8' {
				row = append(row, strings.Repeat(".", int(c-'0'))...)
			} else {
				row = append(row, c)
			}
		}
		if len(row) != 8 {
			return nil
		}
		b.Rows = append(b.Rows, string(row))
	}
	return b
}

// morrisColumns gives, for each of the seven rows of a morris position
// (row 7 first), the columns of the 7 x 7 grid (a to g) its points stand
// on (docs/formats.md, morris).
var morrisColumns = [7][]int{{0, 3, 6}, {1, 3, 5}, {2, 3, 4}, {0, 1, 2, 4, 5, 6}, {2, 3, 4}, {1, 3, 5}, {0, 3, 6}}

// morrisBoard places a morris position ("W.B/.../... W 0 0") on the 7 x 7
// grid, '+' where there is no point; nil if the text is not one.
func morrisBoard(text string) *board {
	fields := strings.Fields(text)
	if len(fields) < 2 {
		return nil
	}
	rows := strings.Split(fields[0], "/")
	if len(rows) != 7 {
		return nil
	}
	b := &board{Caption: strings.Join(fields[1:], " ")}
	for r, row := range rows {
		if len(row) != len(morrisColumns[r]) {
			return nil
		}
		line := []byte("+++++++")
		for k, c := range morrisColumns[r] {
			line[c] = row[k]
		}
		b.Rows = append(b.Rows, string(line))
	}
	return b
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
