#include "best_first.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>

#include "atomic_max.hpp"
#include "dead_end.hpp"
#include "heuristic.hpp"
#include "limit_watch.hpp"
#include "line.hpp"
#include "nodes.hpp"
#include "open_list.hpp"
#include "spin_lock.hpp"
#include "table.hpp"

namespace bakers {
namespace {

constexpr std::uint64_t kCheckEvery = 64;   // expansions between two checks of the limits
constexpr std::uint64_t kBigSearch = 4096;  // expansions after which threads take batches

// One search, on one or several threads. The threads share the visited table (sharded,
// locked per shard), the open lists and the verdict (under one spin lock, taken once per
// batch of expansions); each appends the nodes it stores to its own store. A thread takes
// a batch of the best open positions, expands them without the lock, then pushes every
// new child at once.
//
// What is kept. An open entry is a stored position's node, depth, and the arena slot of
// its parent's position; the position itself is made from the parent's when it is taken
// for expansion (`claim`), and kept in the arena (96 bytes) only if it has new children.
// Children are told new by their key, most of them without being made (`expand`), so
// an expansion makes one position whole and keys the rest, fewer instructions and less
// memory than keeping every open position whole (docs/benchmarks.md, "Children made
// when taken").
//
// Two open lists. Every stored position goes into both lists, one ordered by the
// `progress` priority and one by `space` (heuristic.hpp), and the search takes its next
// position from each in turn; a position already expanded through the other list is
// skipped (its node's `expanded` mark, claimed atomically: see `claim`).
//
// The lead. On one thread, the first `lead` expansions take their position from a third
// list, a stack that only the lead's own expansions feed (the best child by `progress`
// on top; among equals the later generated), so they follow one line down and back up
// as depth first does, over the same visited set; a stored position goes on both open
// lists as ever, and one expanded through the lead is skipped there like one expanded
// through the other list. When the stack is empty or the lead is spent, best first goes
// on from everything stored. The lead is one more list: the proof below holds as it is.
//
// The search is over when a thread finds a win, a limit is hit, or every list is empty
// while no thread is expanding. Every stored position was pushed on every list in use and
// is expanded when it is first taken from one of them; so when all are empty, every
// reachable position has been expanded exactly once, on any number of threads: then
// "impossible" is a proof (a dead end, dead_end.hpp, is expanded into no children: it
// has no win, so neither has any position it leads to).
class Search {
public:
    Search(const Rules& rules, const Limits& limits, int threads, const std::atomic<bool>* stop,
           const StopPoll& poll, std::uint64_t lead)
        : gen_(rules),
          dead_(gen_),
          limits_(limits),
          threads_(std::clamp(threads, 1, kMaxSearchThreads)),
          shared_(threads_ > 1),
          table_(shared_, shared_ ? 6 : 0),
          nodes_(threads_),
          kids_(threads_),
          keys_(threads_),
          tally_(threads_),
          lead_(shared_ ? 0 : lead),
          watch_(limits_, stop, poll) {}

    Result run(const State& start) {
        if (limits_.max_bytes) table_.set_budget(limits_.max_bytes);
        const Keyed root = gen_.start(start);
        table_.insert(root.key);
        node_bytes_ += nodes_[0].push(Node{kNoParent, Move{}});
        stored_ = 1;
        most_home_ = root.s.home();  // the threads' tallies are added to these as they go
        if (gen_.won(root.s)) {
            conclude(Verdict::Solved, {}, 0);
        } else {
            const Priorities p = priorities(gen_, root.s);
            const std::uint32_t slot = arena_.put(Packed{root.s, root.key});
            push(Child{{p.progress, p.space}, 0, 0, 0}, slot);
            if (lead_) lead_stack_.push_back(Open{0, slot, 0});
            std::vector<std::thread> helpers;
            for (int t = 1; t < threads_; ++t) helpers.emplace_back([this, t] { work(t); });
            work(0);  // the calling thread works too, and is the one that polls for Ctrl-C
            for (auto& h : helpers) h.join();
        }
        Result res;
        res.verdict = verdict_;
        res.reason = reason_;
        if (verdict_ == Verdict::Solved) {
            std::vector<Move> chain;
            for (std::uint32_t id = winner_; node(id).parent != kNoParent; id = node(id).parent)
                chain.push_back(node(id).move);
            std::reverse(chain.begin(), chain.end());
            rebuild(gen_, start, chain, res);
        }
        res.stats.expanded = expanded_;
        res.stats.generated = generated_;
        res.stats.stored = stored_;
        res.stats.peak_bytes = std::max(peak_bytes_.load(), bytes_now());
        res.stats.most_home = most_home_;
        res.stats.seconds = watch_.seconds();
        return res;
    }

private:
    using Clock = std::chrono::steady_clock;
    // A position taken for expansion, made from its parent's position and its move.
    struct Taken {
        std::uint32_t id;
        int depth;
        Keyed k;
    };
    // A new child: its node, and which position of the batch is its parent (the slot of
    // that position, stored when its children are pushed, is the child's open entry's).
    struct Child {
        int prio[2];
        std::uint32_t id;
        int depth;
        std::uint32_t parent;
    };

