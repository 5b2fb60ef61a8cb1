#include "dead_end.hpp"

namespace bakers {

DeadEnds::DeadEnds(const MoveGen& gen) : r_(gen.rules()) {
    active_ = r_.cells == 0 && r_.empty == Empty::None && r_.moves != Moves::Sequence;
    if (!active_) return;
    deck_ = r_.deck_set();
    for (int t = 0; t < kSuits; ++t)
        for (int h = 1; h <= r_.suit_size(); ++h) {
            const Card c = make_card(t, r_.rank_at_height(h));
            if (h > 1) before_[c] = bit_of(make_card(t, r_.rank_at_height(h - 1)));
            if (h < r_.suit_size()) next_[c] = make_card(t, r_.rank_at_height(h + 1));
            under_[c] = gen.targets(c);
            home_[t][h] = home_[t][h - 1] | bit_of(c);
        }
}

bool DeadEnds::dead_here(const State& s) const {
    // home: the cards that are home or can go home; placed: the cards in the columns
    // (without cells, every card not home); exposable: the cards that can be exposed
    // (every card a column's count has passed, and the card where it stands). rest[i]:
    // one past the place in `cards` of column i's first card from the top that is not
    // known to be able to leave.
    CardSet home = 0, exposable = 0;
    for (int t = 0; t < kSuits; ++t) home |= home_[t][s.found[t]];
    const CardSet placed = deck_ & ~home;
    std::array<int, kMaxColumns> rest{};
    unsigned open = 0;  // bit i: column i has a card not known to be able to leave
    for (int i = 0; i < r_.columns; ++i) {
        rest[i] = s.end[i];
        if (s.size(i)) exposable |= bit_of(s.top(i)), open |= 1U << i;
    }
    for (bool grew = true; grew && open;) {
        grew = false;
        for (unsigned left = open; left; left &= left - 1) {
            const int i = __builtin_ctz(left);
            const int bottom = s.begin(i);
            int p = rest[i];  // a local: the cards are bytes, which may alias rest
            while (p > bottom) {
                const Card c = s.cards[p - 1];
                const bool goes_home = (before_[c] & ~home) == 0;
                // A card placed (not home in s) that c builds on and that can be exposed.
                if (!goes_home && (under_[c] & placed & exposable) == 0) break;
                // c goes home, and after it the cards of its suit that can be exposed.
                for (Card x = c; goes_home && x != kNoCard && (exposable & bit_of(x)) && !(home & bit_of(x)); x = next_[x])
                    home |= bit_of(x);
                if (--p > bottom) exposable |= bit_of(s.cards[p - 1]);
                grew = true;
            }
            rest[i] = p;
            if (p == bottom) open &= ~(1U << i);
        }
    }
    return (placed & ~home) != 0;
}

}  // namespace bakers
