package engine

// LeanListMin and LeanCheapList let the tests shorten the lean engine's
// lists and choose how it tests its candidate losses.
var (
	LeanListMin   = &leanListMin
	LeanCheapList = &leanCheapList
)
