#include "search.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "table.hpp"

namespace bakers {
namespace {

constexpr std::uint32_t kNoParent = 0xffffffffU;
constexpr int kBuckets = 4096;

// A stored position: how it was reached. Eight bytes.
struct Node {
    std::uint32_t parent;
    Move move;
};

// An open position waiting for expansion, with its depth (moves from the start) and its
// column hashes, so that expanding it needs no rehash.
struct Open {
    std::uint32_t id;
    std::uint16_t depth;
    Keyed k;
};

// A bucket queue: priorities are small integers; within a bucket the newest comes first,
// which makes ties behave like a depth-first search.
class OpenList {
public:
    OpenList() : buckets_(kBuckets) {}
    void push(int prio, std::uint32_t id, int depth, const Keyed& k) {
        prio = std::clamp(prio, 0, kBuckets - 1);
        buckets_[prio].push_back(Open{id, static_cast<std::uint16_t>(depth), k});
        best_ = std::min(best_, prio);
        ++size_;
    }
    bool empty() const { return size_ == 0; }
    std::uint64_t size() const { return size_; }
    Open pop() {
        while (buckets_[best_].empty()) ++best_;
        Open o = buckets_[best_].back();
        buckets_[best_].pop_back();
        --size_;
        return o;
    }
    std::uint64_t bytes() const {
        std::uint64_t b = 0;
        for (const auto& v : buckets_) b += v.capacity() * sizeof(Open);
        return b;
    }

private:
    std::vector<std::vector<Open>> buckets_;
    int best_ = kBuckets;
    std::uint64_t size_ = 0;
};

// Rebuilds the line of play from the chain of nodes ending at `id` into res.moves (each
// move expanded into single-card moves where the rules want them) and res.compact
// (supermoves kept whole); the safe foundation moves that the search made silently are
// written out in both.
template <typename NodeOf>
void rebuild(const MoveGen& gen, const State& start, const NodeOf& node, std::uint32_t id,
             Result& res) {
    std::vector<Move> chain;
    for (; node(id).parent != kNoParent; id = node(id).parent) chain.push_back(node(id).move);
    std::reverse(chain.begin(), chain.end());
    const Rules& r = gen.rules();
    Keyed k;
    k.s = start;
    k.rehash(r.columns, r.cells);
    std::vector<Move> safe;
    auto settle = [&] {
        safe.clear();
        gen.settle(k, &safe);
        res.moves.insert(res.moves.end(), safe.begin(), safe.end());
        res.compact.insert(res.compact.end(), safe.begin(), safe.end());
    };
    settle();
    for (const Move& m : chain) {
        res.compact.push_back(m);
        for (const Move& single : gen.expand(k.s, m)) {
            gen.apply(k, single);
            res.moves.push_back(single);
            gen.settle(k, nullptr, false);  // only mandatory moves happen mid-chain
        }
        settle();
    }
}

}  // namespace

// The heuristic, in units where lower is better. Terms (weights measured on FreeCell and
// Baker's Game MS 1..600 and Baker's Dozen 1..100: fewest expansions, fewest give-ups):
//   4 per card not home (2 in games with no free cells and no usable empty column, where
//     the order of the columns, not the count of cards home, decides);
//   2 per card above the next card of its suit's foundation (digging still to do);
//   1 per card lying on a lower card of its own suit, 2 per card lying on a lower card of
//     any suit (each must move before the card beneath it can go home);
//   4 per occupied cell; -6 per empty column (free space buys long moves);
// and the search adds 1 per move from the start (1.5 without free space), which keeps it
// from wandering down long lines (FreeCell MS 1..1000: 57% fewer expansions, solutions 10%
// shorter; Baker's Dozen 1..60 within 100,000 expansions: 55 solved instead of 49).
// It only orders the search: every position is still expanded before "impossible".
namespace {

// Returns true if the game has free space: cells, or empty columns that take cards.
bool roomy(const Rules& r) { return r.cells > 0 || r.empty != Empty::None; }
// Returns the cost of `depth` moves from the start, in the heuristic's units.
int depth_cost(const Rules& r, int depth) { return roomy(r) ? depth : depth * 3 / 2; }

// The heuristic's terms for one column: the cards lying on lower cards (column-local) and
// the digging above the next foundation cards `next`.
struct ColumnTerms {
    int over = 0;
    int dig = 0;
};

ColumnTerms column_terms(const State& s, int i, CardSet next) {
    ColumnTerms t;
    const int b = s.begin(i), e = s.end[i];
    CardSet below = 0;  // the cards beneath the current one
    int low_any = kKing + 1;
    for (int p = b; p < e; ++p) {
        const Card c = s.cards[p];
        if ((next >> c) & 1) t.dig += e - 1 - p;
        // Bits of c's suit with a lower rank: from the suit's bit 0 up to c, exclusive.
        const CardSet lower_in_suit = bit_of(c) - (CardSet{1} << (c & 0xf0));
        t.over += ((below & lower_in_suit) != 0) + 2 * (low_any < rank_of(c));
        low_any = std::min(low_any, rank_of(c));
        below |= bit_of(c);
    }
    return t;
}

// Returns the priority from its parts.
int combine(const Rules& r, const State& s, int dig, int over, int empties) {
    const int left = 4 * r.suit_size() - s.home();
    const int used = r.cells - s.free_cells(r.cells);
    return (roomy(r) ? 4 : 2) * left + 2 * dig + over + 4 * used - 6 * empties + 64;
}

// Scores the children of one position: the terms of the columns a move leaves alone are
// the parent's, read once and kept for the next children. Gives exactly `priority`.
class Scorer {
public:
    explicit Scorer(const MoveGen& gen) : gen_(gen) {}
    void prepare(const Keyed& parent) {
        parent_ = &parent;
        next_ = gen_.next_cards(parent.s);
        known_ = 0;
    }
    int score(const Keyed& child) const {
        const Rules& r = gen_.rules();
        const CardSet next = gen_.next_cards(child.s);
        int dig = 0, over = 0, empties = 0;
        for (int i = 0; i < r.columns; ++i) {
            if (child.s.size(i) == 0) {
                ++empties;
                continue;
            }
            ColumnTerms t;
            if (child.col[i] == parent_->col[i]) {
                if (!((known_ >> i) & 1)) {
                    terms_[i] = column_terms(parent_->s, i, next_);
                    known_ |= 1U << i;
                }
                t = terms_[i];
                if (next != next_) t.dig = column_terms(child.s, i, next).dig;
            } else {
                t = column_terms(child.s, i, next);
            }
            dig += t.dig;
            over += t.over;
        }
        return combine(r, child.s, dig, over, empties);
    }

private:
    const MoveGen& gen_;
    const Keyed* parent_ = nullptr;
    CardSet next_ = 0;
    mutable unsigned known_ = 0;  // bit i: terms_[i] holds the parent's column i
    mutable ColumnTerms terms_[kMaxColumns];
};

}  // namespace

int priority(const MoveGen& gen, const State& s) {
    const Rules& r = gen.rules();
    const CardSet next = gen.next_cards(s);
    int dig = 0, over = 0, empties = 0;
    for (int i = 0; i < r.columns; ++i) {
        if (s.size(i) == 0) {
            ++empties;
            continue;
        }
        const ColumnTerms t = column_terms(s, i, next);
        dig += t.dig;
        over += t.over;
    }
    return combine(r, s, dig, over, empties);
}

namespace {

// Node ids: the thread that stored the node in the high bits, its index there below, so
// that every thread appends to its own array without locks.
constexpr int kLocalBits = 28;
constexpr std::uint32_t kLocalMask = (std::uint32_t{1} << kLocalBits) - 1;
constexpr int kMaxThreads = 16;

// One search, on one or several threads. The threads share the visited table (sharded,
// locked per shard), the open list and the verdict (under one mutex, taken once per batch
// of expansions); each appends the nodes it stores to its own array. A thread takes a
// batch of the best open positions, expands them without the lock, then pushes every new
// child at once. The search is over when a thread finds a win, a limit is hit, or the open
// list is empty while no thread is expanding: then every reachable position has been
// expanded exactly once, as on one thread, so "impossible" is still a proof.
class Search {
public:
    Search(const Rules& rules, const Limits& limits, int threads, const std::atomic<bool>* stop,
           const StopPoll& poll)
        : gen_(rules),
          limits_(limits),
          threads_(std::clamp(threads, 1, kMaxThreads)),
          shared_(threads_ > 1),
          stop_(stop),
          poll_(poll),
          table_(shared_, shared_ ? 6 : 0),
          nodes_(threads_) {}

