package implicit

// Buckets returns a table that finds which of count ranges, laid end to
// end from index 0 (range k from start(k), increasing), holds an index
// without a search: entry b is the range that holds index b<<shift, for
// each bucket of 1<<shift indices of [0, size]. The range of index i is
// then table[i>>shift] or one of the next ones, a step or two where no
// range is much shorter than a bucket.
func Buckets(count int, start func(k int) uint64, size uint64, shift uint) []int32 {
	table := make([]int32, size>>shift+1)
	k := 0
	for b := range table {
		for k+1 < count && start(k+1) <= uint64(b)<<shift {
			k++
		}
		table[b] = int32(k)
	}
	return table
}
