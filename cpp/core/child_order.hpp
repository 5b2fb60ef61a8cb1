// The order in which a depth-first frame takes its children (depth_first.hpp, one thread
// or several): the heuristic's, the best last so that it is expanded next.
#pragma once

#include <cassert>
#include <vector>

#include "heuristic.hpp"

namespace bakers {

// A new child waiting on a frame: its priority, its move, and its place in the list of
// the children made (`made`), or -1 for a quiet move's child (MoveGen::quiet_key: not
// made, scored from the move).
struct Kid {
    int prio;
    Move move;
    int made;
};

// Sorts the new children of `cur` by the heuristic's `progress` priority, or its `space`
// priority, the lowest (best) last; equal priorities keep their order (a stable insertion
// sort: a few children, no buffer to allocate). One child is left as it is.
inline void order_kids(const MoveGen& gen, const Keyed& cur, const std::vector<Keyed>& made,
                       std::vector<Kid>& kids, Scorer& scorer, QuietScorer& quiet_scorer, bool by_space) {
    if (kids.size() < 2) return;
    bool quiet_ready = false, scorer_ready = false;
    for (Kid& kid : kids) {
        Priorities p;
        if (kid.made < 0) {
            if (!quiet_ready) quiet_scorer.prepare(cur.s), quiet_ready = true;
            p = quiet_scorer.score(kid.move);
        } else {
            if (!scorer_ready) scorer.prepare(cur), scorer_ready = true;
            p = scorer.score(made[static_cast<std::size_t>(kid.made)]);
        }
#ifndef NDEBUG
        Keyed child = cur;
        gen.apply(child, kid.move);
        gen.settle_after(child, kid.move);
        assert(p.progress == priorities(gen, child.s).progress);
        assert(p.space == priorities(gen, child.s).space);
#else
        (void)gen;
#endif
        kid.prio = by_space ? p.space : p.progress;
    }
    for (std::size_t i = 1; i < kids.size(); ++i)
        for (std::size_t j = i; j > 0 && kids[j - 1].prio < kids[j].prio; --j) std::swap(kids[j - 1], kids[j]);
}

}  // namespace bakers
