#include "streamline.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "dead_end.hpp"
#include "heuristic.hpp"
#include "limit_watch.hpp"
#include "line.hpp"
#include "table.hpp"

namespace bakers {
namespace {

constexpr std::uint64_t kCheckEvery = 256;  // expansions between two checks of the limits
constexpr std::uint64_t kSlack = 1 << 20;   // bytes for one expansion's children

// The merged key: each card by its rank alone (its suit left out), the foundations by
// their heights sorted. Its terms are made as zobrist.hpp's (a column's hash the XOR of
// its ranks' terms at their depths, mixed, so the key is the same in any order of the
// columns; the cells' terms XORed), from a fixed seed of their own.
class MergedTerms {
public:
    static const MergedTerms& get() {
        static const MergedTerms terms;
        return terms;
    }
    Key key(const State& s, int ncols, int ncells) const {
        Key k;
        for (int i = 0; i < ncols; ++i) {
            Key l;
            for (int d = 0, b = s.begin(i); b + d < s.end[i]; ++d) l ^= z_[rank_of(s.cards[b + d])][d];
            k ^= Zobrist::mix(l);
        }
        for (int i = 0; i < ncells; ++i)
            if (s.cells[i] != kNoCard) k ^= c_[rank_of(s.cells[i])];
        std::array<std::uint8_t, kSuits> heights = s.found;
        std::sort(heights.begin(), heights.end());
        for (int t = 0; t < kSuits; ++t) k ^= f_[t][heights[t]];
        return k;
    }

private:
    MergedTerms() {
        std::uint64_t x = 0x5eed5ca1ab1e0042ULL;
        const auto next = [&x] {  // SplitMix64
            std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            return z ^ (z >> 31);
        };
        for (auto& row : z_)
            for (Key& t : row) t = Key{next(), next()};
        for (Key& t : c_) t = Key{next(), next()};
        for (auto& row : f_)
            for (Key& t : row) t = Key{next(), next()};
    }
    std::array<std::array<Key, kMaxCards>, kKing + 1> z_{};  // [rank][depth]
    std::array<Key, kKing + 1> c_{};                         // [rank] in a cell
    std::array<std::array<Key, kKing + 1>, kSuits> f_{};     // [place in order][height]
};

class Streamliner {
public:
    Streamliner(const Rules& rules, const State& start, const Limits& limits, const std::atomic<bool>* stop,
                const StopPoll& poll, Streamline how)
        : how_(how), start_(start), gen_(rules), dead_(gen_), limits_(limits), watch_(limits_, stop, poll) {
        how_.merge_suits = how_.merge_suits && suits_interchangeable(rules);
    }

    Result run() {
        Unkeyed root{start_};
        gen_.settle(root, nullptr);
        all_home(root, nullptr);
        table_.insert(key(root.s));
        res_.stats.stored = 1;
        res_.stats.most_home = root.s.home();
        if (gen_.won(root.s))
            won(std::nullopt);
        else if (!over_limits() && expand(root.s, Move{}))
            descend();
        res_.stats.peak_bytes = std::max(peak_, bytes_now());
        res_.stats.seconds = watch_.seconds();
        return std::move(res_);
    }

private:
    struct Frame {
        State s;
        std::uint32_t first;  // where its waiting moves start in pending_
        Move move;            // the move that made it from the frame below
    };

    // Sends every card that is next on its foundation home, one move at a time (each
    // settled as the searches settle a move home), appending the moves to `line`.
    template <class Position>
    void all_home(Position& k, std::vector<Move>* line) const {
        if (!how_.all_home) return;
        const Rules& r = gen_.rules();
        for (bool again = true; again;) {
            again = false;
            Move home{0, kFoundation, 1};
            for (int i = 0; i < r.columns && !again; ++i) {
                const Card t = k.s.top(i);
                if (t != kNoCard && gen_.goes_home(k.s, t)) home.from = static_cast<std::uint8_t>(i), again = true;
            }
            for (int i = 0; i < r.cells && !again; ++i) {
                const Card t = k.s.cells[i];
                if (t != kNoCard && gen_.goes_home(k.s, t))
                    home.from = static_cast<std::uint8_t>(kCell + i), again = true;
            }
            if (!again) return;
            gen_.apply(k, home);
            gen_.settle_after(k, home);
            if (line) line->push_back(home);
        }
    }

