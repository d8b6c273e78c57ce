// lddb/rules.hpp: the movement rules and the geometry of a block.
//
// This is the one implementation of each movement rule. The generator, Block A*'s
// start/goal initialisation and the reference searches all call it, so they cannot
// disagree about which move or segment is legal or what it costs. (The path checker is
// written apart on purpose, so that it can catch them when they are wrong.)
//
// Coordinates follow SEMANTICS.md: x is the column (east), y the row (south), (0,0) is
// top-left. Cells and vertices share the lattice: vertex (x, y) is the top-left corner
// of cell (x, y). Every grid given to these functions answers blocked(x, y) for any
// integer x, y, and counts everything outside itself as blocked.
//
// Costs are fixed-point integers (cost_t, one unit of length = kCostOne), so every search
// compares the same integers on every platform and thread count.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>

namespace lddb {

// ----------------------------------------------------------------------------- costs

using cost_t = std::uint64_t;
inline constexpr int kCostShift = 32;
inline constexpr cost_t kCostOne = cost_t{1} << kCostShift;
inline constexpr cost_t kUnreachable = ~cost_t{0};
// round(sqrt(2) * 2^32), the default octile diagonal.
inline constexpr cost_t kSqrt2Cost = 6074001000ull;

// Euclidean length of a lattice vector in cost units, rounded to nearest. sqrt is
// correctly rounded by IEEE 754 and the scaling is exact, so the result is the same on
// every platform. For lengths below 2^20 the scaled value is below 2^52, where adding
// 0.5 is exact, so truncating that sum rounds exactly like llround, without the call; and
// it is below 2^63, so it converts as a signed value, in one instruction.
// euclid_cost_of_squared takes dx * dx + dy * dy, already a double.
inline cost_t euclid_cost_of_squared(double squared) {
  return static_cast<cost_t>(static_cast<std::int64_t>(std::sqrt(squared) * static_cast<double>(kCostOne) + 0.5));
}
inline cost_t euclid_cost(std::int64_t dx, std::int64_t dy) {
  return euclid_cost_of_squared(static_cast<double>(dx * dx + dy * dy));
}

// A length in cost units rounded to the nearest multiple of 2^-scale_log2, counted in those
// multiples: how an any-angle database stores a length (the generator), and how Block A*
// prices the straight segments of an open square so that they match the database's.
inline cost_t round_to_units(cost_t c, int scale_log2) {
  const int shift = kCostShift - scale_log2;
  return (c + (cost_t{1} << (shift - 1))) >> shift;
}

inline double cost_to_double(cost_t c) { return static_cast<double>(c) / static_cast<double>(kCostOne); }

// ----------------------------------------------------------------------------- rules

enum class rule_kind : std::uint8_t { tile = 0, octile = 1, any_angle = 2 };

// Octile: may a diagonal move pass beside blocked cells?
enum class corner_cutting : std::uint8_t {
  forbidden = 0,      // both side cells must be free (Moving AI / GPPC; the default)
  one_side_free = 1,  // at least one side cell must be free
};

// Any-angle: may a segment pass through a vertex between two diagonally opposite
// blocked cells?
enum class squeezing : std::uint8_t {
  forbidden = 0,  // GPPC rule 3 (the default)
  allowed = 1,    // the rule of most older Theta* code
};

// A movement rule is a value: a database records it and a query is checked against it.
struct rule {
  rule_kind kind = rule_kind::octile;
  corner_cutting corners = corner_cutting::forbidden;  // octile only
  squeezing squeeze = squeezing::forbidden;            // any-angle only
  cost_t diagonal = kSqrt2Cost;                        // octile only; tile and any-angle keep the default

  static rule tile() { return rule{rule_kind::tile}; }
  static rule octile(corner_cutting c = corner_cutting::forbidden, cost_t diag = kSqrt2Cost) {
    return rule{rule_kind::octile, c, squeezing::forbidden, diag};
  }
  static rule any_angle(squeezing s = squeezing::forbidden) {
    return rule{rule_kind::any_angle, corner_cutting::forbidden, s};
  }

  // Any-angle searches the cell corners; tile and octile search the cells.
  bool on_vertices() const { return kind == rule_kind::any_angle; }

  // The symmetries of the square (see block_shape) this rule is invariant under, one bit
  // per transform. Every rule we have today is invariant under all eight; a variant that
  // is not (a cheaper move east, say) must clear the bits it breaks, and the generator
  // and reader then never use them.
  std::uint8_t symmetry_mask() const { return 0xFF; }

