#include "portfolio.hpp"

#include <algorithm>
#include <array>
#include <chrono>

#include "depth_first.hpp"

namespace bakers {
namespace {

constexpr std::uint64_t kFirstBudget = 100'000;  // expanded positions a run in round 0
constexpr std::uint64_t kGrowth = 4;             // a round's budget over the one before

enum class Run : std::uint8_t { BestFirst, DepthProgress, DepthSpace };

Result run_one(Run run, const Rules& rules, const State& start, const Limits& limits,
               const std::atomic<bool>* stop, const StopPoll& poll) {
    switch (run) {
        case Run::BestFirst: return solve(rules, start, limits, stop, poll, 1, Method::BestFirst);
        case Run::DepthProgress: return solve_depth_first(rules, start, limits, stop, poll, ChildOrder::Progress);
        case Run::DepthSpace: return solve_depth_first(rules, start, limits, stop, poll, ChildOrder::Space);
    }
    return {};
}

}  // namespace

Result solve_portfolio(const Rules& rules, const State& start, const Limits& limits,
                       const std::atomic<bool>* stop, const StopPoll& poll) {
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
    Stats total;
    const auto finish = [&](Result r) {
        r.stats = total;
        r.stats.seconds = elapsed();
        return r;
    };
    const auto unknown = [&](const std::string& why) {
        Result r;
        r.reason = why;
        return finish(std::move(r));
    };
    const std::array<Run, 3> runs{Run::BestFirst, Run::DepthProgress, Run::DepthSpace};
    std::array<bool, 3> out_of_memory{};
    for (std::uint64_t budget = kFirstBudget;; budget *= kGrowth) {
        for (std::size_t i = 0; i < runs.size(); ++i) {
            if (out_of_memory[i]) continue;
            Limits each = limits;
            each.max_nodes = budget;
            if (limits.max_nodes) {
                if (total.expanded >= limits.max_nodes) return unknown("node limit");
                each.max_nodes = std::min(budget, limits.max_nodes - total.expanded);
            }
            if (limits.max_seconds > 0) {
                const double left = limits.max_seconds - elapsed();
                if (left <= 0) return unknown("time limit");
                each.max_seconds = left;
            }
            Result r = run_one(runs[i], rules, start, each, stop, poll);
            total.expanded += r.stats.expanded;
            total.generated += r.stats.generated;
            total.stored += r.stats.stored;
            total.peak_bytes = std::max(total.peak_bytes, r.stats.peak_bytes);
            total.most_home = std::max(total.most_home, r.stats.most_home);
            if (r.verdict != Verdict::Unknown) return finish(std::move(r));
            if (r.reason == "memory limit")
                out_of_memory[i] = true;
            else if (r.reason != "node limit")
                return unknown(r.reason);  // time, stored positions, interrupted
        }
        if (std::all_of(out_of_memory.begin(), out_of_memory.end(), [](bool b) { return b; }))
            return unknown("memory limit");
    }
}

}  // namespace bakers
