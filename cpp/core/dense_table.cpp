#include "dense_table.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdlib>
#include <new>
#ifdef __linux__
#include <sys/mman.h>
#endif

namespace bakers {
namespace {

using U128 = unsigned __int128;

U128 low_bits(int n) { return n >= 128 ? ~U128{0} : (U128{1} << n) - 1; }

unsigned char* map_zeroed(std::size_t bytes) {
#ifdef __linux__
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, bytes, MADV_HUGEPAGE);
    return static_cast<unsigned char*>(p);
#else
    void* p = std::calloc(bytes, 1);
    if (!p) throw std::bad_alloc();
    return static_cast<unsigned char*>(p);
#endif
}

void unmap(unsigned char* p, std::size_t bytes) {
#ifdef __linux__
    munmap(p, bytes);
#else
    (void)bytes;
    std::free(p);
#endif
}

}  // namespace

DenseTable::DenseTable(std::uint64_t bytes, bool forgets)
    : made_bytes_(bytes), forgets_(forgets), value_bits_(forgets ? kValueBits : 0), overflow_(false, 0, 3, 1024) {
    const std::size_t shards = std::size_t{1} << kShardBits;
    const std::size_t per_shard = static_cast<std::size_t>(bytes / shards);
    nb_ = per_shard / kBucket > kReach + 64 ? per_shard / kBucket - kReach : 64;
    w_ = 64 - (std::bit_width(nb_) - 1);  // nb >= 2^(64 - w): a home's lo interval < 2^w
    // The narrowest slot that keeps lo's w bits, the displacement, the value and at least
    // 24 of hi's low 32 bits.
    for (slot_ = 9; slot_ < 12 && 8 * slot_ - kReachBits - value_bits_ - w_ < 24; ++slot_) {
    }
    per_bucket_ = static_cast<int>((kBucket - 1) / static_cast<std::size_t>(slot_));
    key_bits_ = 8 * slot_ - kReachBits - value_bits_;
    identity_ = kShardBits + 64 + std::min(32, key_bits_ - w_);
    full_ = nb_ * static_cast<std::size_t>(per_bucket_) * 15 / 16;
    map_bytes_ = (nb_ + kReach) * kBucket + 16;  // + 16: a slot is read as 16 bytes
    shards_.resize(shards);
    for (Shard& sh : shards_) sh.buckets = map_zeroed(map_bytes_);
    bucket_bytes_ = static_cast<std::uint64_t>(map_bytes_) * shards;
}

DenseTable::~DenseTable() {
    for (Shard& sh : shards_)
        if (sh.buckets) unmap(sh.buckets, map_bytes_);
}

DenseTable::Probe DenseTable::probe(const Key& key, bool to_insert) const {
    Key k = kept_bits(key);
    if (k.lo == 0 && (k.hi & 0xFFFFFFFFull) == 0) k.lo = 1;  // as table.hpp stores it
    Probe p;
    p.key = k;
    p.shard = static_cast<std::size_t>(k.hi >> (64 - kShardBits));
    p.home = shards_[p.shard].buckets + home_slot(k.lo, nb_) * kBucket;
    p.stored = ((U128{k.lo} & low_bits(w_)) | (U128{k.hi & 0xFFFFFFFFull} << w_)) & low_bits(key_bits_);
    // A key of this home sits at most `far` buckets past it. An insert looks on for a
    // free slot: as far as kReach, or once a table that forgets is full, as far as the
    // buckets it would forget a key from (p.last).
    const int far = p.home[0] >> kFarShift;
    p.last = !to_insert ? far : forgets_ && full_seen_ ? std::max(far, kNear - 1) : kReach - 1;
    const U128 match = low_bits(key_bits_ + kReachBits);
    for (int d = 0; d <= p.last; ++d) {
        unsigned char* b = p.home + static_cast<std::size_t>(d) * kBucket;
        const int count = b[0] & kCountMask;
        if (d <= far) {
            const U128 want = p.stored | (U128(static_cast<unsigned>(d)) << key_bits_);
            for (int j = 0; j < count; ++j) {
                U128 v;
                std::memcpy(&v, b + 1 + j * slot_, sizeof v);
                if ((v & match) == want) {
                    p.found = b + 1 + j * slot_;
                    return p;
                }
            }
        }
        if (count < per_bucket_) {
            p.free = b;
            p.free_d = d;
            return p;
        }
    }
    return p;  // not there; no free slot in the buckets to p.last
}

