// Pulling an any-angle path tight around the obstacle corners it passes: after jump point
// search on the cells (jump_any_angle.cpp), and after smoothing any other search's path
// (smooth.cpp's finish_path).
//
// Pulling tight. At each inner waypoint v between the last kept point a and the next b:
// drop v when a sees b; else turn first at the corner of a blocked cell inside triangle
// (a, v, b) that a sees farthest toward v (tangent): the first turn of the shortest path
// from a to b that keeps the triangle's obstacles on the side a -> v -> b keeps them.
// Every new segment and turn is checked (segment_legal, turn_legal); a change that fails
// is not made, so the path stays legal, and it never gets longer (each change replaces
// two sides of a triangle by a path inside it). Passes repeat until none changes a
// waypoint (each waypoint then turns around an obstacle on the inside of its turn: the
// path is locally shortest, so the shortest of its way round the obstacles), then the
// waypoints left in line go, and all again while that shortens the path; a bound on the
// passes and rounds keeps a query's time bounded should they not settle.
#include "path/pull_tight.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>

#include "lddb/search.hpp"
#include "lddb/segments.hpp"

namespace lddb {

namespace {

// The first (last) blocked cell of row y in [lo, hi], or hi + 1 (lo - 1): 64 cells a step.
int first_blocked(const grid_map& map, int y, int lo, int hi) {
  for (int x = lo; x <= hi; x += 64) {
    std::uint64_t w = map.row_bits(x, y);
    if (hi - x < 63) w &= (std::uint64_t{1} << (hi - x + 1)) - 1;
    if (w != 0) return x + std::countr_zero(w);
  }
  return hi + 1;
}
int last_blocked(const grid_map& map, int y, int lo, int hi) {
  for (int x = hi; x >= lo; x -= 64) {
    const int from = x - 63;
    std::uint64_t w = map.row_bits(from, y);
    if (from < lo) w &= ~std::uint64_t{0} << (lo - from);
    if (w != 0) return from + 63 - std::countl_zero(w);
  }
  return lo - 1;
}

std::int64_t orient(point a, point b, point c) {
  return std::int64_t(b.x - a.x) * (c.y - a.y) - std::int64_t(b.y - a.y) * (c.x - a.x);
}

}  // namespace

bool on_segment(point a, point b, point q) {
  return orient(a, b, q) == 0 && (q.x - a.x) * (q.x - b.x) <= 0 && (q.y - a.y) * (q.y - b.y) <= 0;
}

namespace {

// Triangle (a, v, b), not degenerate: each side k runs from corner[k] to corner[k + 1], the
// inside on the left of s.
struct triangle {
  point corner[3];
  std::int64_t s;
  triangle(point a, point v, point b) : corner{a, b, v}, s(orient(a, b, v) > 0 ? 1 : -1) {}
  // Cell (x, y) reaches into the triangle. A cell whose four corners all lie on or outside
  // one side does not (separating axes: the rows and columns a scan reads already hold it).
  bool reached_by(int x, int y) const {
    for (int k = 0; k < 3; ++k) {
      const point p = corner[k], q = corner[(k + 1) % 3];
      if (orient(p, q, {x, y}) * s <= 0 && orient(p, q, {x + 1, y}) * s <= 0 && orient(p, q, {x, y + 1}) * s <= 0 &&
          orient(p, q, {x + 1, y + 1}) * s <= 0)
        return false;
    }
    return true;
  }
  // Point p lies in the closed triangle.
  bool holds(point p) const {
    return orient(corner[0], corner[1], p) * s >= 0 && orient(corner[1], corner[2], p) * s >= 0 &&
           orient(corner[2], corner[0], p) * s >= 0;
  }
};

// Waypoint v turns at a corner of its own: one of its four cells is blocked and reaches into
// triangle (a, v, b). Then v is the corner tangent() finds (no corner inside the triangle
// lies farther toward v as a sees it than v itself), so the scan is not needed: most
// waypoints of a smoothed path are such turns.
bool turns_at_own_corner(const grid_map& map, point a, point v, point b) {
  if (orient(a, b, v) == 0) return false;
  const triangle t(a, v, b);
  for (int dy = -1; dy <= 0; ++dy)
    for (int dx = -1; dx <= 0; ++dx)
      if (map.blocked(v.x + dx, v.y + dy) && t.reached_by(v.x + dx, v.y + dy)) return true;
  return false;
}

// The corner of a blocked cell reaching into triangle (a, v, b) that a sees farthest toward
// v (of those in line with a, the farthest or the nearest), or a when no blocked cell
// reaches in.
point tangent(const grid_map& map, point a, point v, point b, bool farthest) {
  if (orient(a, b, v) == 0) return a;
  const triangle t(a, v, b);
  const point(&tri)[3] = t.corner;
  point best = a;
  const auto consider = [&](point p) {
    if (p == a || !t.holds(p)) return;
    const std::int64_t o = orient(a, best, p) * t.s;
    const int dp = std::abs(p.x - a.x) + std::abs(p.y - a.y), db = std::abs(best.x - a.x) + std::abs(best.y - a.y);
    if (best == a || o > 0 || (o == 0 && (farthest ? dp > db : dp < db))) best = p;
  };
  const int x0 = std::min({a.x, v.x, b.x}), x1 = std::max({a.x, v.x, b.x});
  const int y0 = std::min({a.y, v.y, b.y}), y1 = std::max({a.y, v.y, b.y});
  // The triangle's x-extent on the grid line y: where its sides cross it.
  double slope[3];
  for (int k = 0; k < 3; ++k) {
    const point p = tri[k], q = tri[(k + 1) % 3];
    slope[k] = p.y == q.y ? 0.0 : double(q.x - p.x) / double(q.y - p.y);
  }
  const auto extent = [&](int y, double& lo, double& hi) {
    for (int k = 0; k < 3; ++k) {
      const point p = tri[k], q = tri[(k + 1) % 3];
      if ((y - p.y) * (y - q.y) > 0) continue;
      if (p.y == q.y) {
        lo = std::min(lo, double(std::min(p.x, q.x))), hi = std::max(hi, double(std::max(p.x, q.x)));
        continue;
      }
      const double at = p.x + slope[k] * (y - p.y);
      lo = std::min(lo, at), hi = std::max(hi, at);
    }
  };
  double top_lo = x1, top_hi = x0;
  extent(y0, top_lo, top_hi);
  for (int y = y0; y < y1; ++y) {
    double lo = x1, hi = x0, next_lo = x1, next_hi = x0;
    extent(y + 1, next_lo, next_hi);
    lo = std::min(top_lo, next_lo), hi = std::max(top_hi, next_hi);
    top_lo = next_lo, top_hi = next_hi;
    const int cl = std::max(x0, static_cast<int>(std::floor(lo)));
    const int cr = std::min(x1 - 1, static_cast<int>(std::ceil(hi)) - 1);
    if (cl > cr) continue;
    // On a line of the grid the corner a sees farthest toward v lies at an end, so a row's
    // first and last blocked cells that reach in are all it can offer.
    int x = first_blocked(map, y, cl, cr);
    while (x <= cr && !t.reached_by(x, y)) x = first_blocked(map, y, x + 1, cr);
    if (x > cr) continue;
    int last = last_blocked(map, y, x, cr);
    while (last > x && !t.reached_by(last, y)) last = last_blocked(map, y, x, last - 1);
    for (int c : {x, last}) {
      consider({c, y});
      consider({c + 1, y});
      consider({c, y + 1});
      consider({c + 1, y + 1});
    }
  }
  return best;
}

// One pass of pulling tight (see the top of the file) from `in` into `out`. `judged[i]`
// holds the neighbours waypoint i was last kept between; a waypoint between the same two
// is kept again unexamined. Returns whether anything changed.
bool pull_tight(const rule& r, const grid_map& map, const std::vector<point>& in, std::vector<point>& out,
                std::vector<point>& judged, std::vector<point>& judged_out, std::size_t limit, std::uint64_t& los) {
  bool changed = false;
  out.clear();
  judged_out.clear();
  out.push_back(in[0]);
  judged_out.push_back(in[0]), judged_out.push_back(in[0]);
  const auto legal = [&](point from, point to) {
    ++los;
    return segment_legal(r, map, from.x, from.y, to.x, to.y);
  };
  const auto turn_ok = [&](point prev, point at, point next) {
    return turn_legal(r, map, prev.x, prev.y, at.x, at.y, next.x, next.y);
  };
  const auto keep = [&](point p, point before, point after) {
    out.push_back(p);
    judged_out.push_back(before), judged_out.push_back(after);
  };
  std::size_t i = 1;
  while (i + 1 < in.size()) {
    const point a = out.back(), v = in[i], b = in[i + 1];
    if (judged[2 * i] == a && judged[2 * i + 1] == b) {
      keep(v, a, b);
      ++i;
      continue;
    }
    const bool first = out.size() < 2;
    const point before = first ? a : out[out.size() - 2];
    // A waypoint in line between its neighbours shortens nothing by going: it stays, for
    // a turn after it may yet be pulled to it (drop_in_line removes those left).
    if (!on_segment(a, b, v) && !(a == b) && legal(a, b) && (first || turn_ok(before, a, b)) &&
        (i + 2 >= in.size() || turn_ok(a, b, in[i + 2]))) {
      ++i;  // a sees b: v goes
      changed = true;
      continue;
    }
    // Of corners in line, the string bends at the farthest (it runs along the others); when
    // the straight run to it is not legal (a double corner on the way), at the nearest.
    if (turns_at_own_corner(map, a, v, b)) {
      keep(v, a, b);
      ++i;
      continue;
    }
    point c = tangent(map, a, v, b, true);
    if (!(c == a) && !(c == v) && !legal(a, c)) c = tangent(map, a, v, b, false);
    // (A turn is inserted only while the pass's output stays within the limit.)
    if (!(c == a) && !(c == v) && out.size() + (in.size() - i) < limit && legal(a, c) && legal(c, v) &&
        (first || turn_ok(before, a, c)) && turn_ok(a, c, v) && turn_ok(c, v, b)) {
      keep(c, point{-1, -1}, point{-1, -1});  // never judged: examined again next pass
      changed = true;
      continue;
    }
    keep(v, a, b);
    ++i;
  }
  out.push_back(in.back());
  judged_out.push_back(in.back()), judged_out.push_back(in.back());
  return changed;
}

// Copies `in` to `out` without the waypoints in line between their neighbours where the
// path may pass straight through them (turn_legal). Returns whether any went.
bool drop_in_line(const rule& r, const grid_map& map, const std::vector<point>& in, std::vector<point>& out) {
  out.clear();
  for (std::size_t k = 0; k < in.size(); ++k) {
    if (k > 0 && k + 1 < in.size()) {
      const point a = out.back(), v = in[k], b = in[k + 1];
      if (on_segment(a, b, v) && turn_legal(r, map, a.x, a.y, v.x, v.y, b.x, b.y))
        continue;
    }
    out.push_back(in[k]);
  }
  return out.size() != in.size();
}

}  // namespace

std::size_t pull_limit(const grid_map& map) {
  return 8 * (static_cast<std::size_t>(map.width()) + static_cast<std::size_t>(map.height())) + 64;
}

void pull_scratch::reserve(const grid_map& map) {
  const std::size_t n = pull_limit(map);
  for (std::vector<point>* v : {&in, &out, &judged, &judged_out}) {
    const std::size_t want = v == &judged || v == &judged_out ? 2 * n : n;
    if (v->capacity() < want) {
      v->assign(want, point{});  // written once: the pages are in memory
      v->clear();
    }
  }
}

std::size_t pull_scratch::bytes() const {
  return (in.capacity() + out.capacity() + judged.capacity() + judged_out.capacity()) * sizeof(point);
}

void pull_tight_in_place(const rule& r, const grid_map& map, pull_scratch& s, std::uint64_t& los) {
  std::vector<point>& p = s.in;
  const std::size_t limit = pull_limit(map);
  if (p.size() < 3 || p.size() > limit) return;
  // Passes until nothing changes; then the waypoints left in line between their neighbours
  // (kept while a turn after them might be pulled to them) go, and if any went, again.
  // A round that does not shorten the path ends it (a waypoint dropped in line may come
  // back as the same turn).
  double length = path_length(p);
  for (int round = 0; round < 16; ++round) {
    s.judged.assign(2 * p.size(), point{-1, -1});
    for (int pass = 0; pass < 64 && p.size() >= 3; ++pass) {
      const bool changed = pull_tight(r, map, p, s.out, s.judged, s.judged_out, limit, los);
      p.swap(s.out);
      s.judged.swap(s.judged_out);
      if (!changed) break;
    }
    const bool dropped = drop_in_line(r, map, p, s.out);
    if (dropped) p.swap(s.out);
    const double now = path_length(p);
    if (!dropped || !(now < length - 1e-9)) break;
    length = now;
  }
}

void pull_path_tight(const rule& r, const grid_map& map, std::vector<point>& path, pull_scratch& s,
                     std::uint64_t& los) {
  // The passes go between the scratch's buffers; `path` keeps its own.
  s.in.assign(path.begin(), path.end());
  pull_tight_in_place(r, map, s, los);
  path.assign(s.in.begin(), s.in.end());
}

}  // namespace lddb
