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
// How a run from `from` to `to` goes: `steps` steps, the first `lead` by `first`, the rest
// by `then`.
struct run_shape {
  std::size_t steps, lead;
  point first, then;
};
template <bool AcrossFirst>
[[gnu::always_inline]] inline run_shape shape_of_run(point from, point to) {
  const int ax = std::abs(to.x - from.x), ay = std::abs(to.y - from.y);
  const int sx = (to.x > from.x) - (to.x < from.x), sy = (to.y > from.y) - (to.y < from.y);
  if constexpr (AcrossFirst)
    return {static_cast<std::size_t>(ax + ay), static_cast<std::size_t>(ax), point{sx, 0}, point{0, sy}};
  else
    return {static_cast<std::size_t>(std::max(ax, ay)), static_cast<std::size_t>(std::min(ax, ay)), point{sx, sy},
            point{ax > ay ? sx : 0, ay > ax ? sy : 0}};
}

template <bool AcrossFirst>
void fill_runs(std::vector<point>& way) {
  const std::size_t waypoints = way.size();
  if (waypoints == 0) return;
  std::size_t cells = 1;
  for (std::size_t k = 1; k < waypoints; ++k) cells += shape_of_run<AcrossFirst>(way[k - 1], way[k]).steps;
  way.resize(cells);
  std::size_t end = cells;  // the run to waypoint k ends just before `end`
  for (std::size_t k = waypoints - 1; k >= 1; --k) {
    const point from = way[k - 1];
    const run_shape r = shape_of_run<AcrossFirst>(from, way[k]);
    end -= r.steps;
    point c = from;
    std::size_t i = 0;
    for (; i < r.lead; ++i) {
      c = {c.x + r.first.x, c.y + r.first.y};
      way[end + i] = c;
    }
    for (; i < r.steps; ++i) {
      c = {c.x + r.then.x, c.y + r.then.y};
      way[end + i] = c;
    }
  }
}

// The same path as its turning points only: each run's bend (where fill_runs switches
// from `first` to `then`, when the run has steps of both) inserted between its waypoints,
// so that every segment goes one way. Smoothing it for a cell rule (path/smooth.cpp) keeps
// what smoothing the filled path keeps, at O(waypoints) rather than O(cells). Written from
// the last back, as fill_runs writes.
template <bool AcrossFirst>
void add_bends(std::vector<point>& way) {
  const auto bend = [](point from, point to, point& at) {
    const run_shape r = shape_of_run<AcrossFirst>(from, to);
    if (r.lead == 0 || r.lead == r.steps) return false;
    const int lead = static_cast<int>(r.lead);
    at = {from.x + r.first.x * lead, from.y + r.first.y * lead};
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
