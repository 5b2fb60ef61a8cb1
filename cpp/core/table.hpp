// The visited set: position keys (see zobrist.hpp), 104 bits of each compared, in
// open-addressing shards.
//
// Design. A slot holds 12 bytes of a 128-bit key: its low 64 bits and 32 of its high
// ones; 8 more high bits choose the shard, so two positions are told apart by 104 key
// bits (see docs/architecture.md, "Why an impossible can be trusted"). Nothing else is stored. A shard
// grows when its load would pass 1/2 (or 3/4 when memory counts more than speed); a small
// shard doubles, a large one grows by a quarter, so that a large shard's load stays
// between 4/5 of its limit and the limit (3/5 to 3/4: 16 to 20 bytes a position)
// instead of halving right after a doubling. A key's slot is its low 64 bits scaled to the shard's size (any size,
// not only powers of two), then linear probing. Each shard grows on its own and, when the
// table is shared by several threads, is guarded by its own spin lock (held for one probe
// sequence, or one growth: a sleeping mutex costs more than such a wait), so threads
// collide only when they touch the same shard at the same moment. A single-threaded
// search skips the locks. Byte use is tracked so that a memory limit can end a search
// before the machine runs out.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <utility>
#include <vector>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "checkpoint.hpp"
#include "spin_lock.hpp"
#include "zobrist.hpp"

namespace bakers {

// A key as a slot stores it: 96 of its bits (the shard's choice holds 8 more).
struct Slot {
    std::uint32_t lo0 = 0, lo1 = 0, hi0 = 0;
    static Slot of(const Key& k) {
        return Slot{static_cast<std::uint32_t>(k.lo), static_cast<std::uint32_t>(k.lo >> 32),
                    static_cast<std::uint32_t>(k.hi)};
    }
    bool empty() const { return (lo0 | lo1 | hi0) == 0; }
    std::uint64_t lo() const { return (std::uint64_t{lo1} << 32) | lo0; }
    bool operator==(const Slot&) const = default;
};
static_assert(sizeof(Slot) == 12);

// Zeroed slots; a large array asks the system for huge pages, which keeps the random
// probes of a big table from missing the address-translation cache at every step. Slots
// may also be borrowed from a block that the table owns (every shard's first slots).
//
// Slots of kMapped bytes or more are mapped from the system and unmapped when dropped,
// not taken from the allocator: a freed block goes back to the system at once. From the
// allocator it might not (glibc raises its threshold for mapping to the size of the
// largest block freed, up to 32 MB, and keeps freed blocks below it for reuse), so a
// table's grown and drained shards stayed resident: the process held the old shards and
// the new ones at once, though the table counted only the new (a depth-first search
// moving its keys to the dense table held both tables whole, 60% over its limit).
class Slots {
public:
    Slots() = default;
    // Returns n zeroed slots at p, owned by someone else.
    static Slots borrowed(Slot* p, std::size_t n) {
        Slots s;
        s.p_ = p, s.n_ = n, s.bytes_ = n * sizeof(Slot), s.owned_ = false;
        return s;
    }
    explicit Slots(std::size_t n) : n_(n), bytes_(n * sizeof(Slot)) {
#ifdef __linux__
        if (bytes_ >= kMapped) {
            // A page-aligned size; a large one a multiple of a huge page, for the huge pages.
            const std::size_t unit = bytes_ >= kLarge ? kHuge : kPage;
            bytes_ = (bytes_ + unit - 1) / unit * unit;
            void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) throw std::bad_alloc();
            if (bytes_ >= kLarge) madvise(p, bytes_, MADV_HUGEPAGE);
            p_ = static_cast<Slot*>(p), mapped_ = true;  // zeroed by the system
            return;
        }
#endif
        p_ = static_cast<Slot*>(std::calloc(n_, sizeof(Slot)));
        if (!p_) throw std::bad_alloc();
    }
    Slots(Slots&& o) noexcept
        : p_(o.p_), n_(o.n_), bytes_(o.bytes_), owned_(o.owned_), mapped_(o.mapped_) {
        o.p_ = nullptr, o.n_ = 0, o.bytes_ = 0, o.owned_ = true, o.mapped_ = false;
    }
    Slots& operator=(Slots&& o) noexcept {
        std::swap(p_, o.p_);
        std::swap(n_, o.n_);
        std::swap(bytes_, o.bytes_);
        std::swap(owned_, o.owned_);
        std::swap(mapped_, o.mapped_);
        return *this;
    }
    Slots(const Slots&) = delete;
    Slots& operator=(const Slots&) = delete;
    ~Slots() {
        if (!owned_ || !p_) return;
#ifdef __linux__
        if (mapped_) {
            munmap(p_, bytes_);
            return;
        }
#endif
        std::free(p_);
    }
    std::size_t size() const { return n_; }
    std::size_t bytes() const { return bytes_; }  // as allocated
    // Returns the bytes these slots free when dropped: 0 for borrowed ones.
    std::size_t owned_bytes() const { return owned_ ? bytes_ : 0; }
    Slot& operator[](std::size_t i) { return p_[i]; }
    const Slot& operator[](std::size_t i) const { return p_[i]; }
    const Slot* begin() const { return p_; }
    const Slot* end() const { return p_ + n_; }

private:
    static constexpr std::size_t kPage = std::size_t{4} << 10;
    static constexpr std::size_t kMapped = std::size_t{64} << 10;  // 16 pages: rounding wastes <= 1/16
    static constexpr std::size_t kHuge = std::size_t{2} << 20;     // a huge page
    static constexpr std::size_t kLarge = std::size_t{32} << 20;   // rounding wastes <= 1/16
    Slot* p_ = nullptr;
    std::size_t n_ = 0;
    std::size_t bytes_ = 0;
    bool owned_ = true;
    bool mapped_ = false;  // from mmap (else from calloc)
};

