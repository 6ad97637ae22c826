// Package engine holds retro's win/loss/draw solvers: four engines that
// return the same Result, identical index for index, and Choose, which
// picks one for a solve.
//
// # The algorithm
//
// Every engine does the same retrograde analysis, level by level. Level 0
// is the positions over before a move: terminal ones, and inner ones with
// no move, a loss for the player to move (initial, in rules.go). From the
// positions of level d, walked backwards through un-moves:
//
//   - a predecessor of a loss of level d is a win of level d+1, unless it
//     was resolved already;
//   - a predecessor of a win of level d, unresolved, is a loss of level d+1
//     once every one of its moves is known to reach a win (the engines
//     count its moves down, or recount them: Lean).
//
// The level at which a position is resolved is its depth: the plies to the
// end when the winner hurries and the loser delays. Positions never
// resolved are draws. Writing W_d and L_d for the wins and losses of level
// d, W_{d+1} and L_{d+1} are fixed by W_0..W_d and L_0..L_d alone, whatever
// the order in which a level's positions are walked: that is why a
// parallel engine, whose workers walk a level in any order, returns what
// the sequential one does. The walk is O(positions + un-moves).
//
// # The engines
//
//	engine        Kind      bytes per index     keeps              honours in Options
//	Sequential    KindSeq   6.25 (8.25)         every depth        MaxMemory, Progress, ReachableFrom
//	Parallel      KindPar   2.71 (4.71)         every depth        Workers, MaxMemory, Progress, Workspace,
//	                                                               ReachableFrom, Checkpoint, Direction,
//	                                                               BlockBytes
//	Lean          KindLean  0.52                the depths of Keep, Workers, MaxMemory, Progress, Checkpoint,
//	                                            the longest win    Keep, DepthsOnDisk, DepthDir
//	                                            and loss; or every
//	                                            depth on disk
//	Distributed   KindDist  4 per index of a    every depth, each  Workers, MaxMemory, Progress, Checkpoint,
//	                        rank's range        rank its range's   Keep, RoundBytes
//	DistributedLean         0.5 per index of    every depth, on    Workers, MaxMemory, Progress, Checkpoint,
//	              KindDist- a rank's range      disk per rank      Keep, RoundBytes, DepthDir
//	              Lean
//
// The distributed engines return a DistResult on every rank: its own
// range's values, the summary the ranks agree on (counts, histograms,
// longest positions, Keep's), and Share, for writing a database a rank's
// blocks at a time; Gather brings every value to rank 0 for the games that
// need them there (no start: every position's value is the answer).
//
// The bytes in parentheses are for games whose moves or depths need 32-bit
// lanes instead of 16 (Kind.Bytes has the exact sums; Request.Bytes adds
// what options cost). An option an engine does not honour is ignored,
// except ReachableFrom, which Lean and Distributed refuse, and Checkpoint,
// which Sequential refuses. Only Parallel solves an ExitGame (a tier: see
// package tier); it keeps the actions of an ExitGame's exits in lists on
// disk, read once at their level (exitLists), and its depths in its lanes
// in place of the counts, halved where the game alternates, so that its
// lanes are a byte each where a position has fewer than 63 moves, and a
// deep lane takes the depths past what they hold (ExitGameBytes).
//
// Parallel counts a position's moves when it classifies it, unless the
// game is an implicit.MoveProber (quixo and teeko over their classes,
// whose moves' classes need canonical forms): it then only probes whether
// a position has a move, marks its lane, and counts its moves the first
// time one of them reaches a win. The positions that a loss makes wins
// before that (half of quixo 4x4's) are never counted, and every level is
// pushed, since a pull would count every position it visits.
//
// Parallel pushes a level (walks its positions' un-moves) directly, or
// blocked when its lanes are large (par_blocked.go): the updates are
// sorted by block of lanes first, then each block's applied in a core's
// cache; or pulls it (each unresolved position looks at its moves) when
// that costs less (par_pull.go).
//
// Choose picks, for KindAuto (under mpirun KindDist for KindPar and
// KindDistLean for KindLean): KindLean for a game with a start whose
// positions' moves cost less than CheapList to list (ListCost, in steps of
// the core: police and pawns list theirs in 12 to 31, against 139 and more
// for the canonical forms of dobutsu, teeko and quixo) when nothing needs
// every depth in memory; KindPar otherwise, and KindLean instead when
// KindPar does not fit in the memory allowed.
//
// Checkpoints (Checkpoint) save a solve at level barriers so that it goes
// on after a crash; checkpoint.go has the file's framing shared by the
// engines. ComputeDepthStats, Reachable and ReachableSet read or walk a
// solved game; ListCost times a game's moves.
package engine
