// Best first: a search that is also complete. It expands the most promising position
// first (a heuristic of foundation progress, disorder and free space, heuristic.hpp),
// stores every position it has seen in an exact visited set, and stops at the first win.
// When the open lists run dry every position reachable from the start (up to the
// provably harmless pruning of moves.hpp) has been seen without a win: that is the proof
// of "impossible". Limits end the search with "unknown", never with a guess.
#pragma once

#include "search.hpp"

namespace bakers {

// Decides the position `start` by best first on `threads` threads (1..kMaxSearchThreads) that share one
// visited set and one pair of open lists; the calling thread is one of them, and the
// only one that asks `poll`.
Result solve_best_first(const Rules& rules, const State& start, const Limits& limits,
                        const std::atomic<bool>* stop, const StopPoll& poll, int threads);

}  // namespace bakers
