// The beam search: the verdicts of the complete searches (a proof only from a round that
// kept every position), wins replayed, the one-cell wins the other searches miss, the
// limits.

#include <atomic>
#include <cstdint>
#include <string>

#include "beam.hpp"
#include "check.hpp"
#include "support.hpp"

namespace {

using namespace support;

Result beam(const Rules& r, const State& start, const Limits& limits = {},
            const std::atomic<bool>* stop = nullptr) {
    return solve(r, start, limits, stop, {}, 1, Method::Beam);
}

void check_won(const Rules& r, const State& start, const Result& res) {
    CHECK_EQ(res.verdict, Verdict::Solved);
    CHECK_EQ(replay(r, start, res.moves, false), std::string());
    CHECK_EQ(replay(r, start, res.compact, true), std::string());
}

TEST(beam_verdicts_equal_best_first) {
    int impossible = 0;
    for (const auto& [game, n, cells] : {std::tuple{"bakers_game", 1, -1}, {"bakers_game", 14, -1},
                                         {"bakers_game", 10, -1}, {"bakers_game", 22, -1},
                                         {"freecell", 1, 2}, {"freecell", 1, 3},
                                         {"bulochnik", 1, -1},
                                         {"freecell36", 2, -1}}) {
        Rules r = preset(game);
        if (cells >= 0) r.cells = cells;
        check::Context ctx(std::string(game) + " " + std::to_string(n) + " cells " + std::to_string(r.cells));
        const State start = dealt(r, static_cast<std::uint64_t>(n));
        const Result wide = beam(r, start);
        const Result best = solve(r, start, Limits{});
        CHECK_EQ(wide.verdict, best.verdict);
        CHECK(wide.verdict != Verdict::Unknown);
        if (wide.verdict == Verdict::Solved) check_won(r, start, wide);
        if (wide.verdict == Verdict::Impossible) {
            ++impossible;
            // The proof is an uncut round, which stored every reachable position (the
            // statistics add up all rounds).
            CHECK(wide.stats.stored >= best.stats.stored);
            CHECK(wide.moves.empty());
        }
    }
    CHECK(impossible >= 3);  // proofs, not only wins
}

TEST(beam_wins_freecell_14497_with_one_cell) {
    // Depth first found no win within 500 million positions, best first none within
    // 4.5 GB; the first round (1,000 positions a level) wins.
    Rules r = preset("freecell");
    r.cells = 1;
    const State start = dealt(r, 14497);
    const Result res = beam(r, start);
    check_won(r, start, res);
    CHECK(res.stats.expanded < kBeamFirstWidth * 200);
}

TEST(beam_limits) {
    Rules r = preset("freecell");
    r.cells = 1;
    const State start = dealt(r, 24966);  // no win with one cell found by any search
    Limits nodes;
    nodes.max_nodes = 50'000;  // counted over the rounds
    Result res = beam(r, start, nodes);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("node limit"));
    CHECK(res.stats.expanded >= 50'000u && res.stats.expanded < 50'300u);
    Limits memory;
    memory.max_bytes = 8u << 20;
    res = beam(r, start, memory);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("memory limit"));
    CHECK(res.stats.peak_bytes <= memory.max_bytes);
    const std::atomic<bool> stop{true};
    res = beam(r, start, Limits{}, &stop);
    CHECK_EQ(res.verdict, Verdict::Unknown);
    CHECK_EQ(res.reason, std::string("interrupted"));
    CHECK_EQ(res.stats.expanded, 0u);
}

}  // namespace
