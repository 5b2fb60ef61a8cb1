// Moves: the exact move sets of hand-made positions in every preset, the supermove limit,
// generation checked against a separate reading of the rules along random walks, the
// expansion of supermoves into single moves, and the safe foundation moves.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "check.hpp"
#include "support.hpp"

namespace {

using namespace support;

// Returns the generated moves from column `from` to column `to`, as texts.
std::vector<std::string> generated_between(const Rules& r, const State& s, int from, int to) {
    const std::string prefix = move_text(Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to), 1});
    std::vector<std::string> out;
    for (const auto& m : generated(r, s))
        if (m == prefix || (m.starts_with(prefix) && m[prefix.size()] == 'x')) out.push_back(m);
    return out;
}

// Returns the texts of moves of 1..n cards from column `from` to column `to`.
std::vector<std::string> counts_up_to(int from, int to, int n) {
    std::vector<std::string> out;
    for (int k = 1; k <= n; ++k)
        out.push_back(move_text(Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to),
                                     static_cast<std::uint8_t>(k)}));
    return sorted(out);
}

// Builds positions with `free` empty cells and `empty` empty columns around a run on
// column 0 that fits on column 1 only whole (`run_cards` long); checks the limit
// (free + 1) * 2^empty, and that the whole run moves to column 1 exactly when it fits and
// 1..limit cards move to an empty column (the destination not counted).
void check_supermove_grid(const char* game, const std::string& run_column, const std::string& target,
                          int run_cards, const std::vector<std::string>& fillers,
                          const std::vector<std::string>& cell_cards) {
    const Rules& r = preset(game);
    const MoveGen gen(r);
    for (int free = 0; free <= r.cells; ++free)
        for (int empty = 0; empty <= static_cast<int>(fillers.size()); ++empty) {
            check::Context ctx(std::string(game) + ", " + std::to_string(free) + " free cells, " +
                               std::to_string(empty) + " empty columns");
            std::vector<std::string> columns{run_column, target};
            for (std::size_t i = 0; i < fillers.size(); ++i)
                columns.push_back(static_cast<int>(i) < empty ? "" : fillers[i]);
            const std::vector<std::string> cells(cell_cards.begin(), cell_cards.end() - free);
            const State s = make_state(r, columns, cells);
            const int limit = (free + 1) << empty;
            // Capped at the deck: no move carries more.
            CHECK_EQ(gen.supermove_limit(s, false), std::min(limit, kMaxCards));
            const bool fits = run_cards <= limit;
            const std::string whole = "c0>c1x" + std::to_string(run_cards);
            CHECK_EQ(generated_between(r, s, 0, 1),
                     fits ? std::vector<std::string>{whole} : std::vector<std::string>{});
            if (empty == 0) continue;
            CHECK_EQ(gen.supermove_limit(s, true), std::min(limit / 2, kMaxCards));
            CHECK_EQ(generated_between(r, s, 0, 2), counts_up_to(0, 2, std::min(run_cards, limit / 2)));
        }
}

// Returns the move that stands for m up to the order of cells and of columns (to the
// first empty cell, to the first empty column), or m itself; `pruned` is set for the
// moves generate leaves out on purpose (a whole column to an empty one, cell to cell).
Move canonical_move(const Rules& r, const State& s, Move m, bool& pruned) {
    pruned = false;
    if (is_cell(m.to)) {
        if (is_cell(m.from)) pruned = true;
        for (int i = 0; i < r.cells; ++i)
            if (s.cells[i] == kNoCard) {
                m.to = static_cast<std::uint8_t>(kCell + i);
                break;
            }
    } else if (is_column(m.to) && s.size(m.to) == 0) {
        if (is_column(m.from) && m.count == s.size(m.from)) pruned = true;
        for (int i = 0; i < r.columns; ++i)
            if (s.size(i) == 0) {
                m.to = static_cast<std::uint8_t>(i);
                break;
            }
    }
    return m;
}

// Returns every move the rules allow in s (supermoves whole), by trying all of them.
std::vector<Move> legal_by_rules(const Rules& r, const State& s) {
    std::vector<std::uint8_t> places;
    for (int i = 0; i < r.columns; ++i) places.push_back(static_cast<std::uint8_t>(i));
    for (int i = 0; i < r.cells; ++i) places.push_back(static_cast<std::uint8_t>(kCell + i));
    std::vector<std::uint8_t> targets = places;
    targets.push_back(kFoundation);
    std::vector<Move> out;
    for (std::uint8_t from : places) {
        const int most = is_column(from) ? s.size(from) : 1;
        for (int n = 1; n <= most; ++n)
            for (std::uint8_t to : targets) {
                const Move m{from, to, static_cast<std::uint8_t>(n)};
                if (rule_violation(r, s, m, true).empty()) out.push_back(m);
            }
    }
    return out;
}

