#include "rules.hpp"

#include <utility>

namespace bakers {

std::string Rules::validate() const {
    if (deck != 52 && deck != 36) return "deck must be 52 or 36, not " + std::to_string(deck);
    if (columns < 1 || columns > kMaxColumns)
        return "columns must be 1.." + std::to_string(kMaxColumns) + ", not " +
               std::to_string(columns);
    if (cells < 0 || cells > kMaxCells)
        return "cells must be 0.." + std::to_string(kMaxCells) + ", not " + std::to_string(cells);
    if (home_aces < 0 || home_aces > 4 || (home_aces > 0 && aces_on_foundations))
        return "home_aces must be 0..4, and 0 when every ace starts home";
    if (cells < kMaxCells && (dealt_cells >> cells) != 0)
        return "dealt_cells names a cell past the " + std::to_string(cells) + " cells";
    if (wrap && (deck != 52 || build != Build::Suit || auto_aces))
        return "wrap (a king on an ace) needs the 52-card deck, building by suit and no "
               "auto_aces";
    if (base_from_deal && (!wrap || aces_on_foundations || home_aces > 0 || kings_to_bottom ||
                           deal_to_foundations))
        return "base_from_deal needs wrap, and no other rule that sends cards home or moves "
               "kings while dealing";
    if ((last_row >> columns) != 0)
        return "last_row names a column past the " + std::to_string(columns) + " columns";
    if (std::popcount(last_row) > dealt_cards())
        return "last_row takes more cards than are dealt";
    if (dealt_cards() < columns)
        return "columns (" + std::to_string(columns) + ") exceed the cards dealt";
    return {};
}

CardSet Rules::deck_set() const {
    CardSet s = 0;
    for (int suit = 0; suit < kSuits; ++suit)
        for (int r = kAce; r <= kKing; ++r)
            if (has_rank(r)) s |= bit_of(make_card(suit, r));
    return s;
}

const Rules* find_preset(const std::string& name) {
    static const std::pair<const char*, Rules> presets[] = {
        {"bakers_game", Rules{}},
        {"freecell", Rules{52, 8, 4, Build::Alternate, Empty::Any, Moves::Supermove, false,
                           false, false, Numbering::MS}},
        {"freecell36", Rules{36, 6, 2, Build::Alternate, Empty::Any, Moves::Supermove, true,
                             false, false, Numbering::MS}},
        {"bulochnik", Rules{52, 8, 4, Build::Suit, Empty::Kings, Moves::Sequence, false, true,
                            false, Numbering::MS}},
        {"bakers_dozen", Rules{52, 13, 0, Build::Any, Empty::None, Moves::Single, true, false,
                               true, Numbering::PySol}},
        // PySolFC's games that build round the corner (python/bakers/variants.py has the
        // others of PySolFC and Freecell Solver, which the core takes as fields).
        {"tuxedo", Rules{.deck = 52, .columns = 7, .cells = 7, .build = Build::Suit,
                         .empty = Empty::Any, .moves = Moves::Sequence,
                         .numbering = Numbering::PySol, .wrap = true, .last_row = 0b1001001}},
        {"penguin", Rules{.deck = 52, .columns = 7, .cells = 7, .build = Build::Suit,
                          .empty = Empty::Kings, .moves = Moves::Sequence,
                          .numbering = Numbering::PySol, .wrap = true, .base_from_deal = true}},
        {"opus", Rules{.deck = 52, .columns = 7, .cells = 5, .build = Build::Suit,
                       .empty = Empty::Kings, .moves = Moves::Sequence,
                       .numbering = Numbering::PySol, .wrap = true, .base_from_deal = true}},
    };
    for (const auto& [n, r] : presets)
        if (name == n) return &r;
    return nullptr;
}

}  // namespace bakers
