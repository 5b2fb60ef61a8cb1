#include "dive.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "limit_watch.hpp"
#include "line.hpp"

namespace bakers {
namespace {

constexpr std::uint64_t kCheckEvery = 256;  // expansions between two checks of the limits

// The schedule (chosen on FreeCell deals 2000000001..2000004000, which no reported
// benchmark uses: docs/benchmarks.md): kScans scans, the first alone in the first round
// with kFirstQuota positions, one more joining each round, every quota kGrowth times the
// last round's.
constexpr std::size_t kScans = 4;
constexpr std::uint64_t kFirstQuota = 100;
constexpr std::uint64_t kGrowth = 2;

// The children of a position, in the order a scan tries them: class by class, and within
// a class in the order the moves are generated (the first scan) or shuffled (the others,
// each with its own seed). A class holds moves, or composite children: several moves made
// as one step, their positions between never stored.
enum Class : std::uint8_t {
    kHome,        // a card home (from a column's top or a cell)
    kFromCell,    // a cell's card onto a column card it builds on
    kDigHome,     // composite: the cards above a foundation's next card moved off it (see
                  // `move_off`), then that card home
    kOntoParent,  // a column's part onto a column card it builds on, where the part does
                  // not lie on a card it builds on already
    kDigParent,   // composite: a column's top card moved off the card below it, then that
                  // card onto another column's top it builds on
    kToEmpty,     // into an empty column: a cell's card, or a part not on a card it builds on
    kClasses,
    kLeftOut = kClasses,  // never tried: into a cell, and a part moved off a card it builds on
};

// A composite child waiting on a frame: Move{kComposite + class, column, cards above}.
constexpr std::uint8_t kComposite = 0xf0;

// A set of keys: open addressing on the low bits, doubled at half load. The zero key (no
// card in a column or a cell: the won position) is kept apart.
class KeySet {
public:
    KeySet() : slots_(1024) {}
    // Inserts k; returns false if it was there already.
    bool insert(const Key& k) {
        if (k.lo == 0 && k.hi == 0) return !std::exchange(zero_, true);
        if (2 * (count_ + 1) > slots_.size()) grow();
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = k.lo & mask;; i = (i + 1) & mask) {
            Key& s = slots_[i];
            if (s == k) return false;
            if (s.lo == 0 && s.hi == 0) {
                s = k;
                ++count_;
                return true;
            }
        }
    }
    std::uint64_t bytes() const { return slots_.size() * sizeof(Key); }

private:
    void grow() {
        std::vector<Key> old(slots_.size() * 2);
        old.swap(slots_);
        const std::size_t mask = slots_.size() - 1;
        for (const Key& k : old) {
            if (k.lo == 0 && k.hi == 0) continue;
            std::size_t i = k.lo & mask;
            while (!(slots_[i].lo == 0 && slots_[i].hi == 0)) i = (i + 1) & mask;
            slots_[i] = k;
        }
    }
    std::vector<Key> slots_;
    std::size_t count_ = 0;
    bool zero_ = false;
};

// One depth-first scan: its line of frames, their children and its visited set.
class Scan {
public:
    // `seed` 0: children in generation order; else shuffled within their classes.
    Scan(const MoveGen& gen, std::uint32_t seed) : gen_(gen), rng_(seed) {}

    // Starts the scan at the settled position root (known not to be won).
    void start(const Keyed& root) {
        seen_.insert(root.key);
        frames_.reserve(256);
        frames_.push_back(Frame{root, 0, 0, 0, 0});
        open(frames_.back(), 0);
    }

