#include "depth_first_threads.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "atomic_max.hpp"
#include "child_order.hpp"
#include "dead_end.hpp"
#include "heuristic.hpp"
#include "limit_watch.hpp"
#include "line.hpp"
#include "new_child.hpp"
#include "table.hpp"

namespace bakers {
namespace {

constexpr std::uint64_t kCheckEvery = 256;  // expansions between two checks of the limits
constexpr std::uint64_t kSlack = 1 << 20;   // bytes a line may grow by between two checks
constexpr int kShardBits = 8;  // 256 shards, each with its lock: a big table grows 1/256 at a time
// A large shard fills to 3/4 before it grows, as in the one-thread search: memory is what
// ends the long proofs depth first is for.
constexpr int kLoadQuarters = 3;
constexpr std::size_t kInitialSlots = 64;  // a shard's start: 192 KB in all, for small searches
// A waiting move given away: its place on the frame is marked with this (no real move
// goes from the foundation).
constexpr Move kTaken{kFoundation, kFoundation, 0};

// Work for an idle thread: a stored position not expanded yet, and the moves of the
// search (as on a frame: safe foundation moves left out) from the start to it.
struct Work {
    std::vector<Move> line;
    Keyed k;
};

class Shared {
public:
    Shared(const Rules& rules, const Limits& limits, int threads, const std::atomic<bool>* stop,
           const StopPoll& poll, std::uint64_t help_from)
        : help_from_(help_from),
          gen_(rules),
          dead_(gen_),
          limits_(limits),
          threads_(std::clamp(threads, 1, kMaxSearchThreads)),
          table_(true, kShardBits, kLoadQuarters, kInitialSlots),
          line_bytes_(static_cast<std::size_t>(threads_)),
          watch_(limits_, stop, poll) {}

    Result run(const State& start) {
        if (limits_.max_bytes) table_.set_budget(limits_.max_bytes);
        const Keyed root = gen_.start(start);
        table_.insert(root.key);
        stored_ = 1;
        most_home_ = root.s.home();
        if (gen_.won(root.s)) {
            verdict_ = Verdict::Solved;
        } else {
            queue_.push_back(Work{{}, root});
            Worker(*this, 0).work();  // the calling thread works, and polls for Ctrl-C
            for (auto& h : helpers_) h.join();
        }
        Result res;
        res.verdict = verdict_;
        res.reason = reason_;
        if (verdict_ == Verdict::Solved) rebuild(gen_, start, won_line_, res);
        res.stats.expanded = expanded_;
        res.stats.generated = generated_;
        res.stats.stored = stored_;
        res.stats.peak_bytes = std::max(peak_.load(), bytes_now());
        res.stats.most_home = most_home_;
        res.stats.seconds = watch_.seconds();
        return res;
    }

private:
    struct Frame {
        Keyed k;              // its position
        std::uint32_t first;  // where its waiting moves start in the thread's `pending`
        Move move;            // the move that made it from the frame below
    };

    // One thread's search: its line and its waiting moves.
    class Worker {
    public:
        Worker(Shared& sh, int t) : sh_(sh), t_(t), gen_(sh.gen_), scorer_(gen_), quiet_scorer_(gen_) {}

        void work() {
            Work w;
            while (sh_.take(w, t_)) {
                base_ = std::move(w.line);
                low_ = 0;
                if (expand(w.k, Move{})) descend();
                flush();
                if (sh_.halt_.load(std::memory_order_relaxed)) break;
            }
        }

    private:
        // Expands the waiting moves of the line until it runs dry, a win, or a stop.
        void descend() {
            while (!frames_.empty()) {
                if (waiting_ >= 2 && sh_.want_.load(std::memory_order_relaxed)) give();
                if (t_ == 0 && total_ >= sh_.help_from_ && !sh_.called_) sh_.call_helpers();
                if (pending_.size() == frames_.back().first) {  // every child of the top is done
                    frames_.pop_back();
                    continue;
                }
                const Move m = pending_.back();
                pending_.pop_back();
                low_ = std::min(low_, pending_.size());
                if (m == kTaken) continue;  // given away: another thread expands it
                --waiting_;
                if (++since_check_ >= kCheckEvery && !check()) return;
                Keyed child = frames_.back().k;
                gen_.apply(child, m);
                gen_.settle_after(child, m);
                if (!expand(child, m)) return;
            }
        }

