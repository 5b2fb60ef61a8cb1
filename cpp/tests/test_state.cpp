// The compact state: moving cards between columns keeps every card exactly once and in
// order, and a layout survives the trip to a state and back.

#include <cstdint>
#include <string>
#include <vector>

#include "check.hpp"
#include "support.hpp"

namespace {

using namespace support;
using Columns = std::vector<std::vector<Card>>;

// Returns a state of 13 columns (no cells) holding `columns`.
State state_of(const Columns& columns) {
    Layout l;
    l.columns = columns;
    return state_from_layout(preset("bakers_dozen"), l);
}

Columns columns_of(const State& s) { return layout_from_state(preset("bakers_dozen"), s).columns; }

// Returns the full 52-card deck, suit by suit.
std::vector<Card> full_deck() {
    std::vector<Card> deck;
    for (int suit = 0; suit < kSuits; ++suit)
        for (int rank = kAce; rank <= kKing; ++rank) deck.push_back(make_card(suit, rank));
    return deck;
}

// Splits the deck into 13 columns of the given sizes (missing ones empty).
Columns split(const std::vector<int>& sizes) {
    const std::vector<Card> deck = full_deck();
    Columns out;
    std::size_t at = 0;
    for (int n : sizes) {
        out.emplace_back(deck.begin() + at, deck.begin() + at + n);
        at += n;
    }
    out.resize(kMaxColumns);
    return out;
}

// Column layouts of the whole deck that reach the edges: empty columns first, last and
// between, one column holding all 52 cards, single cards.
std::vector<Columns> shapes() {
    return {
        split({4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4}),
        split({0, 7, 0, 1, 12, 0, 3, 0, 9, 2, 0, 18, 0}),
        split({52}),
        split({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 52}),
        split({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 40}),
    };
}

// Returns `columns` with the top n cards of src put on dst, done with vectors.
Columns moved(Columns columns, int src, int dst, int n) {
    auto& from = columns[src];
    columns[dst].insert(columns[dst].end(), from.end() - n, from.end());
    from.resize(from.size() - n);
    return columns;
}

// Runs f(shape, src, dst) for every shape and every ordered pair of columns.
template <class F>
void for_every_pair(F f) {
    const std::vector<Columns> all = shapes();
    for (std::size_t k = 0; k < all.size(); ++k)
        for (int src = 0; src < kMaxColumns; ++src)
            for (int dst = 0; dst < kMaxColumns; ++dst) {
                if (src == dst) continue;
                check::Context ctx("shape " + std::to_string(k) + ", " + std::to_string(src) + " -> " +
                                   std::to_string(dst));
                f(all[k], src, dst);
            }
}

}  // namespace

TEST(state_accessors_read_the_columns) {
    const Rules& r = preset("freecell");
    const State s = make_state(r, {"JD KD 2S", "", "5H"}, {"", "AC", "", "QS"}, {0, 1, 0, 0});
    CHECK_EQ(s.size(0), 3);
    CHECK_EQ(s.size(1), 0);
    CHECK_EQ(s.begin(2), 3);
    CHECK_EQ(s.top(0), parse_card("2S"));
    CHECK_EQ(s.top(1), kNoCard);
    CHECK_EQ(s.from_top(0, 2), parse_card("JD"));
    CHECK_EQ(s.free_cells(r.cells), 2);
    CHECK_EQ(s.empty_columns(r.columns), 6);
    CHECK_EQ(s.home(), 1);
}

TEST(state_move_cards_keeps_every_card_once_and_in_order) {
    for_every_pair([](const Columns& shape, int src, int dst) {
        const State start = state_of(shape);
        for (int n = 1; n <= static_cast<int>(shape[src].size()); ++n) {
            State s = start;
            s.move_cards(src, dst, n);
            CHECK_EQ(columns_of(s), moved(shape, src, dst, n));
            CHECK_EQ(inventory_error(preset("bakers_dozen"), s), std::string());
            // And back: the bytes are the same as before.
            s.move_cards(dst, src, n);
            CHECK(s == start);
        }
    });
}

TEST(state_pop_and_push_keep_every_card_once_and_in_order) {
    for_every_pair([](const Columns& shape, int src, int dst) {
        if (shape[src].empty()) return;
        const State start = state_of(shape);
        State s = start;
        const Card c = s.pop(src);
        CHECK_EQ(c, shape[src].back());
        CHECK(!inventory_error(preset("bakers_dozen"), s).empty());  // one card short
        s.push(dst, c);
        CHECK_EQ(columns_of(s), moved(shape, src, dst, 1));
        State by_move = start;
        by_move.move_cards(src, dst, 1);
        CHECK(s == by_move);
        s.push(src, s.pop(dst));
        CHECK(s == start);
    });
}

TEST(state_pop_and_push_through_a_cell) {
    const Rules& r = preset("freecell");
    State s = make_state(r, {"JD KD 2S", "", "5H 4C"});
    const State start = s;
    s.cells[2] = s.pop(0);
    CHECK_EQ(s.size(0), 2);
    CHECK_EQ(cards_text(layout_from_state(r, s).columns[0]), std::string("JD KD"));
    s.push(1, s.cells[2]);
    s.cells[2] = kNoCard;
    CHECK_EQ(cards_text(layout_from_state(r, s).columns[1]), std::string("2S"));
    s.move_cards(1, 0, 1);
    CHECK(s == start);
}

TEST(state_layout_round_trip) {
    for (const char* game : kPresets) {
        const Rules& r = preset(game);
        for (std::uint64_t n = 1; n <= 20; ++n) {
            check::Context ctx(std::string(game) + " deal " + std::to_string(n));
            Layout l;
            CHECK_EQ(deal_number(r, n, l), std::string());
            const State s = state_from_layout(r, l);
            const Layout back = layout_from_state(r, s);
            CHECK_EQ(back.columns, l.columns);
            CHECK_EQ(back.cells, l.cells);
            CHECK_EQ(back.found, l.found);
            CHECK(state_from_layout(r, back) == s);
        }
    }
}

TEST(state_round_trip_along_random_walks) {
    for (const char* game : kPresets) {
        const Rules& r = preset(game);
        check::Context ctx(game);
        random_walks(r, 100, 3, 150, 7, nullptr, [&](const Step& step) {
            const State& s = step.after.s;
            CHECK_EQ(inventory_error(r, s), std::string());
            CHECK(state_from_layout(r, layout_from_state(r, s)) == s);
        });
    }
}
