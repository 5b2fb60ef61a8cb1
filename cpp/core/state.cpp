#include "state.hpp"

#include <algorithm>

namespace bakers {
namespace {

static_assert(kMaxColumns <= 16, "the column ends fit in 128 bits");
using Ends = unsigned __int128;

// kFrom[i]: a 1 in every byte from byte i on (bytes 0..15).
constexpr auto kFrom = [] {
    std::array<Ends, 17> out{};
    for (int i = 0; i <= 16; ++i)
        for (int b = i; b < 16; ++b) out[i] |= Ends{1} << (8 * b);
    return out;
}();

// Adds n to end[i] for every i in [from, to), or takes n from each: the ends as one
// 128-bit number, a byte a column, changed by one addition. No byte carries into the next
// or borrows from it: every end stays in 0..kMaxCards (< 256) after the change, and a
// byte outside [from, to) gets 0 added. So the word's sum is the bytes' sums.
void shift_ends(std::array<std::uint8_t, kMaxColumns>& end, int from, int to, int n, bool add) {
    Ends word = 0;
    std::memcpy(&word, end.data(), kMaxColumns);
    const Ends step = (kFrom[from] & ~kFrom[to]) * static_cast<unsigned>(n);
    word = add ? word + step : word - step;
    std::memcpy(end.data(), &word, kMaxColumns);
}

}  // namespace

void State::move_cards(int src, int dst, int n) {
    assert(n >= 1 && n <= size(src) && src != dst);
    Card buf[kMaxCards];
    const int from = end[src] - n;
    std::memcpy(buf, &cards[from], n);
    if (src < dst) {
        // Shift the cards between the two tops down by n, then append to dst.
        std::memmove(&cards[from], &cards[end[src]], end[dst] - end[src]);
        shift_ends(end, src, dst, n, false);
        std::memcpy(&cards[end[dst] - n], buf, n);
    } else {
        const int at = end[dst];
        std::memmove(&cards[at + n], &cards[at], from - at);
        std::memcpy(&cards[at], buf, n);
        shift_ends(end, dst, src, n, true);
    }
}

Card State::pop(int i) {
    assert(size(i) > 0);
    const int at = end[i] - 1;
    const Card c = cards[at];
    const int last = end[kMaxColumns - 1];
    std::memmove(&cards[at], &cards[at + 1], last - at - 1);
    shift_ends(end, i, kMaxColumns, 1, false);
    cards[last - 1] = kNoCard;
    return c;
}

void State::push(int i, Card c) {
    const int at = end[i];
    const int last = end[kMaxColumns - 1];
    std::memmove(&cards[at + 1], &cards[at], last - at);
    cards[at] = c;
    shift_ends(end, i, kMaxColumns, 1, true);
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
