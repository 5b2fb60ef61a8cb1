// Depth first on several threads: one visited set shared by all, a line of frames per
// thread, and work handed to a thread that has none.
//
// Each thread runs the depth-first search of depth_first.hpp on its own line (a frame
// per position from where its work began, each with the moves to its new children that
// wait to be expanded, the best by the heuristic taken first), and all store their
// positions in one visited table (table.hpp, locked per shard). A thread that runs out
// of work says so; the next time a busy thread checks (at every expansion: one relaxed
// read), it gives away a waiting move of its lowest frame that has one (the root of the
// biggest subtree it holds): it marks the move taken on its frame and queues the child
// with the line from the start to it. The idle thread takes the child from the queue and
// searches it as its own line's first frame.
//
// Why "impossible" is still a proof. A child is stored in the shared table when a thread
// generates it, and at the same moment its move waits on that thread's frame (unless it
// wins: the search ends there). A waiting move leaves its frame in one of two ways: its
// thread takes it and expands its child, or its thread gives it away, and then the child
// is in the queue until a thread takes it and expands it. So every stored position is
// expanded, by exactly one thread, once it leaves the frames and the queue. A position is
// skipped only when the table holds its key, that is when some thread stored it: so it
// is expanded too. The search says "impossible" only when every thread is idle (its line
// empty) and the queue is empty, under the queue's lock: then no position waits anywhere,
// and every position reachable from the start (up to the provably harmless pruning of
// moves.hpp, and the dead ends of dead_end.hpp, which have no win) has been expanded
// without a win. It ends: each thread's line never repeats a position (each is stored
// before it is pushed, and a stored position is never pushed again), and a position is
// expanded once in all, so there are finitely many expansions.
//
// No checkpoint and no forgetting here (those are the one-thread search's): under a
// memory limit the search stops with "memory limit" when the table and the lines would
// pass it.
#pragma once

#include "search.hpp"

namespace bakers {

// The other threads start once the first has expanded this many positions: most deals
// are decided sooner, faster alone (docs/benchmarks.md, "Helpers start late").
inline constexpr std::uint64_t kHelpFrom = 2048;

// Decides `start` depth first on `threads` threads (2..kMaxSearchThreads); the same contract as `solve`.
// The other threads start after `help_from` expansions (tests: 0, at once).
Result solve_depth_first_threads(const Rules& rules, const State& start, const Limits& limits,
                                 const std::atomic<bool>* stop, const StopPoll& poll, int threads,
                                 std::uint64_t help_from = kHelpFrom);

}  // namespace bakers
