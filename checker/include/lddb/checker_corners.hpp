// lddb/checker_corners.hpp: the path checker's reading of double corners (docs/rules.md,
// "Any-angle segments"): which free cell a path is beside where it meets a double corner,
// and whether its turns, its start and its goal keep to one side there.
//
// Part of the independent path checker (lddb/checker.hpp) and written apart from
// lddb/segments.hpp like the rest of it: a side is named by its free cell, found from the
// direction of the segment and the four cells around the vertex, and compared as a cell.
#pragma once

#include "lddb/point.hpp"
#include "lddb/rule.hpp"

namespace lddb::checker {

// A double corner with two sides: two diagonally opposite cells around vertex v blocked,
// the other two free. (With three or four cells blocked there is at most one free cell, so
// nothing can cross from one side to another.)
template <class Grid>
bool two_sided(const Grid& g, point v) {
  const bool nw = g.blocked(v.x - 1, v.y - 1), ne = g.blocked(v.x, v.y - 1);
  const bool sw = g.blocked(v.x - 1, v.y), se = g.blocked(v.x, v.y);
  return nw == se && ne == sw && nw != ne;
}

// The cell around vertex v that the segment from v toward t (t != v) is beside where it
// leaves v: the cell whose interior it enters, or, along a grid line, the free one of the
// two cells beside the line's first unit edge (at a double corner exactly one is free).
template <class Grid>
point cell_beside(const Grid& g, point v, point t) {
  const int sx = (t.x > v.x) - (t.x < v.x), sy = (t.y > v.y) - (t.y < v.y);
  // The cells around v are columns v.x-1 (west) and v.x (east), rows v.y-1 (north) and v.y.
  const int column = sx > 0 ? v.x : v.x - 1, row = sy > 0 ? v.y : v.y - 1;
  if (sx != 0 && sy != 0) return point{column, row};
  if (sy == 0) return g.blocked(column, v.y - 1) ? point{column, v.y} : point{column, v.y - 1};
  return g.blocked(v.x - 1, row) ? point{v.x, row} : point{v.x - 1, row};
}

// Does the default rule bind at vertex v? Only at a two-sided double corner, and never
// under squeeze=allowed.
template <class Grid>
bool sides_matter(const rule& r, const Grid& g, point v) {
  return r.kind == rule_kind::any_angle && r.squeeze != squeezing::allowed && two_sided(g, v);
}

// May a path that arrives at waypoint v from a go on toward b? At a double corner (default
// rule) only on the side it arrived on: visiting is allowed, crossing is not. The two
// segments must be legal; this looks only at their directions.
template <class Grid>
bool turn_ok(const rule& r, const Grid& g, point a, point v, point b) {
  return !sides_matter(r, g, v) || cell_beside(g, v, a) == cell_beside(g, v, b);
}

// A start or goal at vertex v belongs to its own cell, the cell (v.x, v.y) south-east of
// it. Under the default rule it may not stand on a double corner whose own cell is blocked.
template <class Grid>
bool endpoint_ok(const rule& r, const Grid& g, point v) {
  return !sides_matter(r, g, v) || !g.blocked(v.x, v.y);
}

// May a path leave its start v toward t, or reach its goal v from t? At a double corner
// (default rule) only beside v's own cell.
template <class Grid>
bool endpoint_side_ok(const rule& r, const Grid& g, point v, point t) {
  return !sides_matter(r, g, v) || cell_beside(g, v, t) == v;
}

}  // namespace lddb::checker
