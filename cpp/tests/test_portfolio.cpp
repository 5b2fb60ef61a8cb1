// The portfolio: the verdicts of the complete searches, wins replayed, the caller's node
// limit counted over every run.

#include <cstdint>
#include <string>

#include "check.hpp"
#include "support.hpp"

namespace {

using namespace support;

Result portfolio(const Rules& r, const State& start, const Limits& limits = {}) {
    return solve(r, start, limits, nullptr, {}, 1, Method::Portfolio);
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
    const Rules& r = preset("bakers_dozen");
    Limits limits;
    limits.max_nodes = 150'000;  // round 0: best first 100,000, then depth first 50,000
    const Result res = portfolio(r, dealt(r, 417), limits);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("node limit"));
    CHECK(res.stats.expanded >= 150'000 && res.stats.expanded < 151'000);
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

}  // namespace
