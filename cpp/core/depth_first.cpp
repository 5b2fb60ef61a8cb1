#include "depth_first.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "checkpoint.hpp"
#include "child_order.hpp"
#include "dead_end.hpp"
#include "chunked.hpp"
#include "dense_table.hpp"
#include "heuristic.hpp"
#include "limit_watch.hpp"
#include "line.hpp"
#include "new_child.hpp"
#include "table.hpp"

namespace bakers {
namespace {

constexpr std::uint64_t kCheckEvery = 256;  // expansions between two checks of the limits
constexpr std::uint64_t kSlack = 1 << 20;   // bytes for one expansion's children
constexpr int kShardBits = 8;  // a big table grows a 1/256 part at a time, never all at once
// A large shard fills to 3/4 before it grows (1/2 in the best-first search): probes get
// longer but a stored position costs 16 to 20 bytes instead of 24 to 30, and memory is
// what ends the long proofs this search is for.
constexpr int kLoadQuarters = 3;
constexpr std::size_t kInitialSlots = 64;  // a shard's start: 192 KB in all, for small searches
constexpr std::size_t kSegment = 64;  // frames per segment of the line (see DepthFirst)
constexpr std::uint64_t kMinDense = std::uint64_t{4} << 20;  // a smaller dense table: not worth it

// The visited set: table.hpp's table, which grows with the search, and under a memory
// limit, once that table holds half of it (or when the caller says), the dense table of
// dense_table.hpp in the rest of the limit: about 10 bytes a position instead of 16 to
// 20 (FreeCell with one cell: 1.6 times the positions in the same memory). The keys move
// over shard by shard, so the two tables are never both whole in memory.
class Visited {
    // Shard i's keys go to the dense table's shard i: one shard is held twice, not all.
    static_assert(kShardBits == DenseTable::kShardBits);

public:
    Visited() : table_(false, kShardBits, kLoadQuarters, kInitialSlots) {}
    bool insert(const Key& k) { return dense_ ? dense_->insert(k) : table_.insert(k); }
    // Values a key for the dense table (DenseTable::set_value, hold); nothing before it.
    void set_value(const Key& k, unsigned v) {
        if (dense_) dense_->set_value(k, v);
    }
    void hold(const Key& k) {
        if (dense_) dense_->hold(k);
    }
    void prefetch(const Key& k) const {
        if (dense_)
            dense_->prefetch(k);
        else
            table_.prefetch(k);
    }
    std::uint64_t bytes() const { return dense_ ? dense_->bytes() : table_.bytes(); }
    bool over_budget() const { return dense_ ? dense_->over_budget() : table_.over_budget(); }
    void set_budget(std::uint64_t b) {
        if (!dense_) table_.set_budget(b);
    }
    bool dense() const { return dense_ != nullptr; }
    // Moves every key to a dense table of `bytes`, valued 0 (the first to be forgotten:
    // what searching each again would cost is unknown; the caller holds its line's).
    void go_dense(std::uint64_t bytes, bool forget) {
        dense_ = std::make_unique<DenseTable>(bytes, forget);
        table_.drain([this](const Key& k) { dense_->insert(k, 0); });
    }

