// The beam search: breadth first, level by level (a level holds the positions one move
// further from the start), keeping at each level only the `width` new positions that the
// heuristic's `progress` priority ranks best. It finds wins in games where the other
// searches' lines go astray: FreeCell MS 14497 and 13599 with one cell, where depth first
// found none within 500 million positions and best first none within 4.5 GB, are won by
// a beam of 1,000 and 100,000 positions within 0.1 and 6 seconds.
//
// Rounds. The search runs from the start with a width of 1,000 positions, then 4,000,
// 16,000, ... (each round afresh), until a round wins or decides, or a limit hits.
//
// Why "impossible" is a proof here too: a round in which no level had more new positions
// than the width kept every one of them, and every kept position is expanded at the next
// level; a child is stored in the visited set when it is generated, and skipped only when
// it was stored before (and so expanded, or about to be, in that round). Such a round is a
// complete breadth-first search of every position reachable from the start (up to the
// provably harmless pruning of moves.hpp): when its last level is empty without a win,
// there is none (a dead end, dead_end.hpp, is expanded into no children: it has no
// win, so neither has any position it leads to). A round that cut a level proves
// nothing and the next round is wider; so the search says "impossible" only after an
// uncut round. The limits hold for the whole search: positions expanded and seconds in
// all rounds, memory and stored positions in each round (one at a time); the
// statistics add up the rounds (the peak is the largest round's).
#pragma once

#include "search.hpp"

namespace bakers {

// The width of the first round, and the growth of the width from a round to the next.
inline constexpr std::uint64_t kBeamFirstWidth = 1000;
inline constexpr std::uint64_t kBeamGrowth = 4;

// Decides `start` on one thread with rounds of beam search; the same contract as `solve`.
Result solve_beam(const Rules& rules, const State& start, const Limits& limits,
                  const std::atomic<bool>* stop, const StopPoll& poll);

}  // namespace bakers
