#include "portfolio.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "best_first.hpp"
#include "depth_first.hpp"
#include "give_back.hpp"
#include "limit_watch.hpp"
#include "rollout.hpp"
#include "streamline.hpp"

namespace bakers {
namespace {

constexpr std::uint64_t kFirstBudget = 10'000;  // expanded positions a run in round 0
constexpr std::uint64_t kGrowth = 4;             // a round's budget over the one before

enum class Run : std::uint8_t { BestFirst, Restricted, Rollouts, DepthProgress, DepthSpace };
constexpr std::array<Run, 5> kRuns{Run::BestFirst, Run::Restricted, Run::Rollouts, Run::DepthProgress,
                                   Run::DepthSpace};
using Retired = std::array<bool, kRuns.size()>;

// Returns true if the run only looks for wins (it never says "impossible").
constexpr bool wins_only(Run run) { return run == Run::Restricted || run == Run::Rollouts; }

// The runs that do not apply to the rules, retired from the start: the restricted pass
// (streamline.hpp) where the suits are not interchangeable (its merged key is what
// shrinks its space: measured in docs/benchmarks.md, "Restricted passes").
Retired first_retired(const Rules& rules) {
    Retired retired{};
    for (std::size_t i = 0; i < kRuns.size(); ++i)
        retired[i] = kRuns[i] == Run::Restricted && !suits_interchangeable(rules);
    return retired;
}

// The restricted pass's budget in a round: kRestrictedShare times the others'. Its
// space is small: it wins or runs dry (and retires) within a few thousand positions in
// most deals, so a larger budget costs little and wins sooner (docs/benchmarks.md,
// "Restricted passes").
constexpr std::uint64_t kRestrictedShare = 2;

// Returns a run's budget in a round whose budget is `budget`.
std::uint64_t run_budget(Run run, std::uint64_t budget) {
    return run == Run::Restricted ? budget * kRestrictedShare : budget;
}

// Returns true when every complete search is retired (out of memory): the runs that only
// look for wins can never say "impossible", so the portfolio ends there ("memory limit").
bool complete_runs_retired(const Retired& retired) {
    for (std::size_t i = 0; i < kRuns.size(); ++i)
        if (!wins_only(kRuns[i]) && !retired[i]) return false;
    return true;
}

// Returns true if a run that ended with `reason` is not started again: it is out of
// memory (a larger budget needs more), the rollouts have no child to roll out from, or
// the restricted pass searched its whole space (a larger budget would do it again).
bool retires(const std::string& reason) {
    return reason == "memory limit" || reason == "no line" || reason == kRestrictedDry;
}

// The depth-first runs' order in round `round` (child_order.hpp's shuffle seed): the
// heuristic's in round 0, then another order near it each round, so that a deal that
// sends one order down a long fruitless branch does not get that order again with every
// larger budget (the runs are complete in any order: the same verdicts, a proof expands
// the same positions). Measured on the training range: docs/benchmarks.md, "Shuffled
// depth-first orders".
std::uint64_t shuffle_seed(std::uint64_t round) { return round; }

// Runs one search of round `round` (the rollouts' seed: each round draws afresh).
Result run_one(Run run, std::uint64_t round, const Rules& rules, const State& start, const Limits& limits,
               const std::atomic<bool>* stop, const StopPoll& poll) {
    switch (run) {
        case Run::Restricted: return solve_streamlined(rules, start, limits, stop, poll);
        case Run::BestFirst: return solve_best_first(rules, start, limits, stop, poll, 1);
        case Run::Rollouts: return solve_rollouts(rules, start, limits, stop, poll, round);
        case Run::DepthProgress:
            return solve_depth_first(rules, start, limits, stop, poll, ChildOrder::Progress, 0, 0, nullptr,
                                     shuffle_seed(round));
        case Run::DepthSpace:
            return solve_depth_first(rules, start, limits, stop, poll, ChildOrder::Space, 0, 0, nullptr,
                                     shuffle_seed(round));
    }
    return {};
}

}  // namespace

namespace {

Result one_thread(const Rules& rules, const State& start, const Limits& limits,
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
    Retired retired = first_retired(rules);
    std::uint64_t round = 0;
    for (std::uint64_t budget = kFirstBudget;; budget *= kGrowth, ++round) {
        for (std::size_t i = 0; i < kRuns.size(); ++i) {
            if (retired[i]) continue;
            // Positions and seconds count over all runs; stored positions per run.
            if (const char* why = watch.reached(total.expanded, 0, false)) return unknown(why);  // each run polls
            Limits each = limits;
            const std::uint64_t own = run_budget(kRuns[i], budget);
            each.max_nodes = limits.max_nodes ? std::min(own, limits.max_nodes - total.expanded) : own;
            if (limits.max_seconds > 0)  // what is left, kept above 0 (0 would mean no limit)
                each.max_seconds = std::max(1e-9, limits.max_seconds - watch.seconds());
            // The poll sees the counts of the runs before this one added to its own.
            const StopPoll inner = !poll ? StopPoll{} : [&](const Progress& p) {
                return poll(Progress{total.expanded + p.expanded, total.stored + p.stored, watch.seconds(),
                                     std::max(total.most_home, p.most_home)});
            };
            Result r = run_one(kRuns[i], round, rules, start, each, stop, inner);
            give_back_memory(r.stats.peak_bytes);  // the next run's memory is not held beside it
            total.add_run(r.stats);
            if (r.verdict != Verdict::Unknown) return finish(std::move(r));
            if (retires(r.reason))
                retired[i] = true;
            else if (r.reason != "node limit")
                return unknown(r.reason);  // time, stored positions, interrupted
        }
        if (complete_runs_retired(retired))
            return unknown("memory limit");
    }
}

// The portfolio on several threads: the same runs in the same order, each thread taking
// the next run when it is free, so that a run of a later round need not wait for every
// run before it. The first verdict ends every run (they share a stop flag). Limits: the
// positions of all runs never pass max_nodes (each run's budget is reserved from what
// is left when it starts), seconds count from the start, memory is split evenly between
// the threads (max_bytes / threads a run), stored positions count per run; the calling
// thread polls the caller's stop flag and poll (Ctrl-C) and watches the seconds.
class Concurrent {
public:
    Concurrent(const Rules& rules, const State& start, const Limits& limits,
               const std::atomic<bool>* stop, const StopPoll& poll, int threads)
        : rules_(rules), start_(start), limits_(limits), whole_(whole(limits)), watch_(whole_, stop, poll),
          threads_(threads), retired_(first_retired(rules)), live_(static_cast<std::size_t>(threads)),
          worker_peak_(static_cast<std::size_t>(threads), 0) {
        // A report can come before any run has polled: it shows the start's cards home.
        total_.most_home = start.home();
    }

