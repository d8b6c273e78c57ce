// Test helper: little-endian reads and writes of integers at byte offsets in a file image,
// for the tests that patch .lddb files field by field (format_test, golden_test).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace byte_patch {

using bytes = std::vector<std::uint8_t>;

template <class T>
T get(const bytes& f, std::size_t at) {
  T v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v |= T(f.at(at + i)) << (8 * i);
  return v;
}

template <class T>
void put(bytes& f, std::size_t at, T v) {
  for (std::size_t i = 0; i < sizeof(T); ++i) f.at(at + i) = std::uint8_t(v >> (8 * i));
}

}  // namespace byte_patch
