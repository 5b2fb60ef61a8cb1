// Nested rollouts: a search for wins that never proves anything, for the portfolio.
//
// A *rollout* plays from a position to the end: at each step it makes every child, drops
// those already on its line (no cycles) and the dead ends (dead_end.hpp), and picks one at
// random, a child of `progress` priority p (heuristic.hpp, less 4 per card home) with
// weight exp(-(p - best) / 4), until it wins or no child is left. Its score: the most
// cards home on its line, then the last position's priority. The *nested* search (level
// 1) walks from the start: at each step it rolls out once from every child, keeps the
// best-scoring line found so far (from the start), and takes that line's next move;
// the first rollout that wins ends the search. Each such walk is an *iteration*; they
// follow each other, each drawing new random choices, until a win or a limit.
//
// Why: in Baker's Dozen the complete searches spend hundreds of thousands to millions of
// positions on a few deals (PySol 154, 599, 741, 922: the order of a few parking moves
// decides the game), while rollouts, which look far ahead along many lines, win them
// within their first iterations (154 after 495 positions of theirs, 741 after 1,498).
// The portfolio (portfolio.hpp) runs them beside its complete searches: a win is a win
// (replayed like any other), and "impossible" still comes only from a complete search.
//
// Counts: a position whose children are made is expanded; nothing is stored (the line's
// keys live in a small set, cleared for each rollout). The same seed gives the same
// search.
#pragma once

#include <cstdint>

#include "search.hpp"

namespace bakers {

// Looks for a win from `start` with iterations of nested rollouts until a win or a
// limit; the verdict is Solved or Unknown (with the limit's reason, or "no line" when the
// start has no child to roll out from: a dead end, or no move), never Impossible.
// `limits.max_nodes` or `limits.max_seconds` must be set (else the search would not
// end): std::invalid_argument otherwise. `seed` picks the random choices.
Result solve_rollouts(const Rules& rules, const State& start, const Limits& limits,
                      const std::atomic<bool>* stop, const StopPoll& poll, std::uint64_t seed = 0);

}  // namespace bakers
