// fuzz_common.hpp: small helpers shared by the libFuzzer targets in tests/fuzz/.
//
// A target calls require(condition, what) for every property it checks; a broken property
// prints what went wrong and traps, so libFuzzer (or the replay driver) reports the input.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fuzz {

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "\nFUZZ PROPERTY BROKEN: %s\n", what.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

inline void require(bool ok, const std::string& what) {
  if (!ok) fail(what);
}

// Reads the input as a little bit stream, byte by byte; past the end it yields zeros.
class reader {
 public:
  reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::uint16_t u16() { return static_cast<std::uint16_t>(byte() | byte() << 8); }
  bool bit() {
    if (bits_left_ == 0) {
      bits_ = byte();
      bits_left_ = 8;
    }
    const bool b = bits_ & 1u;
    bits_ >>= 1;
    --bits_left_;
    return b;
  }
  std::size_t remaining() const { return pos_ < size_ ? size_ - pos_ : 0; }

 private:
  const std::uint8_t* data_;
  std::size_t size_, pos_ = 0;
  std::uint8_t bits_ = 0;
  int bits_left_ = 0;
};

// An in-memory file (memfd) holding the input, reachable by a path: lets a target compare
// the file readers (mmap, stdio) with the in-memory ones without touching the disk.
class memory_file {
 public:
  explicit memory_file(std::span<const std::uint8_t> bytes) {
    fd_ = ::memfd_create("lddb-fuzz", MFD_CLOEXEC);
    if (fd_ < 0) fail("memfd_create failed");
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
      if (n <= 0) fail("write to memfd failed");
      done += static_cast<std::size_t>(n);
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  ~memory_file() { ::close(fd_); }
  memory_file(const memory_file&) = delete;
  memory_file& operator=(const memory_file&) = delete;
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

// The words of a line, split at runs of spaces and tabs (the targets' own plain reading
// of the text formats).
inline std::vector<std::string_view> words_of(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (true) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i >= s.size()) return out;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    out.push_back(s.substr(i, j - i));
    i = j;
  }
}

}  // namespace fuzz
