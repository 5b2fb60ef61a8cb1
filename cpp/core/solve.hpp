// The dispatcher: one entry point for every search, chosen by `Method`, and the rules
// of which search takes which options.
#pragma once

#include <array>
#include <string_view>

#include "search.hpp"

namespace bakers {

// The methods' names, in the order of `Method`, as the command line and Python spell them.
inline constexpr std::array<std::string_view, 5> kMethodNames{"best-first", "depth-first", "portfolio",
                                                              "beam", "dive"};

// Returns the method named `name`; throws std::invalid_argument naming the methods if
// there is none.
Method method_named(std::string_view name);

// Throws std::invalid_argument, saying why, unless `method` can run on `threads` threads
// (1..kMaxSearchThreads) and, with `checkpoint`, save itself to a checkpoint file.
void check_search(Method method, int threads, bool checkpoint);

// Decides the position `start` of a game with `method`: a win, a proof that none exists,
// or unknown. `threads` is the number of threads of the one search (best first and depth
// first share one visited set between them, the portfolio runs its searches at once; the
// beam runs on one; the dive runs its scans on one, then the exact search on `threads`).
//
// With `line` false the caller wants the number of moves of a win, not the moves: the
// dive then counts them without writing its line out (Result::move_count; `moves` and
// `compact` stay empty), where the game sends no card home by itself mid-move (no
// auto_aces); every other search writes its line as ever.
Result solve(const Rules& rules, const State& start, const Limits& limits,
             const std::atomic<bool>* stop = nullptr, const StopPoll& poll = {}, int threads = 1,
             Method method = Method::BestFirst, bool line = true);

}  // namespace bakers
