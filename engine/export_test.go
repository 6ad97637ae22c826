package engine

// LeanListMin and LeanCheapList let the tests shorten the lean engine's
// lists and choose how it tests its candidate losses; CountersOnly has
// blocked levels take the lanes' path of a big-endian machine;
// SharedSegments and LazyDefers shrink the blocked levels' pool and
// deferred counts.
var (
	LeanListMin    = &leanListMin
	LeanCheapList  = &leanCheapList
	CountersOnly   = &countersOnly
	SharedSegments = &testSharedSegments
	LazyDefers     = &testLazyDefers
)
