// The open list (best priority first, newest first within a priority, blocks reused) and
// the node store (ids stable while it grows, chunks counted).

#include <cstdint>
#include <vector>

#include "check.hpp"
#include "nodes.hpp"
#include "open_list.hpp"

namespace {

using namespace bakers;

Packed packed(std::uint64_t tag) {
    Packed p{};
    p.key = Key{tag, ~tag};
    return p;
}

Open entry(std::uint32_t id) { return Open{id, id * 7, static_cast<std::uint16_t>(id % 100)}; }

TEST(open_list_best_first_newest_first_within_a_priority) {
    OpenList list;
    CHECK(list.empty());
    list.push(7, entry(1));
    list.push(3, entry(2));
    list.push(7, entry(3));
    list.push(3, entry(4));
    list.push(-5, entry(5));     // clamped to priority 0
    list.push(99999, entry(6));  // clamped to the last bucket
    CHECK_EQ(list.size(), std::uint64_t{6});
    std::vector<std::uint32_t> order;
    while (!list.empty()) order.push_back(list.pop().id);
    CHECK_EQ(order, (std::vector<std::uint32_t>{5, 4, 2, 3, 1, 6}));
}

TEST(open_list_keeps_every_entry_across_blocks_and_reuses_them) {
    OpenList list;
    const int n = 5000;  // many blocks in one bucket, then in several
    for (int i = 0; i < n; ++i) list.push(i % 3, entry(static_cast<std::uint32_t>(i)));
    const std::uint64_t bytes = list.bytes();
    std::vector<int> seen(n, 0);
    int last_prio = 0;
    while (!list.empty()) {
        const Open o = list.pop();
        CHECK(static_cast<int>(o.id % 3) >= last_prio);  // priorities never go back
        last_prio = static_cast<int>(o.id % 3);
        CHECK_EQ(o.slot, o.id * 7);
        CHECK_EQ(o.depth, static_cast<std::uint16_t>(o.id % 100));
        ++seen[o.id];
    }
    for (int i = 0; i < n; ++i) CHECK_EQ(seen[i], 1);
    // The emptied blocks serve the next pushes: no new slab.
    for (int i = 0; i < n; ++i) list.push(1, entry(static_cast<std::uint32_t>(i)));
    CHECK_EQ(list.bytes(), bytes);
}

TEST(packed_arena_keeps_every_slot) {
    PackedArena arena;
    std::vector<std::uint32_t> slots;
    for (int i = 0; i < 9000; ++i) slots.push_back(arena.put(packed(i)));
    for (int i = 0; i < 9000; ++i) CHECK_EQ(arena.get(slots[i]).key.lo, std::uint64_t(i));
    CHECK_EQ(arena.bytes(), 3 * PackedArena::slab_bytes());  // 4,096 a slab
}

TEST(node_store_ids_and_chunks) {
    NodeStore store;
    std::uint64_t grown = 0;
    const std::uint32_t n = 40000;  // three chunks of 16,384
    for (std::uint32_t i = 0; i < n; ++i) grown += store.push(Node{i ^ 0x5a5aU, Move{}, 0});
    CHECK_EQ(store.size(), n);
    CHECK_EQ(grown, std::uint64_t{3} * (std::uint64_t{1} << NodeStore::kChunkBits) * sizeof(Node));
    for (std::uint32_t i = 0; i < n; i += 997) CHECK_EQ(store[i].parent, i ^ 0x5a5aU);
    store[123].expanded = 1;
    CHECK_EQ(store[123].expanded, std::uint8_t{1});
    CHECK_EQ(store[124].expanded, std::uint8_t{0});
    CHECK(!store.full());
}

}  // namespace
