package tier

// SetHugeLoad makes load copy the codes of n bytes or more (hugeCodes)
// and returns what restores the default.
func SetHugeLoad(n int) (restore func()) {
	old := hugeLoad
	hugeLoad = n
	return func() { hugeLoad = old }
}

// ChildBytes is what a tier's plan counts for a child of entries codes
// (a byte each) whose part reach its moves read: hugeBytes's bound for a
// child that load copies.
func ChildBytes(entries, reach uint64) uint64 {
	if entries >= uint64(hugeLoad) {
		return hugeBytes(reach)
	}
	return reach
}
