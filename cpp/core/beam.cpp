#include "beam.hpp"

#include <algorithm>
#include <vector>

#include "dead_end.hpp"
#include "heuristic.hpp"
#include "limit_watch.hpp"
#include "line.hpp"
#include "new_child.hpp"
#include "open_list.hpp"
#include "table.hpp"

namespace bakers {
namespace {

constexpr std::uint64_t kCheckEvery = 256;  // expansions between two checks of the limits
constexpr int kShardBits = 8;               // the visited set as depth first has it
constexpr int kLoadQuarters = 3;
constexpr std::size_t kInitialSlots = 64;
constexpr std::uint32_t kRoot = 0xffffffffU;

// How a position of a level was reached: its parent's index in the level before, and
// the move.
struct Link {
    std::uint32_t parent;
    Move move;
};

// A new child, before the level is cut to the width: its priority, its place in the
// order of generation (which breaks ties, so a round is the same on every run), its
// parent and its move. The child itself is made again if it is kept.
struct Candidate {
    int prio;
    std::uint32_t order;
    std::uint32_t parent;
    Move move;
};

enum class Outcome : std::uint8_t { Decided, Cut, Stopped };

// One round: a beam of `width` positions from the start.
class Round {
public:
    Round(const MoveGen& gen, std::uint64_t width, const Limits& limits, LimitWatch& watch,
          std::uint64_t expanded_before, int most_home_before)
        : gen_(gen),
          dead_(gen),
          width_(width),
          limits_(limits),
          watch_(watch),
          expanded_before_(expanded_before),
          most_home_before_(most_home_before),
          table_(false, kShardBits, kLoadQuarters, kInitialSlots) {}

    Outcome run(const State& start, Result& res) {
        const Rules& r = gen_.rules();
        const Keyed root = gen_.start(start);
        table_.insert(root.key);
        res.stats.stored = 1;
        res.stats.most_home = root.s.home();
        if (gen_.won(root.s)) return win(start, res, {});
        std::vector<Packed> level{Packed{root.s, root.key}}, next;
        links_.push_back({Link{kRoot, Move{}}});
        std::vector<Candidate> kids;
        std::vector<Keyed> fresh;  // the new child of the move under way
        MoveList moves;
        Scorer scorer(gen_);
        bool cut = false;
        std::uint64_t since_check = kCheckEvery;  // the first check comes at once
        while (!level.empty()) {
            kids.clear();
            for (std::size_t i = 0; i < level.size(); ++i) {
                if (++since_check >= kCheckEvery) {
                    since_check = 0;
                    if (stopped(res, level, next, kids)) return Outcome::Stopped;
                }
                const Keyed k = unpack(level[i], r.columns);
                scorer.prepare(k);
                moves.size = 0;
                if (!dead_.dead(k.s)) gen_.generate(k.s, moves);  // a dead end has no win to look for
                ++res.stats.expanded;
                res.stats.generated += static_cast<std::uint64_t>(moves.size);
                for (int j = 0; j < moves.size; ++j) {
                    const Move m = moves.moves[j];
                    fresh.clear();
                    if (!add_if_new(gen_, table_, k, m, fresh)) continue;
                    const Keyed& child = fresh.back();
                    assert(child.key_is_consistent(r.columns, r.cells));
                    ++res.stats.stored;
                    res.stats.most_home = std::max(res.stats.most_home, child.s.home());
                    if (gen_.won(child.s)) {
                        std::vector<Move> line = line_to(static_cast<std::uint32_t>(i));
                        line.push_back(m);
                        return win(start, res, line);
                    }
                    kids.push_back(Candidate{scorer.score(child).progress,
                                             static_cast<std::uint32_t>(kids.size()),
                                             static_cast<std::uint32_t>(i), m});
                }
            }
            if (kids.size() > width_) {  // the cut: the best `width` by priority, then order
                const auto better = [](const Candidate& a, const Candidate& b) {
                    return a.prio != b.prio ? a.prio < b.prio : a.order < b.order;
                };
                std::nth_element(kids.begin(), kids.begin() + static_cast<std::ptrdiff_t>(width_), kids.end(), better);
                kids.resize(width_);
                cut = true;
            }
            // The kept children, made again parent by parent (each parent unpacked once),
            // once the memory limit is known to hold them.
            if (!room_for(kids.size(), res, level, next, kids)) return Outcome::Stopped;
            std::sort(kids.begin(), kids.end(), [](const Candidate& a, const Candidate& b) { return a.order < b.order; });
            next.clear();
            next.reserve(kids.size());
            std::vector<Link> links;
            links.reserve(kids.size());
            Keyed parent;
            std::uint32_t unpacked = kRoot;
            for (const Candidate& c : kids) {
                if (c.parent != unpacked) parent = unpack(level[c.parent], r.columns), unpacked = c.parent;
                Keyed child = parent;
                gen_.apply(child, c.move);
                gen_.settle_after(child, c.move);
                next.push_back(Packed{child.s, child.key});
                links.push_back(Link{c.parent, c.move});
            }
            links_bytes_ += links.capacity() * sizeof(Link);
            links_.push_back(std::move(links));
            level.swap(next);
        }
        if (cut) return Outcome::Cut;
        res.verdict = Verdict::Impossible;  // an uncut round ran dry: see beam.hpp
        return Outcome::Decided;
    }

private:
    // Returns the moves from the start to position i of the last level.
    std::vector<Move> line_to(std::uint32_t i) const {
        std::vector<Move> line;
        for (std::size_t l = links_.size() - 1; l > 0; --l) {
            line.push_back(links_[l][i].move);
            i = links_[l][i].parent;
        }
        std::reverse(line.begin(), line.end());
        return line;
    }

