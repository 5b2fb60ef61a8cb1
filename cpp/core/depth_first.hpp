// The lean complete search: depth first, for proofs that need more positions than the
// best-first search can hold.
//
// It keeps only the visited set (16-byte keys) and a stack of the positions generated
// but not yet expanded, where the best-first search also keeps a node per stored
// position (its parent, for the line of play) and every open position whole on its open
// lists: about 25 bytes a stored position here against about 150 there, so the same
// memory holds six times the positions. The line of play is the stack's path.
//
// Why "impossible" is still a proof: a child is stored in the visited set when it is
// generated and pushed on the stack at the same time, and every position popped from the
// stack is expanded; so when the stack is empty, every stored position has been expanded,
// and the stored positions are every position reachable from the start (up to the
// provably harmless pruning of moves.hpp). The order in which children are pushed (the
// best of them by the heuristic expanded first) only decides how soon a win is met.
#pragma once

#include "search.hpp"

namespace bakers {

// Decides `start` on one thread, depth first; the same contract as `solve`.
Result solve_depth_first(const Rules& rules, const State& start, const Limits& limits,
                         const std::atomic<bool>* stop, const StopPoll& poll);

}  // namespace bakers
