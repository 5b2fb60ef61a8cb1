// The search's two orders of expansion. Both are sums of measured terms of a position,
// lower meaning "expand sooner"; neither ever prunes anything (every stored position is
// expanded before "impossible"), so no weight here can make a verdict wrong.
//
// Terms, per position:
//   left     cards not home;
//   dig      cards above the next card of each suit's foundation (digging still to do);
//   over     1 per card lying on a lower card of its own suit, 2 per card lying on a lower
//            card of any suit (each must move before the card beneath it can go home);
//   used     occupied cells;  empties  empty columns (free space buys long moves).
// The two priorities weigh them differently. In games with free space:
//   progress = 4 left + 2 dig + over + 4 used - 6 empties
//   space    = 4 left +   dig + over + 12 used - 18 empties
// and without (no cells, no usable empty column: the order of the columns decides):
//   progress = 2 left + 2 dig + over
//   space    = 2 left +   dig + over / 2    (cards home count the most)
// The search adds 1 per move from the start to each (1.5 without free space), which keeps
// it from wandering down long lines. The search takes positions from the two orders in
// turn (see best_first.cpp): a position that one order ranks on a plateau of equal
// values, the other often ranks well. The weights and both choices were measured:
// docs/benchmarks.md, "The heuristic".
#pragma once

#include "moves.hpp"

namespace bakers {

struct Priorities {
    int progress = 0;
    int space = 0;
};

// Returns true if the game has free space: cells, or empty columns that take cards.
inline bool roomy(const Rules& r) { return r.cells > 0 || r.empty != Empty::None; }
// Returns the cost of `depth` moves from the start, in the priorities' units.
inline int depth_cost(const Rules& r, int depth) { return roomy(r) ? depth : depth * 3 / 2; }

// Returns both priorities of s (without the depth cost).
Priorities priorities(const MoveGen& gen, const State& s);

// The heuristic's terms of one column: the cards lying on lower cards (column-local) and
// the digging above the next foundation cards.
struct ColumnTerms {
    int over = 0;
    int dig = 0;
};

// Scores the children of one position: the terms of the columns a move leaves alone are
// the parent's, read once and kept for the next children. Gives exactly `priorities`.
class Scorer {
public:
    explicit Scorer(const MoveGen& gen) : gen_(gen) {}
    void prepare(const Keyed& parent);
    Priorities score(const Keyed& child) const;

private:
    const MoveGen& gen_;
    const Keyed* parent_ = nullptr;
    CardSet next_ = 0;
    mutable unsigned known_ = 0;  // bit i: terms_[i] holds the parent's column i
    mutable ColumnTerms terms_[kMaxColumns];
};

// Scores the children that quiet moves make (MoveGen::quiet_key: no card goes home, so
// the next cards and `left` stay) from the move alone, without making the child: a move
// changes the terms of two columns (or one column and a cell), each computed from a
// summary of the parent's column (its terms for every bottom part, its cards, its lowest
// rank) and the moved cards. Gives exactly `priorities` of the child.
class QuietScorer {
public:
    explicit QuietScorer(const MoveGen& gen) : gen_(gen) {}
    // Summarises every column of the parent (one pass over its cards).
    void prepare(const State& parent);
    // Returns the priorities of the child that the quiet move m makes (without the depth cost).
    Priorities score(Move m) const;

private:
    struct Column {
        int size = 0;
        int min_rank = kKing + 1;     // the lowest rank in the column
        CardSet cards = 0;            // the column's cards
        int next_count = 0;           // next cards in the column (at most one a suit) ...
        int next_pos[kSuits];         // ... and their places (0: the bottom)
        int over_below[kMaxCards + 1];  // over_below[k]: `over` of the bottom k cards
    };
    const MoveGen& gen_;
    const State* parent_ = nullptr;
    CardSet next_ = 0;
    int left_ = 0, dig_ = 0, over_ = 0, empties_ = 0, used_ = 0;  // the parent's terms
    Column cols_[kMaxColumns];
};

}  // namespace bakers
