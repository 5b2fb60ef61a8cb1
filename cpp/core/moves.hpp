// Moves: generation under `Rules`, application, the mandatory and the provably safe
// foundation moves, and the expansion of a supermove into single-card moves.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <vector>

#include "rules.hpp"
#include "zobrist.hpp"

namespace bakers {

// A place: a column 0..12, a cell (kCell + index), or the foundation.
inline constexpr std::uint8_t kCell = 16;
inline constexpr std::uint8_t kFoundation = 32;

// A move: `count` cards from place `from` to place `to`. Three bytes.
struct Move {
    std::uint8_t from = 0, to = 0, count = 1;
    bool operator==(const Move&) const = default;
};
// Returns true if place p is a column.
constexpr bool is_column(std::uint8_t p) { return p < kCell; }
// Returns true if place p is a cell.
constexpr bool is_cell(std::uint8_t p) { return p >= kCell && p < kFoundation; }

// A bounded list of moves (no allocation in the search's inner loop).
struct MoveList {
    static constexpr int kCapacity = 2048;
    std::array<Move, kCapacity> moves;
    int size = 0;
    void add(std::uint8_t from, std::uint8_t to, int count) {
        if (size < kCapacity) moves[size++] = Move{from, to, static_cast<std::uint8_t>(count)};
    }
};

// What a quiet move (MoveGen::quiet_key) changes in a Keyed position: its key, and the
// hashes of the column it takes cards from (unless they come from a cell) and of the
// column it puts them on (unless they go to a cell).
struct QuietChange {
    Key key, from_column, to_column;
};

// Moves for one rule set.
class MoveGen {
public:
    explicit MoveGen(const Rules& rules);
    const Rules& rules() const { return r_; }

    // Adds every move the rules allow in s, except those that are provably useless:
    // a move to a cell other than the first empty one, to an empty column other than the
    // first, of a whole column into an empty column, and from a cell to a cell (each
    // yields a position equal to another one up to the order of cells or columns).
    void generate(const State& s, MoveList& out) const;

    // Returns s with its key, settled (`settle` without recording): where a search starts.
    Keyed start(const State& s) const;

    // Applies a legal move (no auto-moves). `apply`, `settle` and `settle_after` work on a
    // Keyed (keys kept up to date) or an Unkeyed position (state.hpp).
    template <class Position>
    void apply(Position& k, Move m) const;

    // Applies the mandatory auto-moves (exposed aces home when `auto_aces`) and every
    // provably safe foundation move, appending the safe (optional) ones to `recorded` if
    // it is not null. With `safe` false only the mandatory moves are made. Returns the
    // number of cards sent home.
    template <class Position>
    int settle(Position& k, std::vector<Move>* recorded, bool safe = true) const;

    // Returns in `key` the key of the child that the move m makes from the settled
    // position k, computed from k's column hashes without making the child, and true,
    // when m is *quiet*: it sends no card home and uncovers no card that `settle_after`
    // would send home (so the child is settled as it stands). Returns false for any
    // other move. A search tells an already visited child by its key alone this way.
    bool quiet_key(const Keyed& k, Move m, Key& key) const;
    // The same, with the new hashes of the columns m takes cards from and puts cards on
    // (the child's whole change), for apply_quiet.
    bool quiet_key(const Keyed& k, Move m, QuietChange& change) const;
    // Makes on k the quiet move m whose change quiet_key found: apply's work, without
    // hashing again.
    void apply_quiet(Keyed& k, Move m, const QuietChange& change) const;

    // Does what `settle(k, recorded)` does, faster, for the child k reached by the move m
    // from a settled position (one that `settle` left unchanged).
    template <class Position>
    int settle_after(Position& k, Move m, std::vector<Move>* recorded = nullptr) const;

    // Returns true if card c, next on its foundation, may go home without losing a win:
    // if it is clear, every card that builds on it home, or next and clear itself (see
    // moves.cpp for the rule and its proof).
    bool safe_home(const State& s, Card c) const;
    // Returns the set of the cards that go on the foundations next (one per unfinished suit).
    CardSet next_cards(const State& s) const {
        CardSet next = 0;
        for (int t = 0; t < kSuits; ++t)
            if (s.found[t] < r_.suit_size()) next |= bit_of(make_card(t, r_.rank_at_height(s.found[t] + 1)));
        return next;
    }
    // Returns the cards that card c builds on in a column (any suit, any place).
    CardSet targets(Card c) const { return under_[c]; }
    // Returns the cards that build on card t in a column (targets turned around).
    CardSet sources(Card t) const { return onto_[t]; }
    // Returns true if `moving` builds on `target` (a table lookup).
    bool builds(Card moving, Card target) const { return (onto_[target] >> moving) & 1; }
    // Returns true if c is the next card of its suit's foundation.
    bool goes_home(const State& s, Card c) const {
        return r_.height_of_rank(rank_of(c)) == s.found[suit_of(c)] + 1;
    }

    // Returns the length of the sequence at the top of column i (0 if empty).
    int top_run(const State& s, int i) const;
    // Returns how many cards a chain of single moves can carry from a column to another
    // (to_empty: the destination is an empty column).
    int supermove_limit(const State& s, bool to_empty) const;
    // The same with `free_cells` free cells and `empties` usable empty columns.
    int limit_of(int free_cells, int empties) const {
        assert(free_cells >= 0 && free_cells <= kMaxCells && empties <= kMaxColumns);
        return limit_[free_cells][empties < 0 ? 0 : empties];  // no empty column: as none
    }

    // Returns true if `expand` writes m as several single-card moves: a part of a column
    // moved onto a column where the rules move single cards.
    bool expands(Move m) const {
        return m.count > 1 && is_column(m.from) && is_column(m.to) && r_.moves != Moves::Sequence;
    }
    // Returns the single-card moves that the multi-card move m stands for in s (a
    // supermove through free cells and empty columns), or {m} for a single move.
    std::vector<Move> expand(const State& s, Move m) const;
    // The same, appended to `out`.
    void expand(const State& s, Move m, std::vector<Move>& out) const;

    // Returns true if every card is home.
    bool won(const State& s) const { return s.home() == 4 * r_.suit_size(); }

private:
    Rules r_;
    // onto_[t]: the cards that build on card t in a column (r_.builds_on as a table).
    std::array<CardSet, 64> onto_{};
    // under_[c]: the cards that card c builds on (onto_ turned around).
    std::array<CardSet, 64> under_{};
    // limit_[f][e]: limit_of(f, e), worked out once (see count_limit).
    std::uint8_t limit_[kMaxCells + 1][kMaxColumns + 1];
    int count_limit(int free_cells, int empties) const;
    // Returns true if the move m from the settled position s is quiet (see quiet_key).
    bool quiet(const State& s, Move m) const;
    // Sends every exposed ace home, again until none is exposed; returns how many went.
    template <class Position>
    int send_aces(Position& k) const;
    void expand_into(State& s, int src, int dst, int n, unsigned empties, std::vector<Move>& out) const;
};

}  // namespace bakers
