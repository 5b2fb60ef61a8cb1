#include "heuristic.hpp"

#include <algorithm>

namespace bakers {
namespace {

ColumnTerms column_terms(const State& s, int i, CardSet next) {
    ColumnTerms t;
    const int b = s.begin(i), e = s.end[i];
    CardSet below = 0;  // the cards beneath the current one
    int low_any = kKing + 1;
    for (int p = b; p < e; ++p) {
        const Card c = s.cards[p];
        if ((next >> c) & 1) t.dig += e - 1 - p;
        // Bits of c's suit with a lower rank: from the suit's bit 0 up to c, exclusive.
        const CardSet lower_in_suit = bit_of(c) - (CardSet{1} << (c & 0xf0));
        t.over += ((below & lower_in_suit) != 0) + 2 * (low_any < rank_of(c));
        low_any = std::min(low_any, rank_of(c));
        below |= bit_of(c);
    }
    return t;
}

// Returns the digging term of s from scratch: the cards above each next card.
int dig_of(const State& s, int ncols, CardSet next) {
    int dig = 0;
    const int n = s.end[ncols - 1];
    for (int p = 0; p < n; ++p) {
        if (!((next >> s.cards[p]) & 1)) continue;
        int i = 0;
        while (s.end[i] <= p) ++i;
        dig += s.end[i] - 1 - p;
    }
    return dig;
}

// Returns the priorities from their terms (offsets keep them above zero).
Priorities combine(const Rules& r, const State& s, int dig, int over, int empties) {
    const int left = 4 * r.suit_size() - s.home();
    const int used = r.cells - s.free_cells(r.cells);
    if (!roomy(r)) return Priorities{2 * left + 2 * dig + over + 64, 2 * left + dig + over / 2 + 256};
    return Priorities{4 * left + 2 * dig + over + 4 * used - 6 * empties + 64,
                      4 * left + dig + over + 12 * used - 18 * empties + 256};
}

}  // namespace

Priorities priorities(const MoveGen& gen, const State& s) {
    const Rules& r = gen.rules();
    const CardSet next = gen.next_cards(s);
    int dig = 0, over = 0, empties = 0;
    for (int i = 0; i < r.columns; ++i) {
        if (s.size(i) == 0) {
            ++empties;
            continue;
        }
        const ColumnTerms t = column_terms(s, i, next);
        dig += t.dig;
        over += t.over;
    }
    return combine(r, s, dig, over, empties);
}

void Scorer::prepare(const Keyed& parent) {
    parent_ = &parent;
    next_ = gen_.next_cards(parent.s);
    known_ = 0;
}

Priorities Scorer::score(const Keyed& child) const {
    const Rules& r = gen_.rules();
    const CardSet next = gen_.next_cards(child.s);
    // With the same next cards, an unchanged column keeps both its terms; otherwise it
    // keeps its `over` and the digging is counted afresh over the whole position.
    const bool same_next = next == next_;
    int dig = 0, over = 0, empties = 0;
    for (int i = 0; i < r.columns; ++i) {
        if (child.s.size(i) == 0) {
            ++empties;
            continue;
        }
        ColumnTerms t;
        if (child.col[i] == parent_->col[i]) {
            if (!((known_ >> i) & 1)) {
                terms_[i] = column_terms(parent_->s, i, next_);
                known_ |= 1U << i;
            }
            t = terms_[i];
        } else {
            t = column_terms(child.s, i, next);
        }
        dig += t.dig;
        over += t.over;
    }
    if (!same_next) dig = dig_of(child.s, r.columns, next);
    return combine(r, child.s, dig, over, empties);
}

}  // namespace bakers