    // Runs until `quota` more positions are expanded, a win, or nothing is left to try;
    // returns true on a win. Adds its expansions to `expanded`.
    bool run(std::uint64_t quota, std::uint64_t& expanded) {
        for (std::uint64_t done = 0; done < quota && !frames_.empty();) {
            // Room for one more frame, so that `f` stays valid while the child is made
            // in place on top of it (a position is about 300 bytes: copied once).
            if (frames_.size() == frames_.capacity()) frames_.reserve(2 * frames_.size());
            Frame& f = frames_.back();
            if (f.next == f.end) {
                kids_.resize(f.first);
                line_.resize(f.line);
                frames_.pop_back();
                continue;
            }
            const Move m = kids_[f.next++];
            const std::size_t mark = line_.size();
            Key key;
            // A quiet move's child is told seen by its key alone (MoveGen::quiet_key).
            const bool quiet = m.from < kComposite && gen_.quiet_key(f.k, m, key);
            if (quiet && !seen_.insert(key)) continue;
            frames_.push_back(f);
            Keyed& child = frames_.back().k;
            bool fresh = true;
            if (m.from >= kComposite) {
                fresh = composite(child, m) && seen_.insert(child.key);
            } else {
                gen_.apply(child, m);
                if (!quiet) {
                    gen_.settle_after(child, m);
                    fresh = seen_.insert(child.key);
                }
                line_.push_back(m);
            }
            if (!fresh) {
                frames_.pop_back();
                line_.resize(mark);
                continue;
            }
            most_home_ = std::max(most_home_, child.s.home());
            if (gen_.won(child.s)) return true;
            open(frames_.back(), mark);
            ++done;
            ++expanded;
        }
        return false;
    }
    bool exhausted() const { return frames_.empty(); }
    int most_home() const { return most_home_; }
    std::uint64_t bytes() const {
        return seen_.bytes() + frames_.capacity() * sizeof(Frame) +
               (kids_.capacity() + line_.capacity()) * sizeof(Move);
    }
    // Returns the moves from the start to the win (after a win), each one the rules allow
    // in the position the moves before it make (with the safe moves home after each).
    const std::vector<Move>& line() const { return line_; }

private:
    struct Frame {
        Keyed k;
        std::uint32_t first, end, next;  // its children in kids_: [first, end), next to try
        std::uint32_t line;              // where the moves that made it start in line_
    };

    // Gives the frame f (the top one) its children; `at` is where the moves that made
    // its position start in line_.
    void open(Frame& f, std::size_t at) {
        f.first = f.next = static_cast<std::uint32_t>(kids_.size());
        add_children(f.k.s);
        f.end = static_cast<std::uint32_t>(kids_.size());
        f.line = static_cast<std::uint32_t>(at);
    }

    // Returns the class of a single move of s.
    Class class_of(const State& s, Move m) const {
        if (m.to == kFoundation) return kHome;
        if (is_cell(m.to)) return kLeftOut;
        const bool on_parent = is_column(m.from) && s.size(m.from) > m.count &&
                               lies_on_parent(s, m.from, m.count - 1);
        if (on_parent) return kLeftOut;
        if (s.size(m.to) == 0) return kToEmpty;
        return is_cell(m.from) ? kFromCell : kOntoParent;
    }
    // Returns true if the card k places below column col's top lies on a card it builds on.
    bool lies_on_parent(const State& s, int col, int k) const {
        return s.size(col) > k + 1 && ((gen_.targets(s.from_top(col, k)) >> s.from_top(col, k + 1)) & 1);
    }

    // Appends the children of s to kids_, class by class.
    void add_children(const State& s) {
        list_.size = 0;
        gen_.generate(s, list_);
        // The generated moves bucketed by class, each bucket in generation order.
        int start[kClasses + 3] = {};  // the left-out moves have a bucket too
        std::uint8_t cls[MoveList::kCapacity];
        for (int i = 0; i < list_.size; ++i) ++start[(cls[i] = class_of(s, list_.moves[i])) + 2];
        for (int c = 2; c < kClasses + 2; ++c) start[c] += start[c - 1];
        for (int i = 0; i < list_.size; ++i) by_class_[static_cast<std::size_t>(start[cls[i] + 1]++)] = list_.moves[i];
        // start[c] is now where class c begins, start[c + 1] where it ends.
        for (int c = 0; c < kClasses; ++c) {
            const auto begin = kids_.size();
            if (c == kDigHome) add_digs(s);
            else if (c == kDigParent) add_dig_parents(s);
            else kids_.insert(kids_.end(), by_class_.begin() + start[c], by_class_.begin() + start[c + 1]);
            if (rng_)  // a shuffle of the class
                for (auto i = kids_.size(); i > begin + 1; --i)
                    std::swap(kids_[i - 1], kids_[begin + below(i - begin)]);
        }
    }

    // The foundations' next cards below a column's top, the fewest cards above first.
    void add_digs(const State& s) {
        const CardSet next = gen_.next_cards(s);
        int found = 0;
        Move dig[kSuits];
        for (int i = 0; i < gen_.rules().columns; ++i)
            for (int k = 1, n = s.size(i); k < n; ++k) {
                if (!((next >> s.from_top(i, k)) & 1)) continue;
                if (!first_step(s, i, k)) break;  // it would fail at once: not a child
                int j = found++;
                for (; j > 0 && dig[j - 1].count > k; --j) dig[j] = dig[j - 1];
                dig[j] = Move{kComposite + kDigHome, static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(k)};
                break;  // a column holds at most one of them that can go home first
            }
        kids_.insert(kids_.end(), dig, dig + found);
    }

