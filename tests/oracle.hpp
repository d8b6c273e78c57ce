// oracle.hpp: an independent checker of the movement rules, block distances and paths.
//
// Written straight from docs/rules.md and on purpose apart from lddb/moves.hpp and lddb/segments.hpp: nothing
// here calls step_legal, segment_legal, vertex_usable, euclid_cost or step_cost, nor the
// generator. The move, segment and path checks are the product's path checker
// (lddb/checker.hpp, library lddb_checker), which is held to the same rule; this header
// adds the grids and the reference searches. Where segments.hpp walks a segment column by
// column, the checker decides each question separately and exactly, on integers:
//   rule 1  for every cell near the segment, does the open segment meet the open unit
//           square? (separating axis test on the square's two axes and the segment's
//           normal; exact for open convex sets)
//   rule 2  for every unit lattice edge near the segment, do both its end points lie on
//           the closed segment? then the segment runs along it
//   rule 3  for every lattice point near the segment, is it strictly inside the segment?
// Block distances are plain Dijkstra in double precision on the pattern's own graph
// (cells: unit moves; vertices: the visibility graph on all (b+1)^2 lattice vertices).
// Under the default any-angle rule a double corner is two graph nodes, one per free side
// (lddb::checker::cell_beside names the side a segment is on), and a segment joins the
// nodes of the sides it lies on, so no path crosses a double corner; a start or goal is the
// node of its own (south-east) cell's side.
// Only data definitions are taken from the library: lddb::rule, lddb::point and the
// boundary order of lddb::block_shape (which tests check against docs separately).
//
// Coordinates: x east, y south, (0,0) top-left; vertex (x, y) is the top-left corner of
// cell (x, y). Outside a grid everything counts as blocked.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "lddb/checker.hpp"
#include "lddb/cost.hpp"
#include "lddb/rule.hpp"
#include "lddb/point.hpp"
#include "lddb/block_shape.hpp"

namespace oracle {

using lddb::point;
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// ----------------------------------------------------------------------------- grids

// A rectangular grid of cells; outside counts as blocked.
class grid {
 public:
  grid() = default;
  grid(int w, int h) : w_(w), h_(h), cells_(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0) {}

  // A block pattern as a grid: bit (y*b + x) of code set = cell (x, y) blocked.
  static grid from_pattern(std::uint32_t code, int b) {
    grid g(b, b);
    for (int y = 0; y < b; ++y)
      for (int x = 0; x < b; ++x) g.set_blocked(x, y, (code >> (y * b + x)) & 1u);
    return g;
  }
  // Rows of a Moving AI map body: '.', 'G', 'S' are passable, anything else blocked.
  static grid from_rows(const std::vector<std::string>& rows) {
    const int h = static_cast<int>(rows.size());
    const int w = h ? static_cast<int>(rows[0].size()) : 0;
    grid g(w, h);
    for (int y = 0; y < h; ++y) {
      if (static_cast<int>(rows[static_cast<std::size_t>(y)].size()) != w) throw std::invalid_argument("ragged rows");
      for (int x = 0; x < w; ++x) {
        const char c = rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)];
        g.set_blocked(x, y, !(c == '.' || c == 'G' || c == 'S'));
      }
    }
    return g;
  }

  int width() const { return w_; }
  int height() const { return h_; }
  bool blocked(int x, int y) const {
    if (x < 0 || y < 0 || x >= w_ || y >= h_) return true;
    return cells_[static_cast<std::size_t>(y) * static_cast<std::size_t>(w_) + static_cast<std::size_t>(x)] != 0;
  }
  void set_blocked(int x, int y, bool v = true) {
    cells_.at(static_cast<std::size_t>(y) * static_cast<std::size_t>(w_) + static_cast<std::size_t>(x)) = v ? 1 : 0;
  }

 private:
  int w_ = 0, h_ = 0;
  std::vector<std::uint8_t> cells_;
};

// A block pattern viewed as a grid without copying.
struct pattern_view {
  std::uint32_t code = 0;
  int b = 0;
  bool blocked(int x, int y) const {
    if (x < 0 || y < 0 || x >= b || y >= b) return true;
    return (code >> (y * b + x)) & 1u;
  }
};

