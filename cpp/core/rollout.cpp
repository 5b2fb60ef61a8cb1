#include "rollout.hpp"

#include <array>
#include <cmath>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "dead_end.hpp"
#include "heuristic.hpp"
#include "limit_watch.hpp"
#include "line.hpp"

namespace bakers {
namespace {

constexpr int kMaxLine = 1024;              // moves of a walk or a rollout, at most
constexpr std::uint64_t kCheckEvery = 256;  // expansions between two checks of the limits
constexpr int kHomeWeight = 4;              // a card home, in the priority's units
constexpr int kScoreHome = 1000;            // a card home in a rollout's score (priorities are less)
// How far a rollout strays from the child the heuristic ranks best: 4 won the most of
// Baker's Dozen's hardest deals in the fewest positions (docs/benchmarks.md, "The
// rollouts' temperature").
constexpr double kTemperature = 4;

// The keys of the positions on the line being played (the walk's and a rollout's), so
// that no line repeats a position: open addressing, cleared by a new stamp.
class LineKeys {
public:
    LineKeys() : keys_(kSlots), stamps_(kSlots, 0) {}
    void clear() {
        if (++stamp_ == 0) std::fill(stamps_.begin(), stamps_.end(), 0), stamp_ = 1;
    }
    // Adds k; returns false if it was there.
    bool insert(const Key& k) {
        for (std::size_t i = k.lo & (kSlots - 1);; i = (i + 1) & (kSlots - 1)) {
            if (stamps_[i] != stamp_) return keys_[i] = k, stamps_[i] = stamp_, true;
            if (keys_[i] == k) return false;
        }
    }
    bool contains(const Key& k) const {
        for (std::size_t i = k.lo & (kSlots - 1);; i = (i + 1) & (kSlots - 1)) {
            if (stamps_[i] != stamp_) return false;
            if (keys_[i] == k) return true;
        }
    }
    static constexpr std::uint64_t bytes() { return kSlots * (sizeof(Key) + sizeof(std::uint32_t)); }

private:
    // Two lines of at most kMaxLine positions each fill at most a quarter of the slots.
    static constexpr std::size_t kSlots = 8 * kMaxLine;
    std::vector<Key> keys_;
    std::vector<std::uint32_t> stamps_;
    std::uint32_t stamp_ = 1;
};

enum class Outcome : std::uint8_t { Won, Ended, Stopped };

struct Child {
    Move move;
    int prio;
    Keyed k;
};

class Rollouts {
public:
    Rollouts(const MoveGen& gen, const Limits& limits, LimitWatch& watch, std::uint64_t seed)
        : gen_(gen), dead_(gen), scorer_(gen), limits_(limits), watch_(watch), rng_(seed) {
        for (int d = 0; d < kWeights; ++d) weight_[d] = std::exp(-d / kTemperature);
    }

    Result run(const State& start) {
        Result res;
        const Keyed root = gen_.start(start);
        most_home_ = root.s.home();
        // What it holds: the line's set, the walk's keys, four lines of moves (the walk,
        // the best, a rollout's, a won one) of up to two kMaxLine each, two lists of
        // children, a move list.
        peak_ = LineKeys::bytes() + kMaxLine * sizeof(Key) + 4 * 2 * kMaxLine * sizeof(Move) + kChildBytes +
                sizeof(MoveList);
        std::vector<Move> won;
        Outcome outcome = Outcome::Ended;
        if (limits_.max_bytes && peak_ > limits_.max_bytes) {
            res.reason = "memory limit";
            outcome = Outcome::Stopped;
        } else if (gen_.won(root.s)) {
            outcome = Outcome::Won;
        }
        while (outcome == Outcome::Ended) {
            outcome = walk(root, won, res);
            if (outcome == Outcome::Ended && root_bare_) {  // every iteration would be this one
                res.reason = "no line";
                outcome = Outcome::Stopped;
            }
        }
        if (outcome == Outcome::Won) {
            res.verdict = Verdict::Solved;
            rebuild(gen_, start, shortened(root, won), res);
        }
        res.stats.expanded = expanded_;
        res.stats.generated = generated_;
        res.stats.peak_bytes = peak_;
        res.stats.most_home = most_home_;
        res.stats.seconds = watch_.seconds();
        return res;
    }

private:
    static constexpr int kWeights = 64;
    static constexpr std::uint64_t kChildBytes = 2 * 64 * sizeof(Child);  // two usual lists

