// Package implicit says what a game is to retro's solvers: a move generator
// over a perfect index [0, N) of positions, with predecessors (un-moves)
// generated on the fly, so that no edge is ever stored. Built-in games live
// in its sub-packages, each with its Descriptor (how users see it); the
// registry implicit/games lists them, and implicit/gametest checks any
// game against the contract.
//
// # Required
//
// Game (Size, Classify, Moves, Unmoves, MaxMoves) is all a solver needs:
// its doc comment states the contract that gametest.Check tests.
//
// # Optional
//
// Every other interface is optional: a game that lacks one is still solved,
// correctly, and loses only what the last column says. The games of this
// module that have each are in the second column.
//
//	interface        built-in games       used by                        without it
//	Starter          all but graph        the command, db, query, web    the answer is every index's value,
//	                                                                     not one start's; no -reachable,
//	                                                                     -stats' reachable counts, play
//	Describer        all                  -stats, query, play, web       positions are shown as "index N"
//	Notation         all                  query, play, web, verify       positions are given by index only
//	TurnedDescriber  dobutsu, morris      query, play, web               the second player's positions show
//	                                                                     as the player to move sees them
//	MoveCounter      chess, dobutsu,      every engine's classify        moves are listed to be counted
//	                 graph, pawns, police                                (slower start)
//	ClassifyCounter  chess, dobutsu,      every engine's classify        two calls where one would do
//	                 graph, pawns, police
//	RangeCounter     graph                the parallel engine's          a call or two a position to count
//	                                      classification                 its moves: 2.2 times the time
//	EndLister        police               the lean engines'              every index is classified (police
//	                                      classification (Lean,          64 x 64: a tenth of the solve)
//	                                      DistributedLean)
//	MoveClassifier   chess                retro verify, query's          Classify, then Moves: each checked
//	                                      WinDepths                      position decoded twice
//	MoveProber       quixo, teeko         the parallel engine's classify every unresolved position's moves are
//	                 (through Compact)                                   counted at the start
//	UnmoveCounter    graph, police        the parallel engine's pull     un-moves are listed to be counted
//	                                      levels (their cost)
//	UnmoveTallier    Compact              the parallel engine's pull     un-moves are listed to be counted
//	                                      levels
//	InEdger          graph                the parallel engine's blocked  un-moves copied, a call a position,
//	                                      levels (scatter)               and read from memory when reached
//	Alternating      chess, morris;       the parallel engine's exits    depths need a lane of their own from
//	                 tier passes it on    and depths (tiers)             63 plies on, not 126 (8-bit lanes)
//	RepeatMover      Compact, Reduced     the parallel engine's pull     moves are deduplicated, sorted, for
//	                                      levels, -reachable             lookups that need no such thing
//	Symmetric        quixo, teeko         the command (Compact),         every position is solved, not one
//	                                      tier, gametest                 per class: up to 8x the memory
//	CanonicalMover   quixo, teeko         Reduce, Compact, tier          Canonical of each move and un-move
//	                                                                     (decodes each again: slower)
//	CanonicalMarker  quixo                NewClassSet (Compact, tier)    IsCanonical of each index (slower)
//	ClassNumberer    quixo (up to 4 x 4)  Compact, tier                  each move's and un-move's class is
//	                                                                     ranked in a ClassSet (slower)
//	TierExitClassifier                                                   every position's classes inside its
//	                 quixo (up to 4 x 4)  tier                           tier are counted, also those its
//	                                                                     exits make never a loss
//	ClassCounter     quixo, teeko         Compact's and Reduced's        the classes' moves are listed and
//	                                      classify, tier                 ranked to be counted (slower start)
//	PositionCounter  dobutsu, morris;     -stats, ReachableClasses,      counts are of indices, not of
//	                 Compact passes it on a game's counts line            positions
//	AsPlayed         chess, morris        query, play, serve             positions show as their class's
//	                                                                     representative (an image)
//	MoveNamer        chess                query, play                    moves are shown by the positions
//	                                                                     they reach, and chosen by number
//	Sectioned        chess                the command's counts line      one counts line for the whole index
//	Sizer            graph, quixo;        the memory plan, -max-memory   the game's own arrays are not
//	                 Compact                                             counted against -max-memory
//	Tiered           chess, morris,       package tier, -tiered, -plan   the game is solved whole in memory
//	                 quixo, teeko
//	TierUnmover      chess, morris,       package tier                   a tier's solve lists every un-move
//	                 quixo, teeko                                        and drops those into other tiers
//	TierMover        chess, morris        package tier                   a tier's solve numbers the moves
//	                                                                     inside the tier to count them
//	TierMoveClassifier                                                   Classify, then TierMoves: each
//	                 chess                package tier                   index decoded twice
//	TierMoveRunner   chess                package tier (a worker's       each index decoded, its legality
//	                                      classification)                tested whole: 0.83 of the time
//	ChildReacher     chess                the memory plan of package     a tier's children are counted
//	                                      tier: -plan, -max-memory       whole, not the part its moves reach
//	TierOrderer      morris               package tier, retro verify     a tier's moves are looked up in
//	                                                                     index order: each a cache miss
//	SharedTiers      chess                package tier, solve -all,      tier files are the solve's own;
//	                                      -linked, chosen tiered         no -all, no database per tier
//
// A game implements an optional interface by having its methods: the
// engines and the command find them with a type assertion. The helpers
// MoveCounterOf, UnmoveCounterOf, MovesWithRepeatsOf and ClassifierOf
// return the fastest way a game offers, with the fallback built in.
package implicit
