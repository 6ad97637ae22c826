package tier

// SetHugeLoad makes load copy the codes of n bytes or more (hugeCodes)
// and returns what restores the default.
func SetHugeLoad(n int) (restore func()) {
	old := hugeLoad
	hugeLoad = n
	return func() { hugeLoad = old }
}

// ChildBytes is childBytes: what a tier's plan counts for a child of
// entries codes whose part reach its moves read.
var ChildBytes = childBytes
