#include "state.hpp"

#include <algorithm>

namespace bakers {

void State::move_cards(int src, int dst, int n) {
    assert(n >= 1 && n <= size(src) && src != dst);
    Card buf[kMaxCards];
    const int from = end[src] - n;
    std::memcpy(buf, &cards[from], n);
    if (src < dst) {
        // Shift the cards between the two tops down by n, then append to dst.
        std::memmove(&cards[from], &cards[end[src]], end[dst] - end[src]);
        for (int i = src; i < dst; ++i) end[i] -= n;
        std::memcpy(&cards[end[dst] - n], buf, n);
    } else {
        const int at = end[dst];
        std::memmove(&cards[at + n], &cards[at], from - at);
        std::memcpy(&cards[at], buf, n);
        for (int i = dst; i < src; ++i) end[i] += n;
    }
}

Card State::pop(int i) {
    assert(size(i) > 0);
    const int at = end[i] - 1;
    const Card c = cards[at];
    const int last = end[kMaxColumns - 1];
    std::memmove(&cards[at], &cards[at + 1], last - at - 1);
    for (int k = i; k < kMaxColumns; ++k) --end[k];
    cards[last - 1] = kNoCard;
    return c;
}

void State::push(int i, Card c) {
    const int at = end[i];
    const int last = end[kMaxColumns - 1];
    std::memmove(&cards[at + 1], &cards[at], last - at);
    cards[at] = c;
    for (int k = i; k < kMaxColumns; ++k) ++end[k];
}

State state_from_layout(const Rules& rules, const Layout& layout) {
    State s;
    int at = 0;
    for (int i = 0; i < kMaxColumns; ++i) {
        if (i < rules.columns)
            for (Card c : layout.columns[i]) s.cards[at++] = c;
        s.end[i] = static_cast<std::uint8_t>(at);
    }
    for (int i = 0; i < rules.cells; ++i) s.cells[i] = layout.cells[i];
    s.found = layout.found;
    return s;
}

Layout layout_from_state(const Rules& rules, const State& s) {
    Layout out;
    for (int i = 0; i < rules.columns; ++i)
        out.columns.emplace_back(s.cards.begin() + s.begin(i), s.cards.begin() + s.end[i]);
    out.cells.assign(s.cells.begin(), s.cells.begin() + rules.cells);
    out.found = s.found;
    return out;
}

}  // namespace bakers
