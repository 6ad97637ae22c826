package tier

// SetHugeLoad makes load copy the codes of n bytes or more (hugeCodes)
// and returns what restores the default.
func SetHugeLoad(n int) (restore func()) {
	old := hugeLoad
	hugeLoad = n
	return func() { hugeLoad = old }
}
