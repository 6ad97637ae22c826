// Package text is retro's one home for reading text input and writing the
// numbers its messages show: a scanf-like tokenizer that remembers lines
// (Tokens), the one error type of every parser (ParseError), the grid reader
// of the board games, and HumanBytes. It is internal: no user imports it.
package text
