// Giving the memory a finished search freed back to the system.
//
// A search's blocks below the allocator's threshold for mapping (node chunks, open-list
// slabs, small table shards: from 128 KB up to 32 MB once glibc has raised it) come from
// the allocator's heaps, and freeing them keeps them resident for reuse, except the top of
// the main heap. The next search reuses only part of them: its large blocks are mapped
// afresh (a table past 64 KB: table.hpp), so the process held the last search's freed
// blocks and the next search's new ones at once (the portfolio's runs one after another,
// the Python side's objects after a search). Trimming every heap after a search that held
// more than kGiveBackFrom returns those pages; below it the few pages are not worth the
// walk over the heaps (a range of many small deals would pay it at every deal).
#pragma once

#include <cstdint>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace bakers {

inline constexpr std::uint64_t kGiveBackFrom = std::uint64_t{8} << 20;

// Returns the pages that the allocator holds free to the system when a search that held
// `peak_bytes` has ended (a no-op where the allocator gives no such call).
inline void give_back_memory(std::uint64_t peak_bytes) {
#if defined(__GLIBC__)
    if (peak_bytes >= kGiveBackFrom) malloc_trim(0);
#else
    (void)peak_bytes;
#endif
}

}  // namespace bakers
