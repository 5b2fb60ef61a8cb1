#include "dense_table.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <new>
#ifdef __linux__
#include <sys/mman.h>
#endif

namespace bakers {
namespace {

using U128 = unsigned __int128;
constexpr std::size_t kBucket = 64;

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

DenseTable::DenseTable(std::uint64_t bytes) : overflow_(false, 0, 3, 1024) {
    const std::size_t shards = std::size_t{1} << kShardBits;
    const std::size_t per_shard = static_cast<std::size_t>(bytes / shards);
    nb_ = per_shard / kBucket > kReach + 64 ? per_shard / kBucket - kReach : 64;
    w_ = 64 - (std::bit_width(nb_) - 1);  // nb >= 2^(64 - w): a home's lo interval < 2^w
    // The narrowest slot that keeps lo's w bits, the displacement and at least 24 of hi's low 32 bits.
    for (slot_ = 9; slot_ < 12 && 8 * slot_ - kReachBits - w_ < 24; ++slot_) {
    }
    per_bucket_ = static_cast<int>((kBucket - 1) / static_cast<std::size_t>(slot_));
    key_bits_ = 8 * slot_ - kReachBits;
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

bool DenseTable::insert(const Key& key) {
    Key k = kept_bits(key);
    if (k.lo == 0 && (k.hi & 0xFFFFFFFFull) == 0) k.lo = 1;  // as table.hpp stores it
    Shard& sh = shards_[k.hi >> (64 - kShardBits)];
    const std::size_t h = home_slot(k.lo, nb_);
    const U128 stored = ((U128{k.lo} & low_bits(w_)) | (U128{k.hi & 0xFFFFFFFFull} << w_)) & low_bits(key_bits_);
    const U128 slot_mask = low_bits(8 * slot_);
    for (int d = 0; d < kReach; ++d) {
        unsigned char* b = sh.buckets + (h + static_cast<std::size_t>(d)) * kBucket;
        const U128 want = stored | (U128(static_cast<unsigned>(d)) << key_bits_);
        const int count = b[0];
        for (int j = 0; j < count; ++j) {
            U128 v;
            std::memcpy(&v, b + 1 + j * slot_, sizeof v);
            if ((v & slot_mask) == want) return false;
        }
        if (count < per_bucket_) {
            std::memcpy(b + 1 + count * slot_, &want, static_cast<std::size_t>(slot_));
            b[0] = static_cast<unsigned char>(count + 1);
            ++used_;
            if (++sh.used > full_) over_ = true;
            return true;
        }
    }
    return overflow_.insert(k);  // the kReach buckets from its home are full
}

}  // namespace bakers
