#include "dive.hpp"

#include <algorithm>
#include <array>
#include <bit>
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

// The children of a position, in the order a scan tries them: class by class (the first
// scan in kFirstOrder, the others in kOtherOrder), and within a class in the order the
// moves are generated (the first scan) or shuffled (the others, each with its own seed).
// A class holds moves, or composite children: several moves made as one step, their
// positions between never stored. Never tried: a card into a cell alone (but in the wide
// dive's scans, kToCell), and a part moved off a card it builds on.
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
    kToCell,      // a column's top card into the first free cell (the wide dive's scans only)
};

constexpr std::size_t kClasses = 6;
using ClassOrder = std::array<Class, kClasses>;
// The first scan's order keeps its lines short: a part goes onto a parent only once no
// foundation's next card can be dug out. The other scans put parts onto parents (and the
// cards under the tops onto theirs) first: the deals where the first order runs dry are
// mostly won that way, with lines a few moves longer (both chosen on the training range,
// docs/benchmarks.md, "FreeCell in CPU time, second round").
constexpr ClassOrder kFirstOrder = {kHome, kFromCell, kDigHome, kOntoParent, kDigParent, kToEmpty};
constexpr ClassOrder kOtherOrder = {kHome, kOntoParent, kDigParent, kFromCell, kDigHome, kToEmpty};
// The first scan makes its first kFirstClasses classes when it opens a frame, the others
// only once the frame's first children are spent: on the line to a win most frames never
// need them (the order of the children, and so every position searched, is the same).
constexpr std::size_t kFirstClasses = 3;
// The wide dive's scans (DiveMoves::Wide) take the other scans' order, then a top card
// into a cell, every scan shuffled: they reach the lines that park a card in a cell where
// no direct move frees what it covers. The cells class last was chosen on FreeCell's
// training range among five orders (those with it third or fourth won fewer of the
// deals the dive gave up: docs/benchmarks.md, "FreeCell in CPU time, sixth round").
constexpr std::array<Class, kClasses + 1> kWideOrder = {kHome,     kOntoParent, kDigParent, kFromCell,
                                                       kDigHome, kToEmpty,    kToCell};

// A composite child waiting on a frame: Move{kComposite + class, column, cards above}.
constexpr std::uint8_t kComposite = 0xf0;

