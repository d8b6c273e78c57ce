// Private: a cell path from its waypoints, for the searches whose paths come back as the
// points where they turn (Block A*'s inflection points, jump point search's jump points)
// and whose answer lists every cell (search_result::path).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <vector>

#include "lddb/point.hpp"

namespace lddb {

// Fills the runs between the waypoints in `way` (in order, no waypoint repeating the one
// before, so every run is at least one step, which the in-place fill relies on) with every
// cell. A run steps towards its waypoint on both axes while it differs there, diagonal
// steps first, then straight ones (octile); with AcrossFirst, east or west first, then
// north or south (tile). So even waypoints out of line (a corrupt database the reader could
// not catch) end the run instead of stepping past it. The runs are written from the last
// back, each at or after its own waypoints' places (each earlier run adds at least one
// cell), so no waypoint is overwritten before it is read.
template <bool AcrossFirst>
void fill_runs(std::vector<point>& way) {
  const auto steps = [](point a, point b) {
    const int ax = std::abs(b.x - a.x), ay = std::abs(b.y - a.y);
    return static_cast<std::size_t>(AcrossFirst ? ax + ay : std::max(ax, ay));
  };
  const std::size_t waypoints = way.size();
  if (waypoints == 0) return;
  std::size_t cells = 1;
  for (std::size_t k = 1; k < waypoints; ++k) cells += steps(way[k - 1], way[k]);
  way.resize(cells);
  std::size_t end = cells;  // the run to waypoint k ends just before `end`
  for (std::size_t k = waypoints - 1; k >= 1; --k) {
    const point from = way[k - 1], to = way[k];
    const int ax = std::abs(to.x - from.x), ay = std::abs(to.y - from.y);
    const int sx = (to.x > from.x) - (to.x < from.x), sy = (to.y > from.y) - (to.y < from.y);
    const std::size_t n = steps(from, to);
    // The first `lead` steps go by `first`, the rest by `then`.
    const std::size_t lead = static_cast<std::size_t>(AcrossFirst ? ax : std::min(ax, ay));
    const point first = AcrossFirst ? point{sx, 0} : point{sx, sy};
    const point then = AcrossFirst ? point{0, sy} : point{ax > ay ? sx : 0, ay > ax ? sy : 0};
    end -= n;
    point c = from;
    std::size_t i = 0;
    for (; i < lead; ++i) {
      c = {c.x + first.x, c.y + first.y};
      way[end + i] = c;
    }
    for (; i < n; ++i) {
      c = {c.x + then.x, c.y + then.y};
      way[end + i] = c;
    }
  }
}

// The same path as its turning points only: each run's bend (where fill_runs switches
// from its first steps to the others) inserted between its waypoints, so that every
// segment goes one way. Smoothing it for a cell rule (path/smooth.cpp) keeps what
// smoothing the filled path keeps, at O(waypoints) rather than O(cells). Written from the
// last back, as fill_runs writes.
template <bool AcrossFirst>
void add_bends(std::vector<point>& way) {
  const auto bend = [](point from, point to, point& at) {
    const int ax = std::abs(to.x - from.x), ay = std::abs(to.y - from.y);
    if (ax == 0 || ay == 0 || (!AcrossFirst && ax == ay)) return false;
    const int sx = (to.x > from.x) - (to.x < from.x), sy = (to.y > from.y) - (to.y < from.y);
    const int lead = std::min(ax, ay);
    at = AcrossFirst ? point{to.x, from.y} : point{from.x + sx * lead, from.y + sy * lead};
    return true;
  };
  const std::size_t waypoints = way.size();
  if (waypoints < 2) return;
  std::size_t bends = 0;
  point at;
  for (std::size_t k = 1; k < waypoints; ++k) bends += bend(way[k - 1], way[k], at) ? 1 : 0;
  if (bends == 0) return;
  way.resize(waypoints + bends);
  std::size_t end = waypoints + bends;  // way[k] goes just before `end`, its run's bend before it
  for (std::size_t k = waypoints - 1; k >= 1; --k) {
    const point from = way[k - 1], to = way[k];
    way[--end] = to;
    if (bend(from, to, at)) way[--end] = at;
  }
}

}  // namespace lddb
