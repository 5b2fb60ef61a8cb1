// The dense visited set: every key found again, keys that differ in any compared bit told
// apart, at least 96 bits compared at every size, the overflow table used when a key's
// buckets are full of busy keys, the fullness flags; when full, the least valued keys
// forgotten first and busy ones never; and table.hpp's keys moved over without loss.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "dense_table.hpp"
#include "table.hpp"

namespace {

using namespace bakers;

std::vector<Key> random_keys(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Key> keys(n);
    for (Key& k : keys) k = DenseTable::kept_bits(Key{rng(), rng()});
    return keys;
}

TEST(dense_table_finds_every_key_again) {
    DenseTable table(32u << 20);  // 3.1 million slots of 10 bytes
    const auto keys = random_keys(1'000'000, 5);
    for (const Key& k : keys) CHECK(table.insert(k));
    CHECK_EQ(table.size(), keys.size());
    for (const Key& k : keys) CHECK(!table.insert(k));
    CHECK_EQ(table.size(), keys.size());
    CHECK(!table.over_budget());
    CHECK_EQ(table.overflowed(), 0u);  // a third full: no run of 16 full buckets
}

TEST(dense_table_compares_at_least_96_bits_at_every_size) {
    for (std::uint64_t mb : {1, 4, 64, 1024, 8192, 20480, 65536})
    for (const bool forgets : {false, true}) {
        check::Context ctx(std::to_string(mb) + " MB" + (forgets ? ", forgets" : ""));
        DenseTable table(mb << 20, forgets);  // mapped, not touched: big sizes cost nothing here
        CHECK(table.identity_bits() >= 96);
        CHECK(table.identity_bits() <= 104);  // what table.hpp keeps
        CHECK(table.slot_bytes() >= 9);
        CHECK(table.bytes() >= (mb << 20) - (mb << 20) / 50);
    }
    CHECK_EQ(DenseTable(20480ull << 20).slot_bytes(), 9);  // the proofs' size: 9-byte slots
    CHECK_EQ(DenseTable(20480ull << 20, true).slot_bytes(), 10);  // and with values
}

TEST(dense_table_tells_apart_keys_one_compared_bit_apart) {
    // A key and each key that differs from it in one compared bit are all new: the 8
    // shard bits, every bit of lo, and the low hi bits the slot keeps.
    for (std::uint64_t mb : {2, 64})
    for (const bool forgets : {false, true}) {
        DenseTable table(mb << 20, forgets);
        check::Context ctx(std::to_string(mb) + " MB, " + std::to_string(table.identity_bits()) + " bits");
        const int hi_bits = table.identity_bits() - 72;
        for (const Key& base : random_keys(50, 9)) {
            CHECK(table.insert(base));
            for (int b = 0; b < 64; ++b) CHECK(table.insert(Key{base.lo ^ (std::uint64_t{1} << b), base.hi}));
            for (int b = 0; b < hi_bits; ++b) CHECK(table.insert(Key{base.lo, base.hi ^ (std::uint64_t{1} << b)}));
            for (int b = 56; b < 64; ++b) CHECK(table.insert(Key{base.lo, base.hi ^ (std::uint64_t{1} << b)}));
            CHECK(!table.insert(base));
        }
    }
}

TEST(dense_table_overflows_and_says_when_full) {
    // A 1 MB table (64 buckets a shard) that does not forget, filled past its slots:
    // past 15/16 of a shard `nearly_full` and `over_budget` are up; keys whose 16 buckets
    // are full go to the overflow table and are found there. One that forgets, filled
    // with busy keys (never forgotten): the same, but `over_budget` waits until the
    // overflow table outgrows 1/64 of the buckets.
    for (const bool forgets : {false, true}) {
    check::Context ctx(forgets ? "forgets" : "keeps");
    DenseTable table(1u << 20, forgets);
    const std::uint64_t slots = table.capacity();
    const auto keys = random_keys(static_cast<std::size_t>(slots), 13);
    std::size_t n = 0;
    for (; n < keys.size() && !table.nearly_full(); ++n) CHECK(table.insert(keys[n]));
    CHECK(table.nearly_full());
    CHECK_EQ(table.over_budget(), !forgets);
    CHECK(n > slots * 3 / 4);  // (the fullest of 256 small shards passed 15/16 first)
    for (; n < keys.size(); ++n) CHECK(table.insert(keys[n]));  // full: still exact
    CHECK(table.overflowed() > 0u);
    CHECK(table.over_budget());
    CHECK_EQ(table.evicted(), 0u);
    CHECK_EQ(table.size(), keys.size());
    for (const Key& k : keys) CHECK(!table.insert(k));
    }
}

TEST(dense_table_forgets_the_least_valued_keys_and_never_a_busy_one) {
    // A 1 MB table given three times its slots: a tenth busy, the others valued 1 to 14.
    // Nothing overflows (there is always a key to forget), every busy key is kept, the
    // keys valued 1 are forgotten far more often than those valued 14, and a forgotten
    // key is new again to `insert`.
    DenseTable table(1u << 20, true);
    const auto keys = random_keys(static_cast<std::size_t>(3 * table.capacity()), 21);
    auto value_of = [](std::size_t i) { return i % 10 == 0 ? DenseTable::kBusy : 1 + static_cast<unsigned>(i % 14); };
    for (std::size_t i = 0; i < keys.size(); ++i) CHECK(table.insert(keys[i], value_of(i)));
    CHECK(table.evicted() > table.capacity());
    CHECK_EQ(table.overflowed(), 0u);
    CHECK(table.size() <= table.capacity() + 16u * 256u * static_cast<unsigned>(table.slots_per_bucket()));
    std::size_t kept[16] = {}, of[16] = {};
    std::vector<Key> forgotten;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const unsigned v = value_of(i);
        ++of[v];
        // set_value to the value it had: a lookup that changes nothing.
        if (table.set_value(keys[i], v))
            ++kept[v];
        else
            forgotten.push_back(keys[i]);
    }
    CHECK_EQ(kept[DenseTable::kBusy], of[DenseTable::kBusy]);
    CHECK(kept[14] > 0u);
    CHECK(kept[1] * 4 < kept[14]);  // the least valued go first
    for (const Key& k : forgotten) CHECK(table.insert(k));
}