    // Writes the visited set whole for a checkpoint; `load` makes it again (a dense
    // table of at most `max_bytes`).
    void save(CheckpointWriter& w) const {
        w.begin("table kind");
        w.put<std::uint8_t>(dense_ != nullptr);
        if (dense_) {
            w.put(dense_->made_bytes());
            w.put<std::uint8_t>(dense_->forgets());
        }
        w.end();
        w.begin("visited table");
        if (dense_)
            dense_->save(w);
        else
            table_.save(w);
        w.end();
    }
    // A size read is checked against the section's bytes and `max_bytes` before the
    // table is made (a damaged file is refused before it can take the memory).
    void load(CheckpointReader& r, std::uint64_t max_bytes) {
        r.begin("table kind");
        const bool dense = r.get<std::uint8_t>() != 0;
        std::uint64_t bytes = 0;
        bool forgets = false;
        if (dense) {
            bytes = r.get<std::uint64_t>();
            forgets = r.get<std::uint8_t>() != 0;
        }
        r.end();
        r.begin("visited table");
        if (!dense) {
            table_.load(r, max_bytes);
        } else {
            if (bytes > max_bytes) r.mismatch("the dense table's size (larger than its memory limit)");
            // The buckets are in the file whole: about `bytes` (1 MB at least).
            if (bytes > r.left() + (std::uint64_t{2} << 20)) r.damaged("the dense table's size passes its end");
            dense_ = std::make_unique<DenseTable>(bytes, forgets);
            table_.drain([](const Key&) {});
            dense_->load(r);
        }
        r.end();
    }

private:
    VisitedTable table_;
    std::unique_ptr<DenseTable> dense_;
};

// Writes the rules' fields, or checks them against `rules`.
void put_rules(CheckpointWriter& w, const Rules& r) {
    w.put(r.deck);
    w.put(r.columns);
    w.put(r.cells);
    w.put(r.build);
    w.put(r.empty);
    w.put(r.moves);
    w.put(static_cast<std::uint8_t>(r.auto_aces | r.wrap << 1));  // no wrap: as old files
    w.put<std::uint8_t>(r.aces_on_foundations);
    w.put<std::uint8_t>(r.kings_to_bottom);
    w.put(r.numbering);
}
void expect_rules(CheckpointReader& c, const Rules& r) {
    const char* what = "its game (the rules differ)";
    c.expect(r.deck, what);
    c.expect(r.columns, what);
    c.expect(r.cells, what);
    c.expect(r.build, what);
    c.expect(r.empty, what);
    c.expect(r.moves, what);
    c.expect(static_cast<std::uint8_t>(r.auto_aces | r.wrap << 1), what);
    c.expect<std::uint8_t>(r.aces_on_foundations, what);
    c.expect<std::uint8_t>(r.kings_to_bottom, what);
    c.expect(r.numbering, what);
}

// The stack is a line of frames, one per position on the line from the start to the
// position being expanded. A frame holds the move that made its position from the frame
// below and where its waiting moves start in `pending_`: the moves to its children that
// were new when it was expanded (stored then, expanded later: each child is made again
// from the frame's position when its turn comes).
//
// The frames' positions. The line gets long (hundreds of thousands of frames in a long
// proof with one cell), so a frame does not keep its position (about 300
// bytes with the column hashes): `marks_` keeps the position of every kSegment-th frame
// (frames 0, kSegment, 2 kSegment, ...) and `segment_` the positions of the frames from
// the last mark to the top. When the top frame is popped past a mark, the segment below
// is made again from its mark by the frames' moves (apply and settle_after are
// deterministic, so each position comes out as it was made): at most kSegment - 1 moves
// per kSegment frames popped. So the stack costs about 13 bytes per step of the line
// (8 for the frame, 300 / kSegment for the marks) and 3 bytes per waiting child, and the
// search expands exactly the positions it did when every frame kept its own.
class DepthFirst {
public:
    DepthFirst(const Rules& rules, const Limits& limits, const std::atomic<bool>* stop,
               const StopPoll& poll, ChildOrder order, std::uint64_t dense_from, std::uint64_t dense_bytes,
               const Checkpoint* checkpoint, std::uint64_t shuffle)
        : order_(order),
          shuffle_(shuffle),
          gen_(rules),
          dead_(gen_),
          limits_(limits),
          dense_from_(dense_from ? dense_from : limits.max_bytes / 2),
          dense_bytes_(dense_bytes),
          checkpoint_(checkpoint),
          watch_(limits_, stop, poll) {
        segment_.reserve(kSegment);
    }

