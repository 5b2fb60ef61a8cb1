#include "checkpoint.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace bakers {
namespace {

constexpr char kMagic[8] = {'B', 'A', 'K', 'E', 'R', 'S', 'C', 'K'};
constexpr std::uint32_t kVersion = 2;  // 2: sections with checksums
constexpr char kEnd[8] = {'E', 'N', 'D', '.', 'B', 'A', 'K', 'R'};
constexpr std::size_t kBuffer = std::size_t{1} << 22;  // stdio buffer: 4 MB
// A section up to this size is read whole and checked before any of its values is used.
constexpr std::uint64_t kHeldSection = std::uint64_t{1} << 20;
constexpr std::size_t kHead = 8 + 8 + 8;  // a section's tag, length and their checksum

std::string why(const std::string& what, const std::string& path) {
    return what + " " + path + ": " + std::strerror(errno);
}

void tag_of(const char* name, char (&tag)[8]) {
    std::memset(tag, 0, sizeof tag);
    std::memcpy(tag, name, std::min(std::strlen(name), sizeof tag));
}

std::uint64_t head_sum(const char (&tag)[8], std::uint64_t length) {
    unsigned char head[16];
    std::memcpy(head, tag, 8);
    std::memcpy(head + 8, &length, 8);
    return Hash64::of(head, sizeof head);
}

std::uint64_t header_sum() {
    unsigned char header[sizeof kMagic + sizeof kVersion];
    std::memcpy(header, kMagic, sizeof kMagic);
    std::memcpy(header + sizeof kMagic, &kVersion, sizeof kVersion);
    return Hash64::of(header, sizeof header);
}

}  // namespace

CheckpointWriter::CheckpointWriter(const std::string& path) : path_(path), tmp_(path + ".tmp") {
    f_ = std::fopen(tmp_.c_str(), "wb");
    if (!f_) throw CheckpointError(why("cannot write the checkpoint", tmp_));
    std::setvbuf(f_, nullptr, _IOFBF, kBuffer);
    raw(kMagic, sizeof kMagic);
    raw(&kVersion, sizeof kVersion);
    const std::uint64_t sum = header_sum();
    raw(&sum, sizeof sum);
}

CheckpointWriter::~CheckpointWriter() {
    if (f_) {
        std::fclose(f_);
        std::remove(tmp_.c_str());
    }
}

void CheckpointWriter::raw(const void* p, std::size_t n) {
    if (n && std::fwrite(p, 1, n, f_) != n) throw CheckpointError(why("cannot write the checkpoint", tmp_));
}

void CheckpointWriter::begin(const char* name) {
    head_at_ = std::ftell(f_);
    if (head_at_ < 0) throw CheckpointError(why("cannot write the checkpoint", tmp_));
    tag_of(name, tag_);
    const unsigned char room[kHead] = {};  // filled in by `end`, once the length is known
    raw(room, sizeof room);
    length_ = 0;
    sum_ = Hash64{};
}

void CheckpointWriter::bytes(const void* p, std::size_t n) {
    raw(p, n);
    sum_.add(p, n);
    length_ += n;
}

void CheckpointWriter::end() {
    const std::uint64_t sum = sum_.digest();
    raw(&sum, sizeof sum);
    const std::uint64_t head = head_sum(tag_, length_);
    if (std::fseek(f_, head_at_, SEEK_SET) != 0) throw CheckpointError(why("cannot write the checkpoint", tmp_));
    raw(tag_, sizeof tag_);
    raw(&length_, sizeof length_);
    raw(&head, sizeof head);
    if (std::fseek(f_, 0, SEEK_END) != 0) throw CheckpointError(why("cannot write the checkpoint", tmp_));
    head_at_ = -1;
}