// Checks that generate gives only moves the rules allow, each once, and, up to the order
// of cells and columns and the pruned moves, every move they allow.
void check_generation(const Rules& r, const State& s, const MoveList& list) {
    std::vector<Move> gen(list.moves.begin(), list.moves.begin() + list.size);
    for (const Move& m : gen) {
        check::Context ctx(move_text(m));
        CHECK_EQ(rule_violation(r, s, m, true), std::string());
        CHECK_EQ(std::count(gen.begin(), gen.end(), m), 1);
    }
    for (const Move& m : legal_by_rules(r, s)) {
        bool pruned = false;
        const Move c = canonical_move(r, s, m, pruned);
        if (pruned) continue;
        check::Context ctx(move_text(m) + " as " + move_text(c));
        CHECK(std::find(gen.begin(), gen.end(), c) != gen.end());
    }
}

// Checks that MoveGen::expand turns the multi-card move m into single moves, each legal
// when its turn comes (mandatory ace moves made between them), ending where m ends.
void check_expansion(const Rules& r, const Keyed& before, const Move& m) {
    const MoveGen gen(r);
    const std::vector<Move> singles = gen.expand(before.s, m);
    Keyed step = before;
    for (std::size_t i = 0; i < singles.size(); ++i) {
        check::Context ctx("single move " + std::to_string(i) + " " + move_text(singles[i]));
        if (!CHECK_EQ(rule_violation(r, step.s, singles[i], false), std::string())) return;
        gen.apply(step, singles[i]);
        gen.settle(step, nullptr, false);
    }
    gen.settle(step, nullptr);
    Keyed whole = before;
    gen.apply(whole, m);
    gen.settle(whole, nullptr);
    CHECK(step.s == whole.s);
    CHECK_EQ(step.key, whole.key);
    CHECK(singles.size() >= 2u * m.count - 1);  // each card leaves and arrives at least once
}

}  // namespace

TEST(moves_bakers_game_exact_set) {
    const Rules& r = preset("bakers_game");
    const State s = make_state(r, {"5H 9S 8S", "KD TS", "AH", "", "2C 7H", "QD", "6D", ""}, {"8H"});
    CHECK_EQ(generated(r, s),
             sorted({"f0>c3", "c0>f1", "c0>c1x2", "c0>c3", "c0>c3x2", "c1>f1", "c1>c3", "c2>h",
                     "c2>f1", "c4>f1", "c4>c3", "c5>f1", "c6>f1"}));
}

TEST(moves_freecell_exact_set) {
    const Rules& r = preset("freecell");
    const State s = make_state(r, {"KS 9H 8C 7D", "TS", "TC", "AD", "8S", "", "2C", "QH"},
                               {"JD", "5S", "6H", ""});
    CHECK_EQ(generated(r, s),
             sorted({"f0>c5", "f1>c5", "f2>c5", "c0>f3", "c0>c4", "c0>c1x3", "c0>c2x3", "c0>c5",
                     "c0>c5x2", "c1>f3", "c2>f3", "c3>h", "c3>f3", "c3>c6", "c4>f3", "c6>f3",
                     "c7>f3"}));
}

TEST(moves_freecell36_exact_set) {
    // AH is home, so 6H is next on hearts; nothing goes on a 6 and a 6 goes on a 7.
    const Rules& r = preset("freecell36");
    const State s = make_state(r, {"KC 7S 6H", "8D", "", "9C", "6C", "TD"}, {"7H", ""}, {1, 0, 0, 0});
    CHECK_EQ(generated(r, s),
             sorted({"f0>c2", "c0>h", "c0>f1", "c0>c1x2", "c0>c2", "c0>c2x2", "c1>f1", "c1>c3",
                     "c3>f1", "c3>c5", "c4>f1", "c5>f1"}));
}

