// The dense visited set: the same keys as table.hpp in about 10 bytes a position instead
// of 16 to 20, for the depth-first proofs that memory ends. One thread; a fixed size.
// When it is full it forgets the positions the caller values least (see "Values").
//
// Design. Buckets of 64 bytes (one cache line): a byte and 7 slots of 9 bytes (or
// 6 of 10, 5 of 11 or 12: the narrowest that keeps 96 key bits, see below, and the
// value in a table that forgets). As in
// table.hpp, the key's top 8 bits choose a shard and its low 64 bits (`lo`) are scaled to
// a home bucket h of the shard's nb buckets. The lo values that scale to h form an
// interval shorter than 2^w, w = 64 - floor(log2 nb), and two values in such an interval
// differ in their low w bits: so a slot keeps only lo's low w bits and the bucket stands
// for the rest. The slot also keeps as many of the key's 32 low `hi` bits as fit, d, how
// many buckets past its home the key sits (0..15), and a 4-bit value if it forgets. A key goes to the
// first bucket from its home with a free slot (linear probing by buckets). A bucket's
// count never falls, so a key is in the 16 buckets from its home or, when they were all
// full, in a small overflow table (table.hpp): a lookup checks just these. A bucket's
// byte holds the count of its slots in use (3 bits) and `far` (4 bits), the most buckets
// past it that a key of this home was ever put: a lookup stops there too (a full table
// would otherwise read all 16 buckets for every new key).
//
// Values. A table made to forget (`forgets`; else it never forgets, keeps no values and
// stops at 15/16 full: `over_budget`) keeps in each slot a 4-bit value that the caller
// gives (`insert`, `set_value`): 15, `kBusy`, is never forgotten. Once the table is
// nearly full, a new key looks for a free slot only in the buckets to kNear - 1 or its
// home's `far` past its home, whichever is farther; when they are full, the slot of least
// value below kBusy among them takes the new key and the old one is forgotten; only when
// every slot there is busy does the key go to the overflow table. A forgotten
// key is simply not found again (a later insert of it returns true): the table never
// says "seen" of a key that was not inserted. Depth first (depth_first.cpp) keeps a
// position busy while it may still be expanded and then values it by the size of the
// search below it, so that what it forgets is cheap to search again.
//
// Exactness. Two keys are told apart by the 8 shard bits, all 64 bits of lo (home bucket
// and kept low bits) and the kept hi bits: `identity_bits()`, at least 96 at every size,
// where table.hpp compares 104. (The 24 hi bits between the shard bits and the low 32 are
// never compared: table.hpp does not keep them, and its keys move here when a
// depth-first search switches tables.) With 2 billion positions the chance that a new
// position is taken for a stored one is below n^2 / 2^97, about 3e-11 (docs/architecture.md, "Why an
// impossible can be trusted").
//
// Memory. The buckets are mapped at once and the system gives pages on first touch, so
// a table filled shard after shard (the switch from table.hpp) holds only the shards
// filled so far. `bytes()` counts them all, touched or not.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "checkpoint.hpp"
#include "table.hpp"

namespace bakers {

class DenseTable {
public:
    static constexpr int kShardBits = 8;
    static constexpr int kReachBits = 4;
    static constexpr int kReach = 1 << kReachBits;  // buckets from its home that may hold a key
    static constexpr int kValueBits = 4;  // in a table that forgets
    static constexpr unsigned kBusy = 15;  // the value of a key that is never forgotten
    static constexpr std::size_t kBucket = 64;  // bytes a bucket: one cache line

    // A table of about `bytes` (at least 1 MB), that forgets keys when full if `forgets`.
    explicit DenseTable(std::uint64_t bytes, bool forgets = false);
    DenseTable(const DenseTable&) = delete;
    DenseTable& operator=(const DenseTable&) = delete;
    ~DenseTable();

