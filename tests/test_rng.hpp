// tests/test_rng.hpp: the tests' small deterministic generator (splitmix64), so that a
// test draws the same maps and queries on every platform.
#pragma once

#include <cstdint>

#include "lddb/grid.hpp"

namespace lddb_test {

struct rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
};

// A random free cell of the map (its top-left corner is a usable vertex too). The map
// must have one.
inline lddb::point random_free_cell(rng& g, const lddb::grid_map& map) {
  lddb::point p;
  do p = {g.below(map.width()), g.below(map.height())};
  while (map.blocked(p.x, p.y));
  return p;
}

}  // namespace lddb_test
