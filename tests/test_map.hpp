// tests/test_map.hpp: a small map held twice, as the library's grid_map and as the
// oracle's grid, so that a search and its oracle read the same cells.
#pragma once

#include <string>
#include <vector>

#include "lddb/grid.hpp"
#include "oracle.hpp"

namespace lddb_test {

struct test_map {
  lddb::grid_map map;
  oracle::grid grid;

  void set_blocked(int x, int y, bool b) {
    map.set_blocked(x, y, b);
    grid.set_blocked(x, y, b);
  }
  // The cells as rows of '.' and '@', for failure messages.
  std::string describe() const {
    std::string s = std::to_string(grid.width()) + "x" + std::to_string(grid.height()) + "\n";
    for (int y = 0; y < grid.height(); ++y) {
      for (int x = 0; x < grid.width(); ++x) s += grid.blocked(x, y) ? '@' : '.';
      s += '\n';
    }
    return s;
  }
};

// The oracle's grid of a map's cells.
inline oracle::grid to_oracle(const lddb::grid_map& m) {
  oracle::grid g(m.width(), m.height());
  for (int y = 0; y < m.height(); ++y)
    for (int x = 0; x < m.width(); ++x)
      if (m.blocked(x, y)) g.set_blocked(x, y, true);
  return g;
}

// An all-free w x h map.
inline test_map empty_map(int w, int h) { return test_map{lddb::grid_map(w, h), oracle::grid(w, h)}; }

// A map drawn as rows of a Moving AI map body ('.' free, anything else blocked).
inline test_map from_rows(const std::vector<std::string>& rows) {
  const oracle::grid g = oracle::grid::from_rows(rows);
  test_map t = empty_map(g.width(), g.height());
  for (int y = 0; y < g.height(); ++y)
    for (int x = 0; x < g.width(); ++x)
      if (g.blocked(x, y)) t.set_blocked(x, y, true);
  return t;
}

}  // namespace lddb_test
