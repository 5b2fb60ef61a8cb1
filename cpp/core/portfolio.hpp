// The portfolio: best first, a restricted pass, nested rollouts and two depth-first
// orders, in rounds of growing budgets.
//
// In some games each search finds wins the others miss (Baker's Dozen: best first wins
// most deals within a few thousand positions, a depth-first order or the rollouts of
// rollout.hpp the rest, each where the others need millions; docs/benchmarks.md, "The
// searches' defaults"). The portfolio runs, in round k, best first, the restricted pass
// of streamline.hpp (where the suits are interchangeable: every card home at once,
// suits merged), the rollouts, depth first by progress and depth first by space, each
// from the start with a budget of 10,000 * 4^k expanded positions (the restricted pass
// twice that: its space is small, it wins or runs dry early), and stops at the first
// verdict. Each run but the restricted pass and the rollouts is a complete search, so
// "impossible" comes from one of them, a proof; those two only ever win (their line
// replayed like any other), and the restricted pass, once it has searched its whole
// space, is not run again. The rounds cost at most about 4/3 of the last one. Best first
// runs first in each round: its small first budget keeps most deals on its short lines
// (the rollouts' lines are longer), and the deals it wins at once pay nothing for the
// others (measured: docs/benchmarks.md, "Restricted passes").
//
// A run that ends on the memory limit is not started again (a larger budget needs more
// memory), nor are the rollouts when the start has no child to roll out from; when every
// complete search has stopped on the memory limit, the verdict is "unknown" on the memory
// limit. The caller's limits hold for the whole portfolio: positions and seconds in all,
// memory and stored positions for each run (one at a time). The statistics add up the
// runs (the peak is the largest run's).
//
// On several threads the same runs go in the same order, each thread taking the next
// one when it is free, so a later run need not wait for all before it; the first verdict
// stops the others.
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