  // "tile", "octile", "octile:corners=one-side-free,diagonal=1.5", "any-angle",
  // "any-angle:squeeze=allowed". Defaults are omitted, so the name is canonical.
  std::string name() const;
  // Inverse of name(); also accepts the options in any order. nullopt with *why set on error.
  static std::optional<rule> parse(std::string_view text, std::string* why = nullptr);

  friend bool operator==(const rule&, const rule&) = default;
};

// Parses a diagonal cost such as "1.5" or "sqrt2" into cost units (must lie in [1, 2]).
std::optional<cost_t> parse_diagonal_cost(std::string_view text);

// ----------------------------------------------------------------------------- cell moves

// Cost of a single move by (dx, dy), each in {-1, 0, 1}, not both zero.
inline cost_t step_cost(const rule& r, int dx, int dy) {
  return (dx != 0 && dy != 0) ? r.diagonal : kCostOne;
}

// May a unit move go from free cell (x, y) to (x+dx, y+dy)? dx, dy in {-1,0,1}.
// Tile allows only the four straight moves.
template <class Grid>
bool step_legal(const rule& r, const Grid& g, int x, int y, int dx, int dy) {
  if (g.blocked(x + dx, y + dy)) return false;
  if (dx == 0 || dy == 0) return (dx != 0 || dy != 0);
  if (r.kind != rule_kind::octile) return false;
  const bool side_a = g.blocked(x + dx, y);
  const bool side_b = g.blocked(x, y + dy);
  return r.corners == corner_cutting::forbidden ? !(side_a || side_b) : !(side_a && side_b);
}

// step_legal for many cells at once, for Block A*'s hand-on between blocks: `free` holds
// one bit per cell of a small grid, bit y * stride + x set when cell (x, y) is free. Bit
// y * stride + x of the result is set when the move (dx, dy) from (x, y) is legal by
// step_legal, for every cell whose move stays inside the mask's grid (the caller keeps
// one ring of cells around the cells it asks about). It does not test the source cell.
// tests/rules_test.cpp checks it against step_legal on every 3 x 3 neighbourhood.
inline std::uint64_t step_legal_mask(const rule& r, std::uint64_t free, int stride, int dx, int dy) {
  auto at = [free](int offset) { return offset >= 0 ? free >> offset : free << -offset; };
  const std::uint64_t target = at(dy * stride + dx);
  if (dx == 0 || dy == 0) return (dx != 0 || dy != 0) ? target : 0;
  if (r.kind != rule_kind::octile) return 0;
  const std::uint64_t side_a = at(dx), side_b = at(dy * stride);
  return target & (r.corners == corner_cutting::forbidden ? (side_a & side_b) : (side_a | side_b));
}

// The eight unit moves, in the fixed order every search uses to break ties:
// N, E, S, W, NE, SE, SW, NW. Tile uses the first four.
inline constexpr std::array<std::array<int, 2>, 8> kSteps{{
    {0, -1}, {1, 0}, {0, 1}, {-1, 0}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}}};
inline int step_count(const rule& r) { return r.kind == rule_kind::octile ? 8 : 4; }

// ----------------------------------------------------------------------------- vertex segments

// A vertex can be stood on when at least one of its four cells is free.
template <class Grid>
bool vertex_usable(const Grid& g, int x, int y) {
  return !(g.blocked(x - 1, y - 1) && g.blocked(x, y - 1) && g.blocked(x - 1, y) && g.blocked(x, y));
}

namespace detail {
// floor(n / d) for d > 0.
inline std::int64_t floor_div(std::int64_t n, std::int64_t d) {
  return n >= 0 ? n / d : -((-n + d - 1) / d);
}
}  // namespace detail