    Node& node(std::uint32_t id) { return nodes_[id >> kLocalBits][id & kLocalMask]; }

    // Puts the new children of the lead's expansion (`out`, made from the position in
    // `slot`) on the lead's stack, the best by `progress` on top, among equals the later
    // generated (one thread: no lock).
    void lead_push(const std::vector<Child>& out, std::uint32_t slot) {
        order_.resize(out.size());
        for (std::size_t i = 0; i < out.size(); ++i) order_[i] = static_cast<std::uint32_t>(i);
        std::stable_sort(order_.begin(), order_.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return out[a].prio[0] > out[b].prio[0]; });
        for (const std::uint32_t i : order_)
            lead_stack_.push_back(Open{out[i].id, slot, static_cast<std::uint16_t>(out[i].depth)});
    }

    // Puts a stored position on every list in use, with the arena slot of its parent's
    // position (the caller holds the lock if shared).
    void push(const Child& c, std::uint32_t slot) {
        const Open entry{c.id, slot, static_cast<std::uint16_t>(c.depth)};
        for (int l = 0; l < lists_; ++l) open_[l].push(c.prio[l], entry);
    }
    // Records the open lists' bytes (the lead's stack among them) for the memory count (the
    // caller holds the lock if shared).
    void count_open() {
        const std::uint64_t lead = lead_stack_.capacity() * sizeof(Open);
        open_bytes_.store(open_[0].bytes() + open_[1].bytes() + arena_.bytes() + lead, std::memory_order_relaxed);
    }
    // Takes up to n entries, from each list in turn, or while the lead lasts one from its
    // stack (the caller holds the lock if shared).
    void pop_entries(std::size_t n, std::vector<Open>& popped) {
        leading_ = false;
        if (expanded_ < lead_) {
            while (!lead_stack_.empty() && node(lead_stack_.back().id).expanded) lead_stack_.pop_back();
            if (!lead_stack_.empty()) {
                leading_ = true;
                popped.push_back(lead_stack_.back());
                lead_stack_.pop_back();
                return;
            }
            lead_ = 0;  // the lead's line ran dry: best first from here on
        }
        while (popped.size() < n && !(open_[0].empty() && open_[1].empty())) {
            turn_ = (turn_ + 1) % lists_;
            OpenList& list = open_[turn_].empty() ? open_[1 - turn_] : open_[turn_];
            popped.push_back(list.pop());
        }
    }
    // Keeps the popped entries whose position is not expanded yet, marking them expanded,
    // with their positions, each made from its parent's (the root's entry holds the root
    // itself). Runs without the lock: the mark is taken atomically, so exactly one thread
    // wins each position (through either list); the parent's slot was written under the
    // lock before the entry was pushed, and slots are never written again.
    void claim(const std::vector<Open>& popped, std::vector<Taken>& batch) {
        const Rules& r = gen_.rules();
        for (const Open& o : popped) {
            Node& n = node(o.id);
            std::uint8_t& mark = n.expanded;
            if (shared_ ? std::atomic_ref<std::uint8_t>(mark).exchange(1) : std::exchange(mark, 1)) continue;
            batch.push_back(Taken{o.id, o.depth, unpack(arena_.get(o.slot), r.columns)});
            if (n.parent == kNoParent) continue;
            Keyed& k = batch.back().k;
            gen_.apply(k, n.move);
            gen_.settle_after(k, n.move);
            assert(k.key_is_consistent(r.columns, r.cells));
        }
    }

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
        raise_to(peak_bytes_, b);
        if (limits_.max_bytes) {
            // Stop before the limit: until the next check (kCheckEvery expansions per
            // thread) the node stores, arena and open lists grow by some entries and at
            // most one chunk or slab each, which `margin` covers; the table cannot pass
            // its budget.
            const std::uint64_t margin = std::min<std::uint64_t>(limits_.max_bytes / 16, 4 << 20) +
                                         PackedArena::slab_bytes() + 2 * OpenList::slab_bytes() +
                                         threads_ * NodeStore::chunk_bytes();
            if (b + margin > limits_.max_bytes || table_.over_budget())
                return conclude(Verdict::Unknown, "memory limit", 0), true;
            const std::uint64_t rest = node_bytes_.load(std::memory_order_relaxed) +
                                       open_bytes_.load(std::memory_order_relaxed) + margin;
            table_.set_budget(limits_.max_bytes > rest ? limits_.max_bytes - rest : 1);
        }
        // The calling thread (0) is the one that polls for Ctrl-C.
        if (const char* why =
                watch_.reached(expanded_, stored_, t == 0, most_home_.load(std::memory_order_relaxed)))
            return conclude(Verdict::Unknown, why, 0), true;
        return false;
    }

