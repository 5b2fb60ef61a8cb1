#include "support.hpp"

#include <algorithm>
#include <bit>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

#include "check.hpp"

#ifndef BAKERS_TEST_DATA
#error "BAKERS_TEST_DATA (the tests/data folder) must be defined by the build"
#endif

namespace bakers {

namespace {
std::string place_text(std::uint8_t p) {
    if (is_column(p)) return "c" + std::to_string(p);
    if (is_cell(p)) return "f" + std::to_string(p - kCell);
    if (p == kFoundation) return "h";
    return "?" + std::to_string(p);
}
}  // namespace

std::ostream& operator<<(std::ostream& os, const Move& m) {
    os << place_text(m.from) << '>' << place_text(m.to);
    if (m.count != 1) os << 'x' << static_cast<int>(m.count);
    return os;
}

std::ostream& operator<<(std::ostream& os, const Key& k) {
    std::ostringstream hex;
    hex << std::hex << k.hi << ':' << k.lo;
    return os << hex.str();
}

std::ostream& operator<<(std::ostream& os, Verdict v) {
    switch (v) {
        case Verdict::Solved: return os << "Solved";
        case Verdict::Impossible: return os << "Impossible";
        case Verdict::Unknown: return os << "Unknown";
    }
    return os << "Verdict(" << static_cast<int>(v) << ')';
}

}  // namespace bakers

