// A position's columns read at once as bit masks over the flat card array of `State`
// (state.hpp: bit p stands for cards[p]): which cards lie on a card they build on, and
// where given cards lie. A column's top run, the depth of a foundation's next card below
// a top, whether a card lies on its parent: a few bit operations on these masks instead
// of walks down the columns whose length (and branches) depend on the cards.
//
// Made with 16-byte vector compares where the target has them (SSE2 on x86-64), else
// with a loop; both give the same masks (cpp/tests/test_column_masks.cpp checks them
// against the rules' own `builds_on` on random positions of every preset).
#pragma once

#include <bit>
#include <cstdint>

#include "rules.hpp"
#include "state.hpp"

namespace bakers {

static_assert(kMaxCards <= 64, "a mask bit per place of the flat card array");

// Returns the mask of the places p of s (below its last card) where cards[p] builds on
// cards[p - 1] under `rules` and both lie in one column.
std::uint64_t link_mask(const Rules& rules, const State& s);

// Returns the mask of the places of s that hold a card of `wanted` (at most 4 cards:
// one per suit, such as the foundations' next cards).
std::uint64_t places_of(const State& s, CardSet wanted);

// Returns the column that holds place p of s (p below its last card).
int column_at(const State& s, int p);

// Returns the columns (a bit mask) whose sizes differ between a and b.
unsigned resized_columns(const State& a, const State& b);

// Returns the number of empty columns among the first `ncols` of s.
int empty_columns(const State& s, int ncols);

// Returns the number of empty cells among the first `ncells` of s.
int free_cells(const State& s, int ncells);

// Returns the mask of the places [lo, hi).
constexpr std::uint64_t places_between(int lo, int hi) {
    return (hi >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << hi) - 1) &
           ~((std::uint64_t{1} << lo) - 1);
}

// Returns the length of the run at the top of a column whose top card is at place
// `top` (>= 0): 1 + how many places in a row from `top` down have their link bit.
inline int run_below(std::uint64_t links, int top) {
    return 1 + std::countl_one(links << (63 - top));
}

}  // namespace bakers
