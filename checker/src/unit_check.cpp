// Paths of units of several sizes and classes (lddb/checker.hpp, checker::unit_path_ok),
// decided from the unit's square and the map's terrain types. Written apart from the
// runtime's unit views on purpose: nothing here asks a view which cells are blocked, so a
// wrong view (or a wrong reading of the corner rules on it) shows as an invalid path.
//
// One question decides everything: does the square [x, x + k] x [y, y + k], its top-left
// corner moving from p to p + v (t from 0 to 1), overlap the interior of cell c? Along x
// the open spans (x + t vx, x + t vx + k) and (cx, cx + 1) meet iff x + t vx < cx + 1 and
// x + t vx + k > cx; likewise along y. Each inequality keeps an open half-line of t, so the
// times of overlap are an open interval with rational ends, compared exactly on integers.
#include "unit_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <optional>
#include <string>

namespace lddb::checker {

namespace {

// The map as the unit's class sees it: a cell is open when it is on the map and its type
// is in the class (a class holding '@' must not open the cells off the map).
struct class_grid {
  const grid_map& map;
  movement_class movement;
  bool blocked(int x, int y) const { return !map.in_bounds(x, y) || !movement.contains(map.terrain_at(x, y)); }
};

// The times t with lo < t < hi, each end a fraction num / den (den > 0) or absent (infinite).
class open_times {
 public:
  // Keeps the t with a t < b.
  void keep_below(std::int64_t a, std::int64_t b) {
    if (a == 0) {
      if (b <= 0) none_ = true;  // 0 < b fails for every t
    } else if (a > 0) {
      tighten(hi_, has_hi_, b, a, true);
    } else {
      tighten(lo_, has_lo_, -b, -a, false);
    }
  }
  // Does the interval meet the closed [0, 1]?
  bool meets_unit_interval() const {
    if (none_) return false;
    if (has_lo_ && has_hi_ && !less(lo_, hi_)) return false;
    if (has_lo_ && !less(lo_, {1, 1})) return false;
    return !has_hi_ || less({0, 1}, hi_);
  }