    Result run(const State& start) {
        const Keyed root = gen_.start(start);
        start_ = &start;
        if (checkpoint_) next_save_ = checkpoint_->every_seconds;
        if (checkpoint_ && checkpoint_exists(checkpoint_->path)) {
            resume(start, root);
            descend();
        } else {
            table_.insert(root.key);
            res_.stats.stored = 1;
            res_.stats.most_home = root.s.home();
            if (gen_.won(root.s))
                res_.verdict = Verdict::Solved;
            else
                search(root);
        }
        if (checkpoint_) {
            // A stop on the memory limit (or before the start was expanded) has nothing
            // to go on with under the same settings.
            if (res_.verdict != Verdict::Unknown)
                std::remove(checkpoint_->path.c_str());
            else if (res_.reason != "memory limit" && !frames_.empty())
                save();
        }
        res_.stats.peak_bytes = std::max(peak_, bytes_now());
        if (res_.verdict == Verdict::Solved) {
            std::vector<Move> line;
            for (std::size_t i = 1; i < frames_.size(); ++i) line.push_back(frames_[i].move);
            if (won_by_) line.push_back(*won_by_);
            rebuild(gen_, start, line, res_);
        }
        res_.stats.seconds = seconds_before_ + watch_.seconds();
        return std::move(res_);
    }

private:
    struct Frame {
        std::uint32_t first;  // where its waiting moves start in pending_
        std::uint32_t since;  // the expansions counted before its own (low 32 bits)
        Move move;            // the move that made its position from the frame below
    };

    std::uint64_t bytes_now() const {
        return table_.bytes() + stack_bytes();
    }
    std::uint64_t stack_bytes() const {
        return frames_.bytes() + pending_.bytes() + marks_.bytes() + segment_.capacity() * sizeof(Keyed);
    }
    // The bytes the stack may hold until the next check: a new block of each kind.
    std::uint64_t stack_reserve() const {
        return stack_bytes() + Frames::block_bytes() + Pending::block_bytes() + Marks::block_bytes() + kSlack;
    }

    bool stop(const char* why) {
        res_.verdict = Verdict::Unknown;
        res_.reason = why;
        return true;
    }

    // Returns true when a limit ends the search (the verdict and reason set). With a
    // memory limit the table gets what the stack's reserve leaves; the stack grows only
    // through `make_room`, which checks its reserve against the limit first.
    bool over_limits() {
        peak_ = std::max(peak_, bytes_now());
        if (limits_.max_bytes) {
            if (!table_.dense() && (table_.bytes() >= dense_from_ || table_.over_budget())) switch_tables();
            if (table_.over_budget() || table_.bytes() + stack_reserve() > limits_.max_bytes)
                return stop("memory limit");
            table_.set_budget(limits_.max_bytes - stack_reserve());
        }
        if (const char* why = watch_.reached(res_.stats.expanded, res_.stats.stored, true, res_.stats.most_home)) return stop(why);
        return false;
    }

    // Under a memory limit, moves the visited keys to a dense table (see Visited) that takes
    // what the stack leaves of the limit, less room for the stack to grow: 1/32 of the
    // limit or four times the stack's present size, whichever is more; 1/16 or sixteen
    // times if it forgets (the search goes on longer). The line costs about 0.5 bytes a
    // stored position and the dense table holds about twice the positions of the switch
    // (docs/benchmarks.md, "Forgetting"). The line's positions are held (never forgotten:
    // see depth_first.hpp).
    void switch_tables() {
        const std::uint64_t room = limits_.forget ? std::max(limits_.max_bytes / 16, 16 * stack_bytes())
                                                  : std::max(limits_.max_bytes / 32, 4 * stack_bytes());
        if (limits_.max_bytes < stack_reserve() + room + kMinDense) return;
        std::uint64_t size = limits_.max_bytes - stack_reserve() - room;
        if (dense_bytes_) size = std::min(size, dense_bytes_);
        peak_ = std::max(peak_, bytes_now());
        table_.go_dense(size, limits_.forget);
        peak_ = std::max(peak_, bytes_now());
        for_each_frame_key([this](const Key& k) { table_.hold(k); });
    }

    // Calls f with the key of every frame's position, made again from the marks.
    template <class F>
    void for_each_frame_key(F&& f) {
        Keyed k;
        for (std::size_t i = 0; i < frames_.size(); ++i) {
            if (i % kSegment == 0) {
                k = marks_[i / kSegment];
            } else {
                gen_.apply(k, frames_[i].move);
                gen_.settle_after(k, frames_[i].move);
            }
            f(k.key);
        }
    }