    // One iteration: the walk from the start (see rollout.hpp). Sets `won` to the
    // winning line on a win.
    Outcome walk(const Keyed& root, std::vector<Move>& won, Result& res) {
        Keyed cur = root;
        std::vector<Move> walked, best;
        std::vector<Key> walked_keys{root.key};
        int best_score = INT32_MIN;
        std::vector<Child> kids;
        std::vector<Move> line;
        // The line's keys: the walk's, then (for a rollout) those the rollout adds.
        const auto restart_line = [&] {
            line_keys_.clear();
            for (const Key& k : walked_keys) line_keys_.insert(k);
        };
        while (static_cast<int>(walked.size()) < kMaxLine) {
            restart_line();
            const Outcome made = children(cur, kids, res);
            if (made != Outcome::Ended) {
                if (made == Outcome::Won) won = walked, won.push_back(kids.back().move);
                return made;
            }
            if (kids.empty()) {
                root_bare_ = walked.empty();
                return Outcome::Ended;
            }
            for (const Child& kid : kids) {
                restart_line();
                line_keys_.insert(kid.k.key);
                line.clear();
                int score = 0;
                const Outcome o = rollout(kid.k, line, score, res);
                if (o == Outcome::Stopped) return o;
                if (o == Outcome::Won || score > best_score) {
                    best_score = score;
                    best = walked;
                    best.push_back(kid.move);
                    best.insert(best.end(), line.begin(), line.end());
                    if (o == Outcome::Won) return won = std::move(best), o;
                }
            }
            // The best line starts with the walk so far (the walk follows it); its next
            // move is one of the children (not on the walk, not a dead end: as when found).
            if (best.size() <= walked.size()) return Outcome::Ended;
            const Move next = best[walked.size()];
            const Child* taken = nullptr;
            for (const Child& kid : kids)
                if (kid.move == next) taken = &kid;
            if (!taken) return Outcome::Ended;
            cur = taken->k;
            walked.push_back(next);
            walked_keys.push_back(cur.key);
        }
        return Outcome::Ended;
    }

    // Returns the winning `line` from `root` with short cuts: from each position on it,
    // the one or two moves to the furthest later position of the line that they reach
    // (the same position exactly, so the moves after it stay as they are). Rollouts
    // wander, and the cuts shorten their lines by about a quarter (docs/benchmarks.md,
    // "The rollouts' short cuts").
    std::vector<Move> shortened(const Keyed& root, const std::vector<Move>& line) const {
        std::vector<Keyed> at{root};
        std::unordered_map<std::uint64_t, std::size_t> place{{root.key.lo, 0}};
        for (const Move& m : line) {
            Keyed next = at.back();
            gen_.apply(next, m);
            gen_.settle_after(next, m);
            place.emplace(next.key.lo, at.size());
            at.push_back(next);
        }
        // Returns the place on the line of position c (exactly), or 0.
        const auto on_line = [&](const Keyed& c) -> std::size_t {
            const auto found = place.find(c.key.lo);
            return found != place.end() && at[found->second].s == c.s ? found->second : 0;
        };
        std::vector<Move> out;
        MoveList first, second;
        for (std::size_t i = 0; i < line.size();) {
            std::size_t to = i + 1;
            std::array<Move, 2> cut{line[i], Move{}};
            int steps = 1;
            first.size = 0;
            gen_.generate(at[i].s, first);
            for (int a = 0; a < first.size; ++a) {
                Keyed c = at[i];
                gen_.apply(c, first.moves[a]);
                gen_.settle_after(c, first.moves[a]);
                if (const std::size_t j = on_line(c); j > to) to = j, cut = {first.moves[a], Move{}}, steps = 1;
                if (gen_.won(c.s)) continue;
                second.size = 0;
                gen_.generate(c.s, second);
                for (int b = 0; b < second.size; ++b) {
                    Keyed d = c;
                    gen_.apply(d, second.moves[b]);
                    gen_.settle_after(d, second.moves[b]);
                    if (const std::size_t j = on_line(d); j > to + 1) to = j, cut = {first.moves[a], second.moves[b]}, steps = 2;
                }
            }
            out.insert(out.end(), cut.begin(), cut.begin() + steps);
            i = to;
        }
        return out;
    }