// A set of keys: open addressing on the low bits, doubled at half load. The zero key (no
// card in a column or a cell: the won position) is kept apart. Its slots come from the
// thread's spare storage and go back to it (spare_slots): most deals need a few hundred
// keys, and a fresh table a deal would cost more to clear than to fill.
class KeySet {
public:
    explicit KeySet(std::vector<Key>&& slots) : slots_(std::move(slots)) { slots_.assign(kFirstSlots, Key{}); }
    std::vector<Key> release() { return std::move(slots_); }
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
    static constexpr std::size_t kFirstSlots = 256;  // a power of two
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

// What the classes of a position's children are made from: its Room, and more.
struct Survey {
    Room room;
    CardSet next;                 // the foundations' next cards
    std::uint64_t top_places;     // the places of the columns' tops
    unsigned loose_pairs;         // the columns whose two top cards lie on no card they build on
    int first_empty;              // the first empty column, or -1
    int limit, limit_empty;       // the longest part that may move onto a card, into an empty column
    int run[kMaxColumns];         // each column's top run, if it may move (else 0)
    CardSet bottoms;              // the lowest cards of those runs ...
    std::uint8_t bottom_col[64];  // ... and the column of each
};

// Room for a frame's survey, left unwritten until the frame opens (a survey is about 250
// bytes: a scan's buffers are not zeroed when they grow).
struct SurveySlot {
    SurveySlot() {}
    Survey v;
};

// A position on a scan's line, with its children.
struct Frame {
    Keyed k;
    std::uint32_t first, end, next;  // its children in the scan's kids: [first, end), next to try
    std::uint32_t line;              // where the moves that made it start in the scan's line
    bool later;                      // the first scan's later classes are still to be made
};

// The buffers of a scan, kept by each thread from one dive to the next (a range decides
// many deals a second on each thread; allocating and clearing them anew for each deal
// cost more than a small deal's search). Buffers past kKeptBytes are let go.
struct ScanStorage {
    std::vector<Frame> frames;
    std::vector<SurveySlot> surveys;
    std::vector<Move> kids, line;
};
constexpr std::size_t kKeptBytes = std::size_t{1} << 20;
thread_local std::vector<ScanStorage> spare_storage;
thread_local std::vector<Key> spare_slots;  // the visited set's, likewise

ScanStorage take_storage() {
    if (spare_storage.empty()) return {};
    ScanStorage out = std::move(spare_storage.back());
    spare_storage.pop_back();
    return out;
}

// The visited set the scans of a dive share, its slots taken from the thread's spare
// storage and given back.
class SharedSeen {
public:
    SharedSeen() : set_(std::move(spare_slots)) {}
    ~SharedSeen() {
        std::vector<Key> back = set_.release();
        if (back.capacity() * sizeof(Key) <= kKeptBytes) spare_slots = std::move(back);
    }
    SharedSeen(const SharedSeen&) = delete;
    SharedSeen& operator=(const SharedSeen&) = delete;
    KeySet& set() { return set_; }

private:
    KeySet set_;
};

// One depth-first scan: its line of frames and their children, in a visited set it
// shares with the dive's other scans.
class Scan {
public:
    // `seed` 0: children in generation order and kFirstOrder; else shuffled within their
    // classes, in kOtherOrder, or kWideOrder where `wide` (the wide dive's scans, each
    // with a seed other than 0).
    Scan(const MoveGen& gen, std::uint32_t seed, KeySet& seen, bool wide) : Scan(gen, seed, seen, wide, take_storage()) {}
    Scan(Scan&&) = default;
    Scan(const Scan&) = delete;
    Scan& operator=(const Scan&) = delete;
    Scan& operator=(Scan&&) = delete;
    ~Scan() {
        if (frames_.capacity() == 0) return;  // moved from, or never started: nothing to keep
        ScanStorage back{std::move(frames_), std::move(surveys_), std::move(kids_), std::move(line_)};
        if (back.frames.capacity() * sizeof(Frame) > kKeptBytes) back.frames = {};
        if (back.surveys.size() * sizeof(SurveySlot) > kKeptBytes) back.surveys = {};
        if ((back.kids.capacity() + back.line.capacity()) * sizeof(Move) > kKeptBytes) back.kids = back.line = {};
        back.frames.clear();
        back.kids.clear();
        back.line.clear();
        if (spare_storage.size() < kScans) spare_storage.push_back(std::move(back));
    }

