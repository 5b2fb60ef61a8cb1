// The rule set: one parametrised set of rules of which every game is a preset.
//
// These are the fields of the Python `Variant` record (python/bakers/variants.py); no
// game has code of its own, every rule below reads these fields.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>

#include "card.hpp"

namespace bakers {

inline constexpr int kMaxColumns = 13;
inline constexpr int kMaxCells = 8;
inline constexpr int kMaxCards = 52;

// How a card builds on a column: down by one natural rank and ...
enum class Build : std::uint8_t { Suit, Alternate, Any };
// What an empty column takes.
enum class Empty : std::uint8_t { Any, Kings, None };
// How cards move between columns (see variants.py for the exact meaning).
enum class Moves : std::uint8_t { Single, Supermove, Sequence };
// How deals are numbered.
enum class Numbering : std::uint8_t { MS, PySol };

struct Rules {
    int deck = 52;
    int columns = 8;
    int cells = 4;
    Build build = Build::Suit;
    Empty empty = Empty::Any;
    Moves moves = Moves::Supermove;
    bool auto_aces = false;
    bool aces_on_foundations = false;
    bool kings_to_bottom = false;
    Numbering numbering = Numbering::MS;
    // The cells that take the last cards of the deal, one card each, lowest cell first, as
    // a bit set (bit k: cell k): Eight Off's cells 0, 2, 4, 6. Only the deal reads it.
    std::uint8_t dealt_cells = 0;
    // While dealing, a card that is the next of its foundation goes there instead of to
    // its column, which gets no card that time round (Citadel). Only the deal reads it.
    bool deal_to_foundations = false;
    // How many aces start on their foundations: the last ones dealt, taken out after the
    // kings go down and before the columns are dealt (Good Measure's two). Deal only.
    int home_aces = 0;
    // Building around the corner: a king builds on the ace of its suit (Tuxedo, Penguin).
    // Only with `Build::Suit` in the 52-card deck and without `auto_aces` (validate): the
    // safe foundation moves are proved for it (moves.cpp), the aces' mandatory ones not.
    bool wrap = false;
    // The first card dealt sets the foundations' base rank, and the three other cards of
    // its rank start home (Penguin's beak; needs `wrap`). The core plays such a game
    // relabelled, the base rank reading as the ace and the rank below it as the king:
    // with the wrap, building only asks that ranks follow round the corner, which
    // relabelling keeps, so it is the same game, the moves (places) the same. Deal only.
    bool base_from_deal = false;
    // The columns that take the last cards of the deal, one each, lowest column first,
    // as a bit set (bit i: column i): Tuxedo's 0, 3, 6. Only the deal reads it.
    std::uint16_t last_row = 0;

    bool operator==(const Rules&) const = default;

    // Returns an empty string when the fields are consistent, else what is wrong.
    std::string validate() const;

    // Returns how many cards each suit has (13 or 9).
    int suit_size() const { return deck == 52 ? 13 : 9; }
    // Returns the rank at foundation height `h` (1-based: h = 1 is the ace).
    int rank_at_height(int h) const { return (deck == 52 || h == 1) ? h : h + 4; }
    // Returns the foundation height a card of rank `r` sits at (ace = 1).
    int height_of_rank(int r) const { return (deck == 52 || r == 1) ? r : r - 4; }
    // Returns true if rank `r` is in the deck.
    bool has_rank(int r) const { return deck == 52 || r == 1 || r >= 6; }
    // Returns how many cards are dealt to the cells at the start.
    int cells_dealt() const { return std::popcount(dealt_cells); }
    // Returns how many cards are dealt to the columns.
    int dealt_cards() const {
        return deck - (aces_on_foundations ? 4 : home_aces) - (base_from_deal ? 3 : 0) -
               cells_dealt();
    }

    // Returns true if `moving` may be placed on `target` in a column (MoveGen keeps it
    // as a table, so the wrap costs nothing where moves are made).
    bool builds_on(Card moving, Card target) const {
        const bool corner = wrap && rank_of(moving) == kKing && rank_of(target) == kAce;
        if (rank_of(moving) + 1 != rank_of(target) && !corner) return false;
        switch (build) {
            case Build::Suit: return suit_of(moving) == suit_of(target);
            case Build::Alternate: return colour_of(moving) != colour_of(target);
            case Build::Any: return true;
        }
        return false;
    }
    // Returns true if an empty column may receive a moved part whose bottom card is `c`.
    bool empty_takes(Card c) const {
        return empty == Empty::Any || (empty == Empty::Kings && rank_of(c) == kKing);
    }
    // Returns the set of every card of the deck.
    CardSet deck_set() const;
};

// Returns the rules of a preset by name, or nullptr.
const Rules* find_preset(const std::string& name);

}  // namespace bakers