    Result run() {
        std::vector<std::thread> workers;
        for (int t = 0; t < threads_; ++t) workers.emplace_back([this, t] { work(t); });
        {
            std::unique_lock<std::mutex> lock(mutex_);
            while (working_ > 0) {
                cv_.wait_for(lock, std::chrono::milliseconds(20));
                if (working_ == 0) break;
                // Once halted (a verdict, a limit, or the poll said stop), the runs are
                // ending: the poll is not asked again while they finish their last check.
                if (halt_) continue;
                std::uint64_t expanded = total_.expanded, stored = total_.stored;
                int most_home = total_.most_home;
                for (const Live& l : live_) {
                    expanded += l.expanded.load(std::memory_order_relaxed);
                    stored += l.stored.load(std::memory_order_relaxed);
                    most_home = std::max(most_home, l.most_home.load(std::memory_order_relaxed));
                }
                lock.unlock();
                const char* why = watch_.reached(expanded, stored, true, most_home);
                lock.lock();
                if (why && !halt_) reason_ = why, halt_ = true;
            }
        }
        for (auto& w : workers) w.join();
        Result res = decided_ ? std::move(won_) : Result{};
        if (!decided_) res.reason = !reason_.empty() ? reason_ : complete_runs_retired(retired_) ? "memory limit" : "node limit";
        res.stats = total_;
        res.stats.peak_bytes = 0;  // at most one run a thread at once: each thread's largest
        for (std::uint64_t p : worker_peak_) res.stats.peak_bytes += p;
        res.stats.seconds = watch_.seconds();
        return res;
    }

private:
    struct Live {
        std::atomic<std::uint64_t> expanded{0}, stored{0};
        std::atomic<int> most_home{0};
    };