// ----------------------------------------------------------------------------- rules

// A readable description of a rule for failure messages (independent of rule::name()).
inline std::string rule_label(const lddb::rule& r) {
  switch (r.kind) {
    case lddb::rule_kind::tile:
      return "tile";
    case lddb::rule_kind::octile:
      return std::string("octile(corners=") +
             (r.corners == lddb::corner_cutting::forbidden       ? "forbidden"
              : r.corners == lddb::corner_cutting::one_side_free ? "one-side-free"
                                                                  : "allowed") +
             ",diagonal=" + std::to_string(static_cast<double>(r.diagonal) / 4294967296.0) + ")";
    case lddb::rule_kind::any_angle:
      return std::string("any-angle(squeeze=") + (r.squeeze == lddb::squeezing::allowed ? "allowed" : "forbidden") + ")";
  }
  return "?";
}

// The checking itself (moves, vertices, exact segment geometry, whole paths) is the
// product's independent path checker, lddb/checker.hpp (library lddb_checker); the oracle
// adds the searches it is compared with.
using lddb::checker::cell_beside;
using lddb::checker::diagonal_length;
using lddb::checker::double_corner;
using lddb::checker::endpoint_ok;
using lddb::checker::move_length;
using lddb::checker::move_ok;
using lddb::checker::segment_geometry;
using lddb::checker::segment_geometry_of;
using lddb::checker::segment_ok;
using lddb::checker::sides_matter;
using lddb::checker::vertex_ok;
namespace geometry = lddb::checker::geometry;

// ----------------------------------------------------------------------------- paths on a grid

struct path_report {
  bool ok = false;
  double length = 0;
  std::string why;  // empty when ok
};

namespace detail {
inline std::string pt(point p) { return lddb::checker::point_text(p); }
}  // namespace detail

// The graph node side of vertex v for a segment from v toward t: 1 when the rule gives v
// two sides and the segment is beside the free cell in the row below v, else 0.
template <class Grid>
int side_toward(const lddb::rule& r, const Grid& g, point v, point t) {
  return sides_matter(r, g, v) && cell_beside(g, v, t).y == v.y ? 1 : 0;
}
// The side of a start or goal at v: its own (south-east) cell's.
template <class Grid>
int own_side(const lddb::rule& r, const Grid& g, point v) {
  return sides_matter(r, g, v) ? 1 : 0;
}

// Checks a polyline (all points, start and goal included) under a rule on a grid and
// returns its length. Cells (tile, octile): consecutive points must be joined by a
// straight run of identical unit moves, each legal. Vertices (any-angle): each segment
// must be legal and, under the default rule, the path keeps to one side of every double
// corner, its first and last points as a start and a goal. Repeated consecutive points
// are rejected.
template <class Grid>
path_report check_path(const lddb::rule& r, const Grid& g, std::span<const point> pts) {
  const lddb::check_result c = lddb::checker::check_polyline(r, g, pts, lddb::cell_steps::runs);
  return path_report{c.valid, c.length, c.error};
}

