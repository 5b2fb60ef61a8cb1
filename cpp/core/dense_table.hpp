// The dense visited set: the same keys as table.hpp in about 10 bytes a position instead
// of 16 to 20, for the depth-first proofs that memory ends. One thread; a fixed size.
//
// Design. Buckets of 64 bytes (one cache line): a count byte and 7 slots of 9 bytes (or
// 6 of 10, 5 of 11 or 12: the narrowest that keeps 96 key bits, see below). As in
// table.hpp, the key's top 8 bits choose a shard and its low 64 bits (`lo`) are scaled to
// a home bucket h of the shard's nb buckets. The lo values that scale to h form an
// interval shorter than 2^w, w = 64 - floor(log2 nb), and two values in such an interval
// differ in their low w bits: so a slot keeps only lo's low w bits and the bucket stands
// for the rest. The slot also keeps as many of the key's 32 low `hi` bits as fit, and d,
// how many buckets past its home the key sits (0..15). A key goes to the first bucket
// from its home with a free slot (linear probing by buckets); when the 16 buckets from h
// are full, to a small overflow table (table.hpp; about 1% of the keys at 15/16 full).
// Nothing is ever removed, so a key is in the 16 buckets from its home or, when they are
// all full, in the overflow table: a lookup checks just these.
//
// Exactness. Two keys are told apart by the 8 shard bits, all 64 bits of lo (home bucket
// and kept low bits) and the kept hi bits: `identity_bits()`, at least 96 at every size
// (from 16 GB: 9-byte slots, exactly 96), where table.hpp compares 104. (The 24 hi bits
// between the shard bits and the low 32 are never compared: table.hpp does not keep them,
// and its keys move here when a depth-first search switches tables.) With 2 billion
// positions the chance that a new position is taken for a stored one is below n^2 / 2^97,
// about 3e-11 (README, "Why an impossible can be trusted").
//
// Memory. The buckets are mapped at once and the system gives pages on first touch, so
// a table filled shard after shard (the switch from table.hpp) holds only the shards
// filled so far. `bytes()` counts them all, touched or not.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "table.hpp"

namespace bakers {

class DenseTable {
public:
    static constexpr int kShardBits = 8;
    static constexpr int kReachBits = 4;
    static constexpr int kReach = 1 << kReachBits;  // buckets from its home that may hold a key

    // A table of about `bytes` (at least 32 MB: a smaller one could not keep 96 bits).
    explicit DenseTable(std::uint64_t bytes);
    DenseTable(const DenseTable&) = delete;
    DenseTable& operator=(const DenseTable&) = delete;
    ~DenseTable();

    // Inserts k; returns true if it was not there yet.
    bool insert(const Key& k);
    // Returns the number of keys stored.
    std::uint64_t size() const { return used_ + overflow_.size(); }
    // Returns the bytes of the buckets (all of them) and of the overflow table.
    std::uint64_t bytes() const { return bucket_bytes_ + overflow_.bytes(); }
    // True once a shard has passed 15/16 of its slots: a search should stop ("memory").
    bool over_budget() const { return over_; }
    // Returns the key bits that tell two keys apart (see the top of this file).
    int identity_bits() const { return identity_; }
    // Returns the slots of the home buckets (the kReach - 1 buckets past a shard's last
    // home bucket take keys that run over its end).
    std::uint64_t capacity() const { return std::uint64_t{nb_} * static_cast<std::uint64_t>(per_bucket_) * shards_.size(); }
    int slot_bytes() const { return slot_; }
    int slots_per_bucket() const { return per_bucket_; }
    // Returns how many keys went to the overflow table.
    std::uint64_t overflowed() const { return overflow_.size(); }

    // The bits of a key that the dense table keeps: a key of table.hpp has no others.
    static Key kept_bits(Key k) {
        k.hi &= 0xFF000000FFFFFFFFull;
        return k;
    }

private:
    struct Shard {
        unsigned char* buckets = nullptr;  // (nb + kReach) buckets of 64 bytes
        std::size_t used = 0;
    };

    std::size_t nb_ = 0;     // buckets a shard (the same for all)
    int w_ = 0;              // lo's low bits kept in a slot
    int slot_ = 0;           // bytes a slot
    int per_bucket_ = 0;     // slots a bucket
    int key_bits_ = 0;       // bits of a slot that hold key bits (the rest: d)
    int identity_ = 0;
    std::size_t full_ = 0;   // a shard's used slots at which over_budget is set
    std::size_t map_bytes_ = 0;  // bytes mapped a shard
    std::uint64_t bucket_bytes_ = 0;
    std::uint64_t used_ = 0;
    bool over_ = false;
    std::vector<Shard> shards_;
    VisitedTable overflow_;
};

}  // namespace bakers
