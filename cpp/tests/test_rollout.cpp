// Nested rollouts: wins replayed (in every game), never a verdict of "impossible", the
// same search for the same seed, the limits (nodes exactly), and no search without one.

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "check.hpp"
#include "rollout.hpp"
#include "support.hpp"

namespace {

using namespace support;

Limits nodes(std::uint64_t n) {
    Limits limits;
    limits.max_nodes = n;
    return limits;
}

TEST(rollouts_win_and_their_lines_replay) {
    // Baker's Dozen 154 and 741: best first needs millions of positions for them; also a
    // deal of each other game.
    for (const auto& [game, n] : {std::pair{"bakers_dozen", 154}, {"bakers_dozen", 741},
                                  {"bakers_game", 1}, {"freecell", 1}, {"bulochnik", 1},
                                  {"freecell36", 3}}) {
        const Rules& r = preset(game);
        check::Context ctx(std::string(game) + " " + std::to_string(n));
        const State start = dealt(r, static_cast<std::uint64_t>(n));
        const Result res = solve_rollouts(r, start, nodes(2'000'000), nullptr, {});
        CHECK_EQ(res.verdict, Verdict::Solved);
        CHECK_EQ(replay(r, start, res.moves, false), std::string());
        CHECK_EQ(replay(r, start, res.compact, true), std::string());
        CHECK(res.stats.expanded > 0 && res.stats.expanded < 2'000'000u);
        CHECK_EQ(res.stats.stored, 0u);
    }
}

TEST(rollouts_never_say_impossible) {
    // Baker's Dozen 64 is a dead end at the deal: no child to roll out from.
    const Rules& bd = preset("bakers_dozen");
    const Result dead = solve_rollouts(bd, dealt(bd, 64), nodes(100'000), nullptr, {});
    CHECK_EQ(dead.verdict, Verdict::Unknown);
    CHECK_EQ(dead.reason, std::string("no line"));
    CHECK(dead.stats.expanded <= 1u);
    // Baker's Game 14 is impossible (tests/data) but its start has moves.
    const Rules& bg = preset("bakers_game");
    const Result lost = solve_rollouts(bg, dealt(bg, 14), nodes(30'000), nullptr, {});
    CHECK_EQ(lost.verdict, Verdict::Unknown);
    CHECK_EQ(lost.reason, std::string("node limit"));
    CHECK_EQ(lost.stats.expanded, 30'000u);  // the node limit holds exactly
}

TEST(rollouts_same_seed_same_search) {
    const Rules& r = preset("bakers_dozen");
    const State start = dealt(r, 154);
    const Result a = solve_rollouts(r, start, nodes(2'000'000), nullptr, {}, 7);
    const Result b = solve_rollouts(r, start, nodes(2'000'000), nullptr, {}, 7);
    CHECK_EQ(a.verdict, Verdict::Solved);
    CHECK_EQ(a.stats.expanded, b.stats.expanded);
    CHECK(a.moves == b.moves);
    // Another seed, other rollouts (the count of positions differs on this deal).
    const Result c = solve_rollouts(r, start, nodes(2'000'000), nullptr, {}, 8);
    CHECK(c.stats.expanded != a.stats.expanded);
}

TEST(rollouts_stop_on_the_flag_the_time_and_the_memory_limit) {
    const Rules& r = preset("bakers_dozen");
    const State start = dealt(r, 417);  // no search has decided it
    const std::atomic<bool> stop{true};
    CHECK_EQ(solve_rollouts(r, start, nodes(1'000'000'000), &stop, {}).reason, std::string("interrupted"));
    Limits seconds;
    seconds.max_seconds = 0.2;
    const Result timed = solve_rollouts(r, start, seconds, nullptr, {});
    CHECK_EQ(timed.reason, std::string("time limit"));
    CHECK(timed.stats.seconds < 5);
    Limits tiny = nodes(1'000);
    tiny.max_bytes = 1'000;  // less than its line's set
    const Result small = solve_rollouts(r, start, tiny, nullptr, {});
    CHECK_EQ(small.reason, std::string("memory limit"));
    CHECK_EQ(small.stats.expanded, 0u);
}

TEST(rollouts_need_a_node_or_time_limit) {
    const Rules& r = preset("bakers_dozen");
    bool threw = false;
    try {
        solve_rollouts(r, dealt(r, 1), Limits{}, nullptr, {});
    } catch (const std::invalid_argument&) {
        threw = true;
    }
    CHECK(threw);
}

}  // namespace