// Least cost from start to goal on a whole (small) grid: Dijkstra over cells with unit
// moves (tile, octile), or over the visibility graph of all usable vertices, a double
// corner counting as one node per side (any-angle; O(V^2) segment checks, for maps of a
// few hundred cells). +inf when unreachable, or when the start or goal may not stand where
// it is.
template <class Grid>
double least_cost(const lddb::rule& r, const Grid& g, int width, int height, point start, point goal) {
  const bool vertices = r.kind == lddb::rule_kind::any_angle;
  const int w = vertices ? width + 1 : width, h = vertices ? height + 1 : height;
  auto inside = [&](point p) { return p.x >= 0 && p.y >= 0 && p.x < w && p.y < h; };
  auto usable = [&](point p) { return vertices ? vertex_ok(g, p) : !g.blocked(p.x, p.y); };
  if (!inside(start) || !inside(goal) || !usable(start) || !usable(goal)) return kInf;
  if (vertices && (!endpoint_ok(r, g, start) || !endpoint_ok(r, g, goal))) return kInf;
  // Node 2*(y*w + x) + side; cells and one-sided vertices use side 0 only.
  const int n = 2 * w * h;
  std::vector<double> dist(static_cast<std::size_t>(n), kInf);
  std::vector<char> done(static_cast<std::size_t>(n), 0);
  auto node = [&](point p, int side) { return static_cast<std::size_t>(2 * (p.y * w + p.x) + side); };
  for (int k = 0; k < w * h; ++k)  // side 1 exists only at a two-sided double corner
    if (!vertices || !sides_matter(r, g, point{k % w, k / w})) done[static_cast<std::size_t>(2 * k + 1)] = 1;
  const int start_side = vertices ? own_side(r, g, start) : 0, goal_side = vertices ? own_side(r, g, goal) : 0;
  dist[node(start, start_side)] = 0;
  for (;;) {
    int u = -1;
    for (int k = 0; k < n; ++k)
      if (!done[static_cast<std::size_t>(k)] && dist[static_cast<std::size_t>(k)] < kInf &&
          (u < 0 || dist[static_cast<std::size_t>(k)] < dist[static_cast<std::size_t>(u)]))
        u = k;
    if (u < 0) return kInf;
    const point p{(u / 2) % w, (u / 2) / w};
    const int side = u % 2;
    if (p == goal && side == goal_side) return dist[static_cast<std::size_t>(u)];
    done[static_cast<std::size_t>(u)] = 1;
    const double du = dist[static_cast<std::size_t>(u)];
    if (vertices) {
      for (int k = 0; k < w * h; ++k) {
        const point q{k % w, k / w};
        if (q == p || (done[node(q, 0)] && done[node(q, 1)]) || !usable(q) || side_toward(r, g, p, q) != side ||
            !segment_ok(r, g, p, q))
          continue;
        const std::size_t to = node(q, side_toward(r, g, q, p));
        const double dx = q.x - p.x, dy = q.y - p.y;
        if (!done[to]) dist[to] = std::min(dist[to], du + std::sqrt(dx * dx + dy * dy));
      }
    } else {
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const point q{p.x + dx, p.y + dy};
          if (!inside(q) || !move_ok(r, g, p, q)) continue;
          dist[node(q, 0)] = std::min(dist[node(q, 0)], du + move_length(r, p, q));
        }
    }
  }
}
inline double least_cost(const lddb::rule& r, const grid& g, point start, point goal) {
  return least_cost(r, g, g.width(), g.height(), start, goal);
}

// ----------------------------------------------------------------------------- blocks

// Least costs and path checks inside one block pattern (outside the block is blocked).
// Construct once per (rule, b); all_pairs and check_path are then cheap and const.
class block_oracle {
 public:
  block_oracle(const lddb::rule& r, int b)
      : rule_(r), b_(b), vertices_(r.kind == lddb::rule_kind::any_angle), shape_(b, vertices_) {
    side_ = vertices_ ? b + 1 : b;
    const int v = side_ * side_;
    if (vertices_) {
      seg_.resize(static_cast<std::size_t>(v) * static_cast<std::size_t>(v));
      for (int i = 0; i < v; ++i)
        for (int j = 0; j < v; ++j) {
          if (i == j) continue;
          const point a = at(i), c = at(j);
          const segment_geometry geo = segment_geometry_of(a, c);
          compact_segment& s = seg_[static_cast<std::size_t>(i * v + j)];
          for (const point& cell : geo.cells) {
            if (!inside_cells(cell)) throw std::logic_error("segment inside the block leaves it");
            s.cell_mask |= 1u << (cell.y * b_ + cell.x);
          }
          for (const auto& e : geo.edges) s.edges.push_back({cell_index(e[0]), cell_index(e[1])});
          for (const point& t : geo.through)
            s.through.push_back({cell_index({t.x - 1, t.y - 1}), cell_index({t.x, t.y - 1}), cell_index({t.x - 1, t.y}),
                                 cell_index({t.x, t.y})});
          const double dx = c.x - a.x, dy = c.y - a.y;
          s.length = std::sqrt(dx * dx + dy * dy);
        }
    }
  }