    Result run(const State& start) {
        t0_ = last_poll_ = Clock::now();
        const Rules& r = gen_.rules();
        Keyed root;
        root.s = start;
        root.rehash(r.columns, r.cells);
        gen_.settle(root, nullptr);
        table_.insert(root.key);
        nodes_[0].push_back(Node{kNoParent, Move{}});
        stored_ = 1;
        most_home_ = root.s.home();
        if (gen_.won(root.s)) {
            conclude(Verdict::Solved, {}, 0);
        } else {
            open_.push(priority(gen_, root.s), 0, 0, root);
            std::vector<std::thread> helpers;
            for (int t = 1; t < threads_; ++t) helpers.emplace_back([this, t] { work(t); });
            work(0);  // the calling thread works too, and is the one that polls for Ctrl-C
            for (auto& h : helpers) h.join();
        }
        Result res;
        res.verdict = verdict_;
        res.reason = reason_;
        if (verdict_ == Verdict::Solved)
            rebuild(gen_, start, [this](std::uint32_t id) -> const Node& { return node(id); },
                    winner_, res);
        res.stats.expanded = expanded_;
        res.stats.generated = generated_;
        res.stats.stored = stored_;
        res.stats.peak_bytes = std::max(peak_bytes_.load(), bytes_now());
        res.stats.most_home = most_home_;
        res.stats.seconds = std::chrono::duration<double>(Clock::now() - t0_).count();
        return res;
    }

private:
    using Clock = std::chrono::steady_clock;
    struct Child {
        int prio;
        std::uint32_t id;
        int depth;
        Keyed k;
    };