    // Plays one rollout from k (on the line already), appending its moves to `line` and
    // setting its score.
    Outcome rollout(Keyed k, std::vector<Move>& line, int& score, Result& res) {
        int most = k.s.home();
        int last_prio = 0;
        std::vector<Child>& kids = rollout_kids_;
        while (static_cast<int>(line.size()) < kMaxLine) {
            const Outcome made = children(k, kids, res);
            if (made != Outcome::Ended) {
                if (made == Outcome::Won) line.push_back(kids.back().move);
                return made;
            }
            if (kids.empty()) break;
            const Child& kid = pick(kids);
            line.push_back(kid.move);
            last_prio = kid.prio;
            k = kid.k;
            line_keys_.insert(k.key);
            most = std::max(most, k.s.home());
        }
        score = most * kScoreHome - last_prio;
        return Outcome::Ended;
    }

    // Makes the children of k that are not on the line and not dead ends, each with its
    // priority; Won (the winning child last in `kids`), Stopped on a limit, else Ended.
    Outcome children(const Keyed& k, std::vector<Child>& kids, Result& res) {
        kids.clear();
        if (limits_.max_nodes && expanded_ >= limits_.max_nodes) {  // exact, unlike the rest
            res.reason = "node limit";
            return Outcome::Stopped;
        }
        if (++since_check_ >= kCheckEvery) {
            since_check_ = 0;
            if (const char* why = watch_.reached(expanded_, 0, true, most_home_)) {
                res.reason = why;
                return Outcome::Stopped;
            }
        }
        ++expanded_;
        MoveList& moves = moves_;
        moves.size = 0;
        gen_.generate(k.s, moves);
        generated_ += static_cast<std::uint64_t>(moves.size);
        scorer_.prepare(k);
        for (int i = 0; i < moves.size; ++i) {
            const Move m = moves.moves[i];
            Child& c = kids.emplace_back(Child{m, 0, k});
            gen_.apply(c.k, m);
            gen_.settle_after(c.k, m);
            most_home_ = std::max(most_home_, c.k.s.home());
            if (gen_.won(c.k.s)) {
                std::swap(c, kids.front());
                kids.resize(1);
                return Outcome::Won;
            }
            if (line_keys_.contains(c.k.key) || dead_.dead(c.k.s)) {
                kids.pop_back();
                continue;
            }
            c.prio = scorer_.score(c.k).progress - kHomeWeight * c.k.s.home();
        }
        return Outcome::Ended;
    }

    // Returns a child at random, weighted by exp(-(prio - best) / kTemperature).
    const Child& pick(const std::vector<Child>& kids) {
        int best = INT32_MAX;
        for (const Child& c : kids) best = std::min(best, c.prio);
        double total = 0;
        for (const Child& c : kids) total += weight(c.prio - best);
        double x = static_cast<double>(rng_() >> 11) * 0x1.0p-53 * total;
        for (const Child& c : kids) {
            x -= weight(c.prio - best);
            if (x < 0) return c;
        }
        return kids.back();
    }
    double weight(int d) const { return d < kWeights ? weight_[d] : 0.0; }

    const MoveGen& gen_;
    const DeadEnds dead_;
    Scorer scorer_;
    const Limits& limits_;
    LimitWatch& watch_;
    std::mt19937_64 rng_;
    std::array<double, kWeights> weight_{};
    LineKeys line_keys_;
    MoveList moves_;
    std::vector<Child> rollout_kids_;
    std::uint64_t expanded_ = 0, generated_ = 0, since_check_ = kCheckEvery, peak_ = 0;
    int most_home_ = 0;
    bool root_bare_ = false;  // the start has no child to roll out from
};

}  // namespace

Result solve_rollouts(const Rules& rules, const State& start, const Limits& limits,
                      const std::atomic<bool>* stop, const StopPoll& poll, std::uint64_t seed) {
    if (!limits.max_nodes && !(limits.max_seconds > 0))
        throw std::invalid_argument("rollouts need a node or a time limit");
    const MoveGen gen(rules);
    LimitWatch watch(limits, stop, poll);
    return Rollouts(gen, limits, watch, seed).run(start);
}

}  // namespace bakers
