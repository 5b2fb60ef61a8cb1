// The depth-first search: the same verdicts as the best-first search (reference data and
// positions known by construction), every line replayed, the limits (memory included).

#include <atomic>
#include <cstdint>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "check.hpp"
#include "depth_first.hpp"
#include "support.hpp"

namespace {

using namespace support;

Result depth_first(const Rules& r, const State& start, const Limits& limits = {},
                   const std::atomic<bool>* stop = nullptr) {
    return solve(r, start, limits, stop, {}, 1, Method::DepthFirst);
}

// Decides a deal both ways; checks that the verdicts agree and that a depth-first win
// replays; returns the depth-first verdict.
Verdict check_agrees(const Rules& r, std::uint64_t n) {
    check::Context ctx("deal " + std::to_string(n));
    const State start = dealt(r, n);
    const Result best = solve(r, start, Limits{});
    const Result deep = depth_first(r, start);
    CHECK_EQ(deep.verdict, best.verdict);
    CHECK(deep.verdict != Verdict::Unknown);
    CHECK_EQ(deep.reason, std::string());
    if (deep.verdict == Verdict::Solved) {
        CHECK_EQ(replay(r, start, deep.moves, false), std::string());
        CHECK_EQ(replay(r, start, deep.compact, true), std::string());
    } else {
        CHECK(deep.moves.empty());
    }
    // A complete search sees every reachable position: both store the same ones when
    // neither met a win.
    if (deep.verdict == Verdict::Impossible) {
        CHECK_EQ(deep.stats.stored, best.stats.stored);
        CHECK_EQ(deep.stats.most_home, best.stats.most_home);
    }
    return deep.verdict;
}

// Searches deal n under a memory limit of `bytes`; checks that the limit ended the
// search and that the bytes held never passed it; returns the result.
Result stopped_by_memory(const Rules& r, std::uint64_t n, std::uint64_t bytes) {
    Limits limits;
    limits.max_bytes = bytes;
    const Result res = depth_first(r, dealt(r, n), limits);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("memory limit"));
    CHECK(res.stats.peak_bytes <= bytes);
    return res;
}

// Returns the verdicts of a reference file of lines "deal<TAB>verdict<TAB>...".
std::map<std::uint64_t, std::string> verdicts(const std::string& file) {
    std::map<std::uint64_t, std::string> out;
    const auto lines = read_lines(data_path(file));
    for (std::size_t i = 1; i < lines.size(); ++i) {
        std::istringstream in(lines[i]);
        std::uint64_t n = 0;
        std::string verdict;
        if (in >> n >> verdict) out[n] = verdict;
    }
    return out;
}

}  // namespace

TEST(depth_first_bakers_game_reference_verdicts) {
    const Rules& r = preset("bakers_game");
    const auto known = verdicts("bakers_game_ms_1-1000.tsv");
    int impossible = 0;
    for (std::uint64_t n = 1; n <= 40; ++n) {
        const Verdict v = check_agrees(r, n);
        if (CHECK(known.count(n))) CHECK_EQ(v == Verdict::Solved, known.at(n) == "winnable");
        impossible += v == Verdict::Impossible;
    }
    CHECK(impossible >= 5);  // the sample holds proofs, not only wins
}

