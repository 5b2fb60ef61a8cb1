// The order in which a depth-first frame takes its children (depth_first.hpp, one thread
// or several): the heuristic's, the best last so that it is expanded next.
#pragma once

#include <cassert>
#include <cstdint>
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

// The spread of a shuffled order (order_kids' `shuffle`): each child's priority, in
// quarters, gets a pseudo-random 0..kShuffleSpread - 1 added, so children whose
// priorities differ by less than kShuffleSpread / 4 may change places (chosen on a
// training range: docs/benchmarks.md, "Shuffled depth-first orders").
inline constexpr int kShuffleSpread = 8;

// Returns a pseudo-random value of the position `key`, the move m and the seed (SplitMix64's
// finaliser): the same for the same three, so a shuffled search is the same on every run.
inline std::uint64_t shuffle_draw(const Key& key, Move m, std::uint64_t seed) {
    std::uint64_t x = key.lo ^ (key.hi * 0x9e3779b97f4a7c15ULL) ^ seed * 0xd1b54a32d192ed03ULL ^
                      (std::uint64_t{m.from} << 16 | std::uint64_t{m.to} << 8 | m.count);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// Sorts the new children of `cur` by the heuristic's `progress` priority, or its `space`
// priority, the lowest (best) last; equal priorities keep their order (a stable insertion
// sort: a few children, no buffer to allocate). One child is left as it is. With a
// `shuffle` seed other than 0 the priorities are blurred (kShuffleSpread): another order
// for each seed, near the heuristic's. The order only decides how soon a win is met:
// every child is still searched (depth_first.hpp), so a shuffled search is as exact.
inline void order_kids(const MoveGen& gen, const Keyed& cur, const std::vector<Keyed>& made,
                       std::vector<Kid>& kids, Scorer& scorer, QuietScorer& quiet_scorer, bool by_space,
                       std::uint64_t shuffle = 0) {
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
        if (shuffle)
            kid.prio = kid.prio * 4 + static_cast<int>(shuffle_draw(cur.key, kid.move, shuffle) % kShuffleSpread);
    }
    for (std::size_t i = 1; i < kids.size(); ++i)
        for (std::size_t j = i; j > 0 && kids[j - 1].prio < kids[j].prio; --j) std::swap(kids[j - 1], kids[j]);
}

}  // namespace bakers