// Returns the home slot of a key's low bits in n slots: lo scaled to [0, n).
inline std::size_t home_slot(std::uint64_t lo, std::size_t n) {
    return static_cast<std::size_t>((static_cast<unsigned __int128>(lo) * n) >> 64);
}

class VisitedTable {
public:
    // `load_quarters`: a shard grows when more than that many quarters of its slots
    // would be used (2: fast probes; 3: a third less memory per key, probes ~3x longer),
    // once it holds kSmallShard slots (1/2 below).
    // `initial`: the slots of a shard at the start.
    explicit VisitedTable(bool shared, int shard_bits, int load_quarters = 2,
                          std::size_t initial = 1024)
        : shared_(shared), bits_(shard_bits), load_(load_quarters), shards_(std::size_t{1} << shard_bits),
          first_(shards_.size() * initial) {
        // The shards' first slots in one block: one allocation instead of one a shard
        // (depth first's 256 shards made every small search pay 256 of them, and as many
        // frees). A shard that grows leaves its part of the block unused.
        for (std::size_t i = 0; i < shards_.size(); ++i) {
            shards_[i].slots = Slots::borrowed(&first_[i * initial], initial);
            shards_[i].publish();
        }
        bytes_ = first_.size() * sizeof(Slot);
    }

    // Inserts k; returns true if it was not there yet.
    bool insert(Key k) {
        if (Slot::of(k).empty()) k.lo = 1;  // an all-zero slot marks an empty one
        Shard& sh = shards_[bits_ ? k.hi >> (64 - bits_) : 0];
        if (shared_) {
            std::lock_guard<SpinLock> lock(sh.mutex);
            return insert_into(sh, k);
        }
        return insert_into(sh, k);
    }
    // Returns true if k is stored (no thread inserting meanwhile).
    bool contains(Key k) const {
        if (Slot::of(k).empty()) k.lo = 1;
        const Shard& sh = shards_[bits_ ? k.hi >> (64 - bits_) : 0];
        return sh.slots[find(sh, k)] == Slot::of(k);
    }
    // Sets the bytes the table may grow to (0 = no limit). A shard that would pass it
    // does not grow but goes on filling (open addressing still works there, with longer
    // probes); when one passes 15/16 of its slots it sets `over_budget`, which the search
    // reads to stop with "memory limit". So the table ends fuller than its growth load:
    // the shards get keys at the same rate (the shard is chosen by key bits), and when
    // the fullest passes 15/16 the others hold a quarter more keys than at the budget.
    void set_budget(std::uint64_t bytes) { budget_.store(bytes, std::memory_order_relaxed); }
    bool over_budget() const { return over_budget_.load(std::memory_order_relaxed); }
    // Hints that k's slot will be read soon. Safe on a shared table: it reads the shard's
    // slot address and size through atomics (a shard regrown meanwhile only makes the hint
    // stale, and a prefetch of a stale address does nothing).
    void prefetch(const Key& k) const {
        const Shard& sh = shards_[bits_ ? k.hi >> (64 - bits_) : 0];
        const Slot* base = sh.base.load(std::memory_order_relaxed);
        __builtin_prefetch(base + home_slot(k.lo, sh.count.load(std::memory_order_relaxed)));
    }
    // Returns the number of keys stored.
    // (Shards count their own keys: one counter shared by all would bounce between the
    // threads' caches on every insert.) Call it when no thread is inserting.
    std::uint64_t size() const {
        std::uint64_t n = 0;
        for (const Shard& sh : shards_) n += sh.used;
        return n;
    }
    // Returns the bytes held by the slots.
    std::uint64_t bytes() const { return bytes_.load(std::memory_order_relaxed); }
    // Calls f(key) for every stored key, shard after shard, freeing each shard's slots
    // once its keys are out (so a caller moving them to another table holds at most one
    // shard twice). A key comes back as a slot keeps it: lo, the shard bits and the low 32
    // bits of hi (the other hi bits zero). The table must not be used afterwards. One thread.
    template <class F>
    void drain(F&& f) {
        for (std::size_t i = 0; i < shards_.size(); ++i) {
            Shard& sh = shards_[i];
            const std::uint64_t top = bits_ ? std::uint64_t{i} << (64 - bits_) : 0;
            for (const Slot& s : sh.slots)
                if (!s.empty()) f(Key{s.lo(), top | s.hi0});
            bytes_.fetch_sub(sh.slots.owned_bytes(), std::memory_order_relaxed);
            sh.slots = Slots();
            sh.used = 0;
            sh.publish();
        }
        bytes_.fetch_sub(first_.size() * sizeof(Slot), std::memory_order_relaxed);
        first_ = {};
    }

