// Depth first on several threads: the same verdicts as one thread, the same positions
// stored by a proof (every reachable one, once), lines that replay, and the limits.

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "check.hpp"
#include "depth_first.hpp"
#include "depth_first_threads.hpp"
#include "support.hpp"

namespace {

using namespace support;

Result deep(const Rules& r, const State& start, int threads, const Limits& limits = {},
            const std::atomic<bool>* stop = nullptr, const StopPoll& poll = {}) {
    return solve(r, start, limits, stop, poll, threads, Method::DepthFirst);
}

// Decides a position on one thread and on `threads`; checks that the verdicts agree,
// that a win replays and that a proof stored exactly the positions of one thread's.
Verdict check_agrees(const Rules& r, const State& start, int threads) {
    const Result one = deep(r, start, 1);
    const Result many = deep(r, start, threads);
    CHECK_EQ(many.verdict, one.verdict);
    CHECK(many.verdict != Verdict::Unknown);
    CHECK_EQ(many.reason, std::string());
    if (many.verdict == Verdict::Solved) {
        CHECK_EQ(replay(r, start, many.moves, false), std::string());
        CHECK_EQ(replay(r, start, many.compact, true), std::string());
    } else {
        CHECK(many.moves.empty());
    }
    if (many.verdict == Verdict::Impossible) {
        // A complete search stores every reachable position once, whoever stores it, and
        // expands each once (a position is expanded by the thread that took it).
        CHECK_EQ(many.stats.stored, one.stats.stored);
        CHECK_EQ(many.stats.expanded, one.stats.expanded);
        CHECK_EQ(many.stats.most_home, one.stats.most_home);
    }
    return many.verdict;
}

// Baker's Dozen deal 417: undecided after billions of positions, so no search ends it
// within a limit's reach.
State hard_deal() { return dealt(preset("bakers_dozen"), 417); }

}  // namespace

TEST(depth_first_threads_bakers_game_agrees) {
    const Rules& r = preset("bakers_game");
    int impossible = 0;
    for (std::uint64_t n = 1; n <= 40; ++n) {
        check::Context ctx("deal " + std::to_string(n));
        impossible += check_agrees(r, dealt(r, n), n % 2 ? 2 : 3) == Verdict::Impossible;
    }
    CHECK(impossible >= 5);  // proofs as well as wins are compared
}

TEST(depth_first_threads_long_proofs_agree) {
    // Baker's Game 2879 and 14 (proofs of 52,823 and ~10,000 positions): many handovers
    // of work between the threads; run again to shake out races.
    const Rules& r = preset("bakers_game");
    for (int round = 0; round < 3; ++round)
        for (std::uint64_t n : {2879, 14}) {
            check::Context ctx("deal " + std::to_string(n) + ", round " + std::to_string(round));
            CHECK_EQ(check_agrees(r, dealt(r, n), 2 + round), Verdict::Impossible);
        }
}

TEST(depth_first_threads_other_presets_agree) {
    const std::vector<std::pair<const char*, std::vector<std::uint64_t>>> deals = {
        {"freecell", {1, 2, 3, 11982}},  // 11982: a proof of 61,643 positions
        {"freecell36", {1, 2, 3, 4, 5, 6}},
        {"bulochnik", {1, 2, 3, 4, 5, 6}},
        {"bakers_dozen", {2, 12, 16, 64}},  // deals that depth first decides in under 10,000
    };
    for (const auto& [game, numbers] : deals)
        for (std::uint64_t n : numbers) {
            check::Context ctx(std::string(game) + " deal " + std::to_string(n));
            check_agrees(preset(game), dealt(preset(game), n), 2);
        }
}

TEST(depth_first_threads_fewer_cells) {
    // FreeCell MS 1 with two cells is impossible (a complete search of ~119,000
    // positions), with three winnable.
    Rules r = preset("freecell");
    for (int cells : {2, 3}) {
        check::Context ctx(std::to_string(cells) + " cells");
        r.cells = cells;
        CHECK_EQ(check_agrees(r, dealt(r, 1), 2), cells == 2 ? Verdict::Impossible : Verdict::Solved);
    }
}