    Outcome win(const State& start, Result& res, const std::vector<Move>& line) {
        res.verdict = Verdict::Solved;
        rebuild(gen_, start, line, res);
        return Outcome::Decided;
    }

    // Returns the bytes held besides the visited set, with room for `next_slots`
    // positions in the next level.
    std::uint64_t held_besides_table(const std::vector<Packed>& level, std::size_t next_slots,
                                     const std::vector<Candidate>& kids) const {
        return (level.capacity() + next_slots) * sizeof(Packed) + kids.capacity() * sizeof(Candidate) +
               links_bytes_ + links_.capacity() * sizeof(std::vector<Link>);
    }

    // Returns true if the next level of n positions and its links fit in the memory
    // limit along with what is held now; else sets the reason and returns false.
    bool room_for(std::size_t n, Result& res, const std::vector<Packed>& level,
                  const std::vector<Packed>& next, const std::vector<Candidate>& kids) {
        const std::uint64_t held = table_.bytes() + held_besides_table(level, 0, kids);
        const std::uint64_t after = held + std::max(next.capacity(), n) * sizeof(Packed) + n * sizeof(Link);
        if (!limits_.max_bytes || after <= limits_.max_bytes) {
            res.stats.peak_bytes = std::max(res.stats.peak_bytes, after);
            return true;
        }
        res.stats.peak_bytes = std::max(res.stats.peak_bytes, held + next.capacity() * sizeof(Packed));
        res.reason = "memory limit";
        return false;
    }

    // Checks the limits (the caller's, with the positions expanded in earlier rounds);
    // returns true, the reason set, when the round must stop.
    bool stopped(Result& res, const std::vector<Packed>& level, const std::vector<Packed>& next,
                 const std::vector<Candidate>& kids) {
        const std::uint64_t rest = held_besides_table(level, next.capacity(), kids);
        const std::uint64_t bytes = table_.bytes() + rest;
        res.stats.peak_bytes = std::max(res.stats.peak_bytes, bytes);
        if (limits_.max_bytes) {
            // The candidates may double once before the next check: keep room for that.
            const std::uint64_t reserve = rest + kids.capacity() * sizeof(Candidate) + (1 << 20);
            if (table_.over_budget() || table_.bytes() + reserve > limits_.max_bytes) {
                res.reason = "memory limit";
                return true;
            }
            table_.set_budget(limits_.max_bytes - reserve);
        }
        if (const char* why = watch_.reached(expanded_before_ + res.stats.expanded, res.stats.stored, true,
                                                std::max(most_home_before_, res.stats.most_home))) {
            res.reason = why;
            return true;
        }
        return false;
    }

    const MoveGen& gen_;
    const DeadEnds dead_;
    const std::uint64_t width_;
    const Limits& limits_;
    LimitWatch& watch_;
    const std::uint64_t expanded_before_;
    const int most_home_before_;  // the most cards home of the rounds before
    VisitedTable table_;
    std::vector<std::vector<Link>> links_;  // per level, how each of its positions was reached
    std::uint64_t links_bytes_ = 0;
};

}  // namespace

Result solve_beam(const Rules& rules, const State& start, const Limits& limits,
                  const std::atomic<bool>* stop, const StopPoll& poll) {
    const MoveGen gen(rules);
    LimitWatch watch(limits, stop, poll);
    Stats total;
    for (std::uint64_t width = kBeamFirstWidth;; width *= kBeamGrowth) {
        Result r;
        const Outcome outcome = Round(gen, width, limits, watch, total.expanded, total.most_home).run(start, r);
        total.add_run(r.stats);
        if (outcome == Outcome::Cut) continue;
        r.stats = total;
        r.stats.seconds = watch.seconds();
        return r;  // decided, or stopped by a limit (unknown, with its reason)
    }
}

}  // namespace bakers
