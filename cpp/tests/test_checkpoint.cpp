// Saving a depth-first search and going on with it (checkpoint.hpp): a search stopped
// and resumed, once or several times, or resumed from a save taken while it ran, expands
// the same positions as one that ran through; a file for another position or settings,
// or a damaged one, is refused with a message; a verdict removes the file.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

#include "check.hpp"
#include "checkpoint.hpp"
#include "depth_first.hpp"
#include "support.hpp"

namespace {

using namespace support;
namespace fs = std::filesystem;

// A fresh path in the temporary directory, removed (with its ".tmp") when the test ends.
struct TempPath {
    explicit TempPath(const std::string& name)
        : path((fs::temp_directory_path() / ("bakers-" + std::to_string(::getpid()) + "-" + name)).string()) {
        clear();
    }
    ~TempPath() { clear(); }
    void clear() const {
        std::remove(path.c_str());
        std::remove((path + ".tmp").c_str());
    }
    std::string path;
};

Rules one_cell() {
    Rules r = preset("freecell");
    r.cells = 1;
    return r;
}

// A search of `start` with a checkpoint at `path`, stopped after `nodes` expansions in all
// (0: no stop).
Result run(const Rules& r, const State& start, Limits limits, const Checkpoint& ck, std::uint64_t nodes,
           std::uint64_t dense_from = 0, std::uint64_t dense_bytes = 0) {
    limits.max_nodes = nodes;
    return solve_depth_first(r, start, limits, nullptr, {}, ChildOrder::Progress, dense_from, dense_bytes, &ck);
}

// Checks that `resumed` is the search `plain` (the same verdict, counts and line).
void check_same(const Rules& r, const State& start, const Result& resumed, const Result& plain) {
    CHECK_EQ(resumed.verdict, plain.verdict);
    CHECK_EQ(resumed.reason, plain.reason);
    CHECK_EQ(resumed.stats.expanded, plain.stats.expanded);
    CHECK_EQ(resumed.stats.generated, plain.stats.generated);
    CHECK_EQ(resumed.stats.stored, plain.stats.stored);
    CHECK_EQ(resumed.stats.most_home, plain.stats.most_home);
    CHECK_EQ(resumed.moves, plain.moves);
    if (resumed.verdict == Verdict::Solved) CHECK_EQ(replay(r, start, resumed.moves, false), std::string());
}

TEST(checkpoint_resumed_search_is_the_same_search) {
    // FreeCell with one cell: 27 is impossible (234,772 positions), 33 won (411,123);
    // in the growing table, and in a 1 MB dense table that forgets (from the start).
    const Rules r = one_cell();
    TempPath file("resume.ck");
    const Checkpoint ck{file.path, 1e9};
    for (const bool forget : {false, true}) {
        Limits limits;
        if (forget) {
            limits.max_bytes = 64u << 20;
            limits.forget = true;
        }
        const std::uint64_t from = forget ? 1 : 0, dense = forget ? 1u << 20 : 0;
        for (const std::uint64_t n : {27u, 33u}) {
            check::Context ctx("deal " + std::to_string(n) + (forget ? ", forgetting" : ""));
            const State start = dealt(r, n);
            const Result plain = solve_depth_first(r, start, limits, nullptr, {}, ChildOrder::Progress, from, dense);
            CHECK(plain.verdict != Verdict::Unknown);
            // Stopped twice on the node limit, then let run to the end.
            Result part = run(r, start, limits, ck, 60'000, from, dense);
            CHECK_EQ(part.reason, std::string("node limit"));
            CHECK(fs::exists(file.path));
            part = run(r, start, limits, ck, 150'000, from, dense);
            CHECK_EQ(part.reason, std::string("node limit"));
            CHECK_EQ(part.stats.expanded, 150'000u);  // the counts go on from the saved ones
            const Result resumed = run(r, start, limits, ck, 0, from, dense);
            check_same(r, start, resumed, plain);
            CHECK(!fs::exists(file.path));  // a verdict: the file is gone
            CHECK(!fs::exists(file.path + ".tmp"));
        }
    }
}

TEST(checkpoint_saved_while_running_resumes) {
    // Saves taken every check of the limits while the search runs (every_seconds 0); one
    // copied midway, as a process killed then would leave it, resumes to the same end.
    const Rules r = one_cell();
    const State start = dealt(r, 27);
    TempPath file("running.ck"), copy("copy.ck");
    const Result plain = solve_depth_first(r, start, Limits{}, nullptr, {});
    const Checkpoint ck{file.path, 0};
    bool copied = false;
    const StopPoll poll = [&](const Progress& p) {
        if (!copied && p.expanded > 100'000 && fs::exists(file.path)) {
            fs::copy_file(file.path, copy.path);
            copied = true;
        }
        return false;
    };
    const Result through = solve_depth_first(r, start, Limits{}, nullptr, poll, ChildOrder::Progress, 0, 0, &ck);
    check_same(r, start, through, plain);
    CHECK(!fs::exists(file.path));
    if (!CHECK(copied)) return;
    const Checkpoint from_copy{copy.path, 1e9};
    check_same(r, start, solve_depth_first(r, start, Limits{}, nullptr, {}, ChildOrder::Progress, 0, 0, &from_copy),
               plain);
}

TEST(checkpoint_memory_limit_saves_nothing) {
    // A stop on the memory limit cannot go on under the same limit: no file.
    const Rules r = one_cell();
    TempPath file("memory.ck");
    const Checkpoint ck{file.path, 1e9};
    Limits limits;
    limits.max_bytes = 12u << 20;
    const Result res = run(r, dealt(r, 24966), limits, ck, 0, 1u << 20);
    CHECK_EQ(res.reason, std::string("memory limit"));
    CHECK(!fs::exists(file.path));
}

// Returns the message of the CheckpointMismatch that f throws, or "" if none.
template <class F>
std::string mismatch_of(F&& f) {
    try {
        f();
    } catch (const CheckpointMismatch& e) {
        return e.what();
    }
    return "";
}

TEST(checkpoint_of_another_search_is_refused) {
    const Rules r = one_cell();
    TempPath file("other.ck");
    const Checkpoint ck{file.path, 1e9};
    const Result part = run(r, dealt(r, 27), Limits{}, ck, 20'000);
    CHECK_EQ(part.reason, std::string("node limit"));
    const auto message = [&](const Rules& rules, std::uint64_t deal, const Limits& limits, ChildOrder order) {
        return mismatch_of([&] {
            solve_depth_first(rules, dealt(rules, deal), limits, nullptr, {}, order, 0, 0, &ck);
        });
    };
    CHECK(message(r, 28, Limits{}, ChildOrder::Progress).find("its position") != std::string::npos);
    CHECK(message(preset("freecell"), 27, Limits{}, ChildOrder::Progress).find("its game") != std::string::npos);
    CHECK(message(r, 27, Limits{}, ChildOrder::Space).find("its order") != std::string::npos);
    Limits forget;
    forget.max_bytes = 64u << 20;
    forget.forget = true;
    CHECK(message(r, 27, forget, ChildOrder::Progress).find("its forget") != std::string::npos);
    CHECK(fs::exists(file.path));  // a refused resume leaves the file as it was
    CHECK(message(r, 27, Limits{}, ChildOrder::Progress).empty());
}

TEST(checkpoint_damaged_file_is_refused) {
    const Rules r = one_cell();
    const State start = dealt(r, 27);
    TempPath file("damaged.ck");
    const Checkpoint ck{file.path, 1e9};
    run(r, start, Limits{}, ck, 20'000);
    const auto size = fs::file_size(file.path);
    std::vector<char> bytes(size);
    std::ifstream(file.path, std::ios::binary).read(bytes.data(), static_cast<std::streamsize>(size));
    const auto write = [&](const std::vector<char>& b) {
        std::ofstream(file.path, std::ios::binary | std::ios::trunc).write(b.data(), static_cast<std::streamsize>(b.size()));
    };
    const auto message = [&] { return mismatch_of([&] { run(r, start, Limits{}, ck, 0); }); };
    write(std::vector<char>(bytes.begin(), bytes.end() - 100));
    CHECK(message().find("cut short") != std::string::npos);
    std::vector<char> longer = bytes;
    longer.push_back('x');
    write(longer);
    CHECK(message().find("its end") != std::string::npos);
    write(std::vector<char>{'h', 'e', 'l', 'l', 'o', '\n'});
    CHECK(message().find("not a bakers checkpoint") != std::string::npos);
    write(bytes);
    CHECK(message().empty());  // the file as written resumes
}

// Returns the bytes of the file at `path`.
std::vector<char> read_all(const std::string& path) {
    std::vector<char> bytes(fs::file_size(path));
    std::ifstream(path, std::ios::binary).read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return bytes;
}
void write_all(const std::string& path, const std::vector<char>& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

TEST(checkpoint_every_flipped_byte_is_refused) {
    // One byte changed anywhere (the header, each section's head, values and checksum,
    // the tables, the trailer) is refused before the search goes on: in the growing table
    // and in a dense one. The bytes tried: every one of the first 160 (the header and the
    // small sections) and of the last 40, and 100 spread over the rest.
    const Rules r = one_cell();
    const State start = dealt(r, 27);
    TempPath file("flipped.ck");
    const Checkpoint ck{file.path, 1e9};
    std::mt19937 rng(28);
    for (const bool dense : {false, true}) {
        check::Context ctx(dense ? "dense table" : "growing table");
        Limits limits;
        if (dense) {
            limits.max_bytes = 64u << 20;
            limits.forget = true;
        }
        const std::uint64_t from = dense ? 1 : 0, dense_bytes = dense ? 1u << 20 : 0;
        file.clear();
        run(r, start, limits, ck, 20'000, from, dense_bytes);
        const std::vector<char> bytes = read_all(file.path);
        std::vector<std::size_t> where;
        for (std::size_t i = 0; i < 160; ++i) where.push_back(i);
        for (std::size_t i = 0; i < 100; ++i) where.push_back(160 + i * (bytes.size() - 200) / 100);
        for (std::size_t i = bytes.size() - 40; i < bytes.size(); ++i) where.push_back(i);
        int accepted = 0;
        for (const std::size_t at : where) {
            std::vector<char> flipped = bytes;
            flipped[at] = static_cast<char>(flipped[at] ^ static_cast<char>(1 + rng() % 255));
            write_all(file.path, flipped);
            const std::string message = mismatch_of([&] { run(r, start, limits, ck, 20'001, from, dense_bytes); });
            if (message.empty()) {
                ++accepted;
                write_all(file.path, bytes);
            }
        }
        CHECK_EQ(accepted, 0);
        write_all(file.path, bytes);
        CHECK(mismatch_of([&] { run(r, start, limits, ck, 20'001, from, dense_bytes); }).empty());
    }
}

TEST(checkpoint_damage_names_the_section) {
    // A size in the visited table made huge: refused by its checksum, before anything is
    // allocated by it (no bad_alloc, no memory taken), naming the section.
    const Rules r = one_cell();
    const State start = dealt(r, 27);
    TempPath file("sized.ck");
    const Checkpoint ck{file.path, 1e9};
    run(r, start, Limits{}, ck, 20'000);
    std::vector<char> bytes = read_all(file.path);
    const std::string tag = "visited ";
    const auto at = std::search(bytes.begin(), bytes.end(), tag.begin(), tag.end());
    if (!CHECK(at != bytes.end())) return;
    // The table's section: tag, length, head sum, then bits (int), load (size_t), then the
    // first shard's size.
    const std::size_t size_at = static_cast<std::size_t>(at - bytes.begin()) + 24 + sizeof(int) + sizeof(std::size_t);
    bytes[size_at + 5] = 0x7f;
    write_all(file.path, bytes);
    const std::string message = mismatch_of([&] { run(r, start, Limits{}, ck, 0); });
    CHECK(message.find("visited table section") != std::string::npos);
    CHECK(message.find("damaged") != std::string::npos);
}

TEST(checkpoint_unwritable_path_is_an_error) {
    const Rules r = one_cell();
    const Checkpoint ck{"/nonexistent-bakers-dir/x.ck", 1e9};
    bool thrown = false;
    try {
        run(r, dealt(r, 27), Limits{}, ck, 5'000);
    } catch (const CheckpointError& e) {
        thrown = std::string(e.what()).find("/nonexistent-bakers-dir/x.ck") != std::string::npos;
    }
    CHECK(thrown);
}

}  // namespace