    // Takes the next run (its place in kRuns) and its round and its limits (the caller holds the lock);
    // false when none is left.
    bool take(std::size_t& which, std::uint64_t& round, Limits& each) {
        if (complete_runs_retired(retired_)) return false;
        while (retired_[next_ % kRuns.size()]) ++next_;
        which = next_ % kRuns.size();
        round = next_ / kRuns.size();
        std::uint64_t budget = kFirstBudget;
        for (std::size_t r = round; r > 0 && budget < (std::uint64_t{1} << 60); --r) budget *= kGrowth;
        budget = run_budget(kRuns[which], budget);
        if (limits_.max_nodes) {
            if (reserved_ >= limits_.max_nodes) return false;
            budget = std::min(budget, limits_.max_nodes - reserved_);
            reserved_ += budget;
        }
        ++next_;
        each = limits_;
        each.max_nodes = budget;
        if (limits_.max_bytes) each.max_bytes = std::max<std::uint64_t>(1, limits_.max_bytes / threads_);
        if (limits_.max_seconds > 0) each.max_seconds = std::max(1e-9, limits_.max_seconds - watch_.seconds());
        return true;
    }

    void work(int t) {
        Live& live = live_[static_cast<std::size_t>(t)];
        // A run's own poll only shows its counts to the calling thread; the shared flag stops it.
        const StopPoll show = [&live](const Progress& p) {
            live.expanded.store(p.expanded, std::memory_order_relaxed);
            live.stored.store(p.stored, std::memory_order_relaxed);
            live.most_home.store(p.most_home, std::memory_order_relaxed);
            return false;
        };
        for (;;) {
            std::size_t which = 0;
            std::uint64_t round = 0;
            Limits each;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                if (halt_ || !take(which, round, each)) break;
            }
            Result r = run_one(kRuns[which], round, rules_, start_, each, &halt_, show);
            give_back_memory(r.stats.peak_bytes);  // the thread's next run is not held beside it
            std::lock_guard<std::mutex> lock(mutex_);
            live.expanded.store(0, std::memory_order_relaxed);
            live.stored.store(0, std::memory_order_relaxed);
            total_.add_run(r.stats);
            auto& peak = worker_peak_[static_cast<std::size_t>(t)];
            peak = std::max(peak, r.stats.peak_bytes);
            if (limits_.max_nodes) reserved_ -= each.max_nodes - std::min(each.max_nodes, r.stats.expanded);
            if (r.verdict != Verdict::Unknown) {
                if (!decided_) won_ = std::move(r), decided_ = true;
                halt_ = true;
            } else if (retires(r.reason)) {
                retired_[which] = true;
            } else if (r.reason != "node limit" && !halt_) {
                reason_ = r.reason;  // time or stored positions
                halt_ = true;
            }
        }
        std::lock_guard<std::mutex> lock(mutex_);
        --working_;
        cv_.notify_all();
    }

    // The limits of the whole run as the calling thread watches them: stored positions
    // count per run, so not here (the poll still gets the runs' sum).
    static Limits whole(Limits l) {
        l.max_states = 0;
        return l;
    }

    const Rules& rules_;
    const State& start_;
    const Limits limits_;
    const Limits whole_;
    LimitWatch watch_;
    const int threads_;
    std::mutex mutex_;  // everything below but live_ and halt_
    std::condition_variable cv_;
    int working_ = threads_;
    std::size_t next_ = 0;         // the next run: round next_ / kRuns.size(), run next_ % kRuns.size()
    std::uint64_t reserved_ = 0;   // positions of finished runs and budgets of running ones
    Retired retired_;
    std::atomic<bool> halt_{false};
    bool decided_ = false;
    Result won_;
    std::string reason_;
    Stats total_;
    std::vector<Live> live_;
    std::vector<std::uint64_t> worker_peak_;
};

}  // namespace

Result solve_portfolio(const Rules& rules, const State& start, const Limits& limits,
                       const std::atomic<bool>* stop, const StopPoll& poll, int threads) {
    if (threads <= 1) return one_thread(rules, start, limits, stop, poll);
    return Concurrent(rules, start, limits, stop, poll, std::min(threads, kMaxSearchThreads)).run();
}

}  // namespace bakers
