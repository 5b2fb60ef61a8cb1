#include "pool.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <new>
#include <string>

#include "deal.hpp"
#include "solve.hpp"
#include "state.hpp"

namespace bakers {

RangeRun::RangeRun(const Rules& rules, std::vector<std::uint64_t> numbers,
                   std::vector<State> starts, int threads, const Limits& limits, bool ordered,
                   bool keep_moves, Method method)
    : rules_(rules),
      numbers_(std::move(numbers)),
      starts_(std::move(starts)),
      jobs_(numbers_.empty() ? starts_.size() : numbers_.size()),
      limits_(limits),
      ordered_(ordered),
      keep_moves_(keep_moves),
      method_(method) {
    if (threads < 1) threads = 1;
    if (limits_.max_bytes) limits_.max_bytes /= static_cast<std::uint64_t>(threads);
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

RangeRun::~RangeRun() {
    stop();
    for (auto& t : threads_) t.join();
}

void RangeRun::stop() {
    stop_.store(true);
    std::lock_guard<std::mutex> lock(mutex_);
    ready_.notify_all();
}

bool RangeRun::done() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return handed_ == jobs_ || (stop_.load() && queue_.empty());
}

void RangeRun::work() {
    for (;;) {
        const std::size_t i = claimed_.fetch_add(1);
        if (i >= jobs_ || stop_.load()) return;
        RangeRow row;
        row.index = i;
        State start;
        if (!numbers_.empty()) {
            row.number = numbers_[i];
            Layout layout;
            deal_number(rules_, row.number, layout);  // numbers were checked by the caller
            start = state_from_layout(rules_, layout);
        } else {
            start = starts_[i];
        }
        try {
            row.result = solve(rules_, start, limits_, &stop_, {}, 1, method_, keep_moves_);
        } catch (const std::bad_alloc&) {
            // An exception must not leave a worker thread (std::terminate): the deal is
            // reported unknown and the run goes on.
            row.result = Result{};
            row.result.reason = "out of memory";
        } catch (const std::exception& e) {
            row.result = Result{};
            row.result.reason = std::string("error: ") + e.what();
        }
        if (stop_.load() && row.result.reason == "interrupted") return;
        row.move_count = row.result.move_count;
        if (!keep_moves_) {
            row.result.moves.clear();
            row.result.moves.shrink_to_fit();
            row.result.compact.clear();
            row.result.compact.shrink_to_fit();
        }
        std::lock_guard<std::mutex> lock(mutex_);
        ++finished_;
        if (ordered_)
            waiting_.emplace(i, std::move(row));
        else
            queue_.push_back(std::move(row));
        if (ordered_)
            for (auto it = waiting_.find(handed_ + queue_.size()); it != waiting_.end();
                 it = waiting_.find(handed_ + queue_.size())) {
                queue_.push_back(std::move(it->second));
                waiting_.erase(it);
            }
        if (queue_.size() >= wake_at_ || finished_ == jobs_) ready_.notify_all();
    }
}

std::optional<RangeRow> RangeRun::next(int ms) {
    std::unique_lock<std::mutex> lock(mutex_);
    wake_at_ = 1;
    ready_.wait_for(lock, std::chrono::milliseconds(ms),
                    [this] { return !queue_.empty() || stop_.load() || handed_ == jobs_; });
    if (queue_.empty()) return std::nullopt;
    RangeRow row = std::move(queue_.front());
    queue_.pop_front();
    ++handed_;
    return row;
}

std::vector<RangeRow> RangeRun::take(std::size_t most, int ms) {
    std::vector<RangeRow> rows;
    std::unique_lock<std::mutex> lock(mutex_);
    wake_at_ = std::max<std::size_t>(most, 1);
    ready_.wait_for(lock, std::chrono::milliseconds(ms), [this, most] {
        return queue_.size() >= most || stop_.load() || handed_ + queue_.size() == jobs_;
    });
    const std::size_t n = std::min(most, queue_.size());
    rows.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        rows.push_back(std::move(queue_.front()));
        queue_.pop_front();
    }
    handed_ += n;
    return rows;
}

}  // namespace bakers
