// lddb/splitmix.hpp: splitmix64, the small generator behind every seeded draw (the map
// generators, the tests' and the tools' random queries).
//
// splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
// OOPSLA 2014) adds a fixed odd constant to a 64-bit state and mixes the sum into the
// output. It is integer arithmetic only, so a seed gives the same sequence on every
// platform, compiler and standard library, which <random>'s distributions do not promise.
// Not for cryptography. Header-only.
#pragma once

#include <cstdint>

namespace lddb {

// Advances `state` by one step and returns the next output.
constexpr std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The reference sequence from state 0.
static_assert([] {
  std::uint64_t s = 0;
  const std::uint64_t a = splitmix64(s);
  return a == 0xE220A8397B1DCDAFull && splitmix64(s) == 0x6E789E6AA1B965F4ull;
}());

}  // namespace lddb
