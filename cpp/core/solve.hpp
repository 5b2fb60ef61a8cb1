// The dispatcher: one entry point for every search, chosen by `Method`.
#pragma once

#include "search.hpp"

namespace bakers {

// Decides the position `start` of a game with `method`: a win, a proof that none exists,
// or unknown. `threads` is the number of threads of the one search (best first and depth
// first share one visited set between them, the portfolio runs its searches at once; the
// beam runs on one).
Result solve(const Rules& rules, const State& start, const Limits& limits,
             const std::atomic<bool>* stop = nullptr, const StopPoll& poll = {}, int threads = 1,
             Method method = Method::BestFirst);

}  // namespace bakers