namespace support {
namespace {

// The rules as docs/rules.md states them, written apart from rules.hpp on purpose.
bool is_red(Card c) { return suit_of(c) == 0 || suit_of(c) == 2; }  // hearts, diamonds

bool in_deck(const Rules& r, Card c) {
    const int rank = rank_of(c);
    if (c == kNoCard || suit_of(c) >= kSuits || rank < 1 || rank > 13) return false;
    return r.deck == 52 || rank == 1 || rank >= 6;
}

// The foundation height at which a card of rank `rank` lies (ace = 1).
int height_of(const Rules& r, int rank) { return (r.deck == 36 && rank > 1) ? rank - 4 : rank; }

int suit_cards(const Rules& r) { return r.deck == 36 ? 9 : 13; }

bool builds(const Rules& r, Card moving, Card target) {
    const bool round_the_corner = r.wrap && rank_of(moving) == 13 && rank_of(target) == 1;
    if (rank_of(moving) + 1 != rank_of(target) && !round_the_corner) return false;
    switch (r.build) {
        case Build::Suit: return suit_of(moving) == suit_of(target);
        case Build::Alternate: return is_red(moving) != is_red(target);
        case Build::Any: return true;
    }
    return false;
}

// The cards a move takes, from the lowest to the one on top; sets `why` if none can go.
std::vector<Card> cards_moved(const Rules& r, const State& s, const Move& m, std::string& why) {
    std::vector<Card> out;
    if (is_column(m.from)) {
        if (m.from >= r.columns) why = "no such column";
        else if (s.size(m.from) < m.count) why = "the column has fewer cards";
        else
            for (int k = m.count - 1; k >= 0; --k) out.push_back(s.from_top(m.from, k));
    } else if (is_cell(m.from)) {
        const int i = m.from - kCell;
        if (i >= r.cells) why = "no such cell";
        else if (s.cells[i] == kNoCard) why = "the cell is empty";
        else if (m.count != 1) why = "a cell holds one card";
        else out.push_back(s.cells[i]);
    } else {
        why = "cards never leave the foundations";
    }
    return out;
}

// Why the destination cannot take `moving` (bottom card first), or "".
std::string destination_violation(const Rules& r, const State& s, const Move& m,
                                  const std::vector<Card>& moving) {
    const Card bottom = moving.front();
    if (m.to == kFoundation) {
        if (moving.size() != 1) return "one card at a time goes home";
        if (height_of(r, rank_of(bottom)) != s.found[suit_of(bottom)] + 1)
            return "not the next card of its foundation";
        return "";
    }
    if (is_cell(m.to)) {
        const int i = m.to - kCell;
        if (i >= r.cells) return "no such cell";
        if (m.from == m.to) return "a cell onto itself";
        if (s.cells[i] != kNoCard) return "the cell is taken";
        if (moving.size() != 1) return "a cell holds one card";
        return "";
    }
    if (!is_column(m.to) || m.to >= r.columns) return "no such place";
    if (m.to == m.from) return "a column onto itself";
    if (s.size(m.to) > 0)
        return builds(r, bottom, s.top(m.to)) ? "" : "does not build on the destination's top";
    switch (r.empty) {
        case Empty::Any: return "";
        case Empty::Kings: return rank_of(bottom) == 13 ? "" : "an empty column takes a king only";
        case Empty::None: return "an empty column takes nothing";
    }
    return "";
}

// (free cells + 1) * 2^(empty columns), the destination not counted.
int supermove_limit_by_rules(const Rules& r, const State& s, int destination) {
    int free = 0, empty = 0;
    for (int i = 0; i < r.cells; ++i) free += s.cells[i] == kNoCard;
    for (int i = 0; i < r.columns; ++i) empty += s.size(i) == 0 && i != destination;
    return (free + 1) << empty;
}

}  // namespace

const Rules& preset(const std::string& name) {
    const Rules* r = find_preset(name);
    if (!r) throw std::invalid_argument("no preset " + name);
    return *r;
}

Card parse_card(std::string_view text) {
    static const std::string ranks = "A23456789TJQK", suits = "HCDS";
    const auto rank = text.size() == 2 ? ranks.find(text[0]) : std::string::npos;
    const auto suit = text.size() == 2 ? suits.find(text[1]) : std::string::npos;
    if (rank == std::string::npos || suit == std::string::npos)
        throw std::invalid_argument("not a card: '" + std::string(text) + "'");
    return make_card(static_cast<int>(suit), static_cast<int>(rank) + 1);
}

std::vector<Card> parse_cards(std::string_view text) {
    std::vector<Card> out;
    std::istringstream in{std::string(text)};
    for (std::string word; in >> word;) out.push_back(parse_card(word));
    return out;
}

std::string cards_text(const std::vector<Card>& cards) {
    std::string out;
    for (Card c : cards) {
        if (!out.empty()) out += ' ';
        out += card_text(c);
    }
    return out;
}

State make_state(const Rules& r, const std::vector<std::string>& columns,
                 const std::vector<std::string>& cells, std::array<int, 4> found) {
    if (static_cast<int>(columns.size()) > r.columns || static_cast<int>(cells.size()) > r.cells)
        throw std::invalid_argument("more columns or cells than the game has");
    Layout layout;
    layout.columns.resize(r.columns);
    layout.cells.assign(r.cells, kNoCard);
    for (std::size_t i = 0; i < columns.size(); ++i) layout.columns[i] = parse_cards(columns[i]);
    for (std::size_t i = 0; i < cells.size(); ++i)
        if (!cells[i].empty()) layout.cells[i] = parse_card(cells[i]);
    for (int t = 0; t < kSuits; ++t) layout.found[t] = static_cast<std::uint8_t>(found[t]);
    return state_from_layout(r, layout);
}

std::array<std::uint8_t, kSuits> implied_found(const Rules& r, const State& s) {
    std::array<int, kSuits> lowest{};  // the lowest height present per suit
    lowest.fill(suit_cards(r) + 1);
    CardSet present = 0;
    auto note = [&](Card c) {
        present |= bit_of(c);
        lowest[suit_of(c)] = std::min(lowest[suit_of(c)], height_of(r, rank_of(c)));
    };
    for (int i = 0; i < r.columns; ++i)
        for (int k = 0; k < s.size(i); ++k) note(s.from_top(i, k));
    for (int i = 0; i < r.cells; ++i)
        if (s.cells[i] != kNoCard) note(s.cells[i]);
    std::array<std::uint8_t, kSuits> found{};
    for (int t = 0; t < kSuits; ++t) {
        found[t] = static_cast<std::uint8_t>(lowest[t] - 1);
        for (int rank = 1; rank <= 13; ++rank) {
            const Card c = make_card(t, rank);
            if (in_deck(r, c) && height_of(r, rank) > found[t] && !(present & bit_of(c)))
                throw std::invalid_argument(card_text(c) + " is missing but not home");
        }
    }
    return found;
}

std::string move_text(const Move& m) {
    std::ostringstream os;
    os << m;
    return os.str();
}

std::vector<std::string> generated(const Rules& r, const State& s) {
    MoveList list;
    MoveGen(r).generate(s, list);
    std::vector<std::string> out;
    for (int i = 0; i < list.size; ++i) out.push_back(move_text(list.moves[i]));
    return sorted(std::move(out));
}

std::vector<std::string> sorted(std::vector<std::string> texts) {
    std::sort(texts.begin(), texts.end());
    return texts;
}

std::string rule_violation(const Rules& r, const State& s, const Move& m, bool supermoves) {
    if (m.count < 1) return "no card moved";
    std::string why;
    const std::vector<Card> moving = cards_moved(r, s, m, why);
    if (!why.empty()) return why;
    for (std::size_t k = 1; k < moving.size(); ++k)
        if (!builds(r, moving[k], moving[k - 1])) return "the cards moved are not a sequence";
    why = destination_violation(r, s, m, moving);
    if (!why.empty() || moving.size() == 1) return why;
    switch (r.moves) {
        case Moves::Single: return "only single cards move";
        case Moves::Sequence: return "";
        case Moves::Supermove:
            if (!supermoves) return "a supermove where single moves are wanted";
            if (m.count > supermove_limit_by_rules(r, s, m.to)) return "longer than the supermove limit";
            return "";
    }
    return "";
}

void auto_aces(const Rules& r, Keyed& k) {
    if (!r.auto_aces) return;
    for (bool again = true; again;) {
        again = false;
        for (int i = 0; i < r.columns; ++i) {
            const Card t = k.s.top(i);
            if (t != kNoCard && rank_of(t) == 1) {
                k.pop(i);
                ++k.s.found[suit_of(t)];
                again = true;
            }
        }
    }
}

std::string replay(const Rules& r, const State& start, const std::vector<Move>& moves,
                   bool supermoves) {
    const MoveGen gen(r);
    Keyed k;
    k.s = start;
    k.rehash(r.columns, r.cells);
    auto_aces(r, k);
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const std::string where = "move " + std::to_string(i) + " (" + move_text(moves[i]) + ")";
        const std::string why = rule_violation(r, k.s, moves[i], supermoves);
        if (!why.empty()) return where + ": " + why;
        gen.apply(k, moves[i]);
        auto_aces(r, k);
        if (!k.key_is_consistent(r.columns, r.cells)) return where + ": key out of date";
        const std::string bad = inventory_error(r, k.s);
        if (!bad.empty()) return where + ": " + bad;
    }
    if (k.s.home() != r.deck) return "the line ends with " + std::to_string(k.s.home()) + " cards home";
    return "";
}