// Is the straight segment between vertices (x0, y0) and (x1, y1) legal under the GPPC
// any-angle rules (SEMANTICS.md)? Exact integer arithmetic, no tolerance.
//  1. it does not pass through the interior of a blocked cell;
//  2. it does not run along an edge shared by two blocked cells;
//  3. unless r.squeeze is allowed, it does not pass *through* a vertex whose two
//     diagonally opposite cells are both blocked (ending there is fine).
template <class Grid>
bool segment_legal(const rule& r, const Grid& g, int x0, int y0, int x1, int y1) {
  if (x0 == x1 && y0 == y1) return vertex_usable(g, x0, y0);
  const bool check_corners = r.squeeze == squeezing::forbidden;
  auto double_corner = [&](int vx, int vy) {
    const bool nw = g.blocked(vx - 1, vy - 1), ne = g.blocked(vx, vy - 1);
    const bool sw = g.blocked(vx - 1, vy), se = g.blocked(vx, vy);
    return (nw && se) || (ne && sw);
  };
  if (y0 == y1) {  // along a row of edges: the cells above and below each edge
    const int lo = std::min(x0, x1), hi = std::max(x0, x1);
    for (int x = lo; x < hi; ++x)
      if (g.blocked(x, y0 - 1) && g.blocked(x, y0)) return false;
    if (check_corners)
      for (int x = lo + 1; x < hi; ++x)
        if (double_corner(x, y0)) return false;
    return true;
  }
  if (x0 == x1) {  // along a column of edges: the cells left and right of each edge
    const int lo = std::min(y0, y1), hi = std::max(y0, y1);
    for (int y = lo; y < hi; ++y)
      if (g.blocked(x0 - 1, y) && g.blocked(x0, y)) return false;
    if (check_corners)
      for (int y = lo + 1; y < hi; ++y)
        if (double_corner(x0, y)) return false;
    return true;
  }
  // General segment: walk it column by column (left to right). In column [cx, cx+1] the
  // open segment spans the open y-interval (ya, yb); it enters the interior of every cell
  // row cy whose open interval (cy, cy+1) meets (ya, yb). y is kept as a fraction over dx.
  if (x0 > x1) {
    std::swap(x0, x1);
    std::swap(y0, y1);
  }
  const std::int64_t dx = x1 - x0, dy = y1 - y0;
  for (int cx = x0; cx < x1; ++cx) {
    const std::int64_t na = std::int64_t{y0} * dx + (cx - x0) * dy;  // ya * dx
    const std::int64_t nb = na + dy;                                  // yb * dx
    const std::int64_t lo = std::min(na, nb), hi = std::max(na, nb);
    // rows from floor(lo/dx) to ceil(hi/dx) - 1
    const std::int64_t first = detail::floor_div(lo, dx);
    const std::int64_t last = -detail::floor_div(-hi, dx) - 1;
    for (std::int64_t cy = first; cy <= last; ++cy)
      if (g.blocked(cx, static_cast<int>(cy))) return false;
  }
  if (check_corners) {
    const std::int64_t k = std::gcd(dx, dy < 0 ? -dy : dy);
    for (std::int64_t i = 1; i < k; ++i)
      if (double_corner(static_cast<int>(x0 + dx / k * i), static_cast<int>(y0 + dy / k * i))) return false;
  }
  return true;
}

// ----------------------------------------------------------------------------- blocks

struct point {
  int x = 0, y = 0;
  friend bool operator==(const point&, const point&) = default;
};

// The geometry of one block of b x b cells: its points (the b x b cells for tile and
// octile, the (b+1) x (b+1) corners for any-angle), its boundary points and the eight
// symmetries of the square.
//
// pattern_code: bit (y * b + x) is set when cell (x, y) of the block is blocked.
// point index: y * side + x, side = b (cells) or b + 1 (vertices).
// boundary_index: the boundary points clockwise from the top-left point: the top row
//   left to right, the right column top to bottom, the bottom row right to left, the left
//   column bottom to top; 4 * (side - 1) of them.
// transform t in 0..7: reflect x (x -> side-1-x) when t >= 4, then rotate (t % 4) quarter
//   turns clockwise ((x, y) -> (side-1-y, x)). Cells and vertices transform consistently.
class block_shape {
 public:
  static constexpr int kMinBlock = 2, kMaxBlock = 5;
  static constexpr int kTransforms = 8;

  block_shape(int b, bool vertices);

  int block() const { return b_; }
  bool vertices() const { return vertices_; }
  int side() const { return side_; }
  int point_count() const { return side_ * side_; }
  int boundary_count() const { return 4 * (side_ - 1); }
  int pair_count() const { return boundary_count() * (boundary_count() - 1) / 2; }
  std::uint64_t pattern_count() const { return std::uint64_t{1} << (b_ * b_); }

