// Cards and sets of cards.
//
// A card is one byte, `suit * 16 + rank`: rank 1 (ace) .. 13 (king) in the low nibble,
// suit 0..3 in the order H, C, D, S (Freecell Solver's foundation order) in the high
// nibble. Red and black alternate, so a card's colour is its suit's low bit. Code 0 is
// "no card". A `CardSet` is a 64-bit bitboard with bit `code` set for each member, so
// the four suits occupy bits 1..13, 17..29, 33..45 and 49..61.
#pragma once

#include <cassert>
#include <cstdint>
#include <string>

namespace bakers {

using Card = std::uint8_t;
using CardSet = std::uint64_t;

inline constexpr Card kNoCard = 0;
inline constexpr int kSuits = 4;
inline constexpr int kAce = 1;
inline constexpr int kKing = 13;

// Returns the card of `suit` (0..3) and `rank` (1..13).
constexpr Card make_card(int suit, int rank) {
    assert(suit >= 0 && suit < kSuits && rank >= kAce && rank <= kKing);
    return static_cast<Card>(suit * 16 + rank);
}
// Returns the suit 0..3 (H, C, D, S).
constexpr int suit_of(Card c) { return c >> 4; }
// Returns the rank 1..13.
constexpr int rank_of(Card c) { return c & 15; }
// Returns 0 for red (hearts, diamonds), 1 for black (clubs, spades).
constexpr int colour_of(Card c) { return (c >> 4) & 1; }
// Returns the one-bit set holding `c`.
constexpr CardSet bit_of(Card c) { return CardSet{1} << c; }

// Returns the two-character text of a card, like "TH" or "AS".
inline std::string card_text(Card c) {
    if (c == kNoCard) return "--";
    return std::string{"0A23456789TJQK"[rank_of(c)], "HCDS"[suit_of(c)]};
}

}  // namespace bakers
