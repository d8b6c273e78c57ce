// Private: pulling an any-angle path tight (pull_tight.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "lddb/grid.hpp"
#include "lddb/point.hpp"
#include "lddb/rule.hpp"

namespace lddb {

// The most waypoints a path on `map` is pulled with: pulling inserts no turn past it, and
// a longer path is left as it is. A bound, so that search_context::reserve can size the
// scratch for every query on a map: 8 (width + height) + 64, 8,256 at 512 x 512, five times
// the waypoints of the longest path of the benchmark maps (maze512-1-1's longest query,
// 1,643).
std::size_t pull_limit(const grid_map& map);

// What a pull keeps between its passes, held by the caller so that a query allocates
// nothing once its context has grown (or been reserved for the map).
struct pull_scratch {
  std::vector<point> in, out, judged, judged_out;  // in: the path (pull_tight_in_place)
  // Room for pull_limit(map) waypoints, written once so that the pages are in memory.
  void reserve(const grid_map& map);
  std::size_t bytes() const;
};

// Pulls the legal vertex path `path` (no two consecutive points equal, at most
// pull_limit(map) of them, else it is left as it is) tight in place: it stays legal, never
// gets longer, and ends locally shortest, each waypoint turning around an obstacle corner
// on the inside of its turn. Counts segment_legal calls in `los`. `path` keeps its buffer.
void pull_path_tight(const rule& r, const grid_map& map, std::vector<point>& path, pull_scratch& s,
                     std::uint64_t& los);
// The same on the path in s.in, for a caller that builds it there: no copy in or out.
void pull_tight_in_place(const rule& r, const grid_map& map, pull_scratch& s, std::uint64_t& los);

// Point q lies on the closed segment from a to b.
bool on_segment(point a, point b, point q);

}  // namespace lddb
