// The visited set: every key found again, none lost while shards grow (by doubling while
// small, by a quarter once large), the load kept, the bytes counted, the budget obeyed.

#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include "check.hpp"
#include "table.hpp"

namespace {

using namespace bakers;

std::vector<Key> random_keys(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Key> keys(n);
    for (Key& k : keys) k = Key{rng(), rng()};
    return keys;
}

TEST(table_finds_every_key_again_across_growth) {
    for (int load : {2, 3}) {
        check::Context ctx("load quarters " + std::to_string(load));
        VisitedTable table(false, 2, load, 64);  // 4 shards: each passes the large size
        const auto keys = random_keys(600'000, 7);
        for (const Key& k : keys) CHECK(table.insert(k));
        CHECK_EQ(table.size(), keys.size());
        for (const Key& k : keys) CHECK(!table.insert(k));
        CHECK_EQ(table.size(), keys.size());
        // Large shards grow by a quarter at load/4: the load ends between 4/5 of that and it.
        const double used = static_cast<double>(keys.size()) * sizeof(Slot) / static_cast<double>(table.bytes());
        CHECK(used <= load / 4.0 + 1e-9);
        CHECK(used >= 0.8 * load / 4.0 - 0.02);  // (a shard may have just grown)
    }
}

TEST(table_zero_key_is_stored) {
    VisitedTable table(false, 0, 2, 16);
    CHECK(table.insert(Key{0, 0}));
    CHECK(!table.insert(Key{0, 0}));
    CHECK(table.insert(Key{5, 0}));
    CHECK_EQ(table.size(), std::uint64_t{2});
}

TEST(table_budget_stops_growth_and_raises_the_flag) {
    VisitedTable table(false, 1, 3, 64);
    table.set_budget(4 << 20);
    const auto keys = random_keys(1'000'000, 11);
    std::size_t stored = 0;
    for (const Key& k : keys) {  // as a search does: stop once the flag is up
        if (table.over_budget()) break;
        stored += table.insert(k);
    }
    CHECK(table.over_budget());
    CHECK(table.bytes() <= std::uint64_t{4 << 20});
    CHECK_EQ(table.size(), stored);
    // The shards fill past their growth load (3/4) before the flag: the fullest to 15/16,
    // the others (as big or a quarter bigger, with as many keys) to at least 3/4.
    const double load = static_cast<double>(stored) * sizeof(Slot) / static_cast<double>(table.bytes());
    CHECK(load > 0.75);
    CHECK(load <= 15.0 / 16.0 + 1e-3);
    for (const Key& k : keys) {  // every stored key is found, none twice
        if (stored == 0) break;
        CHECK(!table.insert(k));
        --stored;
    }
}

TEST(table_shared_by_threads_keeps_every_key_once) {
    VisitedTable table(true, 4, 3, 64);
    const auto keys = random_keys(400'000, 3);
    std::vector<std::size_t> inserted(2, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t)  // both threads insert every key: each lands once
        threads.emplace_back([&, t] {
            for (const Key& k : keys) inserted[t] += table.insert(k);
        });
    for (auto& th : threads) th.join();
    CHECK_EQ(inserted[0] + inserted[1], keys.size());
    CHECK_EQ(table.size(), keys.size());
}

}  // namespace
