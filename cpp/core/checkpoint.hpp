// The file of a saved search: depth first (depth_first.hpp) writes its whole state into
// one so that a later process goes on from there (a proof of billions of positions
// outlives the process that began it).
//
// Format: the bytes of the values in the order the search writes them, in this
// machine's byte order, between a header (kMagic, kVersion) and a trailer (kEnd) that
// tells a whole file from a cut one. A file is written to `path + ".tmp"` and renamed
// over `path` only once complete, so a crash while saving leaves the last good file.
// Errors: a file that cannot be written or read is a CheckpointError (a runtime_error);
// a file that is not a checkpoint, is cut short, or is of another position or other
// settings is a CheckpointMismatch (an invalid_argument: the caller's input is wrong).
#pragma once

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <type_traits>

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

    void bytes(const void* p, std::size_t n);
    template <class T>
    void put(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes(&v, sizeof v);
    }
    // Writes the trailer, flushes, and renames the file to `path`.
    void finish();

private:
    std::string path_, tmp_;
    std::FILE* f_ = nullptr;
};

class CheckpointReader {
public:
    // Opens `path` and checks the header.
    explicit CheckpointReader(const std::string& path);
    CheckpointReader(const CheckpointReader&) = delete;
    CheckpointReader& operator=(const CheckpointReader&) = delete;
    ~CheckpointReader();

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
    // Checks the trailer.
    void finish();

private:
    std::string path_;
    std::FILE* f_ = nullptr;
};

// Returns true if a file exists at `path`.
bool checkpoint_exists(const std::string& path);

}  // namespace bakers
