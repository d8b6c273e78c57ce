// lddb/checker.hpp: an independent path checker.
//
// Validates any path under a movement rule and recomputes its length. It is written apart
// from the search code on purpose, so that it can catch the searches (and lddb/moves.hpp,
// lddb/segments.hpp) when they are wrong: nothing here calls step_legal, segment_legal,
// vertex_usable, segment_side, turn_legal, endpoint_side, euclid_cost or step_cost. It
// takes only data definitions from the library (lddb::rule, lddb::point, and a grid's
// blocked(x, y)), and decides each any-angle question separately and exactly, on integers:
//   rule 1  for every cell near the segment, does the open segment meet the open unit
//           square? (separating axis test on the square's two axes and the segment's
//           normal; exact for open convex sets)
//   rule 2  for every unit lattice edge near the segment, do both its end points lie on
//           the closed segment? then the segment runs along it
//   rule 3  for every lattice point near the segment, is it strictly inside the segment?
// "Near" is a strip a cell wider than the segment on each side, so a check costs time in
// proportion to the segment's length. Under the default rule a path must also keep to one
// side of every double corner it visits, and a start or goal on a double corner to the side
// of its own cell; lddb/checker_corners.hpp names each side by its free cell.
//
// Coordinates (docs/rules.md): x east, y south, (0,0) top-left; vertex (x, y) is the
// top-left corner of cell (x, y). Outside a grid everything counts as blocked.
//
// The templates work on any grid with `bool blocked(int x, int y) const` (tests use them on
// block patterns); check_path() on a grid_map also checks that every point is on the map.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "lddb/checker_corners.hpp"
#include "lddb/grid.hpp"
#include "lddb/cost.hpp"
#include "lddb/rule.hpp"
#include "lddb/point.hpp"
#include "lddb/unit.hpp"