TEST(dense_table_set_value_and_hold) {
    DenseTable table(1u << 20, true);
    const auto keys = random_keys(1000, 23);
    for (const Key& k : keys) CHECK(!table.set_value(k, 3));  // not there: nothing done
    for (const Key& k : keys) CHECK(table.insert(k, 0));
    for (const Key& k : keys) CHECK(table.set_value(k, 7));
    CHECK_EQ(table.size(), keys.size());
    const Key extra = random_keys(1, 29)[0];
    table.hold(extra);  // inserted, busy
    CHECK_EQ(table.size(), keys.size() + 1);
    CHECK(!table.insert(extra));
    table.hold(keys[0]);  // there: made busy, not inserted again
    CHECK_EQ(table.size(), keys.size() + 1);
    DenseTable keeps(1u << 20);  // a table that does not forget keeps no values
    CHECK(keeps.insert(keys[0], 3));
    CHECK(!keeps.set_value(keys[0], 3));
    CHECK(!keeps.insert(keys[0]));
}

TEST(table_drains_every_key_into_a_dense_table) {
    VisitedTable table(false, 8, 3, 64);
    const auto keys = random_keys(300'000, 17);
    for (const Key& k : keys) CHECK(table.insert(k));
    DenseTable dense(32u << 20);
    std::size_t drained = 0;
    table.drain([&](const Key& k) {
        ++drained;
        CHECK(dense.insert(k));
    });
    CHECK_EQ(drained, keys.size());
    CHECK_EQ(table.bytes(), 0u);
    CHECK_EQ(dense.size(), keys.size());
    for (const Key& k : keys) CHECK(!dense.insert(k));
}

}  // namespace
