// tests/cell_dijkstra.hpp: least cost over cells by Dijkstra, for oracles that bring their
// own move check (the checker's rule, or a unit's sweep), so that the search itself is
// written once.
#pragma once

#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "lddb/cost.hpp"
#include "lddb/point.hpp"
#include "lddb/rule.hpp"

namespace lddb_test {

// Least cost from s to g on a w x h grid of cells whose moves to the 8 neighbours
// move_ok(p, dx, dy) allows, straight moves costing one and diagonal ones r.diagonal;
// kUnreachable when g cannot be reached.
template <class MoveOk>
lddb::cost_t least_cell_cost(const lddb::rule& r, int w, int h, lddb::point s, lddb::point g, MoveOk&& move_ok) {
  std::vector<lddb::cost_t> dist(static_cast<std::size_t>(w * h), lddb::kUnreachable);
  using item = std::pair<lddb::cost_t, int>;
  std::priority_queue<item, std::vector<item>, std::greater<>> open;
  dist[static_cast<std::size_t>(s.y * w + s.x)] = 0;
  open.push({0, s.y * w + s.x});
  while (!open.empty()) {
    const auto [d, i] = open.top();
    open.pop();
    if (d != dist[static_cast<std::size_t>(i)]) continue;
    const lddb::point p{i % w, i / w};
    if (p == g) return d;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if ((dx == 0 && dy == 0) || !move_ok(p, dx, dy)) continue;
        const int j = (p.y + dy) * w + p.x + dx;
        const lddb::cost_t nd = d + ((dx != 0 && dy != 0) ? r.diagonal : lddb::kCostOne);
        if (nd < dist[static_cast<std::size_t>(j)]) {
          dist[static_cast<std::size_t>(j)] = nd;
          open.push({nd, j});
        }
      }
  }
  return lddb::kUnreachable;
}

}  // namespace lddb_test
