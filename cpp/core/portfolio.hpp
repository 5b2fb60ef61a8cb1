// The portfolio: best first, nested rollouts and two depth-first orders, in rounds of
// growing budgets.
//
// In some games each search finds wins the others miss: in Baker's Dozen (PySol deals
// 1..1000) best first wins 949 within 25,000 positions and all but a handful within a few
// hundred thousand, while depth first ordered by the heuristic's `progress` wins 741 and
// 846 at once (where best first needs millions), ordered by `space` wins 154 (which
// neither wins within 25 million), and the rollouts of rollout.hpp win the rest within a
// few hundred thousand positions (599 the slowest: 430,812 in all). The portfolio runs, in
// round k, best first, the rollouts, depth first by progress and depth first by space,
// each from the start with a budget of 10,000 * 4^k expanded positions, and stops at the
// first verdict. Each run but the rollouts is a complete search, so "impossible" comes
// from one of them, a proof; the rollouts only ever win (their line replayed like any
// other). The rounds cost at most about 4/3 of the last one. Measured on Baker's Dozen
// 1..1000 but 417 (one thread, 30 million positions a deal): 997 won, 2 impossible, in
// 8.6 s against 55.4 s for the three complete searches alone from 100,000 positions
// (the slowest deal, 599, 430,812 positions; without the rollouts 154, 5.2 million),
// mean line 76.4 single moves against 74.8 (the rollouts' lines are longer; a small
// first budget for best first keeps most deals on its short lines: with the rollouts
// first in each round, 9.4 s and 87.5 moves).
//
// A run that ends on the memory limit is not started again (a larger budget needs more
// memory), nor are the rollouts when the start has no child to roll out from; when every
// complete search has stopped on the memory limit, the verdict is "unknown" on the memory
// limit. The caller's limits hold for the whole portfolio: positions and seconds in all,
// memory and stored positions for each run (one at a time). The statistics add up the
// runs (the peak is the largest run's).
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