    // The cards just below a column's top that another column's top takes, that do not
    // lie on a card they build on, and that the top card does not lie on as on a parent
    // (a part that moves whole is a single move).
    void add_dig_parents(const State& s) {
        const int ncols = gen_.rules().columns;
        CardSet tops = 0;
        for (int i = 0; i < ncols; ++i)
            if (s.size(i)) tops |= bit_of(s.top(i));
        for (int i = 0; i < ncols; ++i) {
            if (s.size(i) < 2) continue;
            const Card x = s.from_top(i, 1);
            if ((gen_.targets(x) & tops & ~bit_of(s.top(i))) == 0) continue;
            if (lies_on_parent(s, i, 1) || lies_on_parent(s, i, 0)) continue;
            if (!first_step(s, i, 1)) continue;
            kids_.push_back(Move{kComposite + kDigParent, static_cast<std::uint8_t>(i), 1});
        }
    }

    // Returns true if `move_off(k, col, n)` on a position k of s makes its first move (the
    // same tests in the same position: a composite child failing there is never made).
    bool first_step(const State& s, int col, int n) const {
        const Rules& r = gen_.rules();
        if (s.free_cells(r.cells) > 0) return true;
        const int run = std::min(gen_.top_run(s, col), n);
        CardSet tops = 0;
        bool empty = false;
        for (int d = 0; d < r.columns; ++d)
            if (d != col) {
                if (s.size(d)) tops |= bit_of(s.top(d));
                else empty = true;
            }
        const int limit = run > 1 ? gen_.supermove_limit(s, false) : 1;
        for (int c = std::min(run, limit); c >= 1; --c)
            if (gen_.targets(s.from_top(col, c - 1)) & tops) return true;
        if (!empty || r.empty == Empty::None) return false;
        const int most = std::min({run, run > 1 ? gen_.supermove_limit(s, true) : 1, s.size(col) - 1});
        for (int c = most; c >= 1; --c)
            if (r.empty_takes(s.from_top(col, c - 1))) return true;
        return false;
    }

    // Makes the composite child `what` on k, appending its moves to line_; returns false
    // (k then undefined) when it cannot be made.
    bool composite(Keyed& k, Move what) {
        const int col = what.to;
        const Card c = k.s.from_top(col, what.count);
        if (what.from == kComposite + kDigHome) {
            const int t = suit_of(c);
            const int height = k.s.found[t] + 1;
            if (!move_off(k, col, what.count)) return false;
            if (k.s.found[t] < height) play(k, Move{static_cast<std::uint8_t>(col), kFoundation, 1});
            return true;
        }
        if (!move_off(k, col, what.count) || k.s.top(col) != c) return false;
        const CardSet onto = gen_.targets(c);
        for (int d = 0; d < gen_.rules().columns; ++d)
            if (d != col && k.s.size(d) && ((onto >> k.s.top(d)) & 1)) {
                play(k, Move{static_cast<std::uint8_t>(col), static_cast<std::uint8_t>(d), 1});
                return true;
            }
        return false;
    }

    // Moves the top n cards of column col off it: each time the top run (its longest part
    // that fits) onto another column's top that takes it, else the top card into the
    // first free cell, else the top run into the first empty column (never the column's
    // last card: that only renames the column). Cards that go home by themselves on the
    // way count as moved off. Returns false when no such move is left.
    bool move_off(Keyed& k, int col, int n) {
        const Rules& r = gen_.rules();
        const int keep = k.s.size(col) - n;
        while (k.s.size(col) > keep) {
            const int run = std::min(gen_.top_run(k.s, col), k.s.size(col) - keep);
            Move m{0, 0, 0};  // count 0: none found yet
            CardSet tops = 0;
            std::uint8_t top_col[64];
            for (int d = r.columns - 1; d >= 0; --d)
                if (d != col && k.s.size(d)) {
                    tops |= bit_of(k.s.top(d));
                    top_col[k.s.top(d)] = static_cast<std::uint8_t>(d);
                }
            const int limit = run > 1 ? gen_.supermove_limit(k.s, false) : 1;
            for (int c = std::min(run, limit); c >= 1 && m.count == 0; --c) {
                int to = kMaxColumns;  // the first column, by index, whose top takes the part
                for (CardSet on = gen_.targets(k.s.from_top(col, c - 1)) & tops; on; on &= on - 1)
                    to = std::min<int>(to, top_col[__builtin_ctzll(on)]);
                if (to < kMaxColumns)
                    m = Move{static_cast<std::uint8_t>(col), static_cast<std::uint8_t>(to), static_cast<std::uint8_t>(c)};
            }
            for (int i = 0; i < r.cells && m.count == 0; ++i)
                if (k.s.cells[i] == kNoCard) m = Move{static_cast<std::uint8_t>(col), static_cast<std::uint8_t>(kCell + i), 1};
            if (m.count == 0 && r.empty != Empty::None) {
                int d = 0;
                while (d < r.columns && k.s.size(d)) ++d;
                const int most = std::min({run, run > 1 ? gen_.supermove_limit(k.s, true) : 1, k.s.size(col) - 1});
                for (int c = most; d < r.columns && c >= 1; --c)
                    if (r.empty_takes(k.s.from_top(col, c - 1))) {
                        m = Move{static_cast<std::uint8_t>(col), static_cast<std::uint8_t>(d), static_cast<std::uint8_t>(c)};
                        break;
                    }
            }
            if (m.count == 0) return false;
            play(k, m);
        }
        return true;
    }

