// The position: a compact, copyable value of 77 bytes for every variant.
//
// Layout (bytes):
//   cards[0..52)  the cards of all columns, column 0 first, each column from its covered
//                 card to its exposed (top) card; bytes past the last column are unused.
//   end[0..13)    end[i] is one past column i's top card in `cards`, so column i occupies
//                 [end[i-1], end[i]) (column 0 starts at 0); unused columns repeat the last end.
//   cells[0..8)   the card in each free cell, kNoCard (0) when empty.
//   found[0..4)   foundation heights: how many cards of each suit (H C D S) are home.
// A column holds at most all 52 cards, so one flat array serves every layout (1..13
// columns of any length) without a per-column capacity; moving a card shifts the bytes
// between the two columns, at most 52. Cards on the foundations are implied by `found`.
// The bitboards (`CardSet`) of exposed cards, cell cards and home cards are derived on
// demand; the table key is computed by zobrist.hpp.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <utility>

#include "deal.hpp"
#include "rules.hpp"

namespace bakers {

struct State {
    std::array<Card, kMaxCards> cards{};
    std::array<std::uint8_t, kMaxColumns> end{};
    std::array<Card, kMaxCells> cells{};
    std::array<std::uint8_t, kSuits> found{};

    // Returns the index in `cards` of column i's covered card.
    int begin(int i) const { return i == 0 ? 0 : end[i - 1]; }
    // Returns the number of cards in column i.
    int size(int i) const { return end[i] - begin(i); }
    // Returns the top (exposed) card of column i, or kNoCard when it is empty.
    Card top(int i) const { return size(i) ? cards[end[i] - 1] : kNoCard; }
    // Returns the card `k` places below the top of column i (k = 0 is the top).
    Card from_top(int i, int k) const {
        assert(k < size(i));
        return cards[end[i] - 1 - k];
    }

    // Removes the top `n` cards of column `src` and puts them, in order, on column `dst`.
    void move_cards(int src, int dst, int n);
    // Removes and returns the top card of column i.
    Card pop(int i);
    // Puts card c on top of column i.
    void push(int i, Card c);

    // Returns the number of cards on the foundations.
    int home() const { return found[0] + found[1] + found[2] + found[3]; }
    // Returns the number of empty cells among the first `ncells`.
    int free_cells(int ncells) const {
        int n = 0;
        for (int i = 0; i < ncells; ++i) n += cells[i] == kNoCard;
        return n;
    }
    // Returns the number of empty columns among the first `ncols`.
    int empty_columns(int ncols) const {
        int n = 0;
        for (int i = 0; i < ncols; ++i) n += size(i) == 0;
        return n;
    }
    bool operator==(const State&) const = default;
};
static_assert(sizeof(State) == 77, "State must stay compact");

// A position changed through the same calls as `Keyed` (zobrist.hpp), without keys: for
// moves whose positions nobody looks up (the steps inside a composite move, a solution
// being written out), so that they cost no hashing.
struct Unkeyed {
    State s;

    void move_cards(int src, int dst, int n) { s.move_cards(src, dst, n); }
    Card pop(int i) { return s.pop(i); }
    void push(int i, Card c) { s.push(i, c); }
    void put_cell(int i, Card c) { s.cells[i] = c; }
    Card take_cell(int i) { return std::exchange(s.cells[i], kNoCard); }
};

// Returns the state of a layout; the layout must be valid for `rules`.
State state_from_layout(const Rules& rules, const Layout& layout);
// Returns the layout (columns, cells, foundations) of a state.
Layout layout_from_state(const Rules& rules, const State& s);

}  // namespace bakers
