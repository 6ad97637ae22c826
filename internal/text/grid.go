package text

import "fmt"

// Grid reads a board as the board games write it: `n m`, then n rows of m
// cells as white-space separated tokens, with n and m in [1, maxSide]. It
// calls cell for each cell in reading order (0-based row and column), and
// stops at the first error, which names the row count, the column count, a
// missing row or a row of the wrong length, or is cell's own. The caller
// wraps errors with the line (t.Line()).
func Grid(t *Tokens, maxSide int, cell func(r, c int, ch byte) error) (rows, cols int, err error) {
	if rows, err = t.Int("the row count n", 1, maxSide); err != nil {
		return 0, 0, err
	}
	if cols, err = t.Int("the column count m", 1, maxSide); err != nil {
		return 0, 0, err
	}
	for r := range rows {
		tok, ok := t.Next()
		if !ok {
			if err := t.Err(); err != nil {
				return 0, 0, err
			}
			return 0, 0, fmt.Errorf("the input ends before row %d of %d", r+1, rows)
		}
		if len(tok) != cols {
			return 0, 0, fmt.Errorf("row %d has %d cells, want %d", r+1, len(tok), cols)
		}
		for c := range cols {
			if err := cell(r, c, tok[c]); err != nil {
				return 0, 0, err
			}
		}
	}
	return rows, cols, nil
}