  point boundary_point(int i) const { return boundary_[static_cast<std::size_t>(i)]; }
  // -1 for an interior point.
  int boundary_index(point p) const { return boundary_of_[static_cast<std::size_t>(point_index(p))]; }
  int point_index(point p) const { return p.y * side_ + p.x; }
  point point_at(int index) const { return point{index % side_, index / side_}; }

  // Index of the unordered pair {i, j}, i != j, in the order (0,1), (0,2), ..., (1,2), ...
  int pair_index(int i, int j) const {
    if (i > j) std::swap(i, j);
    const int n = boundary_count();
    return i * n - i * (i + 1) / 2 + (j - i - 1);
  }

  point transform_point(int t, point p) const;
  int transform_boundary(int t, int i) const { return boundary_perm_[t][static_cast<std::size_t>(i)]; }
  std::uint32_t transform_pattern(int t, std::uint32_t code) const;
  static int inverse(int t) { return t >= 4 ? t : (4 - t) % 4; }

  // The least code among the patterns reachable from `code` by the transforms in `mask`,
  // and a transform t in the mask with transform_pattern(t, code) == canonical.
  struct canonical_form {
    std::uint32_t code;
    int transform;
  };
  canonical_form canonical(std::uint32_t code, std::uint8_t mask) const;

  // Is the point usable in this pattern? A cell: free. A vertex: one of its cells inside
  // the block is free (outside the block counts as blocked here).
  bool point_usable(std::uint32_t code, point p) const;

 private:
  int b_, side_;
  bool vertices_;
  std::array<point, 4 * (kMaxBlock + 1 - 1)> boundary_{};
  std::array<int, (kMaxBlock + 1) * (kMaxBlock + 1)> boundary_of_{};
  std::array<std::array<int, 4 * kMaxBlock>, kTransforms> boundary_perm_{};
  // transform_pattern in byte-wide chunks: chunk k of the code maps through table [t][k].
  std::array<std::array<std::array<std::uint32_t, 256>, 4>, kTransforms> pattern_chunks_{};
};

// The cells of one block pattern as a grid: everything outside the block is blocked.
struct pattern_grid {
  std::uint32_t code;
  int b;
  bool blocked(int x, int y) const {
    if (x < 0 || y < 0 || x >= b || y >= b) return true;
    return (code >> (y * b + x)) & 1u;
  }
};

// ----------------------------------------------------------------------------- searching a block

// Least-cost paths inside one block pattern (outside the block counts as blocked) from one
// point to every point of the block. This is the search the generator runs from every
// boundary point and Block A* runs from its start and goal, so the two cannot disagree.
//
// Cells: of all least-cost paths the one with the fewest turns, exactly as Dijkstra over
// (cell, heading) states keyed (cost, turns) would find it. Vertices: Dijkstra over the
// visibility graph of the block's corners keyed (cost, segments). Remaining ties go to
// the lowest state index.
class block_graph {
 public:
  static constexpr int kMaxPoints = (block_shape::kMaxBlock + 1) * (block_shape::kMaxBlock + 1);

  struct paths {
    std::array<cost_t, kMaxPoints> cost{};  // kUnreachable when not reachable
    // Internal search states; read them through path_to().
    std::array<int, kMaxPoints * 9> parent{};
    std::array<int, kMaxPoints> best_state{};
    int stride = 1;
    // The points (indices) of the path from the source to `target`, both included;
    // returns how many (0 when unreachable). `out` holds kMaxPoints.
    int path_to(int target, int* out) const;
  };

  // Vertices: the visibility graph is built for all pairs up front (eager: the generator
  // searches from every boundary point of a pattern), or pair by pair when a search first
  // needs one (lazy: Block A* searches once from its start and goal, and a pair that
  // could not improve a cost is never tested). Both give the very same paths.
  enum class visibility : std::uint8_t { eager, lazy };
  block_graph(const rule& r, const block_shape& shape, std::uint32_t code, visibility mode = visibility::eager);
  void search(int source, paths& out) const;
  const block_shape& shape() const { return shape_; }

 private:
  bool sees(int u, int v) const;  // vertices: is segment u-v legal (tested now when lazy)
  const rule& rule_;
  const block_shape& shape_;
  std::uint32_t code_;
  // Vertices: who sees whom, for the pairs tested so far (all of them when eager).
  mutable std::array<std::uint64_t, kMaxPoints> visible_{}, tested_{};
  std::array<bool, kMaxPoints> usable_{};
  std::uint64_t usable_mask_ = 0;
  bool lazy_ = false;
};

}  // namespace lddb