TEST(moves_bulochnik_exact_set) {
    // Aces home. A king sequence goes to the empty column from its king (KS QS JS); a
    // same-suit run moves whole onto the next card of its suit; a whole column never
    // moves to an empty one (KH).
    const Rules& r = preset("bulochnik");
    const State s = make_state(
        r, {"3H KS QS JS", "9D 8D 7D 6D 5D", "TD", "", "2C", "KH", "4H 2H", "5C 4C"}, {"KD"},
        {1, 1, 1, 1});
    CHECK_EQ(generated(r, s),
             sorted({"f0>c3", "c0>f1", "c0>c3x3", "c1>f1", "c1>c2x5", "c2>f1", "c4>h", "c4>f1",
                     "c5>f1", "c6>h", "c6>f1", "c7>f1"}));
}

TEST(moves_bulochnik_runs_move_without_cells_or_empty_columns) {
    // Every cell taken, no empty column: the run JD..4D still moves whole, from JD, the
    // card under it (5C) staying.
    const Rules& r = preset("bulochnik");
    const State s = make_state(
        r, {"5C JD TD 9D 8D 7D 6D 5D 4D", "QD", "9C", "8H", "7S", "3C", "6H", "TH"},
        {"KD", "KS", "QS", "JS"}, {1, 1, 1, 1});
    CHECK_EQ(generated(r, s), std::vector<std::string>{"c0>c1x8"});
    CHECK_EQ(MoveGen(r).supermove_limit(s, false), kMaxCards);
    // Only a king heads a sequence into an empty column: QD..4D may not go there.
    const State t = make_state(r, {"5C QD JD TD 9D 8D 7D 6D 5D 4D", "", "KH QH"}, {}, {1, 1, 1, 1});
    CHECK_EQ(generated_between(r, t, 0, 1), std::vector<std::string>{});
    CHECK_EQ(generated_between(r, t, 2, 1), std::vector<std::string>{});  // the whole column
    const State u = make_state(r, {"5C KD QD JD TD", "", "KH QH"}, {}, {1, 1, 1, 1});
    CHECK_EQ(generated_between(r, u, 0, 1), std::vector<std::string>{"c0>c1x4"});
}

TEST(moves_bakers_dozen_exact_set) {
    // No cells; empty columns take nothing; one card at a time, on any suit.
    const Rules& r = preset("bakers_dozen");
    const State s = make_state(
        r, {"KS 5H", "KH 6C", "6D", "", "2H", "QD JC", "4S 3D", "7S 6H", "8D"}, {}, {1, 0, 0, 0});
    CHECK_EQ(generated(r, s), sorted({"c0>c1", "c0>c2", "c0>c7", "c4>h", "c4>c6"}));
    for (const auto& m : generated(r, s)) {
        CHECK(m.find('f') == std::string::npos);
        CHECK(m.find('x') == std::string::npos);
    }
    CHECK_EQ(MoveGen(r).supermove_limit(s, false), 1);
}

TEST(moves_bakers_dozen_nothing_into_an_empty_column) {
    const Rules& r = preset("bakers_dozen");
    const State s = make_state(r, {"QC", "", "KS QD", "JH"});
    for (int i = 0; i < 4; ++i) CHECK_EQ(generated_between(r, s, i, 1), std::vector<std::string>{});
    CHECK_EQ(generated(r, s), sorted({"c3>c0", "c3>c2"}));
}

TEST(moves_supermove_limit_freecell) {
    check_supermove_grid("freecell", "KD 9S 8H 7S 6H 5S 4H 3S 2H", "TD", 8,
                         {"KC", "KH", "KS", "QC", "QD", "QH"}, {"JC", "JH", "JS", "JD"});
}

TEST(moves_supermove_limit_bakers_game) {
    check_supermove_grid("bakers_game", "KD 9S 8S 7S 6S 5S 4S 3S 2S", "TS", 8,
                         {"KC", "KH", "QC", "QD", "QH", "JC"}, {"JH", "JD", "5C", "4C"});
}

TEST(moves_supermove_limit_freecell36) {
    check_supermove_grid("freecell36", "KD QH JS TH 9S 8H 7S 6H", "KC", 7, {"KH", "KS", "QC", "QD"},
                         {"JC", "JH"});
}

TEST(moves_generate_matches_the_rules_along_walks) {
    for (const char* game : kPresets) {
        const Rules& r = preset(game);
        check::Context ctx(game);
        random_walks(r, 400, 2, 120, 23, nullptr,
                     [&](const Step& step) { check_generation(r, step.before.s, step.moves); });
    }
}