    // Makes the child of the move m: the move, the searches' settle, then all_home.
    void make(Unkeyed& k, Move m, std::vector<Move>* line) const {
        gen_.apply(k, m);
        gen_.settle_after(k, m);
        if (line) line->push_back(m);
        all_home(k, line);
    }

    Key key(const State& s) const {
        const Rules& r = gen_.rules();
        return how_.merge_suits ? MergedTerms::get().key(s, r.columns, r.cells)
                                : Zobrist::get().key(s, r.columns, r.cells);
    }

    std::uint64_t bytes_now() const {
        return table_.bytes() + frames_.capacity() * sizeof(Frame) + pending_.capacity() * sizeof(Move);
    }

    bool stop(const char* why) {
        res_.reason = why;
        return true;
    }
    bool over_limits() {
        peak_ = std::max(peak_, bytes_now());
        if (limits_.max_bytes && bytes_now() + kSlack > limits_.max_bytes) return stop("memory limit");
        if (const char* why = watch_.reached(res_.stats.expanded, res_.stats.stored, true, res_.stats.most_home))
            return stop(why);
        return false;
    }

    // Expands s (reached by `move`): stores its new children and pushes its frame with
    // their moves, the best last. Returns false when one of them wins (the line kept).
    bool expand(const State& s, Move move) {
        moves_.size = 0;
        if (!dead_.dead(s)) gen_.generate(s, moves_);
        ++res_.stats.expanded;
        res_.stats.generated += static_cast<std::uint64_t>(moves_.size);
        kids_.clear();
        for (int i = 0; i < moves_.size; ++i) {
            const Move m = moves_.moves[i];
            Unkeyed child{s};
            make(child, m, nullptr);
            res_.stats.most_home = std::max(res_.stats.most_home, child.s.home());
            if (gen_.won(child.s)) {
                frames_.push_back(Frame{s, static_cast<std::uint32_t>(pending_.size()), move});
                won(m);
                return false;
            }
            if (!table_.insert(key(child.s))) continue;
            ++res_.stats.stored;
            const Priorities p = priorities(gen_, child.s);
            kids_.push_back(Kid{how_.order == ChildOrder::Space ? p.space : p.progress, m});
        }
        if (kids_.empty()) return true;
        // The best (lowest) last, so that it is taken first; ties keep the moves' order.
        std::stable_sort(kids_.begin(), kids_.end(), [](const Kid& a, const Kid& b) { return a.prio > b.prio; });
        frames_.push_back(Frame{s, static_cast<std::uint32_t>(pending_.size()), move});
        for (const Kid& k : kids_) pending_.push_back(k.move);
        return true;
    }

    void descend() {
        std::uint64_t since_check = 0;
        while (!frames_.empty()) {
            if (pending_.size() == frames_.back().first) {
                frames_.pop_back();
                continue;
            }
            if (++since_check >= kCheckEvery || (limits_.max_nodes && res_.stats.expanded >= limits_.max_nodes)) {
                since_check = 0;
                if (over_limits()) return;
            }
            const Move m = pending_.back();
            pending_.pop_back();
            Unkeyed child{frames_.back().s};
            make(child, m, nullptr);
            if (!expand(child.s, m)) return;
        }
        res_.reason = std::string(kRestrictedDry);
    }

    // The win: the frames' moves (and `last`), each followed by the moves home that
    // all_home made after it, played again from the start to write them out.
    void won(std::optional<Move> last) {
        std::vector<Move> chain;
        Unkeyed k{start_};
        gen_.settle(k, nullptr);
        all_home(k, &chain);
        for (std::size_t i = 1; i < frames_.size(); ++i) make(k, frames_[i].move, &chain);
        if (last) make(k, *last, &chain);
        res_.verdict = Verdict::Solved;
        res_.reason.clear();
        rebuild(gen_, start_, chain, res_);
    }

    struct Kid {
        int prio;
        Move move;
    };

    Streamline how_;
    const State& start_;
    const MoveGen gen_;
    const DeadEnds dead_;
    const Limits limits_;
    LimitWatch watch_;
    VisitedTable table_{false, 8, 2, 64};
    std::vector<Frame> frames_;
    std::vector<Move> pending_;
    MoveList moves_;
    std::vector<Kid> kids_;
    Result res_;
    std::uint64_t peak_ = 0;
};

}  // namespace

Result solve_streamlined(const Rules& rules, const State& start, const Limits& limits,
                         const std::atomic<bool>* stop, const StopPoll& poll, Streamline how) {
    return Streamliner(rules, start, limits, stop, poll, how).run();
}

}  // namespace bakers