std::string inventory_error(const Rules& r, const State& s) {
    for (int i = 0; i < kMaxColumns; ++i) {
        if (i < r.columns && s.end[i] < s.begin(i)) return "column ends out of order";
        if (i >= r.columns && s.end[i] != s.end[r.columns - 1]) return "unused column not empty";
    }
    for (int p = s.end[kMaxColumns - 1]; p < kMaxCards; ++p)
        if (s.cards[p] != kNoCard) return "a card byte past the last column";
    for (int i = r.cells; i < kMaxCells; ++i)
        if (s.cells[i] != kNoCard) return "a card in a cell the game lacks";
    for (int t = 0; t < kSuits; ++t)
        if (s.found[t] > suit_cards(r)) return "a foundation above its suit's size";
    CardSet seen = 0;
    auto see = [&](Card c) -> std::string {
        if (!in_deck(r, c)) return "card code " + std::to_string(c) + " is not in the deck";
        if (seen & bit_of(c)) return card_text(c) + " is there twice";
        if (height_of(r, rank_of(c)) <= s.found[suit_of(c)]) return card_text(c) + " is also home";
        seen |= bit_of(c);
        return "";
    };
    for (int p = 0; p < s.end[kMaxColumns - 1]; ++p)
        if (auto why = see(s.cards[p]); !why.empty()) return why;
    for (int i = 0; i < r.cells; ++i)
        if (s.cells[i] != kNoCard)
            if (auto why = see(s.cells[i]); !why.empty()) return why;
    const int placed = std::popcount(seen) + s.home();
    if (placed != r.deck) return std::to_string(placed) + " cards accounted for, not " + std::to_string(r.deck);
    return "";
}

