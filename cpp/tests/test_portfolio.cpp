// The portfolio: the verdicts of the complete searches, wins replayed, the caller's node
// limit counted over every run; on several threads the same, its runs at once.

#include <atomic>
#include <cstdint>
#include <string>
#include <tuple>

#include "check.hpp"
#include "support.hpp"

namespace {

using namespace support;

Result portfolio(const Rules& r, const State& start, const Limits& limits = {}, int threads = 1) {
    return solve(r, start, limits, nullptr, {}, threads, Method::Portfolio);
}

// Baker's Dozen 417 (no search decides it) under a node limit: "unknown" on that limit.
Result stopped_by_nodes(std::uint64_t nodes, int threads) {
    const Rules& r = preset("bakers_dozen");
    Limits limits;
    limits.max_nodes = nodes;
    const Result res = portfolio(r, dealt(r, 417), limits, threads);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("node limit"));
    return res;
}

TEST(portfolio_verdicts_equal_best_first) {
    for (const auto& [game, n] : {std::pair{"bakers_dozen", 64}, {"bakers_dozen", 24},
                                  {"freecell", 11982}, {"bakers_game", 14}, {"bakers_game", 1}}) {
        const Rules& r = preset(game);
        check::Context ctx(std::string(game) + " " + std::to_string(n));
        const State start = dealt(r, static_cast<std::uint64_t>(n));
        const Result mixed = portfolio(r, start);
        CHECK_EQ(mixed.verdict, solve(r, start, Limits{}).verdict);
        CHECK(mixed.verdict != Verdict::Unknown);
        if (mixed.verdict == Verdict::Solved) {
            CHECK_EQ(replay(r, start, mixed.moves, false), std::string());
            CHECK_EQ(replay(r, start, mixed.compact, true), std::string());
        }
    }
}

TEST(portfolio_node_limit_counts_every_run) {
    // rounds 0 and 1: 10,000 a run, then 40,000 a run: the rollouts' 40,000 end at 150,000
    const Result res = stopped_by_nodes(150'000, 1);
    CHECK_EQ(res.stats.expanded, 150'000u);
}

TEST(portfolio_poll_sees_the_counts_of_every_run) {
    // Each run's first 100,000 expansions: a count above that is the runs' sum.
    const Rules& r = preset("bakers_dozen");
    Limits limits;
    limits.max_seconds = 60;  // a bound if the poll never stopped it
    std::uint64_t last = 0;
    bool grows = true;
    const Result res = solve(r, dealt(r, 417), limits, nullptr, [&](const Progress& p) {
        grows = grows && p.expanded >= last;
        last = p.expanded;
        return p.expanded > 150'000;
    }, 1, Method::Portfolio);
    CHECK(grows);
    CHECK(last > 150'000);
    CHECK_EQ(res.reason, std::string("interrupted"));
    CHECK(res.stats.expanded >= last);
}

TEST(portfolio_on_threads_verdicts_equal_one_thread) {
    for (const auto& [game, n, alone] : {std::tuple{"bakers_dozen", 64, Verdict::Impossible},
                                         {"bakers_dozen", 24, Verdict::Solved},
                                         {"bakers_game", 14, Verdict::Impossible}}) {
        const Rules& r = preset(game);
        const State start = dealt(r, static_cast<std::uint64_t>(n));
        CHECK_EQ(portfolio(r, start).verdict, alone);
        for (int threads : {2, 3}) {
            check::Context ctx(std::string(game) + " " + std::to_string(n) + " on " + std::to_string(threads));
            const Result res = portfolio(r, start, Limits{}, threads);
            CHECK_EQ(res.verdict, alone);
            CHECK_EQ(res.reason, std::string());
            if (res.verdict == Verdict::Solved) {
                CHECK_EQ(replay(r, start, res.moves, false), std::string());
                CHECK_EQ(replay(r, start, res.compact, true), std::string());
            }
        }
    }
}

TEST(portfolio_on_threads_wins_sooner_where_a_later_run_wins) {
    // Baker's Dozen 741: the rollouts win after about 1,500 positions; one thread first
    // gives best first its 10,000 (11,498 in all), two run both at once.
    const Rules& r = preset("bakers_dozen");
    const State start = dealt(r, 741);
    const Result one = portfolio(r, start, Limits{}, 1);
    CHECK_EQ(one.verdict, Verdict::Solved);
    CHECK(one.stats.expanded > 10'000u);
    const Result two = portfolio(r, start, Limits{}, 2);
    CHECK_EQ(two.verdict, Verdict::Solved);
    CHECK_EQ(replay(r, start, two.moves, false), std::string());
    CHECK(two.stats.expanded < 8'000u);
}

TEST(portfolio_on_threads_node_limit_counts_every_run) {
    // round 0's four runs of 10,000, then round 1's best first and rollouts at once
    const Result res = stopped_by_nodes(120'000, 2);
    CHECK(res.stats.expanded >= 119'000 && res.stats.expanded <= 120'000);
}

TEST(portfolio_on_threads_memory_limit_holds) {
    const Rules& r = preset("bakers_dozen");
    Limits limits;
    limits.max_bytes = 4u << 20;  // 2 MB a run
    const Result res = portfolio(r, dealt(r, 417), limits, 2);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("memory limit"));
    CHECK(res.stats.peak_bytes <= limits.max_bytes);
}

TEST(portfolio_on_threads_stops_on_the_flag_and_the_poll) {
    const Rules& r = preset("bakers_dozen");
    Limits limits;
    limits.max_seconds = 60;  // a bound if neither stopped it
    const std::atomic<bool> stop{true};
    const Result flagged = solve(r, dealt(r, 417), limits, &stop, {}, 2, Method::Portfolio);
    CHECK_EQ(flagged.reason, std::string("interrupted"));
    int calls = 0;
    std::uint64_t last = 0, stored = 0;
    const Result polled = solve(r, dealt(r, 417), limits, nullptr, [&](const Progress& p) {
        last = p.expanded;
        stored = p.stored;
        return ++calls == 3;
    }, 2, Method::Portfolio);
    CHECK_EQ(polled.reason, std::string("interrupted"));
    CHECK_EQ(calls, 3);
    CHECK(polled.stats.expanded >= last);
    CHECK(stored > 0 && stored <= polled.stats.stored);  // the runs' counts, for a display
    CHECK(polled.stats.seconds < 30);
}

}  // namespace