 private:
  struct fraction {
    std::int64_t num, den;
  };
  // Coordinates are at most kMaxCoordinate (2^28): every product stays below 2^62.
  static bool less(fraction a, fraction b) { return a.num * b.den < b.num * a.den; }
  static void tighten(fraction& end, bool& has, std::int64_t num, std::int64_t den, bool upper) {
    const fraction f{num, den};
    if (!has || (upper ? less(f, end) : less(end, f))) end = f;
    has = true;
  }
  bool none_ = false, has_lo_ = false, has_hi_ = false;
  fraction lo_{0, 1}, hi_{0, 1};
};

// Does the square of side k, its corner moving from p by v, overlap cell c's interior?
bool sweep_overlaps(point p, point v, int k, int cx, int cy) {
  open_times t;
  t.keep_below(v.x, std::int64_t{cx} + 1 - p.x);  // x + t vx < cx + 1
  t.keep_below(-std::int64_t{v.x}, std::int64_t{p.x} + k - cx);  // x + t vx + k > cx
  t.keep_below(v.y, std::int64_t{cy} + 1 - p.y);
  t.keep_below(-std::int64_t{v.y}, std::int64_t{p.y} + k - cy);
  return t.meets_unit_interval();
}

std::string closed_text(const class_grid& g, point c) {
  return "cell " + point_text(c) +
         (g.map.in_bounds(c.x, c.y) ? ", closed to class " + g.movement.name() : ", off the map");
}

std::string square_text(int k) { return std::to_string(k) + "x" + std::to_string(k) + " square"; }

// The first cell of the k x k square of cells from p that is closed, if any.
std::optional<point> closed_in_square(const class_grid& g, point p, int k) {
  for (int dy = 0; dy < k; ++dy)
    for (int dx = 0; dx < k; ++dx)
      if (g.blocked(p.x + dx, p.y + dy)) return point{p.x + dx, p.y + dy};
  return std::nullopt;
}

// Why one move of a cell unit of side k from a to b, both squares open, is illegal; empty
// when legal. The cells the sweep crosses outside both squares are the move's clipped
// cells (two for a diagonal, none for a straight move).
std::string move_problem(const rule& r, const class_grid& g, int k, point a, point b) {
  const point v{b.x - a.x, b.y - a.y};
  if (v.x != 0 && v.y != 0 && r.kind == rule_kind::tile) return "a diagonal move under tile";
  const auto inside = [k](point s, int x, int y) { return x >= s.x && x < s.x + k && y >= s.y && y < s.y + k; };
  int clipped = 0, open = 0;
  std::optional<point> first_closed;
  for (int y = std::min(a.y, b.y); y < std::max(a.y, b.y) + k; ++y)
    for (int x = std::min(a.x, b.x); x < std::max(a.x, b.x) + k; ++x) {
      if (inside(a, x, y) || inside(b, x, y) || !sweep_overlaps(a, v, k, x, y)) continue;
      ++clipped;
      if (!g.blocked(x, y)) ++open;
      else if (!first_closed) first_closed = point{x, y};
    }
  bool ok = true;
  switch (r.corners) {
    case corner_cutting::forbidden: ok = open == clipped; break;
    case corner_cutting::one_side_free: ok = clipped == 0 || open > 0; break;
    case corner_cutting::allowed: ok = true; break;
  }
  if (ok) return "";
  return "the unit's diagonal clips " + closed_text(g, *first_closed) +
         (open == 0 && clipped > 1 ? " and " + std::to_string(clipped - 1) + " more closed" : "") + " (rule " + r.name() +
         ")";
}

// The first closed cell whose interior the square of side k crosses moving from p to q.
// Candidates: for each column, the rows the square can reach while its x span meets the
// column, from the segment's y at the ends of that stretch (a cell beyond on either side);
// each is then decided exactly.
std::optional<point> segment_hit(const class_grid& g, int k, point p, point q) {
  const point v{q.x - p.x, q.y - p.y};
  point a = p, b = q;  // a left of b, for the candidates only
  if (a.x > b.x) std::swap(a, b);
  const std::int64_t dx = std::int64_t{b.x} - a.x, dy = std::int64_t{b.y} - a.y;
  for (std::int64_t cx = std::int64_t{a.x} - 1; cx <= std::int64_t{b.x} + k; ++cx) {
    std::int64_t lo = std::min(a.y, b.y), hi = std::max(a.y, b.y);
    if (dx != 0) {
      const std::int64_t x0 = std::clamp<std::int64_t>(cx - k, a.x, b.x), x1 = std::clamp<std::int64_t>(cx + 1, a.x, b.x);
      const std::int64_t n0 = std::int64_t{a.y} * dx + (x0 - a.x) * dy, n1 = std::int64_t{a.y} * dx + (x1 - a.x) * dy;
      lo = geometry::floor_div(std::min(n0, n1), dx);
      hi = geometry::ceil_div(std::max(n0, n1), dx);
    }
    for (std::int64_t cy = lo - 1; cy <= hi + k; ++cy) {
      const int x = static_cast<int>(cx), y = static_cast<int>(cy);
      if (g.blocked(x, y) && sweep_overlaps(p, v, k, x, y)) return point{x, y};
    }
  }
  return std::nullopt;
}

std::string step_name(std::size_t k) { return "(points " + std::to_string(k) + "-" + std::to_string(k + 1) + ")"; }

}  // namespace

check_result check_unit_polyline(const rule& r, const grid_map& map, const unit& u, std::span<const point> pts,
                                 cell_steps steps) {
  check_result rep;
  auto fail = [&](std::string why) { return check_result{false, std::move(why), 0}; };
  if (u.size < 0 || u.size > unit::kMaxSize)
    return fail("a unit of size " + std::to_string(u.size) + " is outside 0.." + std::to_string(unit::kMaxSize));
  if (pts.empty()) return fail("empty path");
  for (std::size_t i = 0; i < pts.size(); ++i)
    if (std::abs(pts[i].x) > kMaxCoordinate || std::abs(pts[i].y) > kMaxCoordinate)
      return fail("point " + std::to_string(i) + " " + point_text(pts[i]) + " is far off any map");
  const class_grid g{map, u.movement};
  const bool vertices = r.kind == rule_kind::any_angle;
  if (vertices && u.size == 0) return check_polyline(r, g, pts);  // the point's rule, on the class's cells
  const int k = vertices ? u.size : std::max(u.size, 1);
  for (std::size_t i = 0; i < pts.size(); ++i)
    if (const std::optional<point> c = closed_in_square(g, pts[i], k))
      return fail("point " + std::to_string(i) + " " + point_text(pts[i]) + ": the unit's " + square_text(k) +
                  " holds " + closed_text(g, *c));
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
    const point p = pts[i], q = pts[i + 1];
    const std::int64_t dx = std::int64_t{q.x} - p.x, dy = std::int64_t{q.y} - p.y;
    if (dx == 0 && dy == 0) return fail("repeated point " + point_text(p) + " at " + std::to_string(i + 1));
    if (vertices) {
      if (const std::optional<point> c = segment_hit(g, k, p, q))
        return fail("illegal segment " + point_text(p) + "-" + point_text(q) + " " + step_name(i) + ": the unit's " +
                    square_text(k) + " crosses " + closed_text(g, *c));
      rep.length += std::sqrt(static_cast<double>(dx) * static_cast<double>(dx) + static_cast<double>(dy) * static_cast<double>(dy));
      continue;
    }
    const std::int64_t n = std::max(std::abs(dx), std::abs(dy));
    if (steps == cell_steps::unit && n != 1)
      return fail(point_text(p) + "-" + point_text(q) + " " + step_name(i) + " are not one unit move apart");
    if (!(dx == 0 || dy == 0 || std::abs(dx) == std::abs(dy)))
      return fail(point_text(p) + "-" + point_text(q) + " " + step_name(i) + " are not joined by a straight run of unit moves");
    const int sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
    point c = p;
    for (std::int64_t s = 0; s < n; ++s) {
      const point next{c.x + sx, c.y + sy};
      // A run's inner points are the unit's too: their squares must be open.
      if (const std::optional<point> closed = closed_in_square(g, next, k))
        return fail("illegal move " + point_text(c) + "-" + point_text(next) + " " + step_name(i) + ": the unit's " +
                    square_text(k) + " at " + point_text(next) + " holds " + closed_text(g, *closed));
      if (std::string why = move_problem(r, g, k, c, next); !why.empty())
        return fail("illegal move " + point_text(c) + "-" + point_text(next) + " " + step_name(i) + ": " + why);
      rep.length += move_length(r, c, next);
      c = next;
    }
  }
  rep.valid = true;
  return rep;
}

bool unit_path_ok(const rule& r, const grid_map& map, const unit& u, std::span<const point> path, std::string* why,
                  cell_steps steps) {
  check_result c = check_unit_polyline(r, map, u, path, steps);
  if (!c.valid && why) *why = std::move(c.error);
  return c.valid;
}

}  // namespace lddb::checker