TEST(moves_expand_gives_legal_single_moves_along_walks) {
    int expanded = 0;
    for (const char* game : kPresets) {
        const Rules& r = preset(game);
        const MoveGen gen(r);
        check::Context ctx(game);
        random_walks(r, 500, 8, 300, 29, nullptr, [&](const Step& step) {
            for (int i = 0; i < step.moves.size; ++i) {
                const Move m = step.moves.moves[i];
                if (m.count == 1) continue;
                check::Context move_ctx("expanding " + move_text(m));
                CHECK(r.moves != Moves::Single);
                if (r.moves == Moves::Sequence) {
                    CHECK_EQ(gen.expand(step.before.s, m), std::vector<Move>{m});  // one move
                    continue;
                }
                check_expansion(r, step.before, m);
                ++expanded;
            }
        });
    }
    CHECK(expanded > 500);
}

TEST(moves_quiet_key_is_the_key_of_the_child_it_does_not_make_and_apply_quiet_makes_it) {
    int quiet = 0, loud = 0;
    for (const char* game : kPresets) {
        const Rules& r = preset(game);
        const MoveGen gen(r);
        check::Context ctx(game);
        random_walks(r, 700, 4, 250, 31, nullptr, [&](const Step& step) {
            for (int i = 0; i < step.moves.size; ++i) {
                const Move m = step.moves.moves[i];
                check::Context move_ctx(move_text(m));
                Keyed child = step.before;
                gen.apply(child, m);
                const int sent = gen.settle_after(child, m);
                Key key{1, 2};
                QuietChange change;
                if (gen.quiet_key(step.before, m, key)) {
                    CHECK_EQ(sent, 0);
                    CHECK(key == child.key);
                    // The child made from the change is the one apply makes, hashes and all.
                    CHECK(gen.quiet_key(step.before, m, change));
                    Keyed made = step.before;
                    gen.apply_quiet(made, m, change);
                    CHECK(made.s == child.s);
                    CHECK(made.col == child.col);
                    CHECK(made.key == child.key);
                    ++quiet;
                } else {
                    CHECK(m.to == kFoundation || sent > 0);  // false only when it matters
                    ++loud;
                }
            }
        });
    }
    CHECK(quiet > 10000);
    CHECK(loud > 500);
}

TEST(moves_expand_longest_supermoves) {
    // Eight cards with 1 free cell and 2 empty columns, and with 0 cells and 3 columns;
    // four cards into an empty column with 1 cell and 2 empty columns (one the target).
    const Rules& r = preset("freecell");
    const std::string run = "KD 9S 8H 7S 6H 5S 4H 3S 2H";
    const State a = make_state(r, {run, "TD", "", "", "KC", "KH", "KS", "QC"}, {"JC", "JH", "JS"});
    const State b = make_state(r, {run, "TD", "", "", "", "KH", "KS", "QC"}, {"JC", "JH", "JS", "JD"});
    const State c = make_state(r, {run, "TD", "", "", "KC", "KH", "KS", "QC"}, {"JC", "JH", "JS"});
    const std::pair<State, Move> cases[] = {{a, Move{0, 1, 8}}, {b, Move{0, 1, 8}}, {c, Move{0, 2, 4}}};
    for (const auto& [s, m] : cases) {
        check::Context ctx(move_text(m));
        CHECK_EQ(rule_violation(r, s, m, true), std::string());
        Keyed k;
        k.s = s;
        k.rehash(r.columns, r.cells);
        check_expansion(r, k, m);
    }
}

TEST(moves_safe_home_suit_building_every_next_card) {
    for (const char* game : {"bakers_game", "bulochnik"}) {
        const Rules& r = preset(game);
        const MoveGen gen(r);
        for (int suit = 0; suit < kSuits; ++suit)
            for (int rank = kAce; rank <= kKing; ++rank) {
                State s;
                s.found = {0, 13, 0, 0};  // other suits low or full: it does not matter
                s.found[suit] = static_cast<std::uint8_t>(rank - 1);
                const Card c = make_card(suit, rank);
                check::Context ctx(std::string(game) + " " + card_text(c));
                CHECK(gen.goes_home(s, c));
                CHECK(gen.safe_home(s, c));
            }
    }
}

