// Numbered deals: the Microsoft / FreeCell Pro shuffle, PySol's shuffle, and laying a
// shuffled deck out on the table by `Rules`.
//
// The dealing rules (the same as python/bakers/deals.py, checked against each other in
// the tests):
// - The Microsoft shuffle of deal n (1..2^33-1, FreeCell Pro's extension above 2^31)
//   permutes the deck ordered rank by rank, suits C D H S within a rank. PySol's numbering
//   uses it up to 32000 and its Mersenne Twister shuffle (the deck suit by suit, C S H D)
//   above.
// - The shuffled array is dealt from its end (the Microsoft order), except in games that
//   move kings down, which PySol deals from its start.
// - Cards not in the deck (ranks 2..5 of a 36-card deck) are skipped; aces go to the
//   foundations when `aces_on_foundations`, the last `home_aces` aces dealt (after the
//   kings go down) otherwise; the last cards go to the `dealt_cells`, one
//   each, lowest cell first; the rest are dealt round-robin, and with
//   `deal_to_foundations` a card that is the next of its foundation goes there instead
//   (its column gets nothing that time round).
// - `kings_to_bottom`: each king, in dealing order, swaps with the first non-king dealt
//   before it in its column (PySol's Baker's Dozen rule).
// - `last_row`: before the dealt cells' cards, the last cards go to these columns, one
//   each, lowest column first (Tuxedo's 0, 3, 6).
// - `base_from_deal` (PySolFC's Penguin): the first card dealt sets the base rank; the
//   cards of that rank are dealt first, in dealing order, the first three to their
//   foundations, the fourth to the first column; the layout is then relabelled so that
//   the base rank reads as the ace (see Rules::base_from_deal).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "rules.hpp"

namespace bakers {

// A position as laid out: columns from the covered card to the exposed one, cells
// (kNoCard when empty), and the foundation heights (cards home) per suit.
struct Layout {
    std::vector<std::vector<Card>> columns;
    std::vector<Card> cells;
    std::array<std::uint8_t, kSuits> found{};
};

inline constexpr std::uint64_t kMaxMsDeal = (std::uint64_t{1} << 33) - 1;

// Returns the 52 cards of the Microsoft shuffle of deal n, as the shuffled array.
std::vector<Card> ms_shuffle(std::uint64_t n);
// Returns the 52 cards of PySol's Mersenne Twister shuffle of deal n, as the shuffled array.
std::vector<Card> pysol_mt_shuffle(std::uint64_t n);

// Returns an empty string if n is a deal number of the game, else what is wrong.
std::string number_error(const Rules& rules, std::uint64_t n);
// Deals number n of a game into `out`; returns an empty string or what is wrong.
std::string deal_number(const Rules& rules, std::uint64_t n, Layout& out);
// Lays cards given in dealing order out by `rules` (skipping, aces home, kings down).
Layout lay_out(const Rules& rules, const std::vector<Card>& dealing_order);
// Renames the ranks of the cards in play so that rank `base` reads as the ace (and the
// rank below it as the king), keeping suits: a position of a wrapping game whose
// foundations start at `base`, as the core plays it. The foundation heights stay.
void relabel(Layout& layout, int base);

}  // namespace bakers
