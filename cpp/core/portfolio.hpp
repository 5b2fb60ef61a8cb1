// The portfolio: best first and two depth-first orders, in rounds of growing budgets.
//
// In some games each search finds wins the others miss: in Baker's Dozen (PySol deals
// 1..1000) best first wins all but a handful within a few hundred thousand positions,
// while depth first ordered by the heuristic's `progress` wins 741 and 846 at once
// (where best first needs millions) and ordered by `space` wins 154 (which neither of
// the others wins within 25 million). The portfolio runs, in round k, best first, depth
// first by progress and depth first by space, each from the start with a budget of
// 100,000 * 4^k expanded positions, and stops at the first verdict. Each run is one of
// the complete searches, so the first verdict is theirs, a proof when "impossible"; the
// rounds cost at most about 4/3 of the last one. A run that ends on the memory limit is
// not started again (a larger budget needs more memory); when every run has, the verdict
// is "unknown" on the memory limit. The caller's limits hold for the whole portfolio:
// positions and seconds in all, memory and stored positions for each run (one at a
// time). The statistics add up the runs (the peak is the largest run's).
//
// On several threads the same runs go in the same order, each thread taking the next
// one when it is free, so a later run need not wait for all before it (846: about 5,000
// positions on two threads against 103,000 on one); the first verdict stops the others.
// The positions of all runs stay within max_nodes (a run's budget is taken from what is
// left when it starts), memory is split evenly (max_bytes / threads a run), and the peak
// is the sum of each thread's largest run.
#pragma once

#include "search.hpp"

namespace bakers {

// Decides `start` with the portfolio, on `threads` threads (portfolio.cpp: on several,
// the runs go at once, one a thread); the same contract as `solve`.
Result solve_portfolio(const Rules& rules, const State& start, const Limits& limits,
                       const std::atomic<bool>* stop, const StopPoll& poll, int threads = 1);

}  // namespace bakers