TEST(moves_safe_home_freecell_when_the_cards_that_build_on_it_can_follow) {
    const Rules& r = preset("freecell");
    const MoveGen gen(r);
    const Card five_h = parse_card("5H"), five_d = parse_card("5D");
    // Heights H C D S; 5H next. Both black 4s home: safe, whatever the diamonds.
    CHECK(gen.safe_home(make_state(r, {}, {}, {4, 4, 0, 4}), five_h));
    CHECK(gen.safe_home(make_state(r, {}, {}, {4, 13, 0, 13}), five_h));
    // A black 4 next (its 3 home) is clear when the red 3s that build on it are home or
    // next and clear: 3H is home (5H is next), 3D must be home or next (2D home).
    CHECK(gen.safe_home(make_state(r, {}, {}, {4, 3, 13, 4}), five_h));
    CHECK(gen.safe_home(make_state(r, {}, {}, {4, 3, 2, 3}), five_h));
    CHECK(gen.safe_home(make_state(r, {}, {}, {4, 3, 3, 3}), five_h));
    CHECK(!gen.safe_home(make_state(r, {}, {}, {4, 3, 1, 3}), five_h));
    CHECK(!gen.safe_home(make_state(r, {}, {}, {4, 3, 0, 3}), five_h));
    CHECK(!gen.safe_home(make_state(r, {}, {}, {4, 4, 0, 3}), five_h));
    // A black 4 that is not next (its 3 still out) makes 5H unsafe.
    CHECK(!gen.safe_home(make_state(r, {}, {}, {4, 2, 13, 4}), five_h));
    CHECK(!gen.safe_home(make_state(r, {}, {}, {4, 13, 13, 2}), five_h));
    // 5D next: the hearts decide through 3H.
    CHECK(!gen.safe_home(make_state(r, {}, {}, {0, 4, 4, 3}), five_d));
    CHECK(gen.safe_home(make_state(r, {}, {}, {2, 4, 4, 3}), five_d));
    CHECK(gen.safe_home(make_state(r, {}, {}, {0, 4, 4, 4}), five_d));
    // Aces and twos: nothing goes on an ace, and a black ace is always next or home, so
    // every 2 is safe.
    CHECK(gen.safe_home(make_state(r, {}, {}, {0, 0, 0, 0}), parse_card("AS")));
    CHECK(gen.safe_home(make_state(r, {}, {}, {1, 0, 0, 0}), parse_card("2H")));
    CHECK(gen.safe_home(make_state(r, {}, {}, {1, 1, 0, 1}), parse_card("2H")));
    // A 3 waits for nothing but the black 2s being home or next: 3H with 2C out, AC out.
    CHECK(!gen.safe_home(make_state(r, {}, {}, {2, 0, 0, 1}), parse_card("3H")));
    CHECK(gen.safe_home(make_state(r, {}, {}, {2, 1, 0, 1}), parse_card("3H")));
}

TEST(moves_safe_home_freecell36) {
    // Nothing goes on a 6 (no 5s): every 6 is safe, and a 7 once each opposite-colour 6
    // is home or next (height 2: the ace home).
    const Rules& r = preset("freecell36");
    const MoveGen gen(r);
    CHECK(gen.safe_home(make_state(r, {}, {}, {1, 0, 0, 0}), parse_card("6H")));
    CHECK(gen.safe_home(make_state(r, {}, {}, {2, 1, 0, 2}), parse_card("7H")));
    CHECK(gen.safe_home(make_state(r, {}, {}, {2, 2, 0, 2}), parse_card("7H")));
    CHECK(!gen.safe_home(make_state(r, {}, {}, {2, 0, 0, 2}), parse_card("7H")));
    // An 8 needs each black 7 home or next, and then the red 6s on it home or next.
    CHECK(gen.safe_home(make_state(r, {}, {}, {3, 2, 1, 2}), parse_card("8H")));
    CHECK(!gen.safe_home(make_state(r, {}, {}, {3, 2, 0, 2}), parse_card("8H")));
    CHECK(gen.goes_home(make_state(r, {}, {}, {1, 0, 0, 0}), parse_card("6H")));
    CHECK(!gen.goes_home(make_state(r, {}, {}, {0, 0, 0, 0}), parse_card("6H")));
}