    // Makes sure that a frame and n waiting moves fit under the memory limit before they
    // are pushed; returns false (the verdict set) when they do not.
    bool make_room(std::size_t n) {
        const bool grows = frames_.full() || (frames_.size() % kSegment == 0 && marks_.full()) ||
                           pending_.size() + n > (pending_.size() / kBlock + 1) * kBlock;
        if (!grows) return true;
        if (pending_.size() + n > UINT32_MAX) return !stop("memory limit");  // Frame::first's range
        peak_ = std::max(peak_, bytes_now() + 2 * Pending::block_bytes());
        if (!limits_.max_bytes) return true;
        if (table_.bytes() + stack_reserve() + n * sizeof(Move) > limits_.max_bytes) return !stop("memory limit");
        table_.set_budget(limits_.max_bytes - stack_reserve());
        return true;
    }

    // Expands `cur` (a stored position): stores its new children and, unless one of them
    // wins, pushes its frame with their moves, the best (lowest priority) last so that
    // it is expanded next. Returns false when the search is over (a win).
    bool expand(const Keyed& cur, Move move, MoveList& moves, std::vector<Kid>& kids, Scorer& scorer) {
        [[maybe_unused]] const Rules& r = gen_.rules();
        assert(cur.key_is_consistent(r.columns, r.cells));
        if (limits_.forget) table_.prefetch(cur.key);  // for the hold or set_value below
        moves.size = 0;
        if (!dead_.dead(cur.s)) gen_.generate(cur.s, moves);  // a dead end has no win to look for
        ++res_.stats.expanded;
        res_.stats.generated += static_cast<std::uint64_t>(moves.size);
        kids.clear();
        fresh_.clear();
        const bool ahead = table_.bytes() >= kAheadFrom;
        if (ahead) make_keys(cur, moves);
        for (int i = 0, j = 0; i < moves.size; ++i) {
            const Move m = moves.moves[i];
            // A quiet move's child (MoveGen::quiet_key: nothing goes home) is told new by
            // its key and not made here: it wins nothing, has the parent's cards home, and
            // QuietScorer scores it from the move; it is made when its move is taken.
            bool quiet;
            if (!ahead) {
                Key key;
                quiet = gen_.quiet_key(cur, m, key);
                if (quiet ? !table_.insert(key) : !add_made_if_new(gen_, table_, cur, m, fresh_)) continue;
            } else {
                const auto at = static_cast<std::size_t>(i);
                quiet = quiet_[at];
                if (!add_if_new_made(keys_[at], quiet, j)) continue;
            }
            ++res_.stats.stored;
            if (quiet) {
#ifndef NDEBUG
                Keyed child = cur;
                gen_.apply(child, m);
                assert(gen_.settle_after(child, m) == 0);
#endif
                kids.push_back(Kid{0, m, -1});
                continue;
            }
            const Keyed& child = fresh_.back();
            res_.stats.most_home = std::max(res_.stats.most_home, child.s.home());
            if (gen_.won(child.s)) {
                won_by_ = m;
                push_frame(cur, move);
                res_.verdict = Verdict::Solved;
                return false;
            }
            kids.push_back(Kid{0, m, static_cast<int>(fresh_.size()) - 1});
        }
        if (kids.empty()) {  // no frame: it would be popped at once
            table_.set_value(cur.key, 1);  // a search of one position
            return true;
        }
        if (!make_room(kids.size())) return false;
        push_frame(cur, move);
        order_kids(gen_, cur, fresh_, kids, scorer, quiet_scorer_, order_ == ChildOrder::Space, shuffle_);
        for (const Kid& kid : kids) pending_.push_back(kid.move);
        return true;
    }
    // In a table of more than kAheadFrom bytes (past the caches) each lookup waits on
    // memory: the children's keys are made first and their buckets asked for at once
    // (make_keys), so that the lookups of one expansion wait about once. In a smaller
    // table the separate pass costs more than it saves (docs/benchmarks.md, "Keys made
    // ahead").
    static constexpr std::uint64_t kAheadFrom = std::uint64_t{64} << 20;
    // Makes each child's key (a quiet move's without making the child, see expand;
    // another's child is made and settled into made_) and asks for its bucket.
    void make_keys(const Keyed& cur, const MoveList& moves) {
        made_.clear();
        keys_.resize(static_cast<std::size_t>(moves.size));
        quiet_.resize(static_cast<std::size_t>(moves.size));
        for (int i = 0; i < moves.size; ++i) {
            const Move m = moves.moves[i];
            Key& key = keys_[static_cast<std::size_t>(i)];
            const bool quiet = gen_.quiet_key(cur, m, key);
            quiet_[static_cast<std::size_t>(i)] = quiet;
            if (!quiet) {
                Keyed& child = made_.emplace_back(cur);
                gen_.apply(child, m);
                gen_.settle_after(child, m);
                key = child.key;
            }
            table_.prefetch(key);
        }
    }
    // Stores the key that make_keys made for a move and returns true if the table did
    // not hold it; the child of a move that is not quiet (made_'s next, `made` counting
    // those passed so far) is then appended to fresh_.
    bool add_if_new_made(const Key& key, bool quiet, int& made) {
        const bool is_new = table_.insert(key);
        if (!quiet) {
            const Keyed& child = made_[static_cast<std::size_t>(made++)];
            if (is_new) fresh_.push_back(child);
        }
        return is_new;
    }
    void push_frame(const Keyed& k, Move move) {
        if (frames_.size() % kSegment == 0) {
            marks_.push_back(k);
            segment_.clear();
        }
        segment_.push_back(k);
        frames_.push_back(Frame{static_cast<std::uint32_t>(pending_.size()),
                                static_cast<std::uint32_t>(res_.stats.expanded - 1), move});
        table_.hold(k.key);
#ifndef NDEBUG
        frame_keys_.push_back(k.key);
#endif
    }
    // Pops the top frame (its position valued by the expansions of its search, 1 to 14:
    // their bit length); past a mark, makes the segment below again from its mark.
    void pop_frame() {
        const std::uint32_t searched = static_cast<std::uint32_t>(res_.stats.expanded) - frames_.back().since;
        table_.set_value(segment_.back().key, static_cast<unsigned>(std::clamp<int>(std::bit_width(searched), 1, 14)));
        frames_.pop_back();
        segment_.pop_back();
#ifndef NDEBUG
        frame_keys_.pop_back();
#endif
        if (frames_.size() % kSegment != 0) return;
        marks_.pop_back();
        if (frames_.empty()) return;
        const std::size_t base = frames_.size() - kSegment;
        segment_.push_back(marks_.back());
        for (std::size_t i = base + 1; i < frames_.size(); ++i) {
            segment_.push_back(segment_.back());  // no reallocation: kSegment reserved
            gen_.apply(segment_.back(), frames_[i].move);
            gen_.settle_after(segment_.back(), frames_[i].move);
            assert(segment_.back().key_is_consistent(gen_.rules().columns, gen_.rules().cells));
            assert(segment_.back().key == frame_keys_[i]);  // the position as it was made
        }
    }