  const lddb::rule& rule() const { return rule_; }
  int block() const { return b_; }
  int side() const { return side_; }
  bool vertices() const { return vertices_; }
  int boundary_count() const { return shape_.boundary_count(); }
  point boundary_point(int i) const { return shape_.boundary_point(i); }

  bool point_usable(std::uint32_t code, point p) const {
    const pattern_view g{code, b_};
    return vertices_ ? vertex_ok(g, p) : !g.blocked(p.x, p.y);
  }

  // Is the straight segment between vertices p and q of the block legal in this pattern?
  bool segment_legal(std::uint32_t code, point p, point q) const {
    if (p == q) return point_usable(code, p);
    if (!inside_points(p) || !inside_points(q)) return false;
    return compact_ok(code, seg_[static_cast<std::size_t>(index(p) * side_ * side_ + index(q))]);
  }

  // Least cost between every two boundary points, n*n row-major (n = boundary_count());
  // +inf when unreachable; the diagonal is 0 for a usable point and +inf otherwise.
  std::vector<double> all_pairs(std::uint32_t code) const {
    const int n = boundary_count();
    std::vector<double> out(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), kInf);
    const int v = side_ * side_;
    const pattern_view g{code, b_};
    // Graph nodes: first[u] for point u, and first[u] + 1 for the second side of a double
    // corner. A boundary point is never a double corner of the block alone (the outside
    // counts as blocked), so it is one node.
    std::vector<int> first_node(static_cast<std::size_t>(v) + 1);
    auto first = [&](int u) -> int& { return first_node[static_cast<std::size_t>(u)]; };
    for (int u = 0; u < v; ++u) first(u + 1) = first(u) + (vertices_ && sides_matter(rule_, g, at(u)) ? 2 : 1);
    const int nodes = first(v);
    // adjacency: weight[from*nodes + to], +inf when no edge
    std::vector<double> weight(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(nodes), kInf);
    auto edge = [&](int from, int to) -> double& {
      return weight[static_cast<std::size_t>(from) * static_cast<std::size_t>(nodes) + static_cast<std::size_t>(to)];
    };
    for (int u = 0; u < v; ++u) {
      if (!point_usable(code, at(u))) continue;
      const point p = at(u);
      if (vertices_) {
        for (int w = 0; w < v; ++w) {
          if (w == u) continue;
          const compact_segment& s = seg_[static_cast<std::size_t>(u * v + w)];
          if (!compact_ok(code, s)) continue;
          const point q = at(w);
          edge(first(u) + side_toward(rule_, g, p, q), first(w) + side_toward(rule_, g, q, p)) = s.length;
        }
      } else {
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const point q{p.x + dx, p.y + dy};
            if (!inside_points(q) || !move_ok(rule_, g, p, q)) continue;
            edge(first(u), first(index(q))) = move_length(rule_, p, q);
          }
      }
    }
    std::vector<double> dist(static_cast<std::size_t>(nodes));
    std::vector<char> done(static_cast<std::size_t>(nodes));
    for (int i = 0; i < n; ++i) {
      const int src = index(boundary_point(i));
      if (!point_usable(code, at(src))) continue;
      std::fill(dist.begin(), dist.end(), kInf);
      std::fill(done.begin(), done.end(), 0);
      dist[static_cast<std::size_t>(first(src))] = 0;
      for (;;) {
        int u = -1;
        for (int k = 0; k < nodes; ++k)
          if (!done[static_cast<std::size_t>(k)] && dist[static_cast<std::size_t>(k)] < kInf &&
              (u < 0 || dist[static_cast<std::size_t>(k)] < dist[static_cast<std::size_t>(u)]))
            u = k;
        if (u < 0) break;
        done[static_cast<std::size_t>(u)] = 1;
        const double du = dist[static_cast<std::size_t>(u)];
        for (int w = 0; w < nodes; ++w) {
          const double wt = edge(u, w);
          if (wt < kInf && du + wt < dist[static_cast<std::size_t>(w)]) dist[static_cast<std::size_t>(w)] = du + wt;
        }
      }
      for (int j = 0; j < n; ++j)
        out[static_cast<std::size_t>(i * n + j)] = dist[static_cast<std::size_t>(first(index(boundary_point(j))))];
    }
    return out;
  }

  // Checks the path from boundary point i to boundary point j given by its inflection
  // points (i and j themselves excluded), and returns its length. Points must lie in the
  // block; the moves or segments must be legal in this pattern.
  path_report check_path(std::uint32_t code, int i, int j, std::span<const point> inflections) const {
    path_report rep;
    const point a = boundary_point(i), z = boundary_point(j);
    const std::size_t m = inflections.size() + 2;
    auto get = [&](std::size_t k) { return k == 0 ? a : (k + 1 == m ? z : inflections[k - 1]); };
    if (!point_usable(code, a) || !point_usable(code, z)) {
      rep.why = "end point not usable";
      return rep;
    }
    for (std::size_t k = 0; k < m; ++k)
      if (!inside_points(get(k))) {
        rep.why = "point " + detail::pt(get(k)) + " outside the block";
        return rep;
      }
    if (!vertices_) {
      std::vector<point> all(m);
      for (std::size_t k = 0; k < m; ++k) all[k] = get(k);
      return oracle::check_path(rule_, pattern_view{code, b_}, std::span<const point>(all));
    }
    for (std::size_t k = 0; k + 1 < m; ++k) {
      const point p = get(k), q = get(k + 1);
      if (p == q) {
        rep.why = "repeated point " + detail::pt(p);
        return rep;
      }
      const compact_segment& s = seg_[static_cast<std::size_t>(index(p) * side_ * side_ + index(q))];
      if (!compact_ok(code, s)) {
        rep.why = "illegal segment " + detail::pt(p) + "-" + detail::pt(q);
        return rep;
      }
      if (k > 0 && !lddb::checker::turn_ok(rule_, pattern_view{code, b_}, get(k - 1), p, q)) {
        rep.why = "crosses the double corner " + detail::pt(p);
        return rep;
      }
      rep.length += s.length;
    }
    rep.ok = true;
    return rep;
  }

 private:
  struct compact_segment {
    std::uint32_t cell_mask = 0;               // rule 1: cells whose interior it meets
    std::vector<std::array<int, 2>> edges;     // rule 2: cell indices, -1 outside the block
    std::vector<std::array<int, 4>> through;   // rule 3: nw, ne, sw, se cell indices, -1 outside
    double length = 0;
  };

  point at(int idx) const { return point{idx % side_, idx / side_}; }
  int index(point p) const { return p.y * side_ + p.x; }
  bool inside_points(point p) const { return p.x >= 0 && p.y >= 0 && p.x < side_ && p.y < side_; }
  bool inside_cells(point c) const { return c.x >= 0 && c.y >= 0 && c.x < b_ && c.y < b_; }
  int cell_index(point c) const { return inside_cells(c) ? c.y * b_ + c.x : -1; }
  static bool cell_blocked(std::uint32_t code, int idx) { return idx < 0 || ((code >> idx) & 1u); }

  bool compact_ok(std::uint32_t code, const compact_segment& s) const {
    if (code & s.cell_mask) return false;
    for (const auto& e : s.edges)
      if (cell_blocked(code, e[0]) && cell_blocked(code, e[1])) return false;
    if (rule_.squeeze != lddb::squeezing::allowed)
      for (const auto& t : s.through)
        if ((cell_blocked(code, t[0]) && cell_blocked(code, t[3])) || (cell_blocked(code, t[1]) && cell_blocked(code, t[2])))
          return false;
    return true;
  }

  lddb::rule rule_;
  int b_, side_ = 0;
  bool vertices_;
  lddb::block_shape shape_;
  std::vector<compact_segment> seg_;  // vertices only: [from * V + to]
};

// Convenience forms (each builds a block_oracle; keep one around for many calls).
inline std::vector<double> block_all_pairs(const lddb::rule& r, int b, std::uint32_t code) {
  return block_oracle(r, b).all_pairs(code);
}
inline path_report check_block_path(const lddb::rule& r, int b, std::uint32_t code, int i, int j,
                                    std::span<const point> inflections) {
  return block_oracle(r, b).check_path(code, i, j, inflections);
}

}  // namespace oracle
