#include "portfolio.hpp"

#include <algorithm>
#include <array>

#include "depth_first.hpp"
#include "limit_watch.hpp"

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
    LimitWatch watch(limits, stop, poll);
    Stats total;
    const auto finish = [&](Result r) {
        r.stats = total;
        r.stats.seconds = watch.seconds();
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
            // Positions and seconds count over all runs; stored positions per run.
            if (const char* why = watch.reached(total.expanded, 0, false)) return unknown(why);  // each run polls
            Limits each = limits;
            each.max_nodes = limits.max_nodes ? std::min(budget, limits.max_nodes - total.expanded) : budget;
            if (limits.max_seconds > 0)  // what is left, kept above 0 (0 would mean no limit)
                each.max_seconds = std::max(1e-9, limits.max_seconds - watch.seconds());
            // The poll sees the counts of the runs before this one added to its own.
            const StopPoll inner = !poll ? StopPoll{} : [&](const Progress& p) {
                return poll(Progress{total.expanded + p.expanded, total.stored + p.stored, watch.seconds()});
            };
            Result r = run_one(runs[i], rules, start, each, stop, inner);
            total.add_run(r.stats);
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
