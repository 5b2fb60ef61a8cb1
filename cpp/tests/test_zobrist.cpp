// Table keys: the key kept up to date move by move equals the key computed from scratch,
// does not depend on the order of columns or of cells, and tells apart the positions met.

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "check.hpp"
#include "support.hpp"

namespace {

using namespace support;

// Deals and steps per preset: thousands of moves in all, a few seconds in a sanitized build.
constexpr int kDeals = 12;
constexpr int kSteps = 300;

struct KeyHash {
    std::size_t operator()(const Key& k) const { return k.lo ^ (k.hi * 0x9e3779b97f4a7c15ULL); }
};

// Returns s with its columns and its cells shuffled by rng.
State permuted(const Rules& r, const State& s, std::mt19937_64& rng) {
    Layout l = layout_from_state(r, s);
    std::shuffle(l.columns.begin(), l.columns.end(), rng);
    std::shuffle(l.cells.begin(), l.cells.end(), rng);
    return state_from_layout(r, l);
}

}  // namespace

TEST(zobrist_incremental_key_equals_key_from_scratch) {
    int steps = 0;
    for (const char* game : kPresets) {
        const Rules& r = preset(game);
        check::Context ctx(game);
        random_walks(
            r, 1, kDeals, kSteps, 11,
            [&](const Keyed& start) { CHECK(start.key_is_consistent(r.columns, r.cells)); },
            [&](const Step& step) {
                ++steps;
                CHECK(step.after.key_is_consistent(r.columns, r.cells));
                CHECK_EQ(step.after.key, key_of(r, step.after.s));
            });
    }
    CHECK(steps > 10000);
}

TEST(zobrist_every_keyed_change_keeps_the_key) {
    // Arbitrary (not only legal) transfers, pops, pushes and cell changes.
    const Rules& r = preset("freecell");
    Keyed k;
    k.s = dealt(r, 617);
    k.rehash(r.columns, r.cells);
    for (int src = 0; src < r.columns; ++src)
        for (int dst = 0; dst < r.columns; ++dst)
            for (int n = 1; src != dst && n <= k.s.size(src); ++n) {
                check::Context ctx(std::to_string(src) + " -> " + std::to_string(dst) + " x" +
                                   std::to_string(n));
                Keyed t = k;
                t.move_cards(src, dst, n);
                CHECK(t.key_is_consistent(r.columns, r.cells));
                t.move_cards(dst, src, n);
                CHECK_EQ(t.key, k.key);
                t.put_cell(3, t.pop(src));
                CHECK(t.key_is_consistent(r.columns, r.cells));
                t.push(dst, t.take_cell(3));
                CHECK(t.key_is_consistent(r.columns, r.cells));
            }
}

TEST(zobrist_key_ignores_the_order_of_columns_and_cells) {
    std::mt19937_64 rng(5);
    int compared = 0;
    for (const char* game : kPresets) {
        const Rules& r = preset(game);
        check::Context ctx(game);
        random_walks(r, 200, 4, kSteps, 13, nullptr, [&](const Step& step) {
            const State p = permuted(r, step.after.s, rng);
            CHECK_EQ(canonical(r, p), canonical(r, step.after.s));
            CHECK_EQ(key_of(r, p), step.after.key);
            Keyed k;
            k.s = p;
            k.rehash(r.columns, r.cells);
            CHECK_EQ(k.key, step.after.key);
            ++compared;
        });
    }
    CHECK(compared > 2000);
}

TEST(zobrist_positions_met_in_walks_have_distinct_keys) {
    std::size_t distinct = 0;
    for (const char* game : kPresets) {
        const Rules& r = preset(game);
        check::Context ctx(game);
        std::unordered_map<Key, std::string, KeyHash> seen;
        std::unordered_map<std::string, Key> by_position;
        auto note = [&](const Keyed& k) {
            const std::string c = canonical(r, k.s);
            const auto [it, fresh] = seen.emplace(k.key, c);
            if (!fresh) CHECK_EQ(it->second, c);  // one key, two positions: a collision
            const auto [jt, new_position] = by_position.emplace(c, k.key);
            if (!new_position) CHECK_EQ(jt->second, k.key);
        };
        random_walks(r, 300, kDeals, kSteps, 17, note, [&](const Step& step) { note(step.after); });
        distinct += seen.size();
    }
    CHECK(distinct > 10000);
}

TEST(zobrist_same_cards_at_same_depths_in_other_columns_differ) {
    // Both positions hold AH and 3S at depth 0 and 2H at depth 1: the column hashes alone
    // XOR to the same value; only the per-column mixing tells them apart.
    const Rules& r = preset("bakers_game");
    const State a = make_state(r, {"AH 2H", "3S"});
    const State b = make_state(r, {"AH", "3S 2H"});
    CHECK(!(key_of(r, a) == key_of(r, b)));
    // A card in a cell is not the same card alone in a column.
    const State c = make_state(r, {"AH", "3S"}, {"2H"});
    const State d = make_state(r, {"AH", "3S", "2H"});
    CHECK(!(key_of(r, c) == key_of(r, d)));
    CHECK(!(key_of(r, a) == key_of(r, c)));
}

TEST(zobrist_empty_columns_and_cells_add_nothing) {
    const Rules& r = preset("freecell");
    const State a = make_state(r, {"AH 2H", "3S"});
    const State b = make_state(r, {"", "", "AH 2H", "", "3S"}, {"", "", ""});
    CHECK_EQ(key_of(r, a), key_of(r, b));
    CHECK_EQ(key_of(r, make_state(r, {})), Key{});
}

TEST(zobrist_deepest_columns) {
    // All 52 cards in one column reach depth 51, the last row of the tables.
    const Rules& r = preset("bakers_dozen");
    std::string all;
    for (int suit = 0; suit < kSuits; ++suit)
        for (int rank = kKing; rank >= kAce; --rank) all += card_text(make_card(suit, rank)) + " ";
    Keyed k;
    k.s = make_state(r, {all});
    k.rehash(r.columns, r.cells);
    const Key start = k.key;
    k.move_cards(0, 12, 52);
    CHECK(k.key_is_consistent(r.columns, r.cells));
    CHECK_EQ(k.key, start);  // the same position up to the order of columns
    k.push(0, k.pop(12));
    CHECK(k.key_is_consistent(r.columns, r.cells));
    k.move_cards(12, 0, 51);
    CHECK(k.key_is_consistent(r.columns, r.cells));
    CHECK(!(k.key == start));  // the old top card now lies at the bottom
}
