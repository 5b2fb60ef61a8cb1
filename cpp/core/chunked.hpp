// A stack in blocks: it grows and shrinks a block at a time, where a vector that doubles
// holds its old and new arrays at once (three times its size) and keeps its largest size.
// Depth first's line uses it: under a memory limit of 20 GB the line may hold gigabytes.
#pragma once

#include <cassert>
#include <cstddef>
#include <memory>
#include <vector>

namespace bakers {

template <class T, std::size_t kBlock>
class Chunked {
public:
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T& operator[](std::size_t i) { return blocks_[i / kBlock][i % kBlock]; }
    const T& operator[](std::size_t i) const { return blocks_[i / kBlock][i % kBlock]; }
    T& back() {
        assert(size_ > 0);
        return (*this)[size_ - 1];
    }
    // True when the next push_back takes a new block.
    bool full() const { return size_ == blocks_.size() * kBlock; }
    void push_back(const T& v) {
        if (full()) blocks_.push_back(std::unique_ptr<T[]>(new T[kBlock]));
        (*this)[size_++] = v;
    }
    // Removes the last element; a block is freed when the one above it is empty too (one
    // spare block, so that a line going up and down at a block's edge does not thrash).
    void pop_back() {
        assert(size_ > 0);
        --size_;
        if (blocks_.size() * kBlock >= size_ + 2 * kBlock) blocks_.pop_back();
    }
    void clear() {
        blocks_.clear();
        size_ = 0;
    }
    // Returns the bytes of the blocks and of their index.
    std::size_t bytes() const {
        return blocks_.size() * (kBlock * sizeof(T)) + blocks_.capacity() * sizeof(std::unique_ptr<T[]>);
    }
    static constexpr std::size_t block_bytes() { return kBlock * sizeof(T); }

private:
    std::vector<std::unique_ptr<T[]>> blocks_;
    std::size_t size_ = 0;
};

}  // namespace bakers
