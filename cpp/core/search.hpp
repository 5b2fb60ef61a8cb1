// What every search takes and gives: the limits, the method, the verdict, the result and
// its counts, the progress the stop poll sees. The searches are in best_first.hpp,
// depth_first.hpp, depth_first_threads.hpp, portfolio.hpp, beam.hpp and rollout.hpp;
// solve.hpp picks one.
#pragma once

#include <algorithm>
#include <atomic>  // every search takes a stop flag, std::atomic<bool>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "moves.hpp"

namespace bakers {

// The most threads one search takes (they share its visited set; many deals go faster
// one search a thread, pool.hpp).
inline constexpr int kMaxSearchThreads = 16;

struct Limits {
    std::uint64_t max_nodes = 0;   // positions expanded; 0 = no limit
    std::uint64_t max_states = 0;  // positions stored; 0 = no limit
    std::uint64_t max_bytes = 0;   // bytes held by the search; 0 = no limit
    double max_seconds = 0;        // wall-clock seconds; 0 = no limit
    // Under max_bytes, depth first forgets positions to go on instead of stopping with
    // "memory limit" (depth_first.hpp); slower, never less exact. Other searches ignore it.
    bool forget = false;
};

struct Stats {
    std::uint64_t expanded = 0;    // positions whose moves were generated
    std::uint64_t generated = 0;   // child positions made
    std::uint64_t stored = 0;      // distinct positions kept (forgotten and kept again: twice)
    std::uint64_t peak_bytes = 0;  // most bytes held at once (table, nodes, open list)
    double seconds = 0;
    int most_home = 0;             // most cards on the foundations in any position seen

    // Adds the counts of a run that came after these (a search of rounds): positions
    // add up, the peak and the most cards home are the largest run's; seconds are left.
    void add_run(const Stats& run) {
        expanded += run.expanded;
        generated += run.generated;
        stored += run.stored;
        peak_bytes = std::max(peak_bytes, run.peak_bytes);
        most_home = std::max(most_home, run.most_home);
    }
};

// How to search: best first (best_first.hpp: short lines, fast wins), depth first
// (depth_first.hpp: the same verdicts in a fraction of the memory, long lines), a
// portfolio of both and nested rollouts (portfolio.hpp: for games where each finds wins
// the others miss), or rounds of beam search (beam.hpp: one thread, for wins in tight
// games that the others' lines miss), or the dive then the exact search, depth first
// where cards build by suit, else best first (dive.hpp: cheap scans that only look for
// wins, the exact search behind them). All are complete.
enum class Method : std::uint8_t { BestFirst, DepthFirst, Portfolio, Beam, Dive };

enum class Verdict : std::uint8_t { Solved, Impossible, Unknown };

struct Result {
    Verdict verdict = Verdict::Unknown;
    std::vector<Move> moves;    // the winning line, every move one the rules allow at once
    std::vector<Move> compact;  // the same line with supermoves kept whole
    // The number of single moves of the win: moves.size(), or, when the caller asked for
    // no line (solve's `line`), the same number counted without writing the line out.
    std::size_t move_count = 0;
    Stats stats;
    std::string reason;       // why "unknown": which limit, or "interrupted"
};

// The counts of a search under way, as the stop poll sees them.
struct Progress {
    std::uint64_t expanded = 0;  // positions expanded so far (every run of a portfolio)
    std::uint64_t stored = 0;    // positions stored so far (the portfolio: its runs' sum)
    double seconds = 0;          // since the search started
    int most_home = 0;           // most cards home in any position seen so far
};

// Called about every 50 ms with the counts so far (to show progress); returning true
// stops the search ("interrupted").
using StopPoll = std::function<bool(const Progress&)>;

}  // namespace bakers