    // Expands one open position (the batch's position b), appending its new children to
    // `out`. A quiet move's child (MoveGen::quiet_key: nothing goes home) is told new or
    // seen by its key and scored (QuietScorer) without being made; it is made when it is
    // taken from an open list (`claim`). Other children are made here.
    void expand(int t, const Taken& cur, std::uint32_t b, MoveList& moves, std::vector<Child>& out) {
        const Rules& r = gen_.rules();
        const Keyed& parent = cur.k;
        assert(parent.key_is_consistent(r.columns, r.cells));
        QuietScorer quiet(gen_);
        quiet.prepare(parent.s);
        Scorer scorer(gen_);
        bool scorer_ready = false;
        moves.size = 0;
        if (!dead_.dead(parent.s)) gen_.generate(parent.s, moves);  // a dead end has no win to look for
        NodeStore& mine = nodes_[t];
        Tally& tally = tally_[t];
        // First every child's key, each key's table slot announced to the memory system
        // (in a big table each probe is otherwise a cache miss); then the lookups.
        std::vector<Keyed>& kids = kids_[t];
        std::vector<Key>& keys = keys_[t];
        // Grown only: shrinking and regrowing would zero the new entries at every turn.
        if (kids.size() < static_cast<std::size_t>(moves.size)) {
            kids.resize(static_cast<std::size_t>(moves.size));
            keys.resize(static_cast<std::size_t>(moves.size));
        }
        std::uint64_t made = 0;  // bit i: kids[i] holds move i's child (a move that is not quiet)
        for (int i = 0; i < moves.size; ++i) {
            const Move m = moves.moves[i];
            if (i >= 64 || !gen_.quiet_key(parent, m, keys[i])) {
                Keyed& child = kids[i];
                child = parent;
                gen_.apply(child, m);
                gen_.settle_after(child, m);
#ifndef NDEBUG
                Keyed again = child;
                assert(gen_.settle(again, nullptr) == 0);  // settle_after left nothing to do
#endif
                assert(child.key_is_consistent(r.columns, r.cells));
                keys[i] = child.key;
                if (i < 64) made |= std::uint64_t{1} << i;
            }
            table_.prefetch(keys[i]);
        }
        const int depth = std::min(cur.depth + 1, 0xffff);
        const int cost = depth_cost(r, depth);
        for (int i = 0; i < moves.size; ++i) {
            const Move m = moves.moves[i];
            if (!table_.insert(keys[i])) continue;
            if (mine.full()) {
                conclude(Verdict::Unknown, "state limit", 0);
                break;
            }
            const auto id = (static_cast<std::uint32_t>(t) << kLocalBits) | mine.size();
            tally.node_bytes += mine.push(Node{cur.id, m});
            ++tally.stored;
            Priorities p;
            if (i < 64 && !((made >> i) & 1)) {
                p = quiet.score(m);  // nothing went home: not won, as many cards home as the parent
#ifndef NDEBUG
                Keyed child = parent;
                gen_.apply(child, m);
                assert(gen_.settle(child, nullptr) == 0 && child.key == keys[i]);
                assert(p.progress == priorities(gen_, child.s).progress);
                assert(p.space == priorities(gen_, child.s).space);
#endif
            } else {
                const Keyed& child = kids[i];
                tally.most_home = std::max(tally.most_home, child.s.home());
                if (gen_.won(child.s)) {
                    conclude(Verdict::Solved, {}, id);
                    break;
                }
                if (!scorer_ready) scorer.prepare(parent), scorer_ready = true;
                p = scorer.score(child);
                assert(p.progress == priorities(gen_, child.s).progress);
                assert(p.space == priorities(gen_, child.s).space);
            }
            out.push_back(Child{{p.progress + cost, p.space + cost}, id, depth, b});
        }
        tally.generated += static_cast<std::uint64_t>(moves.size);
    }

    // Adds thread t's counts to the shared ones (before a check of the limits, and at
    // the end): counting each child into shared atomics would bounce their cache line
    // between the threads at every expansion.
    void flush(int t) {
        Tally& tally = tally_[t];
        generated_ += std::exchange(tally.generated, 0);
        stored_ += std::exchange(tally.stored, 0);
        node_bytes_ += std::exchange(tally.node_bytes, 0);
        raise_to(most_home_, tally.most_home);
    }

