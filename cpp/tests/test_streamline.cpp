// The restricted passes: their wins replayed by the tests' own reading of the rules,
// never "impossible" (also where the deal is impossible), every restriction alone and
// together, and the portfolio winning through them.

#include <cstdint>
#include <string>

#include "check.hpp"
#include "streamline.hpp"
#include "support.hpp"

namespace {

using namespace support;

// Games that build regardless of suit, as python/bakers/variants.py has them.
Rules castle() {
    Rules r;
    r.cells = 0;
    r.build = Build::Any;
    r.aces_on_foundations = true;
    r.numbering = Numbering::PySol;
    return r;
}
Rules streets() {
    Rules r = castle();
    r.aces_on_foundations = false;
    return r;
}
Rules stronghold() {
    Rules r = streets();
    r.cells = 1;
    return r;
}

const Streamline kEvery[] = {{true, true, ChildOrder::Progress},
                             {true, false, ChildOrder::Progress},
                             {false, true, ChildOrder::Space},
                             {false, false, ChildOrder::Space}};

// Checks one pass's answer from `start`: a win replays, anything else is "unknown".
void check_pass(const Rules& r, const State& start, const Result& res, std::uint64_t budget) {
    CHECK(res.verdict != Verdict::Impossible);
    if (res.verdict == Verdict::Solved) {
        CHECK_EQ(replay(r, start, res.moves, false), std::string());
        CHECK_EQ(replay(r, start, res.compact, true), std::string());
        CHECK_EQ(res.stats.most_home, r.deck);
    } else {
        CHECK(res.reason == std::string(kRestrictedDry) || res.reason == std::string("node limit"));
        CHECK(res.stats.expanded <= budget + 256);
    }
}

TEST(streamline_wins_replay_and_it_never_says_impossible) {
    int won = 0, dry = 0;
    for (const Rules& r : {castle(), streets(), stronghold(), preset("bakers_dozen"), preset("bakers_game"),
                           preset("freecell")}) {
        for (std::uint64_t n = 1; n <= 12; ++n) {
            const State start = dealt(r, n);
            for (const Streamline& how : kEvery) {
                check::Context ctx(std::to_string(r.columns) + " columns, " + std::to_string(r.cells) +
                                   " cells, deal " + std::to_string(n) + ", " + std::to_string(how.all_home) +
                                   std::to_string(how.merge_suits));
                Limits limits;
                limits.max_nodes = 20'000;
                const Result res = solve_streamlined(r, start, limits, nullptr, {}, how);
                check_pass(r, start, res, limits.max_nodes);
                won += res.verdict == Verdict::Solved;
                dry += res.reason == std::string(kRestrictedDry);
            }
        }
    }
    CHECK(won >= 200);  // of 288 (227)
    CHECK(dry >= 20);   // (30)
}

TEST(streamline_from_positions_in_mid_game) {
    // Positions a random walk reaches (cells and foundations filled, columns emptied),
    // in a game that sends aces home by itself, one with a cell, one with neither.
    for (const Rules& r : {preset("bakers_dozen"), stronghold(), streets()}) {
        int steps = 0;
        random_walks(r, 300, 3, 60, 17, nullptr, [&](const Step& step) {
            if (++steps % 6) return;
            for (const Streamline& how : kEvery) {
                Limits limits;
                limits.max_nodes = 3'000;
                check::Context ctx("step " + std::to_string(steps));
                check_pass(r, step.after.s, solve_streamlined(r, step.after.s, limits, nullptr, {}, how),
                           limits.max_nodes);
            }
        });
        CHECK(steps > 100);
    }
}

TEST(streamline_says_unknown_where_the_deal_is_impossible) {
    // Beleaguered Castle 1 and 3: depth first proves both impossible; the pass runs dry.
    const Rules r = castle();
    for (std::uint64_t n : {1, 3}) {
        check::Context ctx("deal " + std::to_string(n));
        const State start = dealt(r, n);
        CHECK_EQ(solve(r, start, Limits{}, nullptr, {}, 1, Method::DepthFirst).verdict, Verdict::Impossible);
        const Result res = solve_streamlined(r, start, Limits{}, nullptr, {});
        CHECK_EQ(res.verdict, Verdict::Unknown);
        CHECK_EQ(res.reason, std::string(kRestrictedDry));
        CHECK(res.moves.empty());
    }
}

TEST(streamline_merges_suits_only_where_the_rules_ignore_them) {
    CHECK(suits_interchangeable(castle()));
    CHECK(suits_interchangeable(preset("bakers_dozen")));
    CHECK(!suits_interchangeable(preset("bakers_game")));
    CHECK(!suits_interchangeable(preset("freecell")));
    CHECK(!suits_interchangeable(preset("tuxedo")));
    // Merged, the space is smaller: a deal the pass searches whole takes fewer positions.
    const Rules r = castle();
    const State start = dealt(r, 1);
    const Result merged = solve_streamlined(r, start, Limits{}, nullptr, {}, {true, true});
    const Result apart = solve_streamlined(r, start, Limits{}, nullptr, {}, {true, false});
    CHECK_EQ(merged.reason, std::string(kRestrictedDry));
    CHECK_EQ(apart.reason, std::string(kRestrictedDry));
    CHECK(merged.stats.stored < apart.stats.stored);
}

TEST(portfolio_wins_through_the_restricted_pass) {
    // Beleaguered Castle 2000552: the pass wins after about 1,300 positions, after best
    // first's 10,000; without it the portfolio's searches take more than 300,000.
    const Rules r = castle();
    const State start = dealt(r, 2'000'552);
    const Result res = solve(r, start, Limits{}, nullptr, {}, 1, Method::Portfolio);
    CHECK_EQ(res.verdict, Verdict::Solved);
    CHECK(res.stats.expanded < 15'000u);
    CHECK_EQ(replay(r, start, res.moves, false), std::string());
    const Result two = solve(r, start, Limits{}, nullptr, {}, 2, Method::Portfolio);
    CHECK_EQ(two.verdict, Verdict::Solved);
    CHECK_EQ(replay(r, start, two.moves, false), std::string());
}

}  // namespace
