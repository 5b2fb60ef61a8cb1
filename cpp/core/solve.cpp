#include "solve.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "beam.hpp"
#include "best_first.hpp"
#include "depth_first.hpp"
#include "depth_first_threads.hpp"
#include "dive.hpp"
#include "give_back.hpp"
#include "portfolio.hpp"

namespace bakers {

Method method_named(std::string_view name) {
    for (std::size_t i = 0; i < kMethodNames.size(); ++i)
        if (kMethodNames[i] == name) return static_cast<Method>(i);
    std::string known;
    for (std::string_view n : kMethodNames) {
        if (!known.empty()) known += ", ";
        known += n;
    }
    throw std::invalid_argument("method='" + std::string(name) + "' must be one of " + known);
}

void check_search(Method method, int threads, bool checkpoint) {
    const std::string name(kMethodNames[static_cast<std::size_t>(method)]);
    if (threads < 1 || threads > kMaxSearchThreads)
        throw std::invalid_argument("threads=" + std::to_string(threads) + " must be an integer from 1 to " +
                                    std::to_string(kMaxSearchThreads) +
                                    " (the threads of one search share its visited set)");
    if (method == Method::Beam && threads != 1)
        throw std::invalid_argument(
            "method='beam' runs on one thread, not threads=" + std::to_string(threads) +
            " (it ranks each level's positions as a whole before keeping the best)");
    if (checkpoint && method != Method::DepthFirst)
        throw std::invalid_argument("checkpoint needs method='depth-first' on one thread, not method='" +
                                    name + "' (the file holds one depth-first line and its table)");
    if (checkpoint && threads != 1)
        throw std::invalid_argument(
            "checkpoint needs method='depth-first' on one thread, not threads=" + std::to_string(threads) +
            " (the file holds one depth-first line and its table)");
}

namespace {

Result search(const Rules& rules, const State& start, const Limits& limits, const std::atomic<bool>* stop,
              const StopPoll& poll, int threads, Method method, bool line);

// The limits left to a search that follows `before` (the caller's limits hold for the
// searches together: positions and seconds in all, memory for each).
Limits left_after(const Limits& limits, const Result& before) {
    Limits rest = limits;
    if (rest.max_nodes) rest.max_nodes -= std::min(rest.max_nodes - 1, before.stats.expanded);
    if (rest.max_states) rest.max_states -= std::min(rest.max_states - 1, before.stats.stored);
    if (rest.max_seconds > 0) rest.max_seconds = std::max(rest.max_seconds - before.stats.seconds, 1e-9);
    return rest;
}

// Returns `after` with the counts of `before` and its own.
Result counting_both(const Result& before, Result after) {
    Stats both = before.stats;
    both.add_run(after.stats);
    both.seconds = before.stats.seconds + after.stats.seconds;
    after.stats = both;
    return after;
}

// Whether the wide dive runs after a dive that gave up: where cards build by suit (depth
// first behind) and the dive stopped at its budget rather than running dry. There the
// deals are nearly all won, and some only after millions of depth first's positions,
// where a line that parks a card is found in a few hundred; a dive that ran dry is mostly
// an impossible deal's, which depth first proves, and would only pay the wide dive's
// budget. Where best first comes behind (FreeCell), it wins the dive's given-up deals
// within a few thousand positions, and the wide dive cost more than it saved on the
// ranges nobody tuned on: docs/benchmarks.md, "The wide dive where the dive spends its
// budget" and "FreeCell in CPU time, sixth round".
bool wide_dive_after(const Rules& rules, const Result& dive) {
    return rules.build == Build::Suit && rules.cells > 0 && dive.stats.expanded >= kDiveBudget;
}

// The dive (dive.hpp), then, unless it won or a limit stopped it, the wide dive where
// wide_dive_after says so, then, unless that won or a limit stopped it, the exact search:
// depth first where cards build by suit, else best first with its depth-first lead
// (best_first.hpp). The verdict is the exact search's, and the counts are all the runs'
// (the caller's limits hold for them together).
Result solve_dive_then_exact(const Rules& rules, const State& start, const Limits& limits,
                             const std::atomic<bool>* stop, const StopPoll& poll, int threads, bool line) {
    Result so_far = solve_dive(rules, start, limits, stop, poll, kDiveBudget, line);
    if (so_far.verdict == Verdict::Solved || so_far.reason != "dive budget") return so_far;
    give_back_memory(so_far.stats.peak_bytes);
    if (wide_dive_after(rules, so_far)) {
        so_far = counting_both(so_far, solve_dive(rules, start, left_after(limits, so_far), stop, poll,
                                                  kWideDiveBudget, line, DiveMoves::Wide));
        if (so_far.verdict == Verdict::Solved || so_far.reason != "dive budget") return so_far;
        give_back_memory(so_far.stats.peak_bytes);
    }
    const Limits rest = left_after(limits, so_far);
    return counting_both(so_far, rules.build == Build::Suit
                                     ? search(rules, start, rest, stop, poll, threads, Method::DepthFirst, true)
                                     : solve_best_first(rules, start, rest, stop, poll, threads, kDepthFirstLead));
}

Result search(const Rules& rules, const State& start, const Limits& limits, const std::atomic<bool>* stop,
              const StopPoll& poll, int threads, Method method, bool line) {
    switch (method) {
        case Method::DepthFirst:
            return threads > 1 ? solve_depth_first_threads(rules, start, limits, stop, poll, threads)
                               : solve_depth_first(rules, start, limits, stop, poll);
        case Method::Portfolio: return solve_portfolio(rules, start, limits, stop, poll, threads);
        case Method::Beam: return solve_beam(rules, start, limits, stop, poll);
        case Method::Dive: return solve_dive_then_exact(rules, start, limits, stop, poll, threads, line);
        case Method::BestFirst: break;
    }
    return solve_best_first(rules, start, limits, stop, poll, threads);
}

}  // namespace

// Every search's freed memory goes back to the system before its caller goes on
// (give_back.hpp): what the caller allocates next (the line's Python objects, the next
// deal's search) is not held beside it.
Result solve(const Rules& rules, const State& start, const Limits& limits, const std::atomic<bool>* stop,
             const StopPoll& poll, int threads, Method method, bool line) {
    Result r = search(rules, start, limits, stop, poll, threads, method, line);
    give_back_memory(r.stats.peak_bytes);
    return r;
}

}  // namespace bakers