    // Inserts k with `value` (kBusy: never forgotten); returns true if it was not there
    // yet (or was forgotten). A key already there keeps its value.
    bool insert(const Key& k, unsigned value = kBusy);
    // Sets the value of k; returns false (nothing done) if the table does not forget or
    // k is not in the buckets (not there, forgotten, or in the overflow table, where keys
    // are never forgotten).
    bool set_value(const Key& k, unsigned value);
    // Makes k busy, inserting it if it is not there (nothing, if the table does not forget).
    void hold(const Key& k);
    // Asks the memory for k's home bucket ahead of an insert or a lookup of k (a hint:
    // nothing changes). In a table of gigabytes each probe waits on memory; asked for
    // together, the probes of one expansion wait about once.
    void prefetch(const Key& k) const {
        __builtin_prefetch(shards_[static_cast<std::size_t>(k.hi >> (64 - kShardBits))].buckets +
                           home_slot(k.lo, nb_) * kBucket);
    }
    // Returns the number of slots in use plus the keys in the overflow table (forgetting
    // a key for another leaves it unchanged).
    std::uint64_t size() const { return used_ + overflow_.size(); }
    // Returns how many keys were forgotten.
    std::uint64_t evicted() const { return evicted_; }
    // Returns the bytes of the buckets (all of them) and of the overflow table.
    std::uint64_t bytes() const { return bucket_bytes_ + overflow_.bytes(); }
    // A search should stop ("memory limit"): a table that does not forget passed 15/16 in
    // a shard; one that forgets has an overflow table (keys whose 16 buckets were all
    // busy) over 1/64 of the buckets' bytes.
    bool over_budget() const { return over_; }
    // True once a shard passed 15/16 of its slots (from there on, keys are forgotten).
    bool nearly_full() const { return full_seen_; }
    // Returns the key bits that tell two keys apart (see the top of this file).
    int identity_bits() const { return identity_; }
    // Returns the slots of the home buckets (the kReach - 1 buckets past a shard's last
    // home bucket take keys that run over its end).
    std::uint64_t capacity() const { return std::uint64_t{nb_} * static_cast<std::uint64_t>(per_bucket_) * shards_.size(); }
    int slot_bytes() const { return slot_; }
    int slots_per_bucket() const { return per_bucket_; }
    // Returns how many keys went to the overflow table.
    std::uint64_t overflowed() const { return overflow_.size(); }
    // The bytes and `forgets` the table was made with.
    std::uint64_t made_bytes() const { return made_bytes_; }
    bool forgets() const { return forgets_; }
    // Writes the table whole (buckets, counts, overflow table) for a checkpoint; `load`
    // fills a table made with the same `made_bytes` and `forgets` from it.
    void save(CheckpointWriter& w) const;
    void load(CheckpointReader& r);

    // The bits of a key that the dense table keeps: a key of table.hpp has no others.
    static Key kept_bits(Key k) {
        k.hi &= 0xFF000000FFFFFFFFull;
        return k;
    }

private:
    using U128 = unsigned __int128;
    // Where a key is, or where it would go.
    struct Probe {
        Key key;                       // its kept bits
        std::size_t shard = 0;
        unsigned char* home = nullptr;  // its home bucket
        U128 stored = 0;                // its slot's key bits
        unsigned char* found = nullptr;  // its slot, if in the buckets
        unsigned char* free = nullptr;   // else the first bucket with a free slot, if any
        int free_d = 0;                  // that bucket's distance from home
        int last = 0;                    // the farthest bucket looked at (from home)
    };
    // Finds k: in the buckets to its home's `far` or, `to_insert`, also a free slot (see
    // the top of this file).
    Probe probe(const Key& k, bool to_insert) const;
    // Notes in a home bucket's byte that one of its keys sits d buckets past it.
    static void reach_to(unsigned char* home, int d) {
        if ((home[0] >> kFarShift) < d)
            home[0] = static_cast<unsigned char>((home[0] & kCountMask) | (d << kFarShift));
    }
    static constexpr int kCountMask = 7;  // a bucket's byte: its slots in use ...
    static constexpr int kFarShift = 3;   // ... and the farthest of its home's keys
    // Once a table that forgets is full, a new key takes a slot at most this many buckets
    // from its home (or as far as a key of its home already is): about as fast as 2, faster
    // than looking at all 16 (docs/benchmarks.md, "The dense table's reach").
    static constexpr int kNear = 4;
    void write(unsigned char* slot, U128 bits) const;

    struct Shard {
        unsigned char* buckets = nullptr;  // (nb + kReach) buckets of 64 bytes
        std::size_t used = 0;
    };

    std::uint64_t made_bytes_ = 0;
    bool forgets_ = false;
    int value_bits_ = 0;     // kValueBits if the table forgets, else 0
    std::size_t nb_ = 0;     // buckets a shard (the same for all)
    int w_ = 0;              // lo's low bits kept in a slot
    int slot_ = 0;           // bytes a slot
    int per_bucket_ = 0;     // slots a bucket
    int key_bits_ = 0;       // bits of a slot that hold key bits (the rest: d, the value)
    int identity_ = 0;
    std::size_t full_ = 0;   // a shard's used slots at which nearly_full is set
    std::size_t map_bytes_ = 0;  // bytes mapped a shard
    std::uint64_t bucket_bytes_ = 0;
    std::uint64_t used_ = 0;
    std::uint64_t evicted_ = 0;
    bool over_ = false;
    bool full_seen_ = false;
    std::vector<Shard> shards_;
    VisitedTable overflow_;
};

}  // namespace bakers
