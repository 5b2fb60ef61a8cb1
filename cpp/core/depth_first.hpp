// The lean complete search: depth first. It holds several times the positions the
// best-first search can in the same memory (proofs too big for best first), and it is
// each game's default where cards build by suit (bakers.solve.default_method gives the
// measurements).
//
// It keeps only the visited set (12-byte slots; under a memory limit, once they fill half
// of it, the dense table of dense_table.hpp, about 10 bytes a position) and a stack: one
// frame per step of the
// line from the start (a move and where its waiting moves start; positions only at
// every 64th frame: see depth_first.cpp), each with the moves to its children not
// expanded yet, where the best-first search also keeps a node per stored position (its
// parent, for the line of play) and every open position whole on its open lists. FreeCell
// 23816 with one cell, a proof of 28 million positions: 514 MB, 18 bytes a stored
// position (the visited set takes 16 to 20 once large, 24 to 48 while small; the stack,
// 0.4 to 2). Under a 1 GB limit, FreeCell 24966 with one cell: depth first stores 80
// million positions (60 million without the dense table), best first 8 million. The
// line of play is the stack's frames.
//
// Why "impossible" is still a proof: a child is stored in the visited set when it is
// generated, and at the same moment its move is put on its parent's frame (unless it
// wins: the search ends there). A frame leaves the stack only when no move is left on
// it, and each move taken from it is made again and its child expanded. So when the
// stack is empty every stored position has been expanded, and the stored positions are
// every position reachable from the start (up to the provably harmless pruning of
// moves.hpp). The order of the moves on a frame (the best child by the heuristic taken
// first) only decides how soon a win is met.
#pragma once

#include "search.hpp"

namespace bakers {

// Which of the heuristic's two priorities (heuristic.hpp) orders a frame's children:
// `progress` (the default) or `space` (free cells and columns first).
enum class ChildOrder : std::uint8_t { Progress, Space };

// Decides `start` on one thread, depth first; the same contract as `solve`. Under a
// memory limit the visited keys move to the dense table (dense_table.hpp) once the
// growing table holds `dense_from` bytes (0: half the limit).
Result solve_depth_first(const Rules& rules, const State& start, const Limits& limits,
                         const std::atomic<bool>* stop, const StopPoll& poll,
                         ChildOrder order = ChildOrder::Progress, std::uint64_t dense_from = 0);

}  // namespace bakers