TEST(depth_first_shuffled_orders_keep_the_verdicts) {
    // Another order of the children changes how soon a win is met (sooner or much later:
    // hence the limit), never a verdict; a proof expands every position reachable, in
    // any order: the same count. Baker's Game, three seeds.
    const Rules& r = preset("bakers_game");
    const auto known = verdicts("bakers_game_ms_1-1000.tsv");
    int impossible = 0, won = 0, moved = 0;
    Limits limits;
    limits.max_nodes = 200'000;
    for (std::uint64_t n = 1; n <= 20; ++n) {
        const State start = dealt(r, n);
        const Result plain = solve_depth_first(r, start, limits, nullptr, {});
        if (CHECK(known.count(n))) CHECK_EQ(plain.verdict == Verdict::Solved, known.at(n) == "winnable");
        impossible += plain.verdict == Verdict::Impossible;
        for (std::uint64_t seed : {1, 2, 3}) {
            check::Context ctx(std::to_string(n) + " seed " + std::to_string(seed));
            const Result mixed =
                solve_depth_first(r, start, limits, nullptr, {}, ChildOrder::Progress, 0, 0, nullptr, seed);
            if (plain.verdict == Verdict::Impossible) {
                CHECK_EQ(mixed.verdict, Verdict::Impossible);
                CHECK_EQ(mixed.stats.expanded, plain.stats.expanded);
                CHECK_EQ(mixed.stats.stored, plain.stats.stored);
            } else {
                CHECK(mixed.verdict != Verdict::Impossible);
            }
            if (mixed.verdict == Verdict::Solved) {
                ++won;
                CHECK_EQ(replay(r, start, mixed.moves, false), std::string());
                moved += mixed.stats.expanded != plain.stats.expanded;
            }
        }
    }
    CHECK(impossible >= 2);
    CHECK(won >= 40);    // of 54
    CHECK(moved >= 10);  // the seeds do change the order
    // A checkpoint does not record the seed: the two are refused together.
    Checkpoint file{"unused.ckpt"};
    bool refused = false;
    try {
        solve_depth_first(preset("bakers_game"), dealt(preset("bakers_game"), 1), Limits{}, nullptr, {},
                          ChildOrder::Progress, 0, 0, &file, 1);
    } catch (const std::invalid_argument&) {
        refused = true;
    }
    CHECK(refused);
}

TEST(depth_first_other_presets_agree) {
    for (const char* game : {"freecell", "freecell36", "bulochnik", "bakers_dozen"})
        for (std::uint64_t n : {1, 2, 3}) {
            check::Context ctx(game);
            check_agrees(preset(game), n);
        }
}

TEST(depth_first_fewer_cells) {
    // FreeCell MS 1 with two cells is impossible (a complete search of ~119,000
    // positions), with three winnable: both searches must say so.
    Rules r = preset("freecell");
    for (int cells : {2, 3}) {
        check::Context ctx(std::to_string(cells) + " cells");
        r.cells = cells;
        const Verdict v = check_agrees(r, 1);
        CHECK_EQ(v, cells == 2 ? Verdict::Impossible : Verdict::Solved);
    }
}

TEST(depth_first_freecell_ms11982_is_impossible) {
    const Rules& r = preset("freecell");
    const Result res = depth_first(r, dealt(r, 11982));
    CHECK_EQ(res.verdict, Verdict::Impossible);
}

TEST(depth_first_node_limit) {
    const Rules& r = preset("bakers_dozen");
    Limits limits;
    limits.max_nodes = 10;
    const Result res = depth_first(r, dealt(r, 417), limits);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("node limit"));
    CHECK_EQ(res.stats.expanded, 10u);
}

