// lddb/segments.hpp: the any-angle rule: which vertices can be stood on and which straight
// segments between vertices are legal.
//
// The one implementation of the any-angle rule, shared like lddb/moves.hpp. Vertex (x, y)
// is the top-left corner of cell (x, y); every grid given to these functions answers
// blocked(x, y) for any integer x, y, and counts everything outside itself as blocked.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>

#include "lddb/rule.hpp"

namespace lddb {

// A vertex can be stood on when at least one of its four cells is free.
template <class Grid>
bool vertex_usable(const Grid& g, int x, int y) {
  return !(g.blocked(x - 1, y - 1) && g.blocked(x, y - 1) && g.blocked(x - 1, y) && g.blocked(x, y));
}

// A double corner: two diagonally opposite cells of the vertex blocked, the other two free.
// Each free cell is a *side* of the vertex: side 0 is the free cell in the row above the
// vertex (north-west or north-east), side 1 the one in the row below. A path may visit a
// double corner but never pass from one side to the other there (docs/rules.md); every
// other vertex has one side, 0.
template <class Grid>
bool double_corner(const Grid& g, int x, int y) {
  const bool nw = g.blocked(x - 1, y - 1), ne = g.blocked(x, y - 1);
  const bool sw = g.blocked(x - 1, y), se = g.blocked(x, y);
  return (nw && se && !ne && !sw) || (ne && sw && !nw && !se);
}
// double_corner for many vertices at once, for Block A*: `free` holds one bit per cell of a
// small grid, bit y * stride + x set when cell (x, y) is free. Bit k of the result is set
// when the vertex whose north-west cell is bit k is a double corner (the caller keeps the
// vertex's other three cells inside the mask: one column to the right, one row below).
// tests/rules_test.cpp checks it against double_corner on every 3 x 3 neighbourhood.
inline std::uint64_t double_corner_mask(std::uint64_t free, int stride) {
  const std::uint64_t nw = free, ne = free >> 1, sw = free >> stride, se = free >> (stride + 1);
  return (ne & sw & ~nw & ~se) | (nw & se & ~ne & ~sw);
}

// The side of vertex (x, y) on which a segment between it and (tx, ty) lies: at a double
// corner the free cell the segment enters or runs along (0 or 1); 0 at any other vertex.
// The segment itself must be legal (segment_legal); this does not check it.
template <class Grid>
int segment_side(const Grid& g, int x, int y, int tx, int ty) {
  if (!double_corner(g, x, y)) return 0;
  if (ty != y) return ty < y ? 0 : 1;  // into the row above or the row below
  // Along the row: the edge between the cells above and below it, one of them free.
  return g.blocked(tx > x ? x : x - 1, y - 1) ? 1 : 0;
}

// May a path that arrives at vertex v from a leave it toward b? Under the default rule
// (squeeze forbidden), at a double corner only on the side it arrived on; anywhere else,
// and under squeeze=allowed, always.
template <class Grid>
bool turn_legal(const rule& r, const Grid& g, int ax, int ay, int vx, int vy, int bx, int by) {
  if (r.squeeze == squeezing::allowed || !double_corner(g, vx, vy)) return true;
  return segment_side(g, vx, vy, ax, ay) == segment_side(g, vx, vy, bx, by);
}

// The side a start or goal at vertex (x, y) belongs to: that of its own cell, the cell
// (x, y) south-east of it. 1 at a double corner whose own cell is free, -1 at a double
// corner whose own cell is blocked (no query may start or end there under the default
// rule: the competition's rule), 0 at any other vertex and under squeeze=allowed.
template <class Grid>
int endpoint_side(const rule& r, const Grid& g, int x, int y) {
  if (r.squeeze == squeezing::allowed || !double_corner(g, x, y)) return 0;
  return g.blocked(x, y) ? -1 : 1;
}

namespace detail {
// floor(n / d) for d > 0.
inline std::int64_t floor_div(std::int64_t n, std::int64_t d) {
  return n >= 0 ? n / d : -((-n + d - 1) / d);
}
}  // namespace detail

// Is the straight segment between vertices (x0, y0) and (x1, y1) legal under the GPPC
// any-angle rules (docs/rules.md)? Exact integer arithmetic, no tolerance.
//  1. it does not pass through the interior of a blocked cell;
//  2. it does not run along an edge shared by two blocked cells;
//  3. unless r.squeeze is allowed, it does not pass *through* a vertex whose two
//     diagonally opposite cells are both blocked. (A straight pass through a double
//     corner always goes from one side to the other; a path's turns at double corners
//     are turn_legal's business.)
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
  // y at a column's left edge as q + rem / dx (0 <= rem < dx), stepped by dy / dx from one
  // column to the next: the walk divides once, not twice a column (smoothing walks long
  // segments). The rows entered run from floor(min(ya, yb)) to ceil(max(ya, yb)) - 1.
  const std::int64_t step_q = detail::floor_div(dy, dx), step_rem = dy - step_q * dx;
  std::int64_t q = y0, rem = 0;
  for (int cx = x0; cx < x1; ++cx) {
    std::int64_t next_q = q + step_q, next_rem = rem + step_rem;
    if (next_rem >= dx) {
      next_rem -= dx;
      ++next_q;
    }
    const std::int64_t first = dy > 0 ? q : next_q;
    const std::int64_t last = dy > 0 ? next_q + (next_rem != 0) - 1 : q + (rem != 0) - 1;
    for (std::int64_t cy = first; cy <= last; ++cy)
      if (g.blocked(cx, static_cast<int>(cy))) return false;
    q = next_q;
    rem = next_rem;
  }
  if (check_corners) {
    const std::int64_t k = std::gcd(dx, dy < 0 ? -dy : dy);
    for (std::int64_t i = 1; i < k; ++i)
      if (double_corner(static_cast<int>(x0 + dx / k * i), static_cast<int>(y0 + dy / k * i))) return false;
  }
  return true;
}

}  // namespace lddb
