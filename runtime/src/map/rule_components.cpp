// What a map's component labels (components.cpp) say about a query under a rule
// (lddb/search.hpp): which labels a rule reads, which cell stands for a start
// or goal.
#include <optional>

#include "map/component_labels.hpp"
#include "lddb/grid.hpp"
#include "lddb/moves.hpp"
#include "lddb/search.hpp"
#include "lddb/segments.hpp"

namespace lddb {

namespace {

// A 2 x 2 grid of cells for asking a rule about one pattern.
struct probe {
  unsigned blocked_bits;  // bit y * 2 + x
  bool blocked(int x, int y) const {
    if (x < 0 || y < 0 || x > 1 || y > 1) return true;
    return (blocked_bits >> (y * 2 + x)) & 1u;
  }
};

}  // namespace

connectivity connectivity_of(const rule& r) {
  // Two free cells that share only a corner, both other cells of the 2 x 2 blocked. Where a
  // rule joins two cells diagonally otherwise, a side cell is free and joins them by edges.
  const probe crossing{0b1001};  // "#." / ".#": cells (1,0) and (0,1) free
  if (r.on_vertices()) return segment_legal(r, crossing, 0, 2, 2, 0) ? connectivity::eight : connectivity::four;
  return step_legal(r, crossing, 1, 0, -1, 1) ? connectivity::eight : connectivity::four;
}

std::optional<point> component_cell(const rule& r, const grid_map& map, point p) {
  if (!r.on_vertices()) {
    if (!map.in_bounds(p.x, p.y) || map.blocked(p.x, p.y)) return std::nullopt;
    return p;
  }
  if (p.x < 0 || p.y < 0 || p.x > map.width() || p.y > map.height()) return std::nullopt;
  // At a double corner a start or goal keeps to its own cell's side (endpoint_side). Any
  // other vertex's free cells share an edge with one another.
  if (endpoint_side(r, map, p.x, p.y) < 0) return std::nullopt;
  for (const point c : {p, point{p.x - 1, p.y}, point{p.x, p.y - 1}, point{p.x - 1, p.y - 1}})
    if (!map.blocked(c.x, c.y)) return c;
  return std::nullopt;
}

std::optional<bool> same_component(const rule& r, const grid_map& map, point start, point goal) {
  const std::optional<point> a = component_cell(r, map, start), b = component_cell(r, map, goal);
  if (!a || !b) return std::nullopt;
  return map.same_component(connectivity_of(r), a->x, a->y, b->x, b->y);
}

}  // namespace lddb