    // Makes the move m (one that MoveGen::generate lists in k) on k and records it.
    void play(Keyed& k, Move m) {
#ifndef NDEBUG
        MoveList legal;
        gen_.generate(k.s, legal);
        bool listed = false;
        for (int i = 0; i < legal.size; ++i) listed |= legal.moves[i] == m;
        assert(listed);
#endif
        gen_.apply(k, m);
        gen_.settle_after(k, m);
        line_.push_back(m);
    }

    // Returns a number in 0..n-1 from xorshift32 (a scan's shuffles are the same on every
    // run), scaled by a multiplication rather than a division.
    std::size_t below(std::size_t n) {
        rng_ ^= rng_ << 13;
        rng_ ^= rng_ >> 17;
        rng_ ^= rng_ << 5;
        return static_cast<std::size_t>((std::uint64_t{rng_} * n) >> 32);
    }

    const MoveGen& gen_;
    std::uint32_t rng_;
    KeySet seen_;
    std::vector<Frame> frames_;
    std::vector<Move> kids_;
    std::vector<Move> line_;
    MoveList list_;
    std::array<Move, MoveList::kCapacity> by_class_;
    int most_home_ = 0;
};

}  // namespace

Result solve_dive(const Rules& rules, const State& start, const Limits& limits,
                  const std::atomic<bool>* stop, const StopPoll& poll, std::uint64_t budget) {
    const MoveGen gen(rules);
    LimitWatch watch(limits, stop, poll);
    Result res;
    const Keyed root = gen.start(start);
    res.stats.stored = 1;
    res.stats.most_home = root.s.home();
    if (gen.won(root.s)) {
        res.verdict = Verdict::Solved;
        rebuild(gen, start, {}, res);
        return res;
    }
    std::vector<Scan> scans;
    scans.reserve(kScans);
    // The positions the dive may expand: its budget, or the caller's node limit if lower.
    const bool node_limited = limits.max_nodes && limits.max_nodes <= budget;
    const std::uint64_t cap = node_limited ? limits.max_nodes : budget;
    std::uint64_t expanded = 0, since_check = kCheckEvery;  // a check before the first step
    const char* why = nullptr;
    int winner = -1;
    for (std::uint64_t quota = kFirstQuota; winner < 0 && !why; quota *= kGrowth) {
        if (scans.size() < kScans) {
            scans.emplace_back(gen, static_cast<std::uint32_t>(scans.size() * 0x9e3779b9u));
            scans.back().start(root);
        }
        bool any = false;
        for (std::size_t i = 0; i < scans.size() && winner < 0 && !why; ++i) {
            Scan& scan = scans[i];
            // The quota in steps, the limits checked between them.
            for (std::uint64_t left = quota; left > 0 && !scan.exhausted();) {
                any = true;
                if (expanded >= cap) {
                    why = node_limited ? "node limit" : "dive budget";
                    break;
                }
                if (since_check >= kCheckEvery) {
                    since_check = 0;
                    if ((why = watch.reached(expanded, expanded + scans.size(), true, res.stats.most_home))) break;
                }
                const std::uint64_t step = std::min({left, kCheckEvery - since_check, cap - expanded});
                const std::uint64_t before = expanded;
                if (scan.run(step, expanded)) {
                    winner = static_cast<int>(i);
                    break;
                }
                left -= step;
                since_check += expanded - before;
            }
        }
        if (!any && scans.size() == kScans) why = "dive budget";  // every scan ran dry
    }
    std::uint64_t bytes = 0;
    for (const Scan& scan : scans) {
        bytes += scan.bytes();
        res.stats.most_home = std::max(res.stats.most_home, scan.most_home());
    }
    res.stats.expanded = expanded;
    res.stats.generated = expanded;
    res.stats.stored = 1 + expanded;
    res.stats.peak_bytes = bytes;
    if (winner >= 0) {
        res.verdict = Verdict::Solved;
        rebuild(gen, start, scans[static_cast<std::size_t>(winner)].line(), res);
    } else {
        res.reason = why;
    }
    res.stats.seconds = watch.seconds();
    return res;
}

}  // namespace bakers
