// Landmark sets for the tests of both widths (lddb/landmarks.hpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "lddb/cost.hpp"
#include "lddb/grid.hpp"
#include "lddb/landmarks.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/rule.hpp"

namespace lddb_test {

// Generated map i of the landmark tests: scattered cells, rooms or a maze by i % 3.
inline lddb::grid_map generated_map(int i, int w, int h) {
  const std::uint64_t seed = static_cast<std::uint64_t>(i) * 104729 + 3;
  switch (i % 3) {
    case 0: return lddb::make_random_map(w, h, 15 + (i * 7) % 30, seed);
    case 1: return lddb::make_rooms_map(w, h, 3 + i % 5, seed);
    default: return lddb::make_maze_map(w, h, 1 + i % 2, seed);
  }
}

// At least n free cells.
inline bool has_free(const lddb::grid_map& m, std::uint64_t n) {
  return m.blocked_count() + n <= static_cast<std::uint64_t>(m.width()) * static_cast<std::uint64_t>(m.height());
}

// A 16-bit unit at which a straight move is 16,000 stored units, so that distances past
// about 4 moves saturate at the table's cap (any-angle's tables are scaled by cos(pi/8) and
// a hair: lddb/landmarks.hpp).
inline lddb::cost_t saturating_unit(const lddb::rule& r) {
  const double straight = r.on_vertices() ? 0.92387953251128675613 * (1.0 - 1.0 / 1024.0) * static_cast<double>(lddb::kCostOne)
                                          : static_cast<double>(lddb::kCostOne);
  return static_cast<lddb::cost_t>(std::ceil(straight / 16000.0));
}

// The same points as `set` in a 16-bit set that saturates.
inline lddb::landmark_set saturated_copy(const lddb::rule& r, const lddb::grid_map& map, const lddb::landmark_set& set) {
  return lddb::landmark_set::build(r, map, set.points(), lddb::landmark_width::bits16, saturating_unit(r));
}

// The 16-bit sets a case checks: at the set's own unit, then one that saturates.
inline std::vector<lddb::landmark_set> narrow_sets(const lddb::rule& r, const lddb::grid_map& map, int count,
                                                   std::uint64_t seed) {
  std::vector<lddb::landmark_set> out;
  out.push_back(lddb::landmark_set::build(r, map, count, lddb::landmark_placement::farthest, seed,
                                          lddb::landmark_width::bits16));
  out.push_back(saturated_copy(r, map, out.front()));
  return out;
}

}  // namespace lddb_test
