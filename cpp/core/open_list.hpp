// The open list: positions stored but not yet expanded, best priority first.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
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
// which makes ties behave like a depth-first search. Each bucket is a stack of blocks of
// kBlock entries taken from slabs that are never moved or freed before the list is: no
// entry is ever copied to grow a bucket, an emptied block serves any bucket next, and the
// bytes held grow one slab at a time (`bytes`), which a memory limit can count on.
class OpenList {
public:
    static constexpr int kBuckets = 4096;
    OpenList() : heads_(kBuckets, nullptr) {}
    void push(int prio, std::uint32_t id, int depth, const Packed& k) {
        prio = std::clamp(prio, 0, kBuckets - 1);
        Block*& head = heads_[prio];
        if (head == nullptr || head->size == kBlock) {
            Block* b = take_block();
            b->next = head;
            b->size = 0;
            head = b;
        }
        head->items[head->size++] = Open{id, static_cast<std::uint16_t>(depth), k};
        best_ = std::min(best_, prio);
        ++size_;
    }
    bool empty() const { return size_ == 0; }
    std::uint64_t size() const { return size_; }
    Open pop() {
        while (heads_[best_] == nullptr) ++best_;
        Block* head = heads_[best_];
        const Open o = head->items[--head->size];
        if (head->size == 0) {
            heads_[best_] = head->next;
            head->next = free_;
            free_ = head;
        }
        --size_;
        return o;
    }
    // Returns the bytes held (slabs and bucket heads).
    std::uint64_t bytes() const {
        return slabs_.size() * sizeof(Block) * kSlab + heads_.size() * sizeof(Block*);
    }

private:
    static constexpr std::uint32_t kBlock = 32;  // entries per block (3.3 KB)
    static constexpr std::size_t kSlab = 16;     // blocks per slab (53 KB)
    struct Block {
        Block* next;
        std::uint32_t size;
        Open items[kBlock];
    };
    Block* take_block() {
        if (free_ == nullptr) {
            slabs_.push_back(std::make_unique_for_overwrite<Block[]>(kSlab));
            Block* slab = slabs_.back().get();
            for (std::size_t i = 0; i < kSlab; ++i) {
                slab[i].next = free_;
                free_ = &slab[i];
            }
        }
        Block* b = free_;
        free_ = b->next;
        return b;
    }
    std::vector<Block*> heads_;
    std::vector<std::unique_ptr<Block[]>> slabs_;
    Block* free_ = nullptr;
    int best_ = kBuckets;
    std::uint64_t size_ = 0;
};

}  // namespace bakers
