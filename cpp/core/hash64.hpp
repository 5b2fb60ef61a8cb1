// A 64-bit checksum of a stream of bytes, for the checkpoint files (checkpoint.hpp): four
// lanes of multiply-rotate rounds over 32-byte blocks (the construction of xxHash64),
// mixed at the end with the length and the bytes left over. Any change of one byte
// changes the sum but with a chance of 2^-64; the four lanes run side by side, so summing
// a table costs a small part of writing it or reading it back (docs/benchmarks.md,
// "The checkpoint's checksum").
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace bakers {

class Hash64 {
public:
    void add(const void* data, std::size_t n) {
        const auto* p = static_cast<const unsigned char*>(data);
        total_ += n;
        if (held_ + n < kBlock) {
            std::memcpy(buf_ + held_, p, n);
            held_ += n;
            return;
        }
        if (held_) {
            const std::size_t take = kBlock - held_;
            std::memcpy(buf_ + held_, p, take);
            block(buf_);
            p += take, n -= take, held_ = 0;
        }
        for (; n >= kBlock; p += kBlock, n -= kBlock) block(p);
        std::memcpy(buf_, p, n);
        held_ = n;
    }
    std::uint64_t digest() const {
        std::uint64_t h = total_ >= kBlock
                              ? merge(merge(merge(merge(rotl(v_[0], 1) + rotl(v_[1], 7) + rotl(v_[2], 12) +
                                                            rotl(v_[3], 18),
                                                        v_[0]),
                                                  v_[1]),
                                            v_[2]),
                                      v_[3])
                              : kP5;
        h += total_;
        // The bytes held (fewer than kBlock): whole words, then the bytes left one by one.
        // `i < kBlock` always holds; it is written out so that the optimiser, which cannot
        // see that held_ < kBlock, does not warn of a read past buf_ at link time.
        const std::size_t words = held_ / 8;
        for (std::size_t w = 0; w < words; ++w) h = rotl(h ^ round(0, word(buf_ + 8 * w)), 27) * kP1 + kP4;
        for (std::size_t i = 8 * words; i < held_ && i < kBlock; ++i) h = rotl(h ^ (buf_[i] * kP5), 11) * kP1;
        h ^= h >> 33;
        h *= kP2;
        h ^= h >> 29;
        h *= kP3;
        return h ^ (h >> 32);
    }
    // Returns the sum of n bytes at data.
    static std::uint64_t of(const void* data, std::size_t n) {
        Hash64 h;
        h.add(data, n);
        return h.digest();
    }

private:
    static constexpr std::size_t kBlock = 32;
    static constexpr std::uint64_t kP1 = 0x9E3779B185EBCA87ull, kP2 = 0xC2B2AE3D27D4EB4Full,
                                   kP3 = 0x165667B19E3779F9ull, kP4 = 0x85EBCA77C2B2AE63ull,
                                   kP5 = 0x27D4EB2F165667C5ull;
    static std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
    static std::uint64_t word(const unsigned char* p) {
        std::uint64_t w;
        std::memcpy(&w, p, sizeof w);
        return w;
    }
    static std::uint64_t round(std::uint64_t acc, std::uint64_t in) { return rotl(acc + in * kP2, 31) * kP1; }
    static std::uint64_t merge(std::uint64_t h, std::uint64_t v) { return (h ^ round(0, v)) * kP1 + kP4; }
    void block(const unsigned char* p) {
        for (int lane = 0; lane < 4; ++lane) v_[lane] = round(v_[lane], word(p + 8 * lane));
    }

    std::uint64_t v_[4] = {kP1 + kP2, kP2, 0, 0 - kP1};
    unsigned char buf_[kBlock] = {};
    std::size_t held_ = 0;
    std::uint64_t total_ = 0;
};

}  // namespace bakers
