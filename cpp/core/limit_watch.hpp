// The limits both searches check the same way: positions expanded and stored, seconds,
// the stop flag and the stop poll (Ctrl-C). Memory is each search's own affair: what it
// holds differs.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "search.hpp"

namespace bakers {

class LimitWatch {
public:
    LimitWatch(const Limits& limits, const std::atomic<bool>* stop, const StopPoll& poll)
        : limits_(limits), stop_(stop), poll_(poll), t0_(Clock::now()), last_poll_(t0_) {}

    // Returns why the search must stop ("node limit", "state limit", "time limit",
    // "interrupted"), or nullptr. Only the thread with `may_poll` calls the poll, at most
    // every 50 ms, with the counts given (and `most_home`, the most cards home so far).
    const char* reached(std::uint64_t expanded, std::uint64_t stored, bool may_poll, int most_home = 0) {
        if (limits_.max_nodes && expanded >= limits_.max_nodes) return "node limit";
        if (limits_.max_states && stored >= limits_.max_states) return "state limit";
        const auto now = Clock::now();
        if (limits_.max_seconds > 0 && std::chrono::duration<double>(now - t0_).count() > limits_.max_seconds)
            return "time limit";
        if (stop_ && stop_->load(std::memory_order_relaxed)) return "interrupted";
        if (may_poll && poll_ && now - last_poll_ > std::chrono::milliseconds(50)) {
            last_poll_ = now;
            if (poll_(Progress{expanded, stored, std::chrono::duration<double>(now - t0_).count(), most_home}))
                return "interrupted";
        }
        return nullptr;
    }
    // Returns the seconds since the start.
    double seconds() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }

private:
    using Clock = std::chrono::steady_clock;
    const Limits& limits_;
    const std::atomic<bool>* stop_;
    const StopPoll& poll_;
    const Clock::time_point t0_;
    Clock::time_point last_poll_;
};

}  // namespace bakers