        // Expands `cur` (stored, not expanded yet): stores its new children and pushes its
        // frame with their moves, the best last. Returns false when the search is over.
        bool expand(const Keyed& cur, Move move) {
            moves_.size = 0;
            if (!sh_.dead_.dead(cur.s)) gen_.generate(cur.s, moves_);
            ++expanded_;
            ++total_;
            generated_ += static_cast<std::uint64_t>(moves_.size);
            kids_.clear();
            fresh_.clear();
            for (int i = 0; i < moves_.size; ++i) {
                const Move m = moves_.moves[i];
                Key key;
                const bool quiet = gen_.quiet_key(cur, m, key);
                if (quiet ? !sh_.table_.insert(key) : !add_made_if_new(gen_, sh_.table_, cur, m, fresh_)) continue;
                ++stored_;
                if (quiet) {
                    kids_.push_back(Kid{0, m, -1});
                    continue;
                }
                const Keyed& child = fresh_.back();
                most_home_ = std::max(most_home_, child.s.home());
                if (gen_.won(child.s)) {
                    // cur is a work's first position (no frame yet) or the top frame's child by `move`
                    std::vector<Move> line = frames_.empty() ? base_ : line_to(frames_.size() - 1);
                    if (!frames_.empty()) line.push_back(move);
                    line.push_back(m);
                    sh_.win(std::move(line));
                    return false;
                }
                kids_.push_back(Kid{0, m, static_cast<int>(fresh_.size()) - 1});
            }
            if (kids_.empty()) return true;
            frames_.push_back(Frame{cur, static_cast<std::uint32_t>(pending_.size()), move});
            order_kids(gen_, cur, fresh_, kids_, scorer_, quiet_scorer_, false);
            for (const Kid& kid : kids_) pending_.push_back(kid.move);
            waiting_ += kids_.size();
            return true;
        }

        // Gives the lowest waiting move of the line (of its lowest frame that has one: the
        // root of the biggest subtree it holds, most likely) to the queue: another thread
        // asked for work. Called only while the line holds two or more.
        void give() {
            while (pending_[low_] == kTaken) ++low_;  // a waiting move lies above: waiting_ >= 1
            const std::size_t j = low_;
            // its frame: the last whose waiting moves start at or below j
            const auto above = std::upper_bound(frames_.begin(), frames_.end(), j,
                                                [](std::size_t at, const Frame& f) { return at < f.first; });
            const auto f = static_cast<std::size_t>(above - frames_.begin()) - 1;
            Work w{line_to(f), frames_[f].k};
            w.line.push_back(pending_[j]);
            gen_.apply(w.k, pending_[j]);
            gen_.settle_after(w.k, pending_[j]);
            pending_[j] = kTaken;
            --waiting_;
            sh_.give(std::move(w));
        }
        // Returns the moves from the start to frame f's position.
        std::vector<Move> line_to(std::size_t f) const {
            std::vector<Move> line = base_;
            for (std::size_t i = 1; i <= f; ++i) line.push_back(frames_[i].move);
            return line;
        }

        // Adds this thread's counts to the shared ones and checks the limits; returns false
        // when the search must stop.
        bool check() {
            since_check_ = 0;
            flush();
            return sh_.check(t_, bytes());
        }
        void flush() {
            sh_.expanded_ += expanded_;
            sh_.generated_ += generated_;
            sh_.stored_ += stored_;
            expanded_ = generated_ = stored_ = 0;
            raise_to(sh_.most_home_, most_home_);
        }
        std::uint64_t bytes() const {
            return frames_.capacity() * sizeof(Frame) + pending_.capacity() * sizeof(Move) +
                   base_.capacity() * sizeof(Move);
        }

        Shared& sh_;
        const int t_;
        const MoveGen& gen_;
        std::vector<Move> base_;  // the moves from the start to the first frame's position
        std::vector<Frame> frames_;
        std::vector<Move> pending_;
        MoveList moves_;
        std::vector<Kid> kids_;
        std::vector<Keyed> fresh_;
        Scorer scorer_;
        QuietScorer quiet_scorer_;
        std::uint64_t total_ = 0;  // positions this thread expanded
        std::size_t waiting_ = 0;  // the line's waiting moves not given away
        std::size_t low_ = 0;      // pending_ below it: every move given away
        std::uint64_t expanded_ = 0, generated_ = 0, stored_ = 0, since_check_ = 0;
        int most_home_ = 0;
    };