TEST(depth_first_memory_limit_holds) {
    // Baker's Dozen 417 is undecided after billions of positions: a 10 MB limit ends the search,
    // and the bytes held never passed it.
    const Rules& r = preset("bakers_dozen");
    const Result res = stopped_by_memory(r, 417, 10u << 20);
    CHECK(res.stats.stored > 50'000u);  // the limit was used, not refused at the start
    Limits limits;
    limits.max_bytes = 1;
    CHECK_EQ(depth_first(r, dealt(r, 417), limits).reason, std::string("memory limit"));
}

TEST(depth_first_long_line_in_little_memory) {
    // FreeCell MS 24966 with one cell: depth first's line grows long (tens of thousands
    // of frames here) and, in a debug build, every segment of it made again from its mark
    // is checked against the key the position had. A frame costs a few bytes, so 8 MB
    // hold over 300,000 positions (about 120,000 when each frame kept its position).
    Rules r = preset("freecell");
    r.cells = 1;
    CHECK(stopped_by_memory(r, 24966, 8u << 20).stats.stored > 300'000u);
}

TEST(depth_first_dense_table_makes_the_same_search) {
    // With the keys moved to the dense table at once (dense_from 1 byte), the search
    // expands and stores exactly the positions it does with table.hpp's table alone.
    Rules two = preset("freecell");
    two.cells = 2;  // FreeCell MS 1 with two cells: impossible, 70,882 positions
    const std::vector<std::pair<Rules, std::uint64_t>> cases = {
        {two, 1}, {preset("bakers_game"), 1}, {preset("bakers_game"), 10}, {preset("bakers_dozen"), 2}};
    int i = 0;
    Limits limits;
    limits.max_bytes = 64u << 20;
    for (const auto& [r, n] : cases) {
        check::Context ctx("case " + std::to_string(i++) + ", deal " + std::to_string(n));
        const State start = dealt(r, n);
        const Result plain = solve_depth_first(r, start, limits, nullptr, {});
        const Result dense = solve_depth_first(r, start, limits, nullptr, {}, ChildOrder::Progress, 1);
        CHECK(plain.verdict != Verdict::Unknown);
        CHECK_EQ(dense.verdict, plain.verdict);
        CHECK_EQ(dense.stats.expanded, plain.stats.expanded);
        CHECK_EQ(dense.stats.stored, plain.stats.stored);
        CHECK_EQ(dense.stats.most_home, plain.stats.most_home);
        CHECK(dense.stats.peak_bytes > 32u << 20);  // the dense table was made
        CHECK(dense.stats.peak_bytes <= limits.max_bytes);
        if (dense.verdict == Verdict::Solved) CHECK_EQ(replay(r, start, dense.moves, false), std::string());
    }
}

TEST(depth_first_in_a_large_table_makes_the_same_search) {
    // In a table of 64 MB or more the children's keys are made first and their buckets
    // asked for ahead (depth_first.cpp, kAheadFrom): the same positions, in the same order.
    Rules two = preset("freecell");
    two.cells = 2;
    const std::vector<std::pair<Rules, std::uint64_t>> cases = {
        {two, 1}, {preset("bakers_game"), 1}, {preset("bakers_game"), 10}, {preset("bakers_dozen"), 2}};
    int i = 0;
    for (const bool forget : {false, true}) {
        Limits large;
        large.max_bytes = 256u << 20;  // the dense table takes about 240 MB, touched only where used
        large.forget = forget;
        for (const auto& [r, n] : cases) {
            check::Context ctx("case " + std::to_string(i++) + ", deal " + std::to_string(n));
            const State start = dealt(r, n);
            const Result plain = solve_depth_first(r, start, Limits{}, nullptr, {});
            const Result ahead = solve_depth_first(r, start, large, nullptr, {}, ChildOrder::Progress, 1);
            CHECK(plain.verdict != Verdict::Unknown);
            CHECK_EQ(ahead.verdict, plain.verdict);
            CHECK_EQ(ahead.stats.expanded, plain.stats.expanded);
            CHECK_EQ(ahead.stats.stored, plain.stats.stored);
            CHECK(ahead.stats.peak_bytes > 64u << 20);  // the large table was made
            if (ahead.verdict == Verdict::Solved) {
                CHECK_EQ(ahead.moves.size(), plain.moves.size());
                CHECK_EQ(replay(r, start, ahead.moves, false), std::string());
            }
        }
    }
}

TEST(depth_first_dense_table_keeps_the_memory_limit) {
    // FreeCell 24966 with one cell under 12 MB, the keys going dense at 1 MB: the limit
    // ends the search and the bytes held never passed it.
    Rules r = preset("freecell");
    r.cells = 1;
    Limits limits;
    limits.max_bytes = 12u << 20;
    const Result res = solve_depth_first(r, dealt(r, 24966), limits, nullptr, {}, ChildOrder::Progress, 1u << 20);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("memory limit"));
    CHECK(res.stats.peak_bytes <= limits.max_bytes);
    CHECK(res.stats.stored > 500'000u);
}

TEST(depth_first_that_forgets_keeps_the_memory_limit) {
    // FreeCell 24966 with one cell under 12 MB, the keys going dense at 1 MB, told to
    // forget: the dense table forgets positions to go on to the node limit, and the
    // bytes held never pass the memory limit.
    Rules r = preset("freecell");
    r.cells = 1;
    Limits limits;
    limits.max_bytes = 12u << 20;
    limits.max_nodes = 600'000;
    limits.forget = true;
    const Result res = solve_depth_first(r, dealt(r, 24966), limits, nullptr, {}, ChildOrder::Progress, 1u << 20);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("node limit"));
    CHECK(res.stats.peak_bytes <= limits.max_bytes);
}

TEST(depth_first_decides_in_a_dense_table_that_forgets) {
    // A dense table of 1 MB (81,920 slots) for searches of 234,772 positions (FreeCell 27
    // with one cell: impossible) and 411,123 (FreeCell 33 with one cell: won): it forgets
    // positions and the search meets some of them again, which costs expansions, never a
    // verdict; the win replays. Without `forget` the same table ends the search.
    Rules r = preset("freecell");
    r.cells = 1;
    Limits limits;
    limits.max_bytes = 64u << 20;
    limits.forget = true;
    for (const auto& [n, verdict] : {std::pair{27, Verdict::Impossible}, std::pair{33, Verdict::Solved}}) {
        check::Context ctx("deal " + std::to_string(n));
        const State start = dealt(r, static_cast<std::uint64_t>(n));
        const Result plain = solve_depth_first(r, start, Limits{}, nullptr, {});
        const Result small = solve_depth_first(r, start, limits, nullptr, {}, ChildOrder::Progress, 1, 1u << 20);
        CHECK_EQ(plain.verdict, verdict);
        CHECK_EQ(small.verdict, verdict);
        CHECK(small.stats.stored > plain.stats.stored);  // positions met again after being forgotten
        CHECK(small.stats.stored < 2 * plain.stats.stored);
        CHECK(small.stats.peak_bytes < plain.stats.peak_bytes);
        if (small.verdict == Verdict::Solved) CHECK_EQ(replay(r, start, small.moves, false), std::string());
    }
    limits.forget = false;
    const Result stopped = solve_depth_first(r, dealt(r, 27), limits, nullptr, {}, ChildOrder::Progress, 1, 1u << 20);
    CHECK_EQ(stopped.verdict, Verdict::Unknown);
    CHECK_EQ(stopped.reason, std::string("memory limit"));
}

TEST(depth_first_stop_flag) {
    const std::atomic<bool> stop{true};
    const Rules& r = preset("bakers_game");
    const Result res = depth_first(r, dealt(r, 1), Limits{}, &stop);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("interrupted"));
    CHECK(res.stats.expanded <= 1u);
}

