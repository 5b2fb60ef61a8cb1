#include "dive.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "column_masks.hpp"
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
// as one step, their positions between never stored. Never tried: a card into a cell
// alone, and a part moved off a card it builds on.
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

// The room a position offers to cards moved off a column: the columns' tops, the empty
// columns and the free cells.
struct Room {
    CardSet tops;                 // the top cards of the columns
    Card top_of[kMaxColumns];     // each column's top card (kNoCard: empty)
    std::uint8_t column_of[64];   // the column of each card of tops
    int empties, free_cells;
    unsigned empty_cols;          // the empty columns, a bit mask
    std::uint64_t links;          // the position's link_mask (column_masks.hpp)
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
            ++made_;  // a child position (its key at least), unless a composite fails below
            if (quiet && !seen_.insert(key)) continue;
            bool fresh = true;
            if (m.from >= kComposite) {
                // Made without keys; only the columns it changed are hashed again.
                Unkeyed made{f.k.s};
                changed_ = 0;
                if (!composite(made, m)) {
                    --made_;
                    line_.resize(mark);
                    continue;
                }
                frames_.push_back(f);
                Keyed& child = frames_.back().k;
                child.change_to(made.s, changed_ | resized(child.s, made.s), gen_.rules().cells);
                assert(child.key_is_consistent(gen_.rules().columns, gen_.rules().cells));
                fresh = seen_.insert(child.key);
            } else {
                frames_.push_back(f);
                Keyed& child = frames_.back().k;
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
            const State& child = frames_.back().k.s;
            most_home_ = std::max(most_home_, child.home());
            if (gen_.won(child)) return true;
            open(frames_.back(), mark);
            ++done;
            ++expanded;
        }
        return false;
    }
    bool exhausted() const { return frames_.empty(); }
    int most_home() const { return most_home_; }
    // Returns the number of child positions made (those found seen included).
    std::uint64_t made() const { return made_; }
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

    // Appends the children of s to kids_, class by class. The moves of a class come in
    // the order MoveGen::generate lists them (cells before columns, targets in column
    // order, cards in card order); only the moves the classes hold are made: a part
    // that does not lie on a card it builds on is a column's whole top run (a shorter
    // part lies on the next card of the run).
    void add_children(const State& s) {
        const Rules& r = gen_.rules();
        const int ncols = r.columns;
        Room room;
        const Card* tops = room.top_of;
        room.tops = 0;
        room.empties = room.free_cells = 0;
        room.empty_cols = 0;
        room.links = link_mask(r, s);
        for (int i = 0; i < ncols; ++i) {
            const int lo = i ? s.end[i - 1] : 0, hi = s.end[i];
            if (hi == lo) {
                room.top_of[i] = kNoCard;
                ++room.empties;
                room.empty_cols |= 1U << i;
            } else {
                room.top_of[i] = s.cards[hi - 1];
                room.tops |= bit_of(tops[i]);
                room.column_of[tops[i]] = static_cast<std::uint8_t>(i);
            }
        }
        for (int c = 0; c < r.cells; ++c) room.free_cells += s.cells[c] == kNoCard;
        const CardSet top_set = room.tops;
        const std::uint8_t* top_col = room.column_of;
        const int empties = room.empties, free_cells = room.free_cells;
        const int first_empty = empties ? __builtin_ctz(room.empty_cols) : -1;
        const int limit = gen_.limit_of(free_cells, empties);
        const int limit_empty = first_empty >= 0 ? gen_.limit_of(free_cells, empties - 1) : 0;
        const int longest = std::max(limit, limit_empty);

        std::size_t begin = kids_.size();
        // Home: cell cards, then column tops.
        for (int c = 0; c < r.cells; ++c)
            if (s.cells[c] != kNoCard && gen_.goes_home(s, s.cells[c]))
                kids_.push_back(Move{static_cast<std::uint8_t>(kCell + c), kFoundation, 1});
        for (int i = 0; i < ncols; ++i)
            if (tops[i] != kNoCard && gen_.goes_home(s, tops[i]))
                kids_.push_back(Move{static_cast<std::uint8_t>(i), kFoundation, 1});
        shuffle(begin);
        // A cell card onto the columns whose tops it builds on, in column order.
        begin = kids_.size();
        for (int c = 0; c < r.cells; ++c) {
            if (s.cells[c] == kNoCard) continue;
            unsigned cols = 0;
            for (CardSet t = gen_.targets(s.cells[c]) & top_set; t; t &= t - 1)
                cols |= 1U << top_col[__builtin_ctzll(t)];
            for (; cols; cols &= cols - 1)
                kids_.push_back(Move{static_cast<std::uint8_t>(kCell + c), static_cast<std::uint8_t>(__builtin_ctz(cols)), 1});
        }
        shuffle(begin);
        begin = kids_.size();
        add_digs(s, room);
        shuffle(begin);
        // The columns' top runs that may move (at most `longest` cards): each one's lowest
        // card, its column and its length (a run stops at its column's covered card,
        // whose link bit is clear).
        int run[kMaxColumns] = {};
        CardSet bottoms = 0;
        std::uint8_t bottom_col[64];
        for (int i = 0; i < ncols; ++i) {
            if (tops[i] == kNoCard) continue;
            const int n = run_below(room.links, s.end[i] - 1);
            if (n > longest) continue;
            run[i] = n;
            const Card bottom = s.cards[s.end[i] - n];
            bottoms |= bit_of(bottom);
            bottom_col[bottom] = static_cast<std::uint8_t>(i);
        }
        // A whole top run onto a column top it builds on: targets in column order.
        begin = kids_.size();
        for (int d = 0; d < ncols; ++d) {
            if (tops[d] == kNoCard) continue;
            for (CardSet cand = gen_.sources(tops[d]) & bottoms; cand; cand &= cand - 1) {
                const int i = bottom_col[__builtin_ctzll(cand)];
                if (i != d && run[i] <= limit)
                    kids_.push_back(Move{static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(d), static_cast<std::uint8_t>(run[i])});
            }
        }
        shuffle(begin);
        begin = kids_.size();
        add_dig_parents(s, room);
        shuffle(begin);
        // Into the first empty column: a cell card, then a column's whole top run (not
        // the whole column: that only renames the column).
        begin = kids_.size();
        if (first_empty >= 0 && r.empty != Empty::None) {
            const auto to = static_cast<std::uint8_t>(first_empty);
            for (int c = 0; c < r.cells; ++c)
                if (s.cells[c] != kNoCard && r.empty_takes(s.cells[c]))
                    kids_.push_back(Move{static_cast<std::uint8_t>(kCell + c), to, 1});
            for (int i = 0; i < ncols; ++i)
                if (run[i] && run[i] <= limit_empty && run[i] < s.size(i) &&
                    r.empty_takes(s.from_top(i, run[i] - 1)))
                    kids_.push_back(Move{static_cast<std::uint8_t>(i), to, static_cast<std::uint8_t>(run[i])});
        }
        shuffle(begin);
    }

    // Returns true if the card k places below column col's top lies on a card it builds on
    // (its link bit: clear for a column's covered card).
    static bool lies_on_parent(const State& s, const Room& room, int col, int k) {
        return (room.links >> (s.end[col] - 1 - k)) & 1;
    }

    // Shuffles kids_ from `begin` on (a class), in scans other than the first.
    void shuffle(std::size_t begin) {
        if (rng_)
            for (auto i = kids_.size(); i > begin + 1; --i)
                std::swap(kids_[i - 1], kids_[begin + below(i - begin)]);
    }

    // The foundations' next cards below a column's top, the fewest cards above first: in
    // each column the one nearest its top (a column holds at most one of them that can go
    // home first), when its cards fit on the way off.
    void add_digs(const State& s, const Room& room) {
        const std::uint64_t next = places_of(s, gen_.next_cards(s));
        int found = 0;
        Move dig[kSuits];
        for (int i = 0; i < gen_.rules().columns && next; ++i) {
            const int lo = i ? s.end[i - 1] : 0, hi = s.end[i];
            if (hi - lo < 2) continue;
            const std::uint64_t below = next & places_between(lo, hi - 1);  // not the top
            if (below == 0) continue;
            const int k = hi - 1 - (63 - std::countl_zero(below));
            if (!off_fits(s, room, i, k)) continue;  // it would fail: not a child
            int j = found++;
            for (; j > 0 && dig[j - 1].count > k; --j) dig[j] = dig[j - 1];
            dig[j] = Move{kComposite + kDigHome, static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(k)};
        }
        kids_.insert(kids_.end(), dig, dig + found);
    }

    // The cards just below a column's top that another column's top takes, that do not
    // lie on a card they build on, and that the top card does not lie on as on a parent
    // (a part that moves whole is a single move).
    void add_dig_parents(const State& s, const Room& room) {
        for (int i = 0; i < gen_.rules().columns; ++i) {
            if (s.size(i) < 2) continue;
            const Card x = s.from_top(i, 1);
            if ((gen_.targets(x) & room.tops & ~bit_of(s.top(i))) == 0) continue;
            if (lies_on_parent(s, room, i, 1) || lies_on_parent(s, room, i, 0)) continue;
            if (!off_fits(s, room, i, 1)) continue;
            kids_.push_back(Move{kComposite + kDigParent, static_cast<std::uint8_t>(i), 1});
        }
    }

    // Returns true if `move_off(k, col, n)` succeeds on a position k of s whose n top
    // cards in column col hold no foundation's next card but maybe the last. Then no move
    // before the last one uncovers a card that goes home (settle_after sends only next
    // cards), so the moves can be followed on the other columns' tops, the number of free
    // cells and of empty columns alone, choosing as move_off chooses: the answer is exact,
    // and a composite child that would fail is never made.
    bool off_fits(const State& s, const Room& room, int col, int n) const {
        if (room.free_cells >= n) return true;  // each step moves a card at least, to a cell at worst
        const Rules& r = gen_.rules();
        CardSet tops = room.tops & ~bit_of(s.top(col));
        Card top_of[kMaxColumns];
        std::copy_n(room.top_of, r.columns, top_of);
        std::uint8_t column_of[64];  // the column of each card of tops
        std::copy_n(room.column_of, 64, column_of);
        int empties = room.empties;
        unsigned empty_cols = room.empty_cols;
        int free_cells = room.free_cells;
        const int size = s.size(col);
        // Puts the part whose top card is `top` on column d.
        auto land = [&](int d, Card top) {
            if (top_of[d] != kNoCard) tops &= ~bit_of(top_of[d]);
            top_of[d] = top;
            tops |= bit_of(top);
            column_of[top] = static_cast<std::uint8_t>(d);
        };
        for (int pos = 0; pos < n;) {
            // the top run of what is left of the n cards
            const int run = std::min(run_below(room.links, s.end[col] - 1 - pos), n - pos);
            const Card top = s.from_top(col, pos);
            int moved = 0;
            const int limit = run > 1 ? gen_.limit_of(free_cells, empties) : 1;
            for (int c = std::min(run, limit); c >= 1 && !moved; --c) {
                int to = kMaxColumns;  // the first column, by index, whose top takes the part
                for (CardSet on = gen_.targets(s.from_top(col, pos + c - 1)) & tops; on; on &= on - 1)
                    to = std::min<int>(to, column_of[__builtin_ctzll(on)]);
                if (to == kMaxColumns) continue;
                land(to, top);
                moved = c;
            }
            if (!moved && free_cells > 0) {
                --free_cells;
                moved = 1;
            }
            if (!moved && empties > 0 && r.empty != Empty::None) {
                const int most = std::min({run, run > 1 ? gen_.limit_of(free_cells, empties - 1) : 1, size - pos - 1});
                for (int c = most; c >= 1 && !moved; --c)
                    if (r.empty_takes(s.from_top(col, pos + c - 1))) moved = c;
                if (moved) {
                    land(__builtin_ctz(empty_cols), top);
                    empty_cols &= empty_cols - 1;
                    --empties;
                }
            }
            if (!moved) return false;
            pos += moved;
        }
        return true;
    }

    // Returns the columns (a bit mask) whose sizes differ between a and b.
    unsigned resized(const State& a, const State& b) const {
        unsigned out = 0;
        for (int i = 0; i < gen_.rules().columns; ++i) out |= unsigned{a.size(i) != b.size(i)} << i;
        return out;
    }

    // Makes the composite child `what` on k, appending its moves to line_ and the columns
    // they move cards from or to to changed_ (cards sent home change columns' sizes);
    // returns false (k then undefined) when it cannot be made.
    bool composite(Unkeyed& k, Move what) {
        const int col = what.to;
        const Card c = k.s.from_top(col, what.count);
        if (what.from == kComposite + kDigHome) {
            const int t = suit_of(c);
            const int height = k.s.found[t] + 1;
            [[maybe_unused]] const bool off = move_off(k, col, what.count);
            assert(off);  // off_fits said so
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
    bool move_off(Unkeyed& k, int col, int n) {
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
    void play(Unkeyed& k, Move m) {
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
        if (is_column(m.from)) changed_ |= 1U << m.from;
        if (is_column(m.to)) changed_ |= 1U << m.to;
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
    unsigned changed_ = 0;  // see composite
    std::uint64_t made_ = 0;
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
    std::uint64_t bytes = 0, made = 0;
    for (const Scan& scan : scans) {
        bytes += scan.bytes();
        made += scan.made();
        res.stats.most_home = std::max(res.stats.most_home, scan.most_home());
    }
    res.stats.expanded = expanded;
    res.stats.generated = made;
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