    // Starts the scan at the settled position root (known not to be won), which the
    // visited set holds.
    void start(const Keyed& root) {
        frames_.reserve(256);
        frames_.push_back(Frame{root, 0, 0, 0, 0, false});
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
            if (f.next == f.end && f.later) add_later(f);
            if (f.next == f.end) {
                kids_.resize(f.first);
                line_.resize(f.line);
                frames_.pop_back();
                continue;
            }
            const Move m = kids_[f.next++];
            const std::size_t mark = line_.size();
            QuietChange change;
            // A quiet move's child is told seen by its key alone (MoveGen::quiet_key).
            const bool quiet = m.from < kComposite && gen_.quiet_key(f.k, m, change);
            ++made_;  // a child position (its key at least), unless a composite fails below
            if (quiet && !seen_.insert(change.key)) continue;
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
                child.change_to(made.s, changed_ | resized_columns(child.s, made.s), gen_.rules().cells);
                assert(child.key_is_consistent(gen_.rules().columns, gen_.rules().cells));
                fresh = seen_.insert(child.key);
            } else {
                frames_.push_back(f);
                Keyed& child = frames_.back().k;
                if (quiet) {
                    gen_.apply_quiet(child, m, change);
                } else {
                    gen_.apply(child, m);
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
            if (gen_.won(child)) {
                frames_.back().line = static_cast<std::uint32_t>(mark);  // as `open` would
                return true;
            }
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
    // Returns the bytes the scan's own use of its buffers comes to (the visited set
    // apart): its frames (with their surveys), children and line at their most (not the
    // capacities, which a thread's earlier deals may have left larger: the figure is the
    // same on every run).
    std::uint64_t bytes() const {
        return most_frames_ * (sizeof(Frame) + sizeof(SurveySlot)) +
               (most_kids_ + line_.size()) * sizeof(Move);
    }
    // Returns the moves from the start to the win (after a win), each one the rules allow
    // in the position the moves before it make (with the safe moves home after each).
    const std::vector<Move>& line() const { return line_; }

    // Returns the number of moves that `rebuild` writes for line() from `start` (after a
    // win, in rules without auto_aces), from the positions on the scan's line: `rebuild`
    // writes each move of the line as its single moves (MoveGen::expand) and, after it,
    // each card that goes home by itself (the safe moves: without auto_aces no card goes
    // home otherwise). Between two frames the cards home grow by the moves home of the
    // line and the safe moves, so the safe moves are the difference less the moves home.
    // A move that MoveGen::expands is written as its single moves in the position it is
    // made in, which for a composite child's later moves is made again here from its
    // frame (the frames hold only the positions between children); any other is one.
    std::size_t count_line(const State& start) const {
        assert(!gen_.rules().auto_aces && !frames_.empty());
        std::size_t count = static_cast<std::size_t>(frames_[0].k.s.home() - start.home());
        std::vector<Move> singles;
        for (std::size_t j = 1; j < frames_.size(); ++j) {
            const State& before = frames_[j - 1].k.s;
            const std::size_t from = frames_[j].line;
            const std::size_t to = j + 1 < frames_.size() ? frames_[j + 1].line : line_.size();
            bool expanded = false;
            int home_moves = 0;
            for (std::size_t i = from; i < to; ++i) {
                expanded |= gen_.expands(line_[i]);
                home_moves += line_[i].to == kFoundation;
            }
            if (!expanded) {
                count += to - from;
            } else {
                Unkeyed k{before};
                for (std::size_t i = from; i < to; ++i) {
                    gen_.expand(k.s, line_[i], singles);
                    count += singles.size();
                    singles.clear();
                    gen_.apply(k, line_[i]);
                    gen_.settle_after(k, line_[i]);
                }
            }
            count += static_cast<std::size_t>(frames_[j].k.s.home() - before.home() - home_moves);
        }
        return count;
    }

private:
    Scan(const MoveGen& gen, std::uint32_t seed, KeySet& seen, bool wide, ScanStorage&& storage)
        : gen_(gen), rng_(seed), wide_(wide), seen_(seen), frames_(std::move(storage.frames)),
          surveys_(std::move(storage.surveys)), kids_(std::move(storage.kids)), line_(std::move(storage.line)) {}

    // Gives the frame f (the top one) its children; `at` is where the moves that made
    // its position start in line_.
    void open(Frame& f, std::size_t at) {
        f.first = f.next = static_cast<std::uint32_t>(kids_.size());
        if (surveys_.size() < frames_.size()) surveys_.resize(frames_.capacity());
        Survey& v = surveys_[frames_.size() - 1].v;
        survey(f.k.s, v);
        if (wide_) {
            add_classes<kWideOrder, true>(f.k.s, v, std::make_index_sequence<kWideOrder.size()>{});
        } else if (rng_) {
            add_classes<kOtherOrder, true>(f.k.s, v, std::make_index_sequence<kClasses>{});
        } else {
            add_classes<kFirstOrder, false>(f.k.s, v, std::make_index_sequence<kFirstClasses>{});
        }
        f.later = rng_ == 0 && !wide_;
        f.end = static_cast<std::uint32_t>(kids_.size());
        f.line = static_cast<std::uint32_t>(at);
        most_frames_ = std::max(most_frames_, frames_.size());
        most_kids_ = std::max(most_kids_, kids_.size());
    }

    // Gives the top frame f of the first scan, whose children so far are spent, the
    // classes of kFirstOrder after its first kFirstClasses, from its survey.
    void add_later(Frame& f) {
        assert(f.later && f.next == f.end && kids_.size() == f.end && !rng_);
        f.later = false;
        add_classes<kFirstOrder, false, kFirstClasses>(f.k.s, surveys_[frames_.size() - 1].v,
                                                       std::make_index_sequence<kClasses - kFirstClasses>{});
        f.end = static_cast<std::uint32_t>(kids_.size());
        most_kids_ = std::max(most_kids_, kids_.size());
    }

    // The classes kOrder[kFrom + I] one after the other (shuffled: each one shuffled), the
    // order fixed when compiled. The moves of a class come in the order
    // MoveGen::generate lists them (cells before columns, targets in column order, cards
    // in card order); only the moves the classes hold are made: a part that does not lie
    // on a card it builds on is a column's whole top run (a shorter part lies on the next
    // card of the run).
    template <auto kOrder, bool kShuffled, std::size_t kFrom = 0, std::size_t... I>
    void add_classes(const State& s, const Survey& v, std::index_sequence<I...>) {
        (add_class<kOrder[kFrom + I], kShuffled>(s, v), ...);
    }

    template <Class c, bool kShuffled>
    void add_class(const State& s, const Survey& v) {
        const std::size_t begin = kids_.size();
        if constexpr (c == kHome) add_home(s, v);
        else if constexpr (c == kFromCell) add_from_cell(s, v);
        else if constexpr (c == kDigHome) add_digs(s, v);
        else if constexpr (c == kOntoParent) add_onto_parents(v);
        else if constexpr (c == kDigParent) add_dig_parents(s, v);
        else if constexpr (c == kToEmpty) add_to_empty(s, v);
        else add_to_cell(s, v);
        if constexpr (kShuffled) shuffle(begin);
    }

    // Fills v for s: one pass over the columns for their tops, the empty ones, the places
    // of the tops and the loose pairs, then the top runs that may move.
    void survey(const State& s, Survey& v) const {
        const Rules& r = gen_.rules();
        const int ncols = r.columns, ncells = r.cells;
        Room& room = v.room;
        Card* const tops = room.top_of;
        std::uint8_t* const top_col = room.column_of;
        const std::uint64_t links = room.links = link_mask(r, s);
        CardSet top_set = 0;
        unsigned empty_cols = 0, loose_pairs = 0;
        int empties = 0;
        std::uint64_t top_places = 0;
        for (int i = 0, lo = 0; i < ncols; ++i) {
            const int hi = s.end[i];
            if (hi == lo) {
                tops[i] = kNoCard;
                empty_cols |= 1U << i;
                ++empties;
            } else {
                const Card t = s.cards[hi - 1];
                tops[i] = t;
                top_set |= bit_of(t);
                top_col[t] = static_cast<std::uint8_t>(i);
                top_places |= std::uint64_t{1} << (hi - 1);
                if (hi - lo >= 2 && ((links >> (hi - 2)) & 3) == 0) loose_pairs |= 1U << i;
            }
            lo = hi;
        }
        const int free_cells = bakers::free_cells(s, ncells);
        room.tops = top_set;
        room.empties = empties;
        room.free_cells = free_cells;
        room.empty_cols = empty_cols;
        v.next = gen_.next_cards(s);  // never holds kNoCard (card 0)
        v.top_places = top_places;
        v.loose_pairs = loose_pairs;
        v.first_empty = empties ? std::countr_zero(empty_cols) : -1;
        v.limit = gen_.limit_of(free_cells, empties);
        v.limit_empty = v.first_empty >= 0 ? gen_.limit_of(free_cells, empties - 1) : 0;
        // The columns' top runs that may move (at most the longer limit): each one's lowest
        // card, its column and its length (a run stops at its column's covered card, whose
        // link bit is clear).
        const int longest = std::max(v.limit, v.limit_empty);
        std::fill_n(v.run, ncols, 0);
        v.bottoms = 0;
        for (std::uint64_t t = top_places; t; t &= t - 1) {
            const int top = std::countr_zero(t);
            const int n = run_below(links, top);
            if (n > longest) continue;
            const int i = top_col[s.cards[top]];
            v.run[i] = n;
            const Card bottom = s.cards[top + 1 - n];
            v.bottoms |= bit_of(bottom);
            v.bottom_col[bottom] = static_cast<std::uint8_t>(i);
        }
    }

    // Home: cell cards, then column tops, in column order.
    void add_home(const State& s, const Survey& v) {
        for (int c = 0; c < gen_.rules().cells; ++c)
            if ((v.next >> s.cells[c]) & 1)
                kids_.push_back(Move{static_cast<std::uint8_t>(kCell + c), kFoundation, 1});
        unsigned cols = 0;
        for (CardSet h = v.next & v.room.tops; h; h &= h - 1) cols |= 1U << v.room.column_of[std::countr_zero(h)];
        for (; cols; cols &= cols - 1)
            kids_.push_back(Move{static_cast<std::uint8_t>(std::countr_zero(cols)), kFoundation, 1});
    }

    // A cell card onto the columns whose tops it builds on, in column order.
    void add_from_cell(const State& s, const Survey& v) {
        for (int c = 0; c < gen_.rules().cells; ++c) {
            if (s.cells[c] == kNoCard) continue;
            unsigned cols = 0;
            for (CardSet t = gen_.targets(s.cells[c]) & v.room.tops; t; t &= t - 1)
                cols |= 1U << v.room.column_of[std::countr_zero(t)];
            for (; cols; cols &= cols - 1)
                kids_.push_back(Move{static_cast<std::uint8_t>(kCell + c), static_cast<std::uint8_t>(std::countr_zero(cols)), 1});
        }
    }

    // A whole top run (a part that does not lie on a card it builds on: a shorter part
    // lies on the next card of its run) onto a column top it builds on, targets in column
    // order.
    void add_onto_parents(const Survey& v) {
        if (v.bottoms == 0) return;
        for (int d = 0; d < gen_.rules().columns; ++d) {
            for (CardSet cand = gen_.sources(v.room.top_of[d]) & v.bottoms; cand; cand &= cand - 1) {
                const int i = v.bottom_col[std::countr_zero(cand)];
                if (i != d && v.run[i] <= v.limit)
                    kids_.push_back(Move{static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(d), static_cast<std::uint8_t>(v.run[i])});
            }
        }
    }

    // Into the first empty column: a cell card, then a column's whole top run (not the
    // whole column: that only renames the column).
    void add_to_empty(const State& s, const Survey& v) {
        const Rules& r = gen_.rules();
        if (v.first_empty < 0 || r.empty == Empty::None) return;
        const auto to = static_cast<std::uint8_t>(v.first_empty);
        for (int c = 0; c < r.cells; ++c)
            if (s.cells[c] != kNoCard && r.empty_takes(s.cells[c]))
                kids_.push_back(Move{static_cast<std::uint8_t>(kCell + c), to, 1});
        for (int i = 0; i < r.columns; ++i)
            if (v.run[i] && v.run[i] <= v.limit_empty && v.run[i] < s.size(i) && r.empty_takes(s.from_top(i, v.run[i] - 1)))
                kids_.push_back(Move{static_cast<std::uint8_t>(i), to, static_cast<std::uint8_t>(v.run[i])});
    }

    // A column's top card into the first free cell, columns in order.
    void add_to_cell(const State& s, const Survey& v) {
        if (v.room.free_cells == 0) return;
        int c = 0;
        while (s.cells[c] != kNoCard) ++c;
        for (int i = 0; i < gen_.rules().columns; ++i)
            if (v.room.top_of[i] != kNoCard) kids_.push_back(Move{static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(kCell + c), 1});
    }

    // Shuffles kids_ from `begin` on (a class), in scans other than the first.
    void shuffle(std::size_t begin) {
        for (auto i = kids_.size(); i > begin + 1; --i)
            std::swap(kids_[i - 1], kids_[begin + below(i - begin)]);
    }

    // The foundations' next cards below a column's top, the fewest cards above first (the
    // columns in order among equal counts): in each column the one nearest its top (a
    // column holds at most one of them that can go home first), when its cards fit on the
    // way off.
    void add_digs(const State& s, const Survey& v) {
        const Room& room = v.room;
        // The places of the next cards below the tops: the tops left out (a cell's card is
        // found at no place).
        std::uint64_t below = places_of(s, v.next & ~room.tops);
        if (below == 0) return;
        int found = 0;
        Move dig[kSuits];
        unsigned done = 0;  // the columns seen: the highest next card below a top comes first
        while (below) {
            const int p = 63 - std::countl_zero(below);
            below &= ~(std::uint64_t{1} << p);
            const int i = column_at(s, p);
            if ((done >> i) & 1) continue;
            done |= 1U << i;
            const int k = s.end[i] - 1 - p;
            if (!off_fits(s, room, i, k)) continue;  // it would fail: not a child
            int j = found++;
            for (; j > 0 && (dig[j - 1].count > k || (dig[j - 1].count == k && dig[j - 1].to > i)); --j) dig[j] = dig[j - 1];
            dig[j] = Move{kComposite + kDigHome, static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(k)};
        }
        kids_.insert(kids_.end(), dig, dig + found);
    }

    // The cards just below a column's top that another column's top takes, that do not
    // lie on a card they build on, and that the top card does not lie on as on a parent
    // (a part that moves whole is a single move): in the loose pairs' columns.
    void add_dig_parents(const State& s, const Survey& v) {
        const Room& room = v.room;
        for (unsigned loose_pairs = v.loose_pairs; loose_pairs; loose_pairs &= loose_pairs - 1) {
            const int i = std::countr_zero(loose_pairs);
            const Card x = s.from_top(i, 1);
            if ((gen_.targets(x) & room.tops & ~bit_of(room.top_of[i])) == 0) continue;
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
        if (room.free_cells == 0 && (room.empties == 0 || r.empty == Empty::None)) {
            // Nowhere but onto a top: the first step (below) needs a top that takes the top
            // card, or a longer part of the top run where the limit lets one move. Most
            // answers are no, found here before the copies below.
            const int run = std::min(run_below(room.links, s.end[col] - 1), n);
            const int most = run > 1 ? std::min(run, gen_.limit_of(0, room.empties)) : 1;
            const CardSet others = room.tops & ~bit_of(s.top(col));
            bool lands = false;
            for (int c = 1; c <= most && !lands; ++c) lands = (gen_.targets(s.from_top(col, c - 1)) & others) != 0;
            if (!lands) return false;
        }
        CardSet tops = room.tops & ~bit_of(s.top(col));
        Card top_of[kMaxColumns];
        std::copy_n(room.top_of, r.columns, top_of);
        // The column of each card of tops: room.column_of, or for a card landed here (in
        // `landed`) column_of.
        CardSet landed = 0;
        std::uint8_t column_of[64];
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
            landed |= bit_of(top);
        };
        for (int pos = 0; pos < n;) {
            // the top run of what is left of the n cards
            const int run = std::min(run_below(room.links, s.end[col] - 1 - pos), n - pos);
            const Card top = s.from_top(col, pos);
            int moved = 0;
            const int limit = run > 1 ? gen_.limit_of(free_cells, empties) : 1;
            for (int c = std::min(run, limit); c >= 1 && !moved; --c) {
                int to = kMaxColumns;  // the first column, by index, whose top takes the part
                for (CardSet on = gen_.targets(s.from_top(col, pos + c - 1)) & tops; on; on &= on - 1) {
                    const int card = std::countr_zero(on);
                    to = std::min<int>(to, ((landed >> card) & 1) ? column_of[card] : room.column_of[card]);
                }
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
        // The other columns' tops, and the column of each: found again only after cards
        // went home (from any column), else changed where a part landed.
        CardSet tops = 0;
        std::uint8_t top_col[64];
        auto find_tops = [&] {
            tops = 0;
            for (int d = 0; d < r.columns; ++d)
                if (d != col && k.s.size(d)) {
                    tops |= bit_of(k.s.top(d));
                    top_col[k.s.top(d)] = static_cast<std::uint8_t>(d);
                }
        };
        find_tops();
        while (k.s.size(col) > keep) {
            const int run = std::min(gen_.top_run(k.s, col), k.s.size(col) - keep);
            Move m{0, 0, 0};  // count 0: none found yet
            const int most = run > 1 ? std::min(run, gen_.supermove_limit(k.s, false)) : 1;
            for (int c = most; c >= 1 && m.count == 0; --c) {
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
                const int most_empty = std::min({run, run > 1 ? gen_.supermove_limit(k.s, true) : 1, k.s.size(col) - 1});
                for (int c = most_empty; d < r.columns && c >= 1; --c)
                    if (r.empty_takes(k.s.from_top(col, c - 1))) {
                        m = Move{static_cast<std::uint8_t>(col), static_cast<std::uint8_t>(d), static_cast<std::uint8_t>(c)};
                        break;
                    }
            }
            if (m.count == 0) return false;
            const Card moved = k.s.top(col);
            const Card covered = is_column(m.to) ? k.s.top(m.to) : kNoCard;
            if (play(k, m) > 0) {
                find_tops();
            } else if (is_column(m.to)) {
                if (covered != kNoCard) tops &= ~bit_of(covered);
                tops |= bit_of(moved);
                top_col[moved] = m.to;
            }
        }
        return true;
    }

    // Makes the move m (one that MoveGen::generate lists in k) on k and records it.
    // Returns the number of cards that went home by themselves after it.
    int play(Unkeyed& k, Move m) {
#ifndef NDEBUG
        MoveList legal;
        gen_.generate(k.s, legal);
        bool listed = false;
        for (int i = 0; i < legal.size; ++i) listed |= legal.moves[i] == m;
        assert(listed);
#endif
        gen_.apply(k, m);
        const int sent = gen_.settle_after(k, m);
        line_.push_back(m);
        if (is_column(m.from)) changed_ |= 1U << m.from;
        if (is_column(m.to)) changed_ |= 1U << m.to;
        return sent;
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
    std::uint32_t rng_;  // 0 in the first scan (xorshift never reaches 0 from another seed)
    bool wide_;          // the wide dive's scan (kWideOrder)
    KeySet& seen_;  // shared with the dive's other scans
    std::vector<Frame> frames_;
    std::vector<SurveySlot> surveys_;  // surveys_[i]: the survey of frames_[i]'s position
    std::vector<Move> kids_;
    std::vector<Move> line_;
    unsigned changed_ = 0;  // see composite
    std::size_t most_frames_ = 0, most_kids_ = 0;  // see bytes
    std::uint64_t made_ = 0;
    int most_home_ = 0;
};

}  // namespace

Result solve_dive(const Rules& rules, const State& start, const Limits& limits,
                  const std::atomic<bool>* stop, const StopPoll& poll, std::uint64_t budget,
                  bool line, DiveMoves moves) {
    const bool wide = moves == DiveMoves::Wide;
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
    SharedSeen seen;
    seen.set().insert(root.key);
    std::vector<Scan> scans;
    scans.reserve(kScans);
    // The positions the dive may expand: its budget, or fewer where the caller's limit on
    // positions expanded, or stored (the start and each position expanded), is lower.
    std::uint64_t cap = budget;
    const char* at_cap = "dive budget";
    if (limits.max_nodes && limits.max_nodes <= cap) {
        cap = limits.max_nodes;
        at_cap = "node limit";
    }
    if (limits.max_states && limits.max_states - 1 <= cap) {
        cap = limits.max_states - 1;
        at_cap = "state limit";
    }
    // The bytes its scans and their visited set hold (checked with the other limits).
    auto held = [&] {
        std::uint64_t bytes = seen.set().bytes();
        for (const Scan& scan : scans) bytes += scan.bytes();
        return bytes;
    };
    std::uint64_t expanded = 0, since_check = kCheckEvery;  // a check before the first step
    const char* why = nullptr;
    int winner = -1;
    for (std::uint64_t quota = kFirstQuota; winner < 0 && !why; quota *= kGrowth) {
        if (scans.size() < kScans) {
            // The wide dive's first scan is shuffled too: its seed is never 0.
            const auto seed = static_cast<std::uint32_t>((scans.size() + wide) * 0x9e3779b9u);
            scans.emplace_back(gen, seed, seen.set(), wide);
            scans.back().start(root);
        }
        bool any = false;
        for (std::size_t i = 0; i < scans.size() && winner < 0 && !why; ++i) {
            Scan& scan = scans[i];
            // The quota in steps, the limits checked between them.
            for (std::uint64_t left = quota; left > 0 && !scan.exhausted();) {
                any = true;
                if (expanded >= cap) {
                    why = at_cap;
                    break;
                }
                if (since_check >= kCheckEvery) {
                    since_check = 0;
                    if ((why = watch.reached(expanded, 1 + expanded, true, res.stats.most_home))) break;
                    if (limits.max_bytes && held() > limits.max_bytes) {
                        why = "memory limit";
                        break;
                    }
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
    std::uint64_t made = 0;
    for (const Scan& scan : scans) {
        made += scan.made();
        res.stats.most_home = std::max(res.stats.most_home, scan.most_home());
    }
    res.stats.expanded = expanded;
    res.stats.generated = made;
    res.stats.stored = 1 + expanded;
    res.stats.peak_bytes = held();
    if (winner >= 0) {
        res.verdict = Verdict::Solved;
        const Scan& scan = scans[static_cast<std::size_t>(winner)];
        if (line || rules.auto_aces) rebuild(gen, start, scan.line(), res);
        else res.move_count = scan.count_line(start);
    } else {
        res.reason = why;
    }
    res.stats.seconds = watch.seconds();
    return res;
}

}  // namespace bakers
