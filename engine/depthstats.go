package engine

// DepthStats describes a solved game beyond the value of one position: how many
// positions win and lose at each depth, and where the longest ones are.
type DepthStats struct {
	Wins, Losses []uint64 // Wins[d]: positions that win in exactly d plies
	// LongestWin and LongestLoss are the first positions (lowest index)
	// with the largest depth of their value; HasLongestWin and HasLongestLoss
	// are false where there is none.
	LongestWin, LongestLoss       uint64
	HasLongestWin, HasLongestLoss bool
}

// ComputeDepthStats walks r once and returns its depth histograms and longest
// positions.
func ComputeDepthStats(r *Result) DepthStats {
	if r.lean != nil {
		return r.lean.stats // counted level by level
	}
	var s DepthStats
	s.Wins = make([]uint64, r.maxDepth+1)
	s.Losses = make([]uint64, r.maxDepth+1)
	var winDepth, lossDepth uint64
	for i := range r.n {
		switch r.Value(i) {
		case Win:
			d := r.Depth(i)
			s.Wins[d]++
			if !s.HasLongestWin || d > winDepth {
				s.LongestWin, winDepth, s.HasLongestWin = i, d, true
			}
		case Loss:
			d := r.Depth(i)
			s.Losses[d]++
			if !s.HasLongestLoss || d > lossDepth {
				s.LongestLoss, lossDepth, s.HasLongestLoss = i, d, true
			}
		}
	}
	return s
}