TEST(depth_first_threads_already_won_and_dead) {
    const Rules& fc = preset("freecell");
    State won = make_state(fc, {});
    won.found = implied_found(fc, won);
    const Result res = deep(fc, won, 2);
    CHECK_EQ(res.verdict, Verdict::Solved);
    CHECK(res.moves.empty());
    // 2H covers AH and no 3 is exposed for it: nothing moves.
    const Rules& bd = preset("bakers_dozen");
    State dead = make_state(bd, {"AH 2H", "3H 4H 5H 6H 7H 8H 9H TH JH QH KH"});
    dead.found = implied_found(bd, dead);
    const Result none = deep(bd, dead, 2);
    CHECK_EQ(none.verdict, Verdict::Impossible);
    CHECK_EQ(none.stats.expanded, 1u);
}

TEST(depth_first_threads_node_limit) {
    Limits limits;
    limits.max_nodes = 20'000;
    const Result res = deep(preset("bakers_dozen"), hard_deal(), 2, limits);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("node limit"));
    // Each thread checks the shared count every few hundred expansions.
    CHECK(res.stats.expanded >= 20'000u);
    CHECK(res.stats.expanded < 20'000u + 2 * 256);
}

TEST(depth_first_threads_memory_limit_holds) {
    for (std::uint64_t bytes : {std::uint64_t{1}, std::uint64_t{16} << 20}) {
        check::Context ctx(std::to_string(bytes) + " bytes");
        Limits limits;
        limits.max_bytes = bytes;
        const Result res = deep(preset("bakers_dozen"), hard_deal(), 2, limits);
        CHECK_EQ(res.verdict, Verdict::Unknown);
        CHECK_EQ(res.reason, std::string("memory limit"));
        CHECK(res.stats.peak_bytes <= bytes || bytes == 1);
    }
}

TEST(depth_first_threads_time_limit_and_stop) {
    Limits limits;
    limits.max_seconds = 0.05;
    limits.max_nodes = 20'000'000;  // a bound if the clock were never read
    Result res = deep(preset("bakers_dozen"), hard_deal(), 2, limits);
    CHECK_EQ(res.reason, std::string("time limit"));
    CHECK(res.stats.seconds < 5);
    const std::atomic<bool> stop{true};
    res = deep(preset("bakers_dozen"), hard_deal(), 2, {}, &stop);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("interrupted"));
}

TEST(depth_first_threads_poll_sees_the_search_and_stops_it) {
    Limits limits;
    limits.max_seconds = 20;  // a bound if the poll never stopped it
    std::uint64_t last = 0;
    int calls = 0;
    const Result res = deep(preset("bakers_dozen"), hard_deal(), 2, limits, nullptr, [&](const Progress& p) {
        CHECK(p.expanded >= last);
        last = p.expanded;
        return ++calls == 5;
    });
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("interrupted"));
    CHECK_EQ(calls, 5);
    CHECK(last > 0);
}

TEST(depth_first_threads_random_positions_agree_with_work_handed_over_at_once) {
    // Mid-game positions of random walks, searched on one thread and on two or three that
    // start together (help_from 0), so that work changes hands from the first positions
    // on: where both decide, the verdicts agree and a proof stores and expands exactly
    // one thread's positions; a win replays.
    int compared = 0, proofs = 0;
    Limits limits;
    limits.max_nodes = 200'000;
    for (const char* game : {"bakers_game", "bulochnik", "bakers_dozen", "freecell36"}) {
        const Rules& r = preset(game);
        int step_no = 0;
        random_walks(r, 900, 6, 80, 41, nullptr, [&](const Step& step) {
            if (++step_no % 4 != 0) return;
            check::Context ctx(std::string(game) + ", walk step " + std::to_string(step_no));
            const State& s = step.after.s;
            const Result one = solve_depth_first(r, s, limits, nullptr, {});
            const Result many = solve_depth_first_threads(r, s, limits, nullptr, {}, 2 + step_no % 2, 0);
            if (one.verdict == Verdict::Unknown || many.verdict == Verdict::Unknown) {
                CHECK(one.verdict != Verdict::Impossible);  // a proof within the limit is one
                CHECK(many.verdict != Verdict::Impossible || one.verdict == Verdict::Unknown);
                return;
            }
            ++compared;
            CHECK_EQ(many.verdict, one.verdict);
            if (many.verdict == Verdict::Impossible) {
                ++proofs;
                CHECK_EQ(many.stats.stored, one.stats.stored);
                CHECK_EQ(many.stats.expanded, one.stats.expanded);
            } else {
                CHECK_EQ(replay(r, s, many.moves, false), std::string());
            }
        });
    }
    CHECK(compared >= 300);  // 480 and 217 at the time of writing
    CHECK(proofs >= 100);
}
