// The file of a saved search: depth first (depth_first.hpp) writes its whole state into
// one so that a later process goes on from there (a proof of billions of positions
// outlives the process that began it).
//
// Format: a header (kMagic, kVersion, the header's checksum), then named sections, then
// a trailer (kEnd) that tells a whole file from a cut one. A section is its tag (the
// first 8 bytes of its name), its length, the checksum of those two, its bytes (the
// values in the order the search writes them, in this machine's byte order) and their
// checksum (hash64.hpp). So a damaged byte anywhere is found: in a length before
// anything is read by it (and a length is also checked against what is left of the
// file), in a small section before any of its values is used (it is read whole and
// checked first), in a large one (a table) at its end, before the search uses it; a
// size inside a section is checked against the section's bytes left before anything is
// allocated by it. A file is written to `path + ".tmp"` and renamed over `path` only
// once complete, so a crash while saving leaves the last good file.
// Errors: a file that cannot be written or read is a CheckpointError (a runtime_error);
// a file that is not a checkpoint, is cut short or damaged, or is of another position
// or other settings is a CheckpointMismatch (an invalid_argument: the caller's input is
// wrong); damage names the section.
#pragma once

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "hash64.hpp"

namespace bakers {

struct CheckpointError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct CheckpointMismatch : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

class CheckpointWriter {
public:
    // Opens `path + ".tmp"` and writes the header.
    explicit CheckpointWriter(const std::string& path);
    CheckpointWriter(const CheckpointWriter&) = delete;
    CheckpointWriter& operator=(const CheckpointWriter&) = delete;
    ~CheckpointWriter();  // removes the unfinished file if `finish` was not reached

    // Starts the section `name`; every value is written inside one.
    void begin(const char* name);
    // Ends the section begun last: writes its checksum and its length.
    void end();
    void bytes(const void* p, std::size_t n);
    template <class T>
    void put(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes(&v, sizeof v);
    }
    // Writes the trailer, flushes, and renames the file to `path`.
    void finish();

private:
    void raw(const void* p, std::size_t n);
    std::string path_, tmp_;
    std::FILE* f_ = nullptr;
    long head_at_ = -1;        // where the section begun last starts, or -1 between sections
    char tag_[8] = {};
    std::uint64_t length_ = 0;  // its bytes so far
    Hash64 sum_;
};

class CheckpointReader {
public:
    // Opens `path` and checks the header.
    explicit CheckpointReader(const std::string& path);
    CheckpointReader(const CheckpointReader&) = delete;
    CheckpointReader& operator=(const CheckpointReader&) = delete;
    ~CheckpointReader();

    // Starts the section `name` (the one the writer began there, else the file is
    // damaged): checks its length and, for a small one, its checksum.
    void begin(const char* name);
    // Ends the section: all of it read, its checksum right.
    void end();
    // Returns the bytes of the present section not read yet.
    std::uint64_t left() const { return left_; }
    // Throws (the section is damaged) unless `count` values of `each` bytes are left in it:
    // a size is checked so before anything is allocated by it.
    void need(std::uint64_t count, std::uint64_t each, const char* what) const {
        if (each != 0 && count > left_ / each) damaged(std::string(what) + " runs past the section's end");
    }
    void bytes(void* p, std::size_t n);
    template <class T>
    T get() {
        static_assert(std::is_trivially_copyable_v<T>);
        T v;
        bytes(&v, sizeof v);
        return v;
    }
    // Reads a value and throws CheckpointMismatch naming `what` unless it equals `want`.
    template <class T>
    void expect(const T& want, const char* what) {
        const T got = get<T>();
        if (got == want) return;
        if constexpr (std::is_integral_v<T> && sizeof(T) > 1)
            mismatch(std::string(what) + " (saved with " + std::to_string(got) + ", now " + std::to_string(want) + ")");
        else
            mismatch(what);
    }
    [[noreturn]] void mismatch(const std::string& what) const;
    // Throws CheckpointMismatch: the present section is damaged (`why`).
    [[noreturn]] void damaged(const std::string& why) const;
    // Checks the trailer.
    void finish();

private:
    void raw(void* p, std::size_t n);
    std::string path_;
    std::FILE* f_ = nullptr;
    std::uint64_t file_left_ = 0;  // bytes of the file not read yet
    std::string section_;          // the present section's name, "" between sections
    std::uint64_t left_ = 0;       // its bytes not read yet
    std::vector<unsigned char> held_;  // a small section, read whole and checked
    std::size_t at_ = 0;               // the next byte of held_
    bool streamed_ = false;            // a large section: summed as it is read
    Hash64 sum_;
};

// Returns true if a file exists at `path`.
bool checkpoint_exists(const std::string& path);

}  // namespace bakers
