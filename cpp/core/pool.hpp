// Worker threads for many deals: each thread takes the next job (a deal number, dealt in
// C++, or a given position), searches it on its own, and hands the result to the one
// consumer, in the order results finish or, on request, in input order.
//
// Design. Jobs are claimed through one atomic counter, so threads never wait for each
// other to start work. Results go through one mutex-guarded queue with a condition
// variable; in ordered mode they wait in a map until every earlier job is done. One
// atomic stop flag ends every running search within a few milliseconds (they answer
// "unknown", reason "interrupted", and such rows are dropped). The memory limit of a
// run is split evenly between the threads, so the whole run stays under it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "search.hpp"

namespace bakers {

// The most worker threads one run of many deals starts (each runs one search at a time;
// a bound that keeps a mistyped count from starting millions of threads).
inline constexpr int kMaxPoolThreads = 1024;

// One finished job.
struct RangeRow {
    std::size_t index = 0;       // position of the job in the input
    std::uint64_t number = 0;    // the deal number (numbered jobs), else 0
    std::size_t move_count = 0;  // single moves of the win (kept when its moves are not)
    Result result;
};

class RangeRun {
public:
    // Decides deals `numbers` of a game (dealt in C++), or the positions `starts`, each
    // by one search of `method` on one thread.
    RangeRun(const Rules& rules, std::vector<std::uint64_t> numbers, std::vector<State> starts,
             int threads, const Limits& limits, bool ordered, bool keep_moves,
             Method method = Method::BestFirst);
    ~RangeRun();
    RangeRun(const RangeRun&) = delete;
    RangeRun& operator=(const RangeRun&) = delete;

    // Waits up to `ms` milliseconds for the next row. Returns it, or nothing when the
    // wait timed out; `done()` tells whether every row has been handed out.
    std::optional<RangeRow> next(int ms);
    // Waits until `most` rows are ready, every row is handed out, the run is stopped or
    // `ms` milliseconds pass, and returns the rows ready then (up to `most`, maybe none):
    // a consumer that takes rows in batches wakes about once per `ms` rather than once
    // a row.
    std::vector<RangeRow> take(std::size_t most, int ms);
    // Returns true when every row has been handed out (or the run was stopped).
    bool done() const;
    // Stops every search; rows not yet finished are dropped.
    void stop();
    // Returns the number of jobs.
    std::size_t size() const { return jobs_; }

private:
    void work();

    const Rules rules_;
    const std::vector<std::uint64_t> numbers_;
    const std::vector<State> starts_;
    const std::size_t jobs_;
    Limits limits_;
    const bool ordered_, keep_moves_;
    const Method method_;
    std::atomic<std::size_t> claimed_{0};
    std::atomic<bool> stop_{false};
    mutable std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<RangeRow> queue_;
    std::map<std::size_t, RangeRow> waiting_;  // ordered mode: rows ahead of their turn
    std::size_t handed_ = 0, finished_ = 0;
    // How many rows the consumer waits for: a worker wakes it only then (or at the end),
    // not for every row, when it takes rows in batches.
    std::size_t wake_at_ = 1;
    std::vector<std::thread> threads_;
};

}  // namespace bakers
