// tests/sampled_rule.hpp: the any-angle rule by brute force, from the geometry alone, to
// hold the path checker (lddb/checker.hpp) and the oracle (tests/oracle.hpp) to.
//
// A segment a-b is sampled at every multiple of 1/D of its length, D = 4 |dx| |dy| (a
// zero difference counted as 1). Every point where the segment meets a grid line lies at
// such a multiple, and so does at least one point strictly between two such meetings, so
// the samples see every cell interior the segment enters, every unit edge it runs along
// and every lattice point it passes. Each sample is classified exactly, in units of 1/D:
// inside a cell, on an edge between two cells, or on a lattice point. The side of a vertex
// a segment leaves on is what its first sample after the vertex is in or beside. Nothing
// here comes from the library but lddb::point and the rule's squeeze flag.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <optional>

#include "lddb/point.hpp"
#include "lddb/rule.hpp"

namespace sampled {

using lddb::point;

// Where the sample n/D of the way from a to b lies.
struct sample {
  enum kind_t { cell, edge, lattice } kind;
  point first, second;  // cell: the cell; edge: the two cells beside it; lattice: the point
};

struct segment_samples {
  point a, b;
  std::int64_t d = 1;
  sample at(std::int64_t n) const {
    const std::int64_t sx = std::int64_t{a.x} * d + std::int64_t{b.x - a.x} * n;
    const std::int64_t sy = std::int64_t{a.y} * d + std::int64_t{b.y - a.y} * n;
    auto floor_div = [&](std::int64_t v) { return static_cast<int>(v >= 0 ? v / d : -((-v + d - 1) / d)); };
    const int fx = floor_div(sx), fy = floor_div(sy);
    const bool ix = sx % d == 0, iy = sy % d == 0;
    if (ix && iy) return {sample::lattice, {fx, fy}, {fx, fy}};
    if (ix) return {sample::edge, {fx - 1, fy}, {fx, fy}};  // on a vertical line: cells left and right
    if (iy) return {sample::edge, {fx, fy - 1}, {fx, fy}};  // on a horizontal line: cells above and below
    return {sample::cell, {fx, fy}, {fx, fy}};
  }
};

inline segment_samples samples_of(point a, point b) {
  const std::int64_t dx = std::abs(b.x - a.x), dy = std::abs(b.y - a.y);
  return {a, b, 4 * (dx ? dx : 1) * (dy ? dy : 1)};
}

// Two diagonally opposite cells around v blocked (any number of others).
template <class Grid>
bool diagonal_pair_blocked(const Grid& g, point v) {
  return (g.blocked(v.x - 1, v.y - 1) && g.blocked(v.x, v.y)) || (g.blocked(v.x, v.y - 1) && g.blocked(v.x - 1, v.y));
}

// Exactly one diagonal pair of cells around v blocked, the other pair free: two sides.
template <class Grid>
bool two_sided(const Grid& g, point v) {
  const int blocked = g.blocked(v.x - 1, v.y - 1) + g.blocked(v.x, v.y - 1) + g.blocked(v.x - 1, v.y) + g.blocked(v.x, v.y);
  return blocked == 2 && diagonal_pair_blocked(g, v);
}

// Rules 1 to 3 (rule 3 unless squeezing is allowed) for a segment between distinct vertices.
template <class Grid>
bool segment_legal(const lddb::rule& r, const Grid& g, point a, point b) {
  const segment_samples s = samples_of(a, b);
  for (std::int64_t n = 0; n <= s.d; ++n) {
    const sample p = s.at(n);
    if (p.kind == sample::cell && g.blocked(p.first.x, p.first.y)) return false;
    if (p.kind == sample::edge && g.blocked(p.first.x, p.first.y) && g.blocked(p.second.x, p.second.y)) return false;
    if (p.kind == sample::lattice && n > 0 && n < s.d && r.squeeze != lddb::squeezing::allowed &&
        diagonal_pair_blocked(g, p.first))
      return false;
  }
  return true;
}

// The free cell around v that the segment from v toward t is in or beside just after v
// (the first of two free cells beside an edge). Empty when there is none.
template <class Grid>
std::optional<point> side_cell(const Grid& g, point v, point t) {
  const sample p = samples_of(v, t).at(1);
  if (!g.blocked(p.first.x, p.first.y)) return p.first;
  if (p.kind == sample::edge && !g.blocked(p.second.x, p.second.y)) return p.second;
  return std::nullopt;
}

// Is the polyline pts (at least one point; the first a start, the last a goal) a legal
// path under r? Under the default rule every turn at a two-sided vertex keeps to one
// side, and a start or goal on one is beside its own cell (the cell south-east of it).
template <class Grid>
bool path_legal(const lddb::rule& r, const Grid& g, const point* pts, std::size_t count) {
  const bool strict = r.squeeze != lddb::squeezing::allowed;
  auto usable = [&](point v) {
    return !(g.blocked(v.x - 1, v.y - 1) && g.blocked(v.x, v.y - 1) && g.blocked(v.x - 1, v.y) && g.blocked(v.x, v.y));
  };
  auto own_side = [&](point v, std::optional<point> side) {
    return !strict || !two_sided(g, v) || (!g.blocked(v.x, v.y) && (!side || *side == v));
  };
  if (count == 1) return usable(pts[0]) && own_side(pts[0], std::nullopt);
  for (std::size_t k = 0; k + 1 < count; ++k)
    if (pts[k] == pts[k + 1] || !segment_legal(r, g, pts[k], pts[k + 1])) return false;
  if (!own_side(pts[0], side_cell(g, pts[0], pts[1])) || !own_side(pts[count - 1], side_cell(g, pts[count - 1], pts[count - 2])))
    return false;
  for (std::size_t k = 1; k + 1 < count; ++k)
    if (strict && two_sided(g, pts[k]) && side_cell(g, pts[k], pts[k - 1]) != side_cell(g, pts[k], pts[k + 1])) return false;
  return true;
}

}  // namespace sampled
