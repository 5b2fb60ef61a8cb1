// The column masks (column_masks.hpp) against the rules' own reading, place by place, on
// positions of random walks in every preset: the link of each card to the one below it,
// the places of the foundations' next cards, each column's top run, the column of each
// place, the empty columns and free cells, and the columns a move resized.

#include <cstdint>

#include "check.hpp"
#include "column_masks.hpp"
#include "support.hpp"

namespace {

using namespace support;

void check_masks(const Rules& r, const MoveGen& gen, const State& s) {
    const std::uint64_t links = link_mask(r, s);
    const CardSet next = gen.next_cards(s);
    const std::uint64_t places = places_of(s, next);
    for (int i = 0; i < kMaxColumns; ++i) {
        const int lo = s.begin(i), hi = s.end[i];
        for (int p = lo; p < hi; ++p) {
            const bool link = p > lo && r.builds_on(s.cards[p], s.cards[p - 1]);
            if (!CHECK_EQ(((links >> p) & 1) != 0, link)) return;
            if (!CHECK_EQ(((places >> p) & 1) != 0, ((next >> s.cards[p]) & 1) != 0)) return;
        }
        if (hi > lo) CHECK_EQ(run_below(links, hi - 1), gen.top_run(s, i));
    }
    const int total = s.end[kMaxColumns - 1];
    for (int i = 0; i < kMaxColumns; ++i)
        for (int p = s.begin(i); p < s.end[i]; ++p) CHECK_EQ(column_at(s, p), i);
    for (int n = 0; n <= kMaxColumns; ++n) CHECK_EQ(empty_columns(s, n), s.empty_columns(n));
    for (int n = 0; n <= kMaxCells; ++n) CHECK_EQ(free_cells(s, n), s.free_cells(n));
    CHECK_EQ(links & ~places_between(0, total), std::uint64_t{0});
    CHECK_EQ(places & ~places_between(0, total), std::uint64_t{0});
}

}  // namespace

TEST(column_masks_agree_with_the_rules_along_walks) {
    int positions = 0;
    for (const char* game : kPresets) {
        const Rules& r = preset(game);
        const MoveGen gen(r);
        check::Context ctx(game);
        random_walks(r, 700, 4, 150, 31, [&](const Keyed& start) { check_masks(r, gen, start.s); },
                     [&](const Step& step) {
                         check_masks(r, gen, step.after.s);
                         const State &a = step.before.s, &b = step.after.s;
                         unsigned resized = 0;
                         for (int i = 0; i < kMaxColumns; ++i) resized |= unsigned{a.size(i) != b.size(i)} << i;
                         CHECK_EQ(resized_columns(a, b), resized);
                         ++positions;
                     });
    }
    CHECK(positions > 1000);
}

TEST(column_masks_places_between) {
    CHECK_EQ(places_between(0, 0), std::uint64_t{0});
    CHECK_EQ(places_between(0, 3), std::uint64_t{7});
    CHECK_EQ(places_between(2, 5), std::uint64_t{0b11100});
    CHECK_EQ(places_between(10, 64), ~std::uint64_t{0} << 10);
}