TEST(moves_safe_home_bakers_dozen_when_every_suit_reaches_two_below) {
    // Any suit builds on any: 5H is clear when every 4 is home or next and every 3 home,
    // that is when each foundation reaches 3.
    const Rules& r = preset("bakers_dozen");
    const MoveGen gen(r);
    const Card five_h = parse_card("5H");
    CHECK(gen.safe_home(make_state(r, {}, {}, {4, 4, 4, 4}), five_h));
    CHECK(gen.safe_home(make_state(r, {}, {}, {4, 13, 9, 4}), five_h));
    CHECK(gen.safe_home(make_state(r, {}, {}, {4, 3, 3, 3}), five_h));
    for (int other = 1; other < kSuits; ++other) {
        std::array<int, 4> found{4, 4, 4, 4};
        found[other] = 2;
        check::Context ctx("suit " + std::to_string(other) + " at 2");
        CHECK(!gen.safe_home(make_state(r, {}, {}, found), five_h));
    }
}

TEST(moves_settle_makes_mandatory_and_safe_moves) {
    // freecell: 3H goes home only once each black 2 is home or next.
    const Rules& fc = preset("freecell");
    const MoveGen gen(fc);
    Keyed k;
    k.s = make_state(fc, {"5C 3H"}, {}, {2, 0, 0, 1});
    k.rehash(fc.columns, fc.cells);
    std::vector<Move> recorded;
    CHECK_EQ(gen.settle(k, &recorded), 0);
    k.s.found[1] = 1;
    k.rehash(fc.columns, fc.cells);
    CHECK_EQ(gen.settle(k, &recorded), 1);
    CHECK_EQ(recorded, std::vector<Move>{Move{0, kFoundation, 1}});
    // freecell36: the exposed ace goes home even without safe moves, and is not recorded.
    const Rules& f36 = preset("freecell36");
    const MoveGen gen36(f36);
    Keyed a;
    a.s = make_state(f36, {"9S 6H AH"});
    a.rehash(f36.columns, f36.cells);
    Keyed b = a;
    recorded.clear();
    gen36.settle(a, &recorded, false);
    CHECK_EQ(cards_text(layout_from_state(f36, a.s).columns[0]), std::string("9S 6H"));
    CHECK(recorded.empty());
    gen36.settle(b, &recorded);
    CHECK_EQ(cards_text(layout_from_state(f36, b.s).columns[0]), std::string("9S"));
    CHECK_EQ(recorded, std::vector<Move>{Move{0, kFoundation, 1}});  // 6H, not the ace
    CHECK(b.key_is_consistent(f36.columns, f36.cells));
}

TEST(moves_wrap_a_king_builds_on_the_ace_of_its_suit) {
    const MoveGen wrap(preset("tuxedo")), plain(preset("bakers_game"));
    for (int suit = 0; suit < kSuits; ++suit) {
        const Card king = make_card(suit, kKing), ace = make_card(suit, kAce);
        check::Context ctx(card_text(king));
        CHECK_EQ(wrap.targets(king), bit_of(ace));
        CHECK_EQ(plain.targets(king), CardSet{0});
        CHECK_EQ(wrap.targets(make_card(suit, 5)), plain.targets(make_card(suit, 5)));
    }
    // The king goes on the ace, and the run AH KH moves on as one (sequence moves).
    const Rules& r = preset("tuxedo");
    const State s = make_state(r, {"2C AH", "KH", "3C 2H", "", "", "", ""}, {}, {0, 0, 13, 13});
    const auto moves = generated(r, s);
    CHECK(std::find(moves.begin(), moves.end(), "c1>c0") != moves.end());
    State after = s;
    after.move_cards(1, 0, 1);
    const auto next = generated(r, after);
    CHECK(std::find(next.begin(), next.end(), "c0>c2x2") != next.end());
}

TEST(moves_safe_home_wrap_keeps_the_ace_back) {
    // With the wrap the king builds on the ace: an ace next on its foundation is not
    // clear while its king is out (and it is, the foundation being empty); every other
    // next card is, its one builder (the card below it) being home.
    for (const char* game : {"tuxedo", "penguin"}) {
        const Rules& r = preset(game);
        const MoveGen gen(r);
        for (int suit = 0; suit < kSuits; ++suit)
            for (int rank = kAce; rank <= kKing; ++rank) {
                State s;
                s.found = {0, 13, 0, 0};
                s.found[suit] = static_cast<std::uint8_t>(rank - 1);
                const Card c = make_card(suit, rank);
                check::Context ctx(std::string(game) + " " + card_text(c));
                CHECK(gen.goes_home(s, c));
                CHECK_EQ(gen.safe_home(s, c), rank != kAce);
            }
    }
}