    void search(const Keyed& root) {
        if (over_limits() || !expand(root, Move{}, moves_, kids_, scorer_)) return;
        since_check_ = 1;
        descend();
    }

    // Expands the waiting moves of the stack until it runs dry (the proof), a win, or a
    // limit.
    void descend() {
        MoveList& moves = moves_;
        std::vector<Kid>& kids = kids_;
        Scorer& scorer = scorer_;
        std::uint64_t& since_check = since_check_;
        while (!frames_.empty()) {
            if (pending_.size() == frames_.back().first) {  // every child of top is expanded
                pop_frame();
                if (limits_.forget && !segment_.empty()) table_.prefetch(segment_.back().key);  // often the next to pop
                continue;
            }
            if (since_check >= kCheckEvery || (limits_.max_nodes && res_.stats.expanded >= limits_.max_nodes)) {
                since_check = 0;
                if (over_limits()) return;
                if (checkpoint_ && watch_.seconds() >= next_save_) {
                    save();
                    next_save_ = watch_.seconds() + checkpoint_->every_seconds;
                }
            }
            const Move m = pending_.back();
            pending_.pop_back();
            Keyed child = segment_.back();
            gen_.apply(child, m);
            gen_.settle_after(child, m);
            ++since_check;
            if (!expand(child, m, moves, kids, scorer)) return;
        }
        res_.verdict = Verdict::Impossible;  // the stack ran dry: see depth_first.hpp
    }