    // Writes the table whole (its shards' sizes and slots), for a checkpoint; `load`
    // makes the same table again from it, so a search goes on probing as it did. One thread.
    void save(CheckpointWriter& w) const {
        w.put(bits_);
        w.put(load_);
        for (const Shard& sh : shards_) {
            w.put(sh.slots.size());
            w.put(sh.used);
            w.bytes(sh.slots.begin(), sh.slots.size() * sizeof(Slot));
        }
    }
    // Every shard's size is checked against the section's bytes left and the table's
    // bytes against `max_bytes` before its slots are allocated.
    void load(CheckpointReader& r, std::uint64_t max_bytes = UINT64_MAX) {
        r.expect(bits_, "the visited table's shards");
        r.expect(load_, "the visited table's load");
        std::uint64_t bytes = 0;
        for (Shard& sh : shards_) {
            const auto n = r.get<std::size_t>();
            const auto used = r.get<std::size_t>();
            if (n == 0 || used >= n) r.damaged("the visited table's sizes");
            r.need(n, sizeof(Slot), "a shard of the visited table");
            if (n * sizeof(Slot) > max_bytes - std::min(max_bytes, bytes))
                r.mismatch("the visited table's size (larger than its memory limit)");
            sh.slots = Slots(n);
            r.bytes(&sh.slots[0], n * sizeof(Slot));
            sh.used = used;
            sh.publish();
            bytes += sh.slots.bytes();
        }
        first_ = {};  // every shard has slots of its own now
        bytes_.store(bytes, std::memory_order_relaxed);
    }

private:
    struct alignas(64) Shard {  // one cache line a shard: threads on two shards do not collide
        SpinLock mutex;
        Slots slots;
        std::size_t used = 0;
        std::atomic<const Slot*> base{nullptr};  // &slots[0] and slots.size(), for prefetch
        std::atomic<std::size_t> count{0};
        void publish() {
            base.store(slots.begin(), std::memory_order_relaxed);
            count.store(slots.size(), std::memory_order_relaxed);
        }
    };

    bool insert_into(Shard& sh, const Key& key) {
        const std::size_t n = sh.slots.size();
        // A small shard keeps the fast load of 1/2 whatever `load_` says: its bytes are few.
        const std::size_t load = n < kSmallShard ? 2 : load_;
        if (4 * (sh.used + 1) > load * n) {
            const std::uint64_t budget = budget_.load(std::memory_order_relaxed);
            // While growing, the old and the new slots are held at once.
            const std::uint64_t during = bytes_.load(std::memory_order_relaxed) + grown_size(n) * sizeof(Slot);
            if (budget == 0 || during <= budget || 32 * (sh.used + 1) > 31 * n)
                grow(sh);  // (past 31/32 even over the budget: a shard never fills up)
            else if (16 * (sh.used + 1) > 15 * n)
                over_budget_.store(true, std::memory_order_relaxed);
        }
        const Slot k = Slot::of(key);
        Slot& slot = sh.slots[find(sh, key)];
        if (slot == k) return false;
        slot = k;
        ++sh.used;
        return true;
    }
    // Returns the index of key's slot in the shard, or of the empty slot where it would go.
    static std::size_t find(const Shard& sh, const Key& key) {
        const Slot k = Slot::of(key);
        const std::size_t size = sh.slots.size();
        for (std::size_t i = home_slot(key.lo, size);; i = i + 1 == size ? 0 : i + 1)
            if (sh.slots[i] == k || sh.slots[i].empty()) return i;
    }
    // A small shard doubles; a large one grows by a quarter (see the top of this file).
    static std::size_t grown_size(std::size_t n) { return n < kSmallShard ? 2 * n : n + n / 4; }
    void grow(Shard& sh) {
        Slots old(grown_size(sh.slots.size()));
        std::swap(old, sh.slots);
        sh.publish();
        bytes_.fetch_add(sh.slots.bytes() - old.owned_bytes(), std::memory_order_relaxed);
        const std::size_t size = sh.slots.size();
        for (const Slot& k : old) {
            if (k.empty()) continue;
            std::size_t i = home_slot(k.lo(), size);
            while (!sh.slots[i].empty()) i = i + 1 == size ? 0 : i + 1;
            sh.slots[i] = k;
        }
    }

    static constexpr std::size_t kSmallShard = std::size_t{1} << 16;  // slots (768 KB)
    bool shared_;
    int bits_;
    std::size_t load_;
    std::vector<Shard> shards_;
    std::vector<Slot> first_;  // the shards' first slots (zeroed: Slot's members are)
    std::atomic<std::uint64_t> bytes_{0};
    std::atomic<std::uint64_t> budget_{0};
    std::atomic<bool> over_budget_{false};
};

}  // namespace bakers
