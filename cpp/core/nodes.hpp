// The stored positions of one search thread: for each, the node it was reached from, the
// move, and whether it has been expanded. Node ids carry the owning thread in their high
// bits and the index in its store below, so each thread appends without locks.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include "moves.hpp"

namespace bakers {

inline constexpr std::uint32_t kNoParent = 0xffffffffU;
inline constexpr int kLocalBits = 28;
inline constexpr std::uint32_t kLocalMask = (std::uint32_t{1} << kLocalBits) - 1;

// Eight bytes.
struct Node {
    std::uint32_t parent;
    Move move;
    std::uint8_t expanded = 0;
};

// Nodes in chunks that never move once made, so another thread may read an existing node,
// or mark it expanded atomically, while the owner appends new ones: the owner only writes
// new slots and a chunk pointer that was reserved at the start.
class NodeStore {
public:
    static constexpr int kChunkBits = 14;
    NodeStore() { chunks_.reserve((std::size_t{kLocalMask} + 1) >> kChunkBits); }
    std::uint32_t size() const { return size_; }
    // Returns the bytes of one chunk: the most one `push` adds.
    static constexpr std::uint64_t chunk_bytes() { return std::uint64_t{kChunk} * sizeof(Node); }
    bool full() const { return size_ > kLocalMask; }
    // Appends n; returns the bytes newly allocated (0 or one chunk).
    std::uint64_t push(const Node& n) {
        std::uint64_t grown = 0;
        if ((size_ & kChunkMask) == 0) {
            chunks_.push_back(std::make_unique<Slot[]>(kChunk));
            grown = chunk_bytes();
        }
        new (&chunks_[size_ >> kChunkBits][size_ & kChunkMask].node) Node(n);
        ++size_;
        return grown;
    }
    Node& operator[](std::uint32_t i) { return chunks_[i >> kChunkBits][i & kChunkMask].node; }
    const Node& operator[](std::uint32_t i) const { return chunks_[i >> kChunkBits][i & kChunkMask].node; }

private:
    // A chunk's place for one node, left unwritten until `push` makes the node there: a
    // new chunk is not zeroed, so a small search touches only the pages it fills (a
    // chunk is 128 KB; FreeCell's searches store a few thousand nodes).
    struct Slot {
        union {
            Node node;
        };
        Slot() {}  // NOLINT: leaves the node unmade on purpose
    };
    static_assert(sizeof(Slot) == sizeof(Node));
    static constexpr std::uint32_t kChunk = std::uint32_t{1} << kChunkBits;
    static constexpr std::uint32_t kChunkMask = kChunk - 1;
    std::vector<std::unique_ptr<Slot[]>> chunks_;
    std::uint32_t size_ = 0;
};

}  // namespace bakers
