#include "checkpoint.hpp"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace bakers {
namespace {

constexpr char kMagic[8] = {'B', 'A', 'K', 'E', 'R', 'S', 'C', 'K'};
constexpr std::uint32_t kVersion = 1;
constexpr char kEnd[8] = {'E', 'N', 'D', '.', 'B', 'A', 'K', 'R'};
constexpr std::size_t kBuffer = std::size_t{1} << 22;  // stdio buffer: 4 MB

std::string why(const std::string& what, const std::string& path) {
    return what + " " + path + ": " + std::strerror(errno);
}

}  // namespace

CheckpointWriter::CheckpointWriter(const std::string& path) : path_(path), tmp_(path + ".tmp") {
    f_ = std::fopen(tmp_.c_str(), "wb");
    if (!f_) throw CheckpointError(why("cannot write the checkpoint", tmp_));
    std::setvbuf(f_, nullptr, _IOFBF, kBuffer);
    bytes(kMagic, sizeof kMagic);
    put(kVersion);
}

CheckpointWriter::~CheckpointWriter() {
    if (f_) {
        std::fclose(f_);
        std::remove(tmp_.c_str());
    }
}

void CheckpointWriter::bytes(const void* p, std::size_t n) {
    if (n && std::fwrite(p, 1, n, f_) != n) throw CheckpointError(why("cannot write the checkpoint", tmp_));
}

void CheckpointWriter::finish() {
    bytes(kEnd, sizeof kEnd);
    const bool ok = std::fflush(f_) == 0;
    const int closed = std::fclose(f_);
    f_ = nullptr;
    if (!ok || closed != 0 || std::rename(tmp_.c_str(), path_.c_str()) != 0) {
        const std::string message = why("cannot write the checkpoint", path_);
        std::remove(tmp_.c_str());
        throw CheckpointError(message);
    }
}

CheckpointReader::CheckpointReader(const std::string& path) : path_(path) {
    f_ = std::fopen(path.c_str(), "rb");
    if (!f_) throw CheckpointError(why("cannot read the checkpoint", path));
    std::setvbuf(f_, nullptr, _IOFBF, kBuffer);
    char magic[sizeof kMagic];
    if (std::fread(magic, 1, sizeof magic, f_) != sizeof magic || std::memcmp(magic, kMagic, sizeof magic) != 0)
        mismatch("its header (not a bakers checkpoint)");
    if (get<std::uint32_t>() != kVersion) mismatch("its version (another release of bakers wrote it)");
}

CheckpointReader::~CheckpointReader() {
    if (f_) std::fclose(f_);
}

void CheckpointReader::bytes(void* p, std::size_t n) {
    if (n && std::fread(p, 1, n, f_) != n) {
        if (std::ferror(f_)) throw CheckpointError(why("cannot read the checkpoint", path_));
        mismatch("its length (the file is cut short)");
    }
}

void CheckpointReader::mismatch(const std::string& what) const {
    throw CheckpointMismatch("checkpoint " + path_ + " does not match: " + what);
}

void CheckpointReader::finish() {
    char end[sizeof kEnd];
    bytes(end, sizeof end);
    if (std::memcmp(end, kEnd, sizeof end) != 0 || std::fgetc(f_) != EOF) mismatch("its end (the file is damaged)");
}

bool checkpoint_exists(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

}  // namespace bakers