    // Writes the whole search to the checkpoint (see checkpoint.hpp for the file): what
    // it was started with (to check a resume against), its counts, the line's frames and
    // waiting moves, and the visited set. The positions of the marks and the segment are
    // made again from the frames' moves on resuming, as `pop_frame` makes them.
    void save() {
        CheckpointWriter w(checkpoint_->path);
        w.begin("settings");
        put_rules(w, gen_.rules());
        w.put(*start_);
        w.put(order_);
        w.put<std::uint8_t>(limits_.forget);
        w.put(limits_.max_bytes);
        w.put(dense_from_);
        w.put(dense_bytes_);
        w.end();
        w.begin("counts");
        w.put(res_.stats.expanded);
        w.put(res_.stats.generated);
        w.put(res_.stats.stored);
        w.put(res_.stats.most_home);
        w.put(std::max(peak_, bytes_now()));
        w.put(seconds_before_ + watch_.seconds());
        w.put(since_check_);
        w.end();
        w.begin("line");
        put_stack(w, frames_, [](const Frame& f, CheckpointWriter& out) {
            out.put(f.first);
            out.put(f.since);
            out.put(f.move);
        });
        w.end();
        w.begin("waiting moves");
        put_stack(w, pending_, [](const Move& m, CheckpointWriter& out) { out.put(m); });
        w.end();
        table_.save(w);
        w.finish();
    }
    template <class Stack, class Put>
    static void put_stack(CheckpointWriter& w, const Stack& stack, Put&& put) {
        w.put(stack.size());
        for (std::size_t i = 0; i < stack.size(); ++i) put(stack[i], w);
    }
    // Reads the search saved by `save` (the same start, rules and settings, else
    // CheckpointMismatch) and makes its line's positions again.
    void resume(const State& start, const Keyed& root) {
        CheckpointReader r(checkpoint_->path);
        r.begin("settings");
        expect_rules(r, gen_.rules());
        r.expect(start, "its position (another deal or board)");
        r.expect(order_, "its order of the children");
        r.expect<std::uint8_t>(limits_.forget, "its forget setting");
        r.expect(limits_.max_bytes, "its memory limit");
        r.expect(dense_from_, "its dense table's start");
        r.expect(dense_bytes_, "its dense table's size");
        r.end();
        r.begin("counts");
        res_.stats.expanded = r.get<std::uint64_t>();
        res_.stats.generated = r.get<std::uint64_t>();
        res_.stats.stored = r.get<std::uint64_t>();
        res_.stats.most_home = r.get<int>();
        peak_ = r.get<std::uint64_t>();
        seconds_before_ = r.get<double>();
        since_check_ = r.get<std::uint64_t>();
        r.end();
        r.begin("line");
        const auto nframes = r.get<std::size_t>();
        if (nframes == 0 || nframes > res_.stats.expanded) r.damaged("its length");
        r.need(nframes, sizeof(std::uint32_t) * 2 + sizeof(Move), "its frames");
        for (std::size_t i = 0; i < nframes; ++i) {
            Frame f;
            f.first = r.get<std::uint32_t>();
            f.since = r.get<std::uint32_t>();
            f.move = r.get<Move>();
            frames_.push_back(f);
        }
        r.end();
        r.begin("waiting moves");
        const auto npending = r.get<std::size_t>();
        if (npending > UINT32_MAX) r.damaged("its length");
        r.need(npending, sizeof(Move), "its moves");
        for (std::size_t i = 0; i < npending; ++i) pending_.push_back(r.get<Move>());
        r.end();
        table_.load(r, limits_.max_bytes ? limits_.max_bytes : UINT64_MAX);
        r.finish();
        // The line's positions, from the start by the frames' moves. A move that the rules
        // do not allow where it stands (on the line, or waiting on a frame) means a
        // damaged file: it is refused, not searched.
        Keyed k = root;
        MoveList here;  // the moves the rules allow at frame i
        for (std::size_t i = 0; i < frames_.size(); ++i) {
            const std::size_t end = i + 1 < frames_.size() ? frames_[i + 1].first : pending_.size();
            if (frames_[i].first > end) r.mismatch("its line");
            if (i > 0) {
                if (!has(here, frames_[i].move)) r.mismatch("its line (a move the rules do not allow)");
                gen_.apply(k, frames_[i].move);
                gen_.settle_after(k, frames_[i].move);
            }
            here.size = 0;
            gen_.generate(k.s, here);
            for (std::size_t j = frames_[i].first; j < end; ++j)
                if (!has(here, pending_[j])) r.mismatch("its waiting moves (a move the rules do not allow)");
            if (i % kSegment == 0) {
                marks_.push_back(k);
                segment_.clear();
            }
            segment_.push_back(k);
#ifndef NDEBUG
            frame_keys_.push_back(k.key);
#endif
        }
    }
    static bool has(const MoveList& list, Move m) {
        return std::find(list.moves.begin(), list.moves.begin() + list.size, m) != list.moves.begin() + list.size;
    }