namespace lddb {

struct check_result {
  bool valid = false;
  std::string error;  // empty when valid
  double length = 0;  // in double precision, from the waypoints; 0 when not valid
};

// How consecutive points of a cell path (tile, octile) may be joined.
enum class cell_steps : std::uint8_t {
  unit,  // every consecutive pair is one legal unit move (what the searches return)
  runs,  // a straight or 45-degree run of identical legal unit moves (smoothed cell paths,
         // the inflection points a database stores)
};

namespace checker {

// Coordinates beyond this are refused, which keeps every product below exact in 64 bits.
inline constexpr int kMaxCoordinate = 1 << 28;

inline std::string point_text(point p) { return "(" + std::to_string(p.x) + "," + std::to_string(p.y) + ")"; }

// The length of a diagonal unit move under an octile rule (the rule's fixed-point value).
inline double diagonal_length(const rule& r) { return static_cast<double>(r.diagonal) / 4294967296.0; }

// May one unit move go from cell `from` to cell `to`? (tile and octile)
template <class Grid>
bool move_ok(const rule& r, const Grid& g, point from, point to) {
  const int dx = to.x - from.x, dy = to.y - from.y;
  if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) return false;
  if (r.kind == rule_kind::any_angle) return false;
  if (g.blocked(from.x, from.y) || g.blocked(to.x, to.y)) return false;
  if (dx == 0 || dy == 0) return true;            // N, E, S, W: both rules
  if (r.kind != rule_kind::octile) return false;  // tile has no diagonals
  // The two cells that share with `from` and `to` the corner the move passes through.
  const bool free_a = !g.blocked(to.x, from.y);
  const bool free_b = !g.blocked(from.x, to.y);
  switch (r.corners) {
    case corner_cutting::forbidden: return free_a && free_b;
    case corner_cutting::one_side_free: return free_a || free_b;
    case corner_cutting::allowed: return true;  // squeezes between two blocked cells
  }
  return false;  // a value no rule has
}

inline double move_length(const rule& r, point from, point to) {
  return (from.x != to.x && from.y != to.y) ? diagonal_length(r) : 1.0;
}

// A vertex can be stood on when at least one of its four cells is free.
template <class Grid>
bool vertex_ok(const Grid& g, point v) {
  return !g.blocked(v.x - 1, v.y - 1) || !g.blocked(v.x, v.y - 1) || !g.blocked(v.x - 1, v.y) || !g.blocked(v.x, v.y);
}

// Exact lattice geometry of a segment between two vertices.
namespace geometry {

inline std::int64_t cross(point o, point a, point b) {
  return std::int64_t{a.x - o.x} * (b.y - o.y) - std::int64_t{a.y - o.y} * (b.x - o.x);
}
inline std::int64_t dot(point o, point a, point b) {
  return std::int64_t{a.x - o.x} * (b.x - o.x) + std::int64_t{a.y - o.y} * (b.y - o.y);
}

// Does the open segment (a, b), a != b, meet the open unit square of cell (cx, cy)?
// Separating axis test: the Minkowski difference of the closed segment and the closed
// square is a convex polygon whose edge normals are the x axis, the y axis and the
// segment's normal; the open sets are disjoint iff on one of these axes the projections
// of the open sets are disjoint.
inline bool open_segment_meets_open_cell(point a, point b, int cx, int cy) {
  // x axis
  if (a.x == b.x) {
    if (a.x <= cx || a.x >= cx + 1) return false;
  } else {
    const int lo = std::min(a.x, b.x), hi = std::max(a.x, b.x);
    if (hi <= cx || lo >= cx + 1) return false;
  }
  // y axis
  if (a.y == b.y) {
    if (a.y <= cy || a.y >= cy + 1) return false;
  } else {
    const int lo = std::min(a.y, b.y), hi = std::max(a.y, b.y);
    if (hi <= cy || lo >= cy + 1) return false;
  }
  // the segment's normal n = (-(by-ay), bx-ax): the segment projects to one value
  const std::int64_t nx = -(std::int64_t{b.y} - a.y), ny = std::int64_t{b.x} - a.x;
  const std::int64_t s = nx * a.x + ny * a.y;
  std::int64_t mn = std::numeric_limits<std::int64_t>::max(), mx = std::numeric_limits<std::int64_t>::min();
  for (int k = 0; k < 4; ++k) {
    const std::int64_t px = cx + (k & 1), py = cy + (k >> 1);
    const std::int64_t v = nx * px + ny * py;
    mn = std::min(mn, v);
    mx = std::max(mx, v);
  }
  return s > mn && s < mx;
}

inline bool on_closed_segment(point a, point b, point p) {
  if (cross(a, b, p) != 0) return false;
  const std::int64_t d = dot(a, b, p), len2 = dot(a, b, b);
  return d >= 0 && d <= len2;
}
inline bool strictly_inside_segment(point a, point b, point p) {
  if (cross(a, b, p) != 0) return false;
  const std::int64_t d = dot(a, b, p), len2 = dot(a, b, b);
  return d > 0 && d < len2;
}

// floor(n / d) and ceil(n / d) for d > 0.
inline std::int64_t floor_div(std::int64_t n, std::int64_t d) { return n >= 0 ? n / d : -((-n + d - 1) / d); }
inline std::int64_t ceil_div(std::int64_t n, std::int64_t d) { return -floor_div(-n, d); }

}  // namespace geometry

// What a segment between two vertices touches, independent of any obstacles. Each list is
// in row-major order (y, then x).
struct segment_geometry {
  std::vector<point> cells;                 // cells whose interior the open segment meets (rule 1)
  std::vector<std::array<point, 2>> edges;  // for each unit edge the segment runs along: its two cells (rule 2)
  std::vector<point> through;               // lattice points strictly inside the segment (rule 3)
};

// Calls visit(x, y) for every lattice position (x, y) within a cell of the segment a-b:
// for each column x, the rows from one below the segment's lowest y over [x-1, x+1] to
// one above its highest. Every cell the segment meets, every lattice point on it and every
// lattice edge along it starts at such a position.
template <class Visit>
void for_each_near(point a, point b, Visit&& visit) {
  if (a.x > b.x) std::swap(a, b);
  const std::int64_t dx = std::int64_t{b.x} - a.x, dy = std::int64_t{b.y} - a.y;
  for (std::int64_t x = std::int64_t{a.x} - 1; x <= std::int64_t{b.x} + 1; ++x) {
    std::int64_t lo, hi;
    if (dx == 0) {
      lo = std::min(a.y, b.y);
      hi = std::max(a.y, b.y);
    } else {
      // y at the clipped ends of [x-1, x+1] as fractions over dx
      const std::int64_t x0 = std::clamp<std::int64_t>(x - 1, a.x, b.x), x1 = std::clamp<std::int64_t>(x + 1, a.x, b.x);
      const std::int64_t n0 = std::int64_t{a.y} * dx + (x0 - a.x) * dy, n1 = std::int64_t{a.y} * dx + (x1 - a.x) * dy;
      lo = geometry::floor_div(std::min(n0, n1), dx);
      hi = geometry::ceil_div(std::max(n0, n1), dx);
    }
    for (std::int64_t y = lo - 1; y <= hi + 1; ++y) visit(static_cast<int>(x), static_cast<int>(y));
  }
}

inline segment_geometry segment_geometry_of(point a, point b) {
  segment_geometry out;
  if (a == b) return out;
  for_each_near(a, b, [&](int x, int y) {
    const point p{x, y};
    if (geometry::open_segment_meets_open_cell(a, b, x, y)) out.cells.push_back(p);
    const bool on = geometry::on_closed_segment(a, b, p);
    // horizontal unit edge (x,y)-(x+1,y) lies between cells (x,y-1) above and (x,y) below
    if (on && geometry::on_closed_segment(a, b, point{x + 1, y})) out.edges.push_back({point{x, y - 1}, point{x, y}});
    // vertical unit edge (x,y)-(x,y+1) lies between cells (x-1,y) left and (x,y) right
    if (on && geometry::on_closed_segment(a, b, point{x, y + 1})) out.edges.push_back({point{x - 1, y}, point{x, y}});
    if (geometry::strictly_inside_segment(a, b, p)) out.through.push_back(p);
  });
  auto row_major = [](point u, point w) { return u.y != w.y ? u.y < w.y : u.x < w.x; };
  std::sort(out.cells.begin(), out.cells.end(), row_major);
  std::sort(out.through.begin(), out.through.end(), row_major);
  std::sort(out.edges.begin(), out.edges.end(), [&](const auto& u, const auto& w) {
    return row_major(u[1], w[1]) || (u[1] == w[1] && row_major(u[0], w[0]));
  });
  return out;
}

// A vertex where two diagonally opposite cells are both blocked.
template <class Grid>
bool double_corner(const Grid& g, point v) {
  const bool nw = g.blocked(v.x - 1, v.y - 1), ne = g.blocked(v.x, v.y - 1);
  const bool sw = g.blocked(v.x - 1, v.y), se = g.blocked(v.x, v.y);
  return (nw && se) || (ne && sw);
}

template <class Grid>
bool segment_ok(const rule& r, const Grid& g, const segment_geometry& geo) {
  for (const point& c : geo.cells)
    if (g.blocked(c.x, c.y)) return false;  // rule 1
  for (const auto& e : geo.edges)
    if (g.blocked(e[0].x, e[0].y) && g.blocked(e[1].x, e[1].y)) return false;  // rule 2
  if (r.squeeze != squeezing::allowed)
    for (const point& v : geo.through)
      if (double_corner(g, v)) return false;  // rule 3
  return true;
}

// Is the straight segment between vertices a and b legal (any-angle rules)? A segment of
// length zero is legal when its vertex is usable. Nothing is allocated.
template <class Grid>
bool segment_ok(const rule& r, const Grid& g, point a, point b) {
  if (a == b) return vertex_ok(g, a);
  const bool corners = r.squeeze != squeezing::allowed;
  bool ok = true;
  for_each_near(a, b, [&](int x, int y) {
    if (!ok) return;
    const point p{x, y};
    if (geometry::open_segment_meets_open_cell(a, b, x, y) && g.blocked(x, y)) ok = false;  // rule 1
    if (geometry::on_closed_segment(a, b, p)) {
      if (geometry::on_closed_segment(a, b, point{x + 1, y}) && g.blocked(x, y - 1) && g.blocked(x, y)) ok = false;
      if (geometry::on_closed_segment(a, b, point{x, y + 1}) && g.blocked(x - 1, y) && g.blocked(x, y)) ok = false;
      if (corners && geometry::strictly_inside_segment(a, b, p) && double_corner(g, p)) ok = false;  // rule 3
    }
  });
  return ok;
}

// Checks a polyline (every point, first and last included) under a rule and returns its
// length. Cells (tile, octile): consecutive points are one legal unit move, or with
// cell_steps::runs a straight or 45-degree run of identical legal unit moves. Vertices
// (any-angle): each segment is legal, and under the default rule the first point is a
// start and the last a goal that keep to the side of their own cells at a double corner,
// and no waypoint between them crosses a double corner from one side to the other.
// Repeated consecutive points are refused.
template <class Grid>
check_result check_polyline(const rule& r, const Grid& g, std::span<const point> pts, cell_steps steps = cell_steps::unit) {
  check_result rep;
  auto fail = [&](std::string why) {
    rep.valid = false;
    rep.length = 0;
    rep.error = std::move(why);
    return rep;
  };
  if (pts.empty()) return fail("empty path");
  const bool vertices = r.kind == rule_kind::any_angle;
  for (std::size_t k = 0; k < pts.size(); ++k)
    if (std::abs(pts[k].x) > kMaxCoordinate || std::abs(pts[k].y) > kMaxCoordinate)
      return fail("point " + std::to_string(k) + " " + point_text(pts[k]) + " is far off any map");
  auto own_cell_blocked = [&](const char* what, point v) {
    return fail(std::string(what) + " " + point_text(v) + " is a double corner whose own cell " + point_text(v) + " is blocked");
  };
  if (pts.size() == 1) {
    const bool ok = vertices ? vertex_ok(g, pts[0]) : !g.blocked(pts[0].x, pts[0].y);
    if (!ok) return fail("single point " + point_text(pts[0]) + (vertices ? " is not a usable vertex" : " is blocked"));
    if (vertices && !endpoint_ok(r, g, pts[0])) return own_cell_blocked("single point", pts[0]);
    rep.valid = true;
    return rep;
  }
  if (vertices && !endpoint_ok(r, g, pts.front())) return own_cell_blocked("start", pts.front());
  if (vertices && !endpoint_ok(r, g, pts.back())) return own_cell_blocked("goal", pts.back());
  for (std::size_t k = 0; k + 1 < pts.size(); ++k) {
    const point p = pts[k], q = pts[k + 1];
    const std::int64_t dx = std::int64_t{q.x} - p.x, dy = std::int64_t{q.y} - p.y;
    if (dx == 0 && dy == 0) return fail("repeated point " + point_text(p) + " at " + std::to_string(k + 1));
    if (vertices) {
      if (!segment_ok(r, g, p, q))
        return fail("illegal segment " + point_text(p) + "-" + point_text(q) + " (points " + std::to_string(k) + "-" +
                    std::to_string(k + 1) + ")");
      if (k == 0 && !endpoint_side_ok(r, g, p, q))
        return fail("the path leaves the start " + point_text(p) + ", a double corner, beside cell " +
                    point_text(cell_beside(g, p, q)) + ", not beside its own cell " + point_text(p));
      if (k > 0 && !turn_ok(r, g, pts[k - 1], p, q))
        return fail("the path crosses the double corner " + point_text(p) + " at point " + std::to_string(k) +
                    ": it arrives beside cell " + point_text(cell_beside(g, p, pts[k - 1])) + " and leaves beside cell " +
                    point_text(cell_beside(g, p, q)));
      if (k + 2 == pts.size() && !endpoint_side_ok(r, g, q, p))
        return fail("the path reaches the goal " + point_text(q) + ", a double corner, beside cell " +
                    point_text(cell_beside(g, q, p)) + ", not beside its own cell " + point_text(q));
      rep.length += std::sqrt(static_cast<double>(dx) * static_cast<double>(dx) + static_cast<double>(dy) * static_cast<double>(dy));
      continue;
    }
    const std::int64_t n = std::max(std::abs(dx), std::abs(dy));
    if (steps == cell_steps::unit && n != 1)
      return fail("points " + std::to_string(k) + "-" + std::to_string(k + 1) + " " + point_text(p) + "-" + point_text(q) +
                  " are not one unit move apart");
    if (!(dx == 0 || dy == 0 || std::abs(dx) == std::abs(dy)))
      return fail("points " + std::to_string(k) + "-" + std::to_string(k + 1) + " " + point_text(p) + "-" + point_text(q) +
                  " are not joined by a straight run of unit moves");
    const int sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
    point c = p;
    for (std::int64_t i = 0; i < n; ++i) {
      const point nxt{c.x + sx, c.y + sy};
      if (!move_ok(r, g, c, nxt)) return fail("illegal move " + point_text(c) + "-" + point_text(nxt));
      rep.length += move_length(r, c, nxt);
      c = nxt;
    }
  }
  rep.valid = true;
  return rep;
}

// Empty when the path begins at `start` and ends at `goal`, else why.
inline std::string ends_problem(point start, point goal, std::span<const point> path) {
  if (path.empty()) return "empty path";
  if (!(path.front() == start)) return "the path starts at " + point_text(path.front()) + ", not at the start " + point_text(start);
  if (!(path.back() == goal)) return "the path ends at " + point_text(path.back()) + ", not at the goal " + point_text(goal);
  return "";
}

// check_polyline, and the path must begin at `start` and end at `goal`.
template <class Grid>
check_result check_path(const rule& r, const Grid& g, point start, point goal, std::span<const point> path,
                        cell_steps steps = cell_steps::unit) {
  if (std::string why = ends_problem(start, goal, path); !why.empty()) return check_result{false, std::move(why), 0};
  return check_polyline(r, g, path, steps);
}

}  // namespace checker