    const Node& node(std::uint32_t id) const { return nodes_[id >> kLocalBits][id & kLocalMask]; }

    // Sets the verdict once; every thread stops soon after.
    void conclude(Verdict v, std::string why, std::uint32_t winner) {
        if (halt_.exchange(true)) return;
        verdict_ = v;
        reason_ = std::move(why);
        winner_ = winner;
    }

    std::uint64_t bytes_now() const {
        return table_.bytes() + node_bytes_.load(std::memory_order_relaxed) +
               open_bytes_.load(std::memory_order_relaxed);
    }

    // Checks the limits now and then; returns true when the search must stop.
    bool over_limits(int t) {
        const std::uint64_t b = bytes_now();
        std::uint64_t peak = peak_bytes_.load(std::memory_order_relaxed);
        while (b > peak && !peak_bytes_.compare_exchange_weak(peak, b)) {}
        if (limits_.max_bytes && b > limits_.max_bytes) return conclude(Verdict::Unknown, "memory limit", 0), true;
        if (limits_.max_nodes && expanded_ >= limits_.max_nodes) return conclude(Verdict::Unknown, "node limit", 0), true;
        if (limits_.max_states && stored_ >= limits_.max_states) return conclude(Verdict::Unknown, "state limit", 0), true;
        const auto now = Clock::now();
        if (limits_.max_seconds > 0 && std::chrono::duration<double>(now - t0_).count() > limits_.max_seconds)
            return conclude(Verdict::Unknown, "time limit", 0), true;
        if (stop_ && stop_->load(std::memory_order_relaxed)) return conclude(Verdict::Unknown, "interrupted", 0), true;
        if (t == 0 && poll_ && now - last_poll_ > std::chrono::milliseconds(50)) {
            last_poll_ = now;
            if (poll_()) return conclude(Verdict::Unknown, "interrupted", 0), true;
        }
        return false;
    }