    static constexpr std::size_t kBlock = 4096;  // frames or moves a block of the stack
    using Frames = Chunked<Frame, kBlock>;
    using Pending = Chunked<Move, kBlock>;
    using Marks = Chunked<Keyed, 64>;

    const ChildOrder order_;
    const std::uint64_t shuffle_;  // order_kids' seed (0: the heuristic's order)
    const MoveGen gen_;
    const DeadEnds dead_;
    const Limits limits_;
    const std::uint64_t dense_from_;  // the table bytes at which the keys go dense
    const std::uint64_t dense_bytes_;  // the dense table's size (0: what the limit leaves)
    const Checkpoint* checkpoint_;     // where to save the search, or nullptr
    const State* start_ = nullptr;
    double next_save_ = 0;       // the seconds of this run at which to save next
    double seconds_before_ = 0;  // the seconds of the runs before (a resumed search)
    std::uint64_t since_check_ = 0;  // expansions since the last check of the limits
    MoveList moves_;
    std::vector<Kid> kids_;
    Scorer scorer_{gen_};
    QuietScorer quiet_scorer_{gen_};
    Visited table_;
    Frames frames_;
    Marks marks_;    // the positions of frames 0, kSegment, 2 kSegment, ...
    std::vector<Keyed> segment_;  // the positions of the frames from the last mark up
#ifndef NDEBUG
    std::vector<Key> frame_keys_;  // each frame's key, to check the segments made again
#endif
    Pending pending_;
    std::vector<Keyed> fresh_;  // the new children of the expansion under way
    std::vector<Keyed> made_;   // its children by moves that are not quiet, new or not
    std::vector<Key> keys_;     // its children's keys
    std::vector<char> quiet_;   // whether each child's move is quiet
    std::optional<Move> won_by_;  // the last move of the win, from the top frame
    Result res_;
    std::uint64_t peak_ = 0;
    LimitWatch watch_;  // last: its clock starts when the search is set up
};

}  // namespace

Result solve_depth_first(const Rules& rules, const State& start, const Limits& limits,
                         const std::atomic<bool>* stop, const StopPoll& poll, ChildOrder order,
                         std::uint64_t dense_from, std::uint64_t dense_bytes, const Checkpoint* checkpoint,
                         std::uint64_t shuffle) {
    if (checkpoint && shuffle)
        throw std::invalid_argument("a checkpoint does not record a shuffled order of the children");
    return DepthFirst(rules, limits, stop, poll, order, dense_from, dense_bytes, checkpoint, shuffle).run(start);
}

}  // namespace bakers
