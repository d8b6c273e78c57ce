// Test helpers shared by the jump point search suites (jump_search_test, jump_any_angle_test):
// random free cells and vertices, and small generated maps of scattered cells and rooms.
#pragma once

#include <random>

#include "lddb/grid.hpp"
#include "lddb/point.hpp"
#include "test_map.hpp"

namespace jump_test {

inline lddb::point random_free(std::mt19937_64& rng, const lddb::grid_map& m) {
  for (int tries = 0; tries < 10000; ++tries) {
    const lddb::point p{std::uniform_int_distribution<int>(0, m.width() - 1)(rng),
                        std::uniform_int_distribution<int>(0, m.height() - 1)(rng)};
    if (!m.blocked(p.x, p.y)) return p;
  }
  return {-1, -1};
}

// Random cells blocked, or rooms with doors, or both: the ground jump point search is for.
inline lddb_test::test_map generated(std::mt19937_64& rng, int w, int h) {
  lddb_test::test_map t = lddb_test::empty_map(w, h);
  std::uniform_int_distribution<int> roll(0, 99);
  const int kind = roll(rng) % 3, density = roll(rng) % 35;
  if (kind != 1)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        if (roll(rng) < density) t.set_blocked(x, y, true);
  if (kind != 0) {  // walls every `room` cells with a gap of 1 to 3 cells in each stretch
    const int room = 4 + roll(rng) % 12;
    for (int y = room; y < h; y += room)
      for (int x = 0; x < w; ++x) t.set_blocked(x, y, x % room >= 1 + roll(rng) % 3);
    for (int x = room; x < w; x += room)
      for (int y = 0; y < h; ++y)
        if (y % room != 0) t.set_blocked(x, y, y % room >= 1 + roll(rng) % 3);
  }
  return t;
}

inline void change_some(std::mt19937_64& rng, lddb_test::test_map& t, int count) {
  for (int i = 0; i < count; ++i) {
    const int x = std::uniform_int_distribution<int>(0, t.map.width() - 1)(rng);
    const int y = std::uniform_int_distribution<int>(0, t.map.height() - 1)(rng);
    t.set_blocked(x, y, !t.map.blocked(x, y));
  }
}

// A random vertex of the map, usable or not (the search answers invalid_start / invalid_goal).
inline lddb::point random_vertex(std::mt19937_64& rng, const lddb::grid_map& m) {
  return {std::uniform_int_distribution<int>(0, m.width())(rng), std::uniform_int_distribution<int>(0, m.height())(rng)};
}

}  // namespace jump_test
