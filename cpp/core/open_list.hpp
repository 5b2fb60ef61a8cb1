// The open list: positions stored but not yet expanded, best priority first.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "zobrist.hpp"

namespace bakers {

// A position as the search keeps it: the state and its key (96 bytes). The column
// hashes are recomputed when it is used (one pass over its cards), which costs less
// than carrying 208 more bytes per position.
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

// An open position as a list holds it: its node id, the arena slot of its position, and
// its depth (moves from the start). Twelve bytes.
struct Open {
    std::uint32_t id;
    std::uint32_t slot;
    std::uint16_t depth;
};

// The positions that the open entries' children are made from (best_first.cpp): a slot is
// taken when an expanded position with new children is kept, and never given back
// during the search. Slots live in slabs that never move, and the table of slab pointers
// is reserved at the start, so a thread may read a published slot (see best_first.cpp) while
// another adds slabs under the search's lock.
class PackedArena {
public:
    PackedArena() { slabs_.reserve(kMaxSlabs); }
    std::uint32_t put(const Packed& p) {
        if ((next_ & kSlabMask) == 0) {
            if (slabs_.size() == kMaxSlabs) throw std::bad_alloc();
            slabs_.push_back(std::make_unique_for_overwrite<Room[]>(kSlab));
        }
        const std::uint32_t slot = next_++;
        new (room(slot).bytes) Packed(p);
        return slot;
    }
    const Packed& get(std::uint32_t slot) const {
        return *std::launder(reinterpret_cast<const Packed*>(room(slot).bytes));
    }
    // Returns the bytes of one slab: the most one `put` adds.
    static constexpr std::uint64_t slab_bytes() { return kSlab * sizeof(Packed); }
    // Returns the bytes held (the slabs).
    std::uint64_t bytes() const { return slabs_.size() * kSlab * sizeof(Packed); }

private:
    static constexpr int kSlabBits = 12;  // 4,096 positions (384 KB) a slab
    static constexpr std::uint32_t kSlab = std::uint32_t{1} << kSlabBits;
    static constexpr std::size_t kMaxSlabs = std::size_t{1} << (32 - kSlabBits);  // 2^32 slots
    static constexpr std::uint32_t kSlabMask = kSlab - 1;
    // Room for one position, left unwritten until `put`: a Packed's members have default
    // values, so a slab of Packed would be zeroed when made (384 KB at every search's
    // first `put`, a cost paid by every small search, FreeCell's among them).
    struct Room {
        alignas(Packed) unsigned char bytes[sizeof(Packed)];
    };
    static_assert(std::is_trivially_copyable_v<Packed>);
    Room& room(std::uint32_t i) const { return slabs_[i >> kSlabBits][i & kSlabMask]; }
    std::vector<std::unique_ptr<Room[]>> slabs_;
    std::uint32_t next_ = 0;
};

// A bucket queue: priorities are small integers; within a bucket the newest comes first,
// which makes ties behave like a depth-first search. Each bucket is a stack of blocks of
// kBlock entries taken from slabs that are never moved or freed before the list is: no
// entry is ever copied to grow a bucket, an emptied block serves any bucket next, and the
// bytes held grow one slab at a time (`bytes`), which a memory limit can count on.
class OpenList {
public:
    static constexpr int kBuckets = 4096;
    OpenList() = default;
    void push(int prio, const Open& entry) {
        prio = std::clamp(prio, 0, kBuckets - 1);
        // The buckets up to the highest priority pushed: a small search touches a few
        // hundred of them, not all.
        if (static_cast<std::size_t>(prio) >= heads_.size()) heads_.resize(static_cast<std::size_t>(prio) + 1, nullptr);
        Block*& head = heads_[static_cast<std::size_t>(prio)];
        if (head == nullptr || head->size == kBlock) {
            Block* b = take_block();
            b->next = head;
            b->size = 0;
            head = b;
        }
        head->items[head->size++] = entry;
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
    // Returns the most bytes one `push` adds: a slab, and the bucket heads grown.
    static constexpr std::uint64_t slab_bytes() { return kSlab * sizeof(Block) + kBuckets * sizeof(Block*); }
    // Returns the bytes held (slabs and bucket heads).
    std::uint64_t bytes() const {
        return slabs_.size() * sizeof(Block) * kSlab + heads_.size() * sizeof(Block*);
    }

private:
    static constexpr std::uint32_t kBlock = 128;  // entries per block (1.5 KB)
    static constexpr std::size_t kSlab = 16;      // blocks per slab (25 KB)
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