void DenseTable::write(unsigned char* slot, U128 bits) const {
    std::memcpy(slot, &bits, static_cast<std::size_t>(slot_));
}

bool DenseTable::insert(const Key& key, unsigned value) {
    assert(value <= kBusy);
    const Probe p = probe(key, true);
    if (p.found) return false;
    // A key in the overflow table went there when the buckets it looked at were full (and
    // they still are: counts never fall); once a table that forgets is full a later probe
    // may look farther and find a free slot, so the overflow table is asked first.
    if (forgets_ && overflow_.size() && overflow_.contains(p.key)) return false;
    const U128 tail = forgets_ ? U128(value) << (key_bits_ + kReachBits) : 0;
    if (p.free) {
        const int count = p.free[0] & kCountMask;
        write(p.free + 1 + count * slot_, p.stored | (U128(static_cast<unsigned>(p.free_d)) << key_bits_) | tail);
        ++p.free[0];  // the count, in the low bits
        reach_to(p.home, p.free_d);
        ++used_;
        if (++shards_[p.shard].used > full_) full_seen_ = true;
        if (!forgets_) over_ = full_seen_;
        return true;
    }
    if (!forgets_) return overflow_.insert(p.key);
    // Full: the least valuable slot that is not busy gives way (the caller learned its
    // value by `set_value`; it is forgotten, never mistaken for another key).
    unsigned char* victim = nullptr;
    int victim_d = 0;
    unsigned least = kBusy;
    for (int d = 0; d <= p.last && least > 0; ++d) {
        unsigned char* b = p.home + static_cast<std::size_t>(d) * kBucket;
        for (int j = 0; j < per_bucket_; ++j) {
            U128 v;
            std::memcpy(&v, b + 1 + j * slot_, sizeof v);
            const unsigned val = static_cast<unsigned>(v >> (key_bits_ + kReachBits)) & kBusy;
            if (val < least) {
                least = val;
                victim = b + 1 + j * slot_;
                victim_d = d;
                if (val == 0) break;
            }
        }
    }
    if (victim) {
        write(victim, p.stored | (U128(static_cast<unsigned>(victim_d)) << key_bits_) | tail);
        reach_to(p.home, victim_d);
        ++evicted_;
        return true;
    }
    const bool fresh = overflow_.insert(p.key);  // every slot in reach is busy
    if (overflow_.bytes() > bucket_bytes_ / 64) over_ = true;  // (a table that forgets)
    return fresh;
}

bool DenseTable::set_value(const Key& key, unsigned value) {
    assert(value <= kBusy);
    if (!forgets_) return false;
    const Probe p = probe(key, false);
    if (!p.found) return false;
    U128 v;
    std::memcpy(&v, p.found, sizeof v);
    const int shift = key_bits_ + kReachBits;
    v = (v & low_bits(shift)) | (U128(value) << shift);
    write(p.found, v);
    return true;
}

void DenseTable::hold(const Key& key) {
    if (forgets_ && !set_value(key, kBusy)) insert(key, kBusy);
}

void DenseTable::save(CheckpointWriter& w) const {
    w.put(nb_);
    w.put(map_bytes_);
    for (const Shard& sh : shards_) {
        w.put(sh.used);
        w.bytes(sh.buckets, map_bytes_);
    }
    w.put(used_);
    w.put(evicted_);
    w.put<std::uint8_t>(over_);
    w.put<std::uint8_t>(full_seen_);
    overflow_.save(w);
}

void DenseTable::load(CheckpointReader& r) {
    r.expect(nb_, "the dense table's buckets");
    r.expect(map_bytes_, "the dense table's size");
    for (Shard& sh : shards_) {
        sh.used = r.get<std::size_t>();
        r.need(map_bytes_, 1, "a shard of the dense table");
        r.bytes(sh.buckets, map_bytes_);
    }
    used_ = r.get<std::uint64_t>();
    evicted_ = r.get<std::uint64_t>();
    over_ = r.get<std::uint8_t>() != 0;
    full_seen_ = r.get<std::uint8_t>() != 0;
    overflow_.load(r);
}

}  // namespace bakers