// Checks a search's path on a map: it begins at `start`, ends at `goal`, every point is on
// the map (cells 0..W-1 x 0..H-1, vertices 0..W x 0..H), and every move (cells) or segment
// (vertices) is legal under the rule. Returns the length computed from the points.
check_result check_path(const rule& r, const grid_map& map, point start, point goal, const std::vector<point>& path,
                        cell_steps steps = cell_steps::unit);

// The same for a unit of another size or movement class (lddb/unit.hpp): the one-cell (or
// point) unit of the ground class is checked as above; any other by checker::unit_path_ok.
// The length is the rule's, as above.
check_result check_path(const rule& r, const grid_map& map, const unit& u, point start, point goal,
                        const std::vector<point>& path, cell_steps steps = cell_steps::unit);

namespace checker {

// Is `path` a legal path of unit `u` under rule `r` on `map`? When not, *why (when given)
// names the first bad point, step or segment. Decided from the unit's square and the map's
// terrain types (grid_map::terrain_at, in_bounds) alone, never from a unit view:
//  - tile and octile, k = max(size, 1): the k x k cells from each point (the anchor, the
//    square's top-left cell) are on the map and hold types of the class; consecutive points
//    are one move apart (|dx|, |dy| <= 1; tile: straight only), or with cell_steps::runs a
//    straight or 45-degree run of such moves; a diagonal move's square, swept, crosses
//    exactly two cells outside both end squares (for (+1,+1) from anchor a: (ax + k, ay)
//    and (ax, ay + k)), found by exact interval arithmetic on the moving square, and the
//    rule's corner_cutting applies to them as to a one-cell unit's side cells
//    (forbidden: both open; one_side_free: one; allowed: neither);
//  - any-angle, size k >= 1: the square [x, x + k] x [y, y + k] at each vertex, and moving
//    along each segment, overlaps the interior of no cell closed to the class or off the
//    map (exact, on integers: the times at which it overlaps a cell form an open interval
//    with rational ends). It may touch closed cells along its sides and corners, also in a
//    gap exactly its width, which the searches avoid (runtime/src/map/unit_views.cpp);
//  - any-angle, size 0: a point, checked as check_polyline does, with the cells closed to
//    the class blocked.
// Repeated consecutive points are refused. Sizes outside 0..unit::kMaxSize are refused.
bool unit_path_ok(const rule& r, const grid_map& map, const unit& u, std::span<const point> path, std::string* why,
                  cell_steps steps = cell_steps::unit);

}  // namespace checker

}  // namespace lddb