    void work(int t) {
        // On several threads a thread takes a batch of positions per visit to the lists,
        // which keeps the lock rarely taken; the batch is 1 until the search is big (a
        // batch of the best positions at once widens a short search that a dive would win).
        std::size_t batch_size = 1;
        std::vector<Open> popped;
        std::vector<Taken> batch;
        std::vector<Child> out;
        MoveList moves;
        // The first check comes after the first batch: a stop set before the start, or a
        // limit already passed, ends even a short search.
        std::uint64_t since_check = kCheckEvery;
        for (;;) {
            {
                std::unique_lock<SpinLock> lock(mutex_, std::defer_lock);
                if (shared_) lock.lock();
                popped.clear();
                if (shared_ && batch_size == 1 && expanded_ >= kBigSearch) batch_size = 8;
                for (;;) {
                    if (halt_) return flush(t);
                    pop_entries(batch_size, popped);
                    count_open();
                    if (!popped.empty()) break;
                    if (busy_ == 0) {
                        conclude(Verdict::Impossible, {}, 0);
                        if (shared_) cv_.notify_all();
                        return flush(t);
                    }
                    cv_.wait_for(lock, std::chrono::milliseconds(10));
                }
                ++busy_;
            }
            batch.clear();
            claim(popped, batch);
            out.clear();
            for (std::uint32_t b = 0; b < batch.size(); ++b) {
                expand(t, batch[b], b, moves, out);
                if (halt_) break;
            }
            expanded_ += batch.size();
            since_check += batch.size();
            {
                std::unique_lock<SpinLock> lock(mutex_, std::defer_lock);
                if (shared_) lock.lock();
                // A position with new children is kept (once) for them to be made from.
                std::uint32_t b = kNoParent, slot = 0;
                for (const Child& c : out) {
                    if (c.parent != b) {
                        b = c.parent;
                        slot = arena_.put(Packed{batch[b].k.s, batch[b].k.key});
                    }
                    push(c, slot);
                }
                if (leading_) lead_push(out, slot);
                count_open();
                --busy_;
                if (shared_) cv_.notify_all();
            }
            if (since_check >= kCheckEvery || (limits_.max_nodes && expanded_ >= limits_.max_nodes)) {
                since_check = 0;
                flush(t);
                if (over_limits(t)) {
                    if (shared_) cv_.notify_all();
                    return;
                }
            }
        }
    }

    const MoveGen gen_;
    const DeadEnds dead_;
    const Limits limits_;
    const int threads_;
    const bool shared_;
    static constexpr int lists_ = 2;
    VisitedTable table_;
    std::vector<NodeStore> nodes_;
    std::vector<std::vector<Keyed>> kids_;  // per thread: the children of one expansion made whole
    std::vector<std::vector<Key>> keys_;    // per thread: the keys of one expansion's children
    // Per thread: counts not yet added to the shared ones (see `flush`).
    struct alignas(64) Tally {
        std::uint64_t generated = 0, stored = 0, node_bytes = 0;
        int most_home = 0;
    };
    std::vector<Tally> tally_;
    OpenList open_[2];
    PackedArena arena_;
    int turn_ = 0;
    std::uint64_t lead_;              // expansions the lead may take (0: none, or over)
    std::vector<Open> lead_stack_;    // the lead's stack
    std::vector<std::uint32_t> order_;  // lead_push's ranks
    bool leading_ = false;            // the entry popped last came from the lead's stack
    SpinLock mutex_;  // the open lists, the arena and busy_: short sections
    std::condition_variable_any cv_;
    int busy_ = 0;
    std::atomic<bool> halt_{false};
    Verdict verdict_ = Verdict::Unknown;
    std::string reason_;
    std::uint32_t winner_ = kNoParent;
    // On cache lines of their own: expanded_ changes at every batch, the others at the
    // checks, and neither should slow down the lock's line or the other's readers.
    alignas(64) std::atomic<std::uint64_t> expanded_{0};
    alignas(64) std::atomic<std::uint64_t> generated_{0}, stored_{0};
    std::atomic<std::uint64_t> node_bytes_{0}, open_bytes_{0}, peak_bytes_{0};
    std::atomic<int> most_home_{0};
    LimitWatch watch_;  // last: its clock starts when the search is set up
};

}  // namespace

Result solve_best_first(const Rules& rules, const State& start, const Limits& limits,
                        const std::atomic<bool>* stop, const StopPoll& poll, int threads,
                        std::uint64_t lead) {
    return Search(rules, limits, threads, stop, poll, lead).run(start);
}

}  // namespace bakers
