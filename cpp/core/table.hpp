// The visited set: exact 128-bit keys (see zobrist.hpp) in open-addressing shards.
//
// Design. A key is 16 bytes and nothing else is stored, so a state costs 16 bytes over
// a load factor of at most 1/2 (32 bytes at worst; or 3/4, about 21 bytes, when memory
// counts more than speed). The table is split into shards chosen by the key's high bits;
// each shard grows on its own and, when the table is shared by several threads, is
// guarded by its own spin lock (held for one probe sequence, or one growth: a sleeping
// mutex costs more than such a wait), so threads collide only when they touch the same
// shard at the same moment. A single-threaded search skips the locks. Byte use is
// tracked so that a memory limit can end a search before the machine runs out.
#pragma once

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

#include "spin_lock.hpp"
#include "zobrist.hpp"

namespace bakers {

// Zeroed slots; a large array asks the system for huge pages, which keeps the random
// probes of a big table from missing the address-translation cache at every step.
class Slots {
public:
    Slots() = default;
    explicit Slots(std::size_t n) : n_(n) {
        const std::size_t bytes = n * sizeof(Key);
        if (bytes >= kHuge) {
            p_ = static_cast<Key*>(std::aligned_alloc(kHuge, bytes));  // bytes: a power of two
#ifdef __linux__
            if (p_) madvise(p_, bytes, MADV_HUGEPAGE);
#endif
        } else {
            p_ = static_cast<Key*>(std::malloc(bytes));
        }
        if (!p_) throw std::bad_alloc();
        std::memset(static_cast<void*>(p_), 0, bytes);
    }
    Slots(Slots&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr, o.n_ = 0; }
    Slots& operator=(Slots&& o) noexcept {
        std::swap(p_, o.p_);
        std::swap(n_, o.n_);
        return *this;
    }
    Slots(const Slots&) = delete;
    Slots& operator=(const Slots&) = delete;
    ~Slots() { std::free(p_); }
    std::size_t size() const { return n_; }
    Key& operator[](std::size_t i) { return p_[i]; }
    const Key& operator[](std::size_t i) const { return p_[i]; }
    const Key* begin() const { return p_; }
    const Key* end() const { return p_ + n_; }

private:
    static constexpr std::size_t kHuge = std::size_t{2} << 20;
    Key* p_ = nullptr;
    std::size_t n_ = 0;
};

class VisitedTable {
public:
    // `load_quarters`: a shard grows when more than that many quarters of its slots
    // would be used (2: fast probes; 3: a third less memory per key, probes ~3x longer),
    // once it holds kSmallShard slots (1/2 below).
    // `initial`: the slots of a shard at the start (a power of two).
    explicit VisitedTable(bool shared, int shard_bits, int load_quarters = 2,
                          std::size_t initial = 1024)
        : shared_(shared), bits_(shard_bits), load_(load_quarters), shards_(std::size_t{1} << shard_bits) {
        for (auto& s : shards_) {
            s.slots = Slots(initial);
            s.publish();
        }
        bytes_ = shards_.size() * initial * sizeof(Key);
    }

    // Inserts k; returns true if it was not there yet.
    bool insert(Key k) {
        if (k.lo == 0 && k.hi == 0) k.lo = 1;  // (0, 0) marks an empty slot
        Shard& sh = shards_[bits_ ? k.hi >> (64 - bits_) : 0];
        if (shared_) {
            std::lock_guard<SpinLock> lock(sh.mutex);
            return insert_into(sh, k);
        }
        return insert_into(sh, k);
    }
    // Sets the bytes the table may grow to (0 = no limit). A shard that would pass it
    // does not grow but fills up to 7/8 of its slots (open addressing still works there)
    // and sets `over_budget`, which the search reads to stop with "memory limit".
    void set_budget(std::uint64_t bytes) { budget_.store(bytes, std::memory_order_relaxed); }
    bool over_budget() const { return over_budget_.load(std::memory_order_relaxed); }
    // Hints that k's slot will be read soon. Safe on a shared table: it reads the shard's
    // slot address and mask through atomics (a shard regrown meanwhile only makes the hint
    // stale, and a prefetch of a stale address does nothing).
    void prefetch(const Key& k) const {
        const Shard& sh = shards_[bits_ ? k.hi >> (64 - bits_) : 0];
        const Key* base = sh.base.load(std::memory_order_relaxed);
        __builtin_prefetch(base + (k.lo & sh.mask.load(std::memory_order_relaxed)));
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

private:
    struct alignas(64) Shard {  // one cache line a shard: threads on two shards do not collide
        SpinLock mutex;
        Slots slots;
        std::size_t used = 0;
        std::atomic<const Key*> base{nullptr};  // &slots[0] and slots.size() - 1, for prefetch
        std::atomic<std::size_t> mask{0};
        void publish() {
            base.store(slots.begin(), std::memory_order_relaxed);
            mask.store(slots.size() - 1, std::memory_order_relaxed);
        }
    };

    bool insert_into(Shard& sh, const Key& k) {
        // A small shard keeps the fast load of 1/2 whatever `load_` says: its bytes are few.
        const std::size_t load = sh.slots.size() < kSmallShard ? 2 : load_;
        if (4 * (sh.used + 1) > load * sh.slots.size()) {
            const std::uint64_t budget = budget_.load(std::memory_order_relaxed);
            // While growing, the old and the new slots are held at once.
            const std::uint64_t during = bytes_.load(std::memory_order_relaxed) + 2 * sh.slots.size() * sizeof(Key);
            if (budget == 0 || during <= budget || 8 * (sh.used + 1) > 7 * sh.slots.size())
                grow(sh);
            else
                over_budget_.store(true, std::memory_order_relaxed);
        }
        const std::size_t mask = sh.slots.size() - 1;
        for (std::size_t i = k.lo & mask;; i = (i + 1) & mask) {
            Key& slot = sh.slots[i];
            if (slot == k) return false;
            if (slot.lo == 0 && slot.hi == 0) {
                slot = k;
                ++sh.used;
                return true;
            }
        }
    }
    void grow(Shard& sh) {
        Slots old(sh.slots.size() * 2);
        std::swap(old, sh.slots);
        sh.publish();
        bytes_.fetch_add(old.size() * sizeof(Key), std::memory_order_relaxed);
        const std::size_t mask = sh.slots.size() - 1;
        for (const Key& k : old) {
            if (k.lo == 0 && k.hi == 0) continue;
            std::size_t i = k.lo & mask;
            while (!(sh.slots[i].lo == 0 && sh.slots[i].hi == 0)) i = (i + 1) & mask;
            sh.slots[i] = k;
        }
    }

    static constexpr std::size_t kSmallShard = std::size_t{1} << 16;  // slots (1 MB)
    bool shared_;
    int bits_;
    std::size_t load_;
    std::vector<Shard> shards_;
    std::atomic<std::uint64_t> bytes_{0};
    std::atomic<std::uint64_t> budget_{0};
    std::atomic<bool> over_budget_{false};
};

}  // namespace bakers