    // Waits for work; returns false when the search is over (a verdict, a limit, or
    // every thread idle with the queue empty: the proof).
    bool take(Work& w, int t) {
        std::unique_lock<std::mutex> lock(mutex_);
        ++idle_;
        for (;;) {
            if (halt_.load()) return false;
            if (!queue_.empty()) {
                w = std::move(queue_.front());
                queue_.pop_front();
                queue_bytes_ -= work_bytes(w);
                --idle_;
                want_.store(idle_ > static_cast<int>(queue_.size()));
                return true;
            }
            if (idle_ == running_) {  // nothing waits anywhere: see depth_first_threads.hpp
                verdict_ = Verdict::Impossible;
                halt_.store(true);
                cv_.notify_all();
                return false;
            }
            want_.store(true);
            if (t != 0) {
                cv_.wait(lock);
                continue;
            }
            // The first thread keeps polling (Ctrl-C, the time limit) while it waits.
            cv_.wait_for(lock, std::chrono::milliseconds(20));
            lock.unlock();
            const bool go_on = check(0, 0);
            lock.lock();
            if (!go_on) return false;
        }
    }
    // Starts the other threads (they ask for work at once).
    void call_helpers() {
        called_ = true;  // only the first thread reads and writes it
        {
            std::lock_guard<std::mutex> lock(mutex_);
            running_ = threads_;  // busy until they ask for work
        }
        for (int t = 1; t < threads_; ++t) helpers_.emplace_back([this, t] { Worker(*this, t).work(); });
    }
    static std::uint64_t work_bytes(const Work& w) { return w.line.capacity() * sizeof(Move) + sizeof(Work); }
    void give(Work&& w) {
        std::lock_guard<std::mutex> lock(mutex_);
        queue_bytes_ += work_bytes(w);
        queue_.push_back(std::move(w));
        want_.store(idle_ > static_cast<int>(queue_.size()));
        cv_.notify_one();
    }
    void win(std::vector<Move>&& line) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (halt_.load()) return;
        verdict_ = Verdict::Solved;
        won_line_ = std::move(line);
        halt_.store(true);
        cv_.notify_all();
    }
    void halt(const char* why) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (halt_.load()) return;
        reason_ = why;
        halt_.store(true);
        cv_.notify_all();
    }

    std::uint64_t bytes_now() const {
        std::uint64_t b = table_.bytes() + queue_bytes_.load();
        for (const auto& l : line_bytes_) b += l.load();
        return b;
    }
    // Records thread t's line bytes and checks every limit; returns false (the search
    // halted) when one is reached.
    bool check(int t, std::uint64_t line_bytes) {
        if (halt_.load()) return false;
        line_bytes_[static_cast<std::size_t>(t)] = line_bytes;
        const std::uint64_t now = bytes_now();
        raise_to(peak_, now);
        if (limits_.max_bytes) {
            // The lines may double (old and new blocks held at once) and grow by an expansion's
            // children between two checks: the table gets what that leaves.
            const std::uint64_t reserve = 3 * (now - table_.bytes()) + kSlack * static_cast<std::uint64_t>(threads_);
            if (table_.over_budget() || table_.bytes() + reserve > limits_.max_bytes) {
                halt("memory limit");
                return false;
            }
            table_.set_budget(limits_.max_bytes - reserve);
        }
        if (const char* why = watch_.reached(expanded_.load(), stored_.load(), t == 0, most_home_.load())) {
            halt(why);
            return false;
        }
        return true;
    }

    const std::uint64_t help_from_;  // the first thread's expansions before the others start
    const MoveGen gen_;
    const DeadEnds dead_;
    const Limits limits_;
    const int threads_;
    VisitedTable table_;
    std::mutex mutex_;  // the queue, idle_ and the verdict
    std::condition_variable cv_;
    std::deque<Work> queue_;
    int idle_ = 0;     // threads waiting for work
    int running_ = 1;  // threads started
    bool called_ = false;  // the other threads are started
    std::vector<std::thread> helpers_;
    std::atomic<bool> halt_{false};
    std::atomic<bool> want_{false};  // a thread waits for work and the queue cannot feed it
    Verdict verdict_ = Verdict::Unknown;
    std::string reason_;
    std::vector<Move> won_line_;
    alignas(64) std::atomic<std::uint64_t> expanded_{0};
    std::atomic<std::uint64_t> generated_{0}, stored_{0};
    std::atomic<std::uint64_t> queue_bytes_{0}, peak_{0};
    std::vector<std::atomic<std::uint64_t>> line_bytes_;
    std::atomic<int> most_home_{0};
    LimitWatch watch_;  // last: its clock starts when the search is set up
};

}  // namespace

Result solve_depth_first_threads(const Rules& rules, const State& start, const Limits& limits,
                                 const std::atomic<bool>* stop, const StopPoll& poll, int threads,
                                 std::uint64_t help_from) {
    return Shared(rules, limits, threads, stop, poll, help_from).run(start);
}

}  // namespace bakers