void CheckpointWriter::finish() {
    raw(kEnd, sizeof kEnd);
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
    struct stat st;
    if (::fstat(::fileno(f_), &st) != 0) throw CheckpointError(why("cannot read the checkpoint", path));
    file_left_ = static_cast<std::uint64_t>(st.st_size);
    std::setvbuf(f_, nullptr, _IOFBF, kBuffer);
    char magic[sizeof kMagic];
    if (file_left_ < sizeof magic) mismatch("its header (not a bakers checkpoint)");
    raw(magic, sizeof magic);
    if (std::memcmp(magic, kMagic, sizeof magic) != 0) mismatch("its header (not a bakers checkpoint)");
    std::uint32_t version = 0;
    std::uint64_t sum = 0;
    if (file_left_ < sizeof version + sizeof sum) mismatch("its length (the file is cut short)");
    raw(&version, sizeof version);
    raw(&sum, sizeof sum);
    if (version == kVersion && sum != header_sum()) mismatch("its header (the file is damaged)");
    if (version != kVersion) {
        // Another release's file has its own header sum; a damaged version number has not.
        if (sum == header_sum()) mismatch("its header (the file is damaged)");
        mismatch("its version (another release of bakers wrote it)");
    }
}

CheckpointReader::~CheckpointReader() {
    if (f_) std::fclose(f_);
}

void CheckpointReader::raw(void* p, std::size_t n) {
    if (n > file_left_) mismatch("its length (the file is cut short)");
    if (n && std::fread(p, 1, n, f_) != n) {
        if (std::ferror(f_)) throw CheckpointError(why("cannot read the checkpoint", path_));
        mismatch("its length (the file is cut short)");
    }
    file_left_ -= n;
}

void CheckpointReader::begin(const char* name) {
    section_ = name;
    char want[8];
    tag_of(name, want);
    if (file_left_ < kHead) mismatch("its length (the file is cut short)");
    char tag[8];
    std::uint64_t length = 0, head = 0;
    raw(tag, sizeof tag);
    raw(&length, sizeof length);
    raw(&head, sizeof head);
    if (head != head_sum(tag, length)) damaged("its head's checksum differs");
    if (std::memcmp(tag, want, sizeof tag) != 0) damaged("another section stands in its place");
    if (length > file_left_ || file_left_ - length < sizeof(std::uint64_t))
        mismatch("its length (the file is cut short)");
    left_ = length;
    sum_ = Hash64{};
    streamed_ = length > kHeldSection;
    held_.clear();
    at_ = 0;
    if (!streamed_) {
        held_.resize(static_cast<std::size_t>(length));
        raw(held_.data(), held_.size());
        std::uint64_t sum = 0;
        raw(&sum, sizeof sum);
        if (sum != Hash64::of(held_.data(), held_.size())) damaged("its checksum differs");
    }
}

void CheckpointReader::bytes(void* p, std::size_t n) {
    if (section_.empty()) mismatch("its layout (a value outside a section)");
    if (n > left_) damaged("a value runs past the section's end");
    if (streamed_) {
        raw(p, n);
        sum_.add(p, n);
    } else if (n) {
        std::memcpy(p, held_.data() + at_, n);
        at_ += n;
    }
    left_ -= n;
}

void CheckpointReader::end() {
    if (left_ != 0) damaged("its values end before its length");
    if (streamed_) {
        std::uint64_t sum = 0;
        raw(&sum, sizeof sum);
        if (sum != sum_.digest()) damaged("its checksum differs");
    }
    section_.clear();
    held_ = {};
}

void CheckpointReader::mismatch(const std::string& what) const {
    throw CheckpointMismatch("checkpoint " + path_ + " does not match: " + what);
}

void CheckpointReader::damaged(const std::string& why) const {
    throw CheckpointMismatch("checkpoint " + path_ + " is damaged: its " + section_ + " section (" + why + ")");
}

void CheckpointReader::finish() {
    char end[sizeof kEnd];
    if (file_left_ < sizeof end) mismatch("its length (the file is cut short)");
    raw(end, sizeof end);
    if (std::memcmp(end, kEnd, sizeof end) != 0 || file_left_ != 0 || std::fgetc(f_) != EOF)
        mismatch("its end (the file is damaged)");
}

bool checkpoint_exists(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

}  // namespace bakers