Key key_of(const Rules& r, const State& s) { return Zobrist::get().key(s, r.columns, r.cells); }

std::string canonical(const Rules& r, const State& s) {
    const Layout l = layout_from_state(r, s);
    std::vector<std::string> columns, cells;
    for (const auto& col : l.columns) columns.push_back(cards_text(col));
    for (Card c : l.cells) cells.push_back(card_text(c));
    std::sort(columns.begin(), columns.end());
    std::sort(cells.begin(), cells.end());
    std::ostringstream out;
    for (const auto& c : columns) out << c << " | ";
    for (const auto& c : cells) out << c << ' ';
    for (int t = 0; t < kSuits; ++t) out << '/' << static_cast<int>(s.found[t]);
    return out.str();
}

State dealt(const Rules& r, std::uint64_t n) {
    Layout l;
    const std::string err = deal_number(r, n, l);
    if (!err.empty()) throw std::runtime_error(err);
    return state_from_layout(r, l);
}

namespace {

// Returns the index of the move a walk takes: a random one that leads to a position the
// walk has not met, moves into a cell passed over two times in three (they fill the cells
// and end the walk early); -1 when every move leads back.
int pick_move(const MoveGen& gen, const Keyed& k, const MoveList& moves, std::mt19937_64& rng,
              const std::unordered_set<std::uint64_t>& met) {
    std::vector<int> order(static_cast<std::size_t>(moves.size));
    for (int i = 0; i < moves.size; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    int fallback = -1;
    for (int i : order) {
        Keyed next = k;
        gen.apply(next, moves.moves[i]);
        gen.settle(next, nullptr);
        if (met.contains(next.key.lo)) continue;
        if (is_cell(moves.moves[i].to) && rng() % 3 != 0) {
            fallback = i;
            continue;
        }
        return i;
    }
    return fallback;
}

}  // namespace

void random_walks(const Rules& r, std::uint64_t first, int deals, int steps, std::uint64_t seed,
                  const std::function<void(const Keyed&)>& on_start,
                  const std::function<void(const Step&)>& on_step) {
    const MoveGen gen(r);
    std::mt19937_64 rng(seed);
    MoveList moves;
    for (std::uint64_t n = first; n < first + static_cast<std::uint64_t>(deals); ++n) {
        Keyed k;
        k.s = dealt(r, n);
        k.rehash(r.columns, r.cells);
        gen.settle(k, nullptr);
        std::vector<Keyed> path{k};
        std::unordered_set<std::uint64_t> met{k.key.lo};
        check::Context deal_ctx("deal " + std::to_string(n));
        if (on_start) on_start(k);
        for (int i = 0, stuck = 0; i < steps && stuck < 100;) {
            moves.size = 0;
            if (!gen.won(k.s)) gen.generate(k.s, moves);
            const int pick = moves.size ? pick_move(gen, k, moves, rng, met) : -1;
            if (pick < 0) {  // a dead end, a win or nothing new: go on from an earlier position
                k = path[rng() % path.size()];
                ++stuck;
                continue;
            }
            const Move m = moves.moves[pick];
            Keyed next = k;
            gen.apply(next, m);
            gen.settle(next, nullptr);
            met.insert(next.key.lo);
            path.push_back(next);
            check::Context step_ctx("step " + std::to_string(i) + " " + move_text(m));
            on_step(Step{k, m, next, moves});
            k = next;
            ++i;
            stuck = 0;
        }
    }
}

std::string data_path(const std::string& name) { return std::string(BAKERS_TEST_DATA) + "/" + name; }

std::vector<std::string> read_lines(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(line);
    }
    return lines;
}

std::vector<std::vector<Card>> board_columns(const std::vector<std::string>& lines) {
    std::vector<std::vector<Card>> out;
    for (const auto& line : lines) {
        if (line.empty() || line.starts_with("Foundations:") || line.starts_with("Freecells:")) continue;
        out.push_back(parse_cards(line));
    }
    return out;
}

}  // namespace support
