// The open list: positions stored but not yet expanded, best priority first.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "zobrist.hpp"

namespace bakers {

// A position as the open list keeps it: the state and its key (96 bytes). The column
// hashes are recomputed when it is expanded (one pass over its cards), which costs less
// than carrying 208 more bytes per open position.
struct Packed {
    State s;
    Key key;
};

// Returns the position with its column hashes recomputed.
inline Keyed unpack(const Packed& p, int ncols) {
    Keyed k;
    k.s = p.s;
    for (int i = 0; i < ncols; ++i) k.col[i] = Zobrist::get().column_hash(p.s, i);
    k.key = p.key;
    return k;
}

// An open position: its node id, its depth (moves from the start) and the position.
struct Open {
    std::uint32_t id;
    std::uint16_t depth;
    Packed k;
};

// A bucket queue: priorities are small integers; within a bucket the newest comes first,
// which makes ties behave like a depth-first search.
class OpenList {
public:
    static constexpr int kBuckets = 4096;
    OpenList() : buckets_(kBuckets) {}
    void push(int prio, std::uint32_t id, int depth, const Packed& k) {
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

private:
    std::vector<std::vector<Open>> buckets_;
    int best_ = kBuckets;
    std::uint64_t size_ = 0;
};

}  // namespace bakers
