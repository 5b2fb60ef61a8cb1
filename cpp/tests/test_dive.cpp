// The dive: its wins replayed by the tests' own reading of the rules in every preset,
// never "impossible", its budget and the caller's limits honoured, and the dive followed
// by best first giving best first's verdicts.

#include <atomic>
#include <cstdint>
#include <string>

#include "check.hpp"
#include "dive.hpp"
#include "support.hpp"

namespace {

using namespace support;

// A win counted without its line (solve's `line` false, as `bakers range` asks without
// --solutions) counts the moves that writing it out gives, in every preset; the games
// with auto_aces write the line anyway.
TEST(dive_counts_a_win_as_its_line_has_it) {
    int counted = 0;
    for (const char* game : kPresets) {
        const Rules& r = preset(game);
        for (std::uint64_t n = 1; n <= 40; ++n) {
            check::Context ctx(std::string(game) + " " + std::to_string(n));
            const State start = dealt(r, n);
            Limits limits;
            limits.max_nodes = 20000;
            const Result written = solve(r, start, limits, nullptr, {}, 1, Method::Dive);
            const Result counted_only = solve(r, start, limits, nullptr, {}, 1, Method::Dive, false);
            CHECK_EQ(counted_only.verdict, written.verdict);
            CHECK_EQ(counted_only.stats.expanded, written.stats.expanded);
            CHECK_EQ(written.move_count, written.moves.size());
            CHECK_EQ(counted_only.move_count, written.move_count);
            const Result dive = solve_dive(r, start, limits, nullptr, {}, 5000, false);
            if (dive.verdict != Verdict::Solved) continue;
            CHECK_EQ(dive.move_count, solve_dive(r, start, limits, nullptr, {}, 5000).moves.size());
            if (!r.auto_aces) {
                CHECK(dive.moves.empty() && dive.compact.empty());
                ++counted;
            }
        }
    }
    CHECK(counted > 150);
}

TEST(dive_wins_replay_in_every_preset_and_it_never_says_impossible) {
    // In debug builds every composite step is also checked against MoveGen::generate.
    int won = 0;
    for (const char* game : kPresets) {
        const Rules& r = preset(game);
        for (std::uint64_t n = 1; n <= 25; ++n) {
            check::Context ctx(std::string(game) + " " + std::to_string(n));
            const State start = dealt(r, n);
            const Result res = solve_dive(r, start, Limits{}, nullptr, {}, 5000);
            CHECK(res.verdict != Verdict::Impossible);
            // Every position expanded but the start was made as a child first.
            CHECK(res.stats.generated + 1 >= res.stats.expanded);
            if (std::string(game) == "freecell") CHECK_EQ(res.verdict, Verdict::Solved);
            if (res.verdict == Verdict::Solved) {
                ++won;
                CHECK_EQ(replay(r, start, res.moves, false), std::string());
                CHECK_EQ(replay(r, start, res.compact, true), std::string());
                CHECK_EQ(res.stats.most_home, r.deck);
            } else {
                CHECK_EQ(res.reason, std::string("dive budget"));
                CHECK(res.stats.expanded <= 5000 + 256);
            }
        }
    }
    CHECK(won >= 90);  // of 125: most deals of every game, every one of FreeCell's 25 below
}

TEST(wide_dive_wins_replay_and_it_never_says_impossible) {
    // The wide dive's scans park cards in cells: in every preset with cells, each win
    // replays, and a win counted without its line counts the moves its line has.
    int won = 0;
    for (const char* game : kPresets) {
        const Rules& r = preset(game);
        if (r.cells == 0) continue;
        for (std::uint64_t n = 1; n <= 20; ++n) {
            check::Context ctx(std::string(game) + " " + std::to_string(n));
            const State start = dealt(r, n);
            const Result res = solve_dive(r, start, Limits{}, nullptr, {}, 5000, true, DiveMoves::Wide);
            CHECK(res.verdict != Verdict::Impossible);
            if (res.verdict != Verdict::Solved) {
                CHECK_EQ(res.reason, std::string("dive budget"));
                continue;
            }
            ++won;
            CHECK_EQ(replay(r, start, res.moves, false), std::string());
            CHECK_EQ(replay(r, start, res.compact, true), std::string());
            const Result counted = solve_dive(r, start, Limits{}, nullptr, {}, 5000, false, DiveMoves::Wide);
            CHECK_EQ(counted.verdict, Verdict::Solved);
            CHECK_EQ(counted.move_count, res.moves.size());
        }
    }
    CHECK(won >= 80);
}

TEST(where_the_dive_stops_at_its_budget_the_wide_dive_wins) {
    // Seahaven Towers 98852 (PySol's numbering): the dive spends its budget, and depth
    // first alone takes over 300,000 positions; the wide dive, which `solve` runs next in
    // a game built by suit, wins it within its budget, and the line replays.
    const Rules r{.deck = 52, .columns = 10, .cells = 4, .build = Build::Suit, .empty = Empty::Kings,
                  .moves = Moves::Supermove, .numbering = Numbering::PySol, .dealt_cells = 0b0110};
    const State start = dealt(r, 98852);
    const Result dive = solve_dive(r, start, Limits{}, nullptr, {}, kDiveBudget);
    CHECK_EQ(dive.verdict, Verdict::Unknown);
    CHECK_EQ(dive.stats.expanded, kDiveBudget);
    const Result res = solve(r, start, Limits{}, nullptr, {}, 1, Method::Dive);
    CHECK_EQ(res.verdict, Verdict::Solved);
    CHECK_EQ(replay(r, start, res.moves, false), std::string());
    CHECK(res.stats.expanded <= kDiveBudget + kWideDiveBudget + 256);
    Limits limits;
    limits.max_nodes = 50000;
    CHECK_EQ(solve(r, start, limits, nullptr, {}, 1, Method::DepthFirst).verdict, Verdict::Unknown);
}

TEST(where_the_dive_runs_dry_depth_first_follows_it) {
    // Baker's Game 14 is impossible: the dive's scans run dry, no wide dive runs, and
    // `solve` counts the dive and depth first alone.
    const Rules& r = preset("bakers_game");
    const State start = dealt(r, 14);
    const Result dive = solve_dive(r, start, Limits{}, nullptr, {}, kDiveBudget);
    CHECK(dive.stats.expanded < kDiveBudget);
    const Result res = solve(r, start, Limits{}, nullptr, {}, 1, Method::Dive);
    const Result exact = solve(r, start, Limits{}, nullptr, {}, 1, Method::DepthFirst);
    CHECK_EQ(res.verdict, Verdict::Impossible);
    CHECK_EQ(res.stats.expanded, dive.stats.expanded + exact.stats.expanded);
}

TEST(dive_then_best_first_gives_best_first_verdicts) {
    // FreeCell 11982 and 36-card FreeCell 3 are impossible: the dive gives up, best
    // first proves it; Baker's Game 14 too (a game the dive is not the default of).
    for (const auto& [game, n] : {std::pair{"freecell", 11982}, {"freecell", 1}, {"freecell36", 3},
                                  {"freecell36", 1}, {"bakers_game", 14}, {"bakers_dozen", 24}}) {
        const Rules& r = preset(game);
        check::Context ctx(std::string(game) + " " + std::to_string(n));
        const State start = dealt(r, static_cast<std::uint64_t>(n));
        const Result dive = solve(r, start, Limits{}, nullptr, {}, 1, Method::Dive);
        const Result exact = solve(r, start, Limits{}, nullptr, {}, 1, Method::BestFirst);
        CHECK_EQ(dive.verdict, exact.verdict);
        CHECK(dive.verdict != Verdict::Unknown);
        if (dive.verdict == Verdict::Solved) CHECK_EQ(replay(r, start, dive.moves, false), std::string());
        if (dive.verdict == Verdict::Impossible) CHECK(dive.stats.expanded > exact.stats.expanded);
    }
}

TEST(dive_node_limit_counts_both_searches) {
    const Rules& r = preset("freecell");
    const State start = dealt(r, 11982);
    Limits limits;
    limits.max_nodes = 500;  // inside the dive's budget: the dive stops on it, exactly
    Result res = solve(r, start, limits, nullptr, {}, 1, Method::Dive);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("node limit"));
    CHECK_EQ(res.stats.expanded, 500u);
    // A deal the dive wins in a few dozen positions is not won past a limit of one.
    limits.max_nodes = 1;
    const State easy = dealt(r, 1);
    res = solve(r, easy, limits, nullptr, {}, 1, Method::Dive);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.stats.expanded, 1u);
    limits.max_nodes = kDiveBudget + 2000;  // past it: best first stops on what is left
    res = solve(r, start, limits, nullptr, {}, 1, Method::Dive);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("node limit"));
    CHECK(res.stats.expanded >= kDiveBudget + 2000);
    CHECK(res.stats.expanded <= kDiveBudget + 2000 + 512);
}

TEST(dive_stops_when_asked) {
    const Rules& r = preset("freecell");
    std::atomic<bool> stop{true};
    const Result res = solve_dive(r, dealt(r, 11982), Limits{}, &stop, {}, 1'000'000);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("interrupted"));
}

TEST(dive_from_a_won_position) {
    const Rules& r = preset("freecell");
    const State done = make_state(r, {}, {}, {13, 13, 13, 13});
    const Result res = solve_dive(r, done, Limits{}, nullptr, {}, 10);
    CHECK_EQ(res.verdict, Verdict::Solved);
    CHECK(res.moves.empty());
}

}  // namespace