    // Expands one open position, appending its new children to `out`.
    void expand(int t, const Open& cur, MoveList& moves, std::vector<Child>& out) {
        const Rules& r = gen_.rules();
        const Keyed& parent = cur.k;
        assert(parent.key_is_consistent(r.columns, r.cells));
        Scorer scorer(gen_);
        scorer.prepare(parent);
        moves.size = 0;
        gen_.generate(parent.s, moves);
        std::vector<Node>& mine = nodes_[t];
        for (int i = 0; i < moves.size; ++i) {
            const Move m = moves.moves[i];
            Keyed child = parent;
            gen_.apply(child, m);
            gen_.settle(child, nullptr);
            assert(child.key_is_consistent(r.columns, r.cells));
            ++generated_;
            if (!table_.insert(child.key)) continue;
            if (mine.size() > kLocalMask) return conclude(Verdict::Unknown, "state limit", 0);
            const auto id = (static_cast<std::uint32_t>(t) << kLocalBits) | static_cast<std::uint32_t>(mine.size());
            const std::size_t cap = mine.capacity();
            mine.push_back(Node{cur.id, m});
            if (mine.capacity() != cap) node_bytes_ += (mine.capacity() - cap) * sizeof(Node);
            ++stored_;
            const int home = child.s.home();
            int best = most_home_.load(std::memory_order_relaxed);
            while (home > best && !most_home_.compare_exchange_weak(best, home)) {}
            if (gen_.won(child.s)) return conclude(Verdict::Solved, {}, id);
            const int depth = std::min(cur.depth + 1, 0xffff);
            const int prio = scorer.score(child);
            assert(prio == priority(gen_, child.s));
            const int cost = prio + depth_cost(r, depth);
            if (shared_)
                out.push_back(Child{cost, id, depth, child});
            else
                open_.push(cost, id, depth, child);  // no other thread: no batching
        }
    }

    void work(int t) {
        const std::size_t batch_size = shared_ ? 8 : 1;
        std::vector<Open> batch;
        std::vector<Child> out;
        MoveList moves;
        // The first check comes after the first batch: a stop set before the start, or a
        // limit already passed, ends even a short search.
        std::uint64_t since_check = 1024;
        for (;;) {
            {
                std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
                if (shared_) lock.lock();
                for (;;) {
                    if (halt_) return;
                    if (!open_.empty()) break;
                    if (busy_ == 0) {
                        conclude(Verdict::Impossible, {}, 0);
                        if (shared_) cv_.notify_all();
                        return;
                    }
                    cv_.wait_for(lock, std::chrono::milliseconds(10));
                }
                batch.clear();
                while (batch.size() < batch_size && !open_.empty()) batch.push_back(open_.pop());
                open_bytes_ = open_.size() * sizeof(Open);
                ++busy_;
            }
            out.clear();
            for (const Open& cur : batch) {
                expand(t, cur, moves, out);
                if (halt_) break;
            }
            expanded_ += batch.size();
            since_check += batch.size();
            {
                std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
                if (shared_) lock.lock();
                for (const Child& c : out) open_.push(c.prio, c.id, c.depth, c.k);
                open_bytes_ = open_.size() * sizeof(Open);
                --busy_;
                if (shared_) cv_.notify_all();
            }
            if (since_check >= 1024 || (limits_.max_nodes && expanded_ >= limits_.max_nodes)) {
                since_check = 0;
                if (over_limits(t)) {
                    if (shared_) cv_.notify_all();
                    return;
                }
            }
        }
    }

    const MoveGen gen_;
    const Limits limits_;
    const int threads_;
    const bool shared_;
    const std::atomic<bool>* stop_;
    const StopPoll& poll_;
    VisitedTable table_;
    std::vector<std::vector<Node>> nodes_;
    OpenList open_;
    std::mutex mutex_;
    std::condition_variable cv_;
    int busy_ = 0;
    std::atomic<bool> halt_{false};
    Verdict verdict_ = Verdict::Unknown;
    std::string reason_;
    std::uint32_t winner_ = kNoParent;
    std::atomic<std::uint64_t> expanded_{0}, generated_{0}, stored_{0};
    std::atomic<std::uint64_t> node_bytes_{0}, open_bytes_{0}, peak_bytes_{0};
    std::atomic<int> most_home_{0};
    Clock::time_point t0_, last_poll_;
};

}  // namespace

Result solve(const Rules& rules, const State& start, const Limits& limits,
             const std::atomic<bool>* stop, const StopPoll& poll, int threads) {
    return Search(rules, limits, threads, stop, poll).run(start);
}

}  // namespace bakers
