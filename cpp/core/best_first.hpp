// Best first: a search that is also complete. It expands the most promising position
// first (a heuristic of foundation progress, disorder and free space, heuristic.hpp),
// stores every position it has seen in an exact visited set, and stops at the first win.
// When the open lists run dry every position reachable from the start (up to the
// provably harmless pruning of moves.hpp) has been seen without a win: that is the proof
// of "impossible". Limits end the search with "unknown", never with a guess.
#pragma once

#include "search.hpp"

namespace bakers {

// The lead (best_first.cpp, `Search`): the first expansions taken depth first, the best
// child of the last expansion first, in the same visited set; what they store waits on
// the open lists too. A deal whose heuristic lies on a long plateau is often won down
// one line; a deal without a win costs nothing more (every position is still expanded
// once). Chosen on training ranges of ForeCell, 36-card FreeCell and FreeCell
// (docs/benchmarks.md, "`bakers-fc-solve` under PySolFC's iteration limit", ForeCell 290).
inline constexpr std::uint64_t kDepthFirstLead = 1000;

// Decides the position `start` by best first on `threads` threads (1..kMaxSearchThreads) that share one
// visited set and one pair of open lists; the calling thread is one of them, and the
// only one that asks `poll`. On one thread, the first `lead` expansions are taken depth
// first (the lead above); on several the lead is not taken.
Result solve_best_first(const Rules& rules, const State& start, const Limits& limits,
                        const std::atomic<bool>* stop, const StopPoll& poll, int threads,
                        std::uint64_t lead = 0);

}  // namespace bakers
