// tests/test_rng.hpp: the tests' small deterministic generator (lddb/splitmix.hpp), so
// that a test draws the same maps and queries on every platform.
#pragma once

#include <cstdint>

#include "lddb/grid.hpp"
#include "lddb/point.hpp"
#include "lddb/splitmix.hpp"

namespace lddb_test {

struct rng {
  std::uint64_t s;
  std::uint64_t next() { return lddb::splitmix64(s); }
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
