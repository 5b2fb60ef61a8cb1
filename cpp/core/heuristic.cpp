#include "heuristic.hpp"

#include <algorithm>

#include "column_masks.hpp"

namespace bakers {
namespace {

// Returns the term `over` adds for card c lying on the cards `below` (lowest rank `low`).
int over_term(Card c, CardSet below, int low) {
    // Bits of c's suit with a lower rank: from the suit's bit 0 up to c, exclusive.
    const CardSet lower_in_suit = bit_of(c) - (CardSet{1} << (c & 0xf0));
    return ((below & lower_in_suit) != 0) + 2 * (low < rank_of(c));
}

ColumnTerms column_terms(const State& s, int i, CardSet next) {
    ColumnTerms t;
    const int b = s.begin(i), e = s.end[i];
    CardSet below = 0;  // the cards beneath the current one
    int low_any = kKing + 1;
    for (int p = b; p < e; ++p) {
        const Card c = s.cards[p];
        if ((next >> c) & 1) t.dig += e - 1 - p;
        t.over += over_term(c, below, low_any);
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
Priorities combine(const Rules& r, int left, int used, int dig, int over, int empties) {
    if (!roomy(r)) return Priorities{2 * left + 2 * dig + over + 64, 2 * left + dig + over / 2 + 256};
    return Priorities{4 * left + 2 * dig + over + 4 * used - 6 * empties + 64,
                      4 * left + dig + over + 12 * used - 18 * empties + 256};
}

Priorities combine(const Rules& r, const State& s, int dig, int over, int empties) {
    return combine(r, 4 * r.suit_size() - s.home(), r.cells - free_cells(s, r.cells), dig, over, empties);
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

void QuietScorer::prepare(const State& parent) {
    const Rules& r = gen_.rules();
    parent_ = &parent;
    next_ = gen_.next_cards(parent);
    dig_ = over_ = empties_ = 0;
    left_ = 4 * r.suit_size() - parent.home();  // a quiet move sends nothing home
    used_ = r.cells - free_cells(parent, r.cells);
    for (int i = 0; i < r.columns; ++i) {
        Column& col = cols_[i];
        const int b = parent.begin(i), e = parent.end[i];
        col.size = e - b;
        col.cards = 0;
        col.min_rank = kKing + 1;
        col.next_count = 0;
        col.over_below[0] = 0;
        empties_ += col.size == 0;
        for (int p = b; p < e; ++p) {
            const Card c = parent.cards[p];
            if ((next_ >> c) & 1) {
                col.next_pos[col.next_count++] = p - b;
                dig_ += e - 1 - p;
            }
            col.over_below[p - b + 1] = col.over_below[p - b] + over_term(c, col.cards, col.min_rank);
            col.min_rank = std::min(col.min_rank, rank_of(c));
            col.cards |= bit_of(c);
        }
        over_ += col.over_below[col.size];
    }
}

Priorities QuietScorer::score(Move m) const {
    const Rules& r = gen_.rules();
    const State& s = *parent_;
    int dig = dig_, over = over_, empties = empties_, used = used_;
    // The moved cards, bottom first: n from the top of a column, or a cell's card.
    const Card* moved;
    int n;
    Card from_cell;
    if (is_cell(m.from)) {
        from_cell = s.cells[m.from - kCell];
        moved = &from_cell;
        n = 1;
        --used;
    } else {
        // The column left with its bottom k cards: its next cards below k keep their
        // digging less the n cards gone; a moved next card keeps the cards above it.
        const Column& src = cols_[m.from];
        n = is_cell(m.to) ? 1 : m.count;
        moved = &s.cards[s.end[m.from] - n];
        const int k = src.size - n;
        for (int j = 0; j < src.next_count; ++j)
            if (src.next_pos[j] < k) dig -= n;
        over += src.over_below[k] - src.over_below[src.size];
        empties += k == 0;
    }
    if (is_cell(m.to)) {
        ++used;  // a card in a cell has no `over` and digs nothing (nor did it, on top)
    } else {
        // The n cards go on top: every next card of the column gets n more above it, and
        // each moved card lies on the column's cards and the moved ones beneath it.
        const Column& dst = cols_[m.to];
        dig += n * dst.next_count;
        CardSet below = dst.cards;
        int low = dst.min_rank;
        for (int j = 0; j < n; ++j) {
            const Card c = moved[j];
            over += over_term(c, below, low);
            below |= bit_of(c);
            low = std::min(low, rank_of(c));
        }
        empties -= dst.size == 0;
    }
    return combine(r, left_, used, dig, over, empties);
}

}  // namespace bakers
