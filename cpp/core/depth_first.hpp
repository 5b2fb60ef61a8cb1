// The lean complete search: depth first. It holds several times the positions the
// best-first search can in the same memory (proofs too big for best first), and it is
// each game's default where cards build by suit (bakers.solving.default_method gives the
// measurements).
//
// It keeps only the visited set (12-byte slots; under a memory limit, once they fill half
// of it, the dense table of dense_table.hpp, about 11 bytes a position) and a stack: one
// frame per step of the line from the start (a move, where its waiting moves start and
// the expansions counted when it was pushed; positions only at every 64th frame: see
// depth_first.cpp), each with the moves to its children not expanded yet, where the
// best-first search also keeps a node per stored position (its parent, for the line of
// play) and every expanded position with new children, whole, in its arena. FreeCell 23816 with one cell, a
// proof of 28 million positions: 494 MB (the visited set takes 16 to 20 bytes a position
// once large, 24 to 48 while small; the stack, 0.4 to 2). The line of play is the
// stack's frames.
//
// When the dense table is full it forgets positions (dense_table.hpp, "Values"): a
// position is busy (never forgotten) from when it is stored until its search is over,
// that is while it waits on a frame or is on the line; then it is valued by the bit
// length of the expansions its search took (1 for a position without new children), and
// the least valued go first (the keys moved from the growing table are valued 0, but for
// the line's, held busy). A forgotten position met again is stored and searched
// again, so memory costs time instead of ending the search (docs/benchmarks.md,
// "Forgetting"). The line is not forgotten: when it outgrows the room the table leaves,
// the search stops on the memory limit.
//
// Why "impossible" is still a proof: a child is stored in the visited set when it is
// generated, and at the same moment its move is put on its parent's frame (unless it
// wins: the search ends there). A frame leaves the stack only when no move is left on
// it, and each move taken from it is made again and its child expanded. So every stored
// position is expanded (once or, if forgotten and met again, more). A position is
// skipped only when the table holds its key, that is when it was stored before (a
// forgotten key is not found; the table never takes a new key for one it holds, see
// dense_table.hpp): so it is expanded too. Hence when the stack is empty every position
// reachable from the start (up to the provably harmless pruning of moves.hpp) has been
// expanded without a win (a dead end, dead_end.hpp, is expanded into no children:
// it has no win, so neither has any position it leads to). The search ends: the
// positions on the line are busy, so a position met again while on the line is skipped
// and the line never repeats a position; there are finitely many such lines. The order
// of the moves on a frame (the best child by the heuristic taken first) only decides
// how soon a win is met.
#pragma once

#include <string>

#include "search.hpp"

namespace bakers {

// Which of the heuristic's two priorities (heuristic.hpp) orders a frame's children:
// `progress` (the default) or `space` (free cells and columns first).
enum class ChildOrder : std::uint8_t { Progress, Space };

// Saving a search to go on with it later (checkpoint.hpp): with a `path`, the search
// starts from the file there if there is one (made for the same position, rules, order
// and memory settings: else CheckpointMismatch), saves itself there every
// `every_seconds` and when it stops on the node, state or time limit or Ctrl-C, and
// removes the file once it has a verdict. A search that goes on from a file expands
// exactly the positions, in the same order, that it would have without the stop (the
// table is saved whole, its probes go on alike); its counts go on from the saved ones, so
// max_nodes and max_states count the whole search, max_seconds the present run.
struct Checkpoint {
    std::string path;
    double every_seconds = 900;
};

// Decides `start` on one thread, depth first; the same contract as `solve`. Under a
// memory limit the visited keys move to the dense table (dense_table.hpp) once the
// growing table holds `dense_from` bytes (0: half the limit); the dense table takes
// what the limit leaves, or `dense_bytes` if that is less (a test's small table).
// A `shuffle` seed other than 0 blurs the order of each frame's children (child_order.hpp:
// another order near the heuristic's for each seed, as exact); a checkpoint does not
// record it, so the two are not taken together (std::invalid_argument).
Result solve_depth_first(const Rules& rules, const State& start, const Limits& limits,
                         const std::atomic<bool>* stop, const StopPoll& poll,
                         ChildOrder order = ChildOrder::Progress, std::uint64_t dense_from = 0,
                         std::uint64_t dense_bytes = 0, const Checkpoint* checkpoint = nullptr,
                         std::uint64_t shuffle = 0);

}  // namespace bakers
