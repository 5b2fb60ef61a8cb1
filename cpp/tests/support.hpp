// What the tests share: writing positions as text, an independent reading of the rules
// (to judge moves without trusting MoveGen), replaying lines of play, random walks over
// numbered deals, and the reference data files.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "deal.hpp"
#include "moves.hpp"
#include "rules.hpp"
#include "solve.hpp"
#include "state.hpp"
#include "zobrist.hpp"

namespace bakers {
// Shown in failure messages: "c3>c5x2", "c0>f1", "f2>h".
std::ostream& operator<<(std::ostream& os, const Move& m);
std::ostream& operator<<(std::ostream& os, const Key& k);
std::ostream& operator<<(std::ostream& os, Verdict v);
}  // namespace bakers

namespace support {

using namespace bakers;

inline const char* const kPresets[] = {"bakers_game", "freecell", "freecell36", "bulochnik",
                                       "bakers_dozen", "tuxedo", "penguin"};

// Returns a preset's rules; throws if there is none of that name.
const Rules& preset(const std::string& name);

// Returns the card of a text like "TH" or "AS"; throws on anything else.
Card parse_card(std::string_view text);
// Returns the cards of a text like "JD KD 2S" (empty text: no cards).
std::vector<Card> parse_cards(std::string_view text);
// Returns the text of cards, like "JD KD 2S".
std::string cards_text(const std::vector<Card>& cards);

// Returns a position: columns written from the covered card to the exposed one, cells
// ("" for an empty one; missing ones are empty) and foundation heights (H C D S).
State make_state(const Rules& r, const std::vector<std::string>& columns,
                 const std::vector<std::string>& cells = {}, std::array<int, 4> found = {});
// Returns the foundation heights of a position whose missing cards are exactly the low
// cards of each suit; throws if a missing card lies above a present one of its suit.
std::array<std::uint8_t, kSuits> implied_found(const Rules& r, const State& s);

// Returns the text of a move, as operator<< writes it.
std::string move_text(const Move& m);
// Returns the texts of every move MoveGen::generate gives in s, sorted.
std::vector<std::string> generated(const Rules& r, const State& s);
// Returns the texts sorted (to compare with `generated`).
std::vector<std::string> sorted(std::vector<std::string> texts);

// Returns "" if the rules allow move m in s, else why not. This is a separate reading of
// docs/rules.md, not MoveGen's. With `supermoves` a multi-card move of a supermove game is
// judged by the limit (free cells + 1) * 2^(empty columns other than the destination);
// without it only single cards move in such games.
std::string rule_violation(const Rules& r, const State& s, const Move& m, bool supermoves);
// Makes the mandatory moves: in auto-ace games every exposed ace goes home.
void auto_aces(const Rules& r, Keyed& k);
// Returns "" if `moves`, made one by one from `start` (with the mandatory ace moves after
// each), are legal and end with every card home; else what went wrong.
std::string replay(const Rules& r, const State& start, const std::vector<Move>& moves,
                   bool supermoves);

// Returns "" if every card of the deck is in exactly one place (a column, a cell or under
// its foundation's height) and the state's bytes are well formed, else what is wrong.
std::string inventory_error(const Rules& r, const State& s);

// Returns a state's key computed from scratch.
Key key_of(const Rules& r, const State& s);
// Returns a text that identifies a position up to the order of columns and of cells.
std::string canonical(const Rules& r, const State& s);

// Returns the start of numbered deal n of a game (before any move); throws on an error.
State dealt(const Rules& r, std::uint64_t n);

// One step of a random walk: the position before, the move chosen, the position after
// (the move applied with MoveGen::apply, then MoveGen::settle), and every move generated.
struct Step {
    const Keyed& before;
    const Move& move;
    const Keyed& after;
    const MoveList& moves;
};
// Walks `steps` random moves from each of deals first..first+deals-1, calling on_start
// with each settled start and on_step for each step. A walk takes moves to positions it
// has not met; at a dead end, a win, or when every move leads back, it goes on from a
// random earlier position of the same deal (so it explores instead of stopping, and ends
// early only when nothing new is left). The walk is the same on every run for a seed.
void random_walks(const Rules& r, std::uint64_t first, int deals, int steps, std::uint64_t seed,
                  const std::function<void(const Keyed&)>& on_start,
                  const std::function<void(const Step&)>& on_step);

// Returns the path of a reference data file (tests/data/...).
std::string data_path(const std::string& name);
// Returns the lines of a text file; throws if it cannot be read.
std::vector<std::string> read_lines(const std::string& path);
// Returns the columns of an fc-solve board text, one line a column (lines starting with
// "Foundations:" or "Freecells:" skipped).
std::vector<std::vector<Card>> board_columns(const std::vector<std::string>& lines);

}  // namespace support