TEST(depth_first_poll_sees_the_search_grow) {
    // The poll gets the counts so far (for a progress display): growing, and at most
    // the final ones.
    const Rules& r = preset("bakers_dozen");
    Limits limits;
    limits.max_seconds = 60;  // a bound if the poll never stopped it
    std::vector<Progress> seen;
    const Result res = solve(r, dealt(r, 417), limits, nullptr, [&](const Progress& p) {
        seen.push_back(p);
        return seen.size() == 3;
    }, 1, Method::DepthFirst);
    CHECK_EQ(res.reason, std::string("interrupted"));
    CHECK_EQ(seen.size(), 3u);
    for (std::size_t i = 1; i < seen.size(); ++i) {
        CHECK(seen[i].expanded > seen[i - 1].expanded);
        CHECK(seen[i].stored > seen[i - 1].stored);
        CHECK(seen[i].seconds > seen[i - 1].seconds);
    }
    CHECK(seen.back().expanded <= res.stats.expanded);
    CHECK(seen.back().stored <= res.stats.stored);
}

TEST(depth_first_stop_poll) {
    // The poll (Ctrl-C in the bindings) is asked within the first check of the limits.
    const Rules& r = preset("bakers_dozen");
    Limits limits;
    limits.max_seconds = 20;  // a bound if the poll were never called
    int calls = 0;
    const Result res = solve(r, dealt(r, 417), limits, nullptr, [&](const Progress&) {
        ++calls;
        return true;
    }, 1, Method::DepthFirst);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("interrupted"));
    CHECK_EQ(calls, 1);
}
