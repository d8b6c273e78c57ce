#include "large_squares.hpp"

#include <algorithm>

#include "lddb/moves.hpp"
#include "lddb/segments.hpp"
#include "../heuristic.hpp"

namespace lddb::block_astar_impl {

namespace {

// The ring of points 0..last a side, numbered as carry_ring (and lay_ring) number it.
void lay_large_ring(large_shape& q, int k, int side, int last) {
  q.blocks = k;
  q.side = side;
  q.last = last;
  q.count = 4 * last;
  q.stride = last + 1;
  q.points.resize(static_cast<std::size_t>(q.count));
  q.index.assign(static_cast<std::size_t>(q.stride * q.stride), -1);
  for (int i = 0; i < q.count; ++i) {
    int x = 0, y = 0;
    ring_point(last, i, x, y);
    q.points[static_cast<std::size_t>(i)] = {x, y};
    q.index[static_cast<std::size_t>(y * q.stride + x)] = i;
  }
  q.links.clear();
  q.ring_tests.clear();
  q.first_link.assign(static_cast<std::size_t>(q.count + 1), 0);
}

// Vertices: each boundary vertex leads to every block around the square that holds it.
void build_large_vertices(large_shape& q, int k, const block_shape& shape) {
  const int b = shape.block();
  for (int i = 0; i < q.count; ++i) {
    q.first_link[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(q.links.size());
    const point p = q.points[static_cast<std::size_t>(i)];
    const int hx = holding_block(p.x, k, b), hy = holding_block(p.y, k, b);
    for (int ox = -1; ox <= k; ++ox)
      for (int oy = -1; oy <= k; ++oy) {
        if (ox >= 0 && ox < k && oy >= 0 && oy < k) continue;  // the square's own blocks
        if (p.x < ox * b || p.x > ox * b + b || p.y < oy * b || p.y > oy * b + b) continue;
        std::uint64_t cells = 0;  // the vertex's cells in that block, as its pattern bits
        for (int cy = p.y - 1; cy <= p.y; ++cy)
          for (int cx = p.x - 1; cx <= p.x; ++cx) {
            const int lx = cx - ox * b, ly = cy - oy * b;
            if (lx >= 0 && lx < b && ly >= 0 && ly < b) cells |= std::uint64_t{1} << (ly * b + lx);
          }
        large_link l{};
        l.source = static_cast<std::uint16_t>(i);
        l.around = static_cast<std::uint16_t>(ring_position(ox, oy, k));
        l.ox = static_cast<std::int16_t>(ox);
        l.oy = static_cast<std::int16_t>(oy);
        l.target = static_cast<std::uint8_t>(shape.boundary_index({p.x - ox * b, p.y - oy * b}));
        l.back = static_cast<std::uint8_t>(ring_position(hx - ox, hy - oy, 1));
        l.hx = static_cast<std::uint8_t>(hx);
        l.hy = static_cast<std::uint8_t>(hy);
        l.target_ring = cells;
        q.links.push_back(l);
      }
  }
  q.first_link[static_cast<std::size_t>(q.count)] = static_cast<std::uint32_t>(q.links.size());
}

// Cells: each move out of the square, with step_legal's answer for every way the ring
// cells it reads can be blocked (as build_cell_square in regions.cpp).
void build_large_cells(large_shape& q, int k, const rule& r, const block_shape& shape) {
  const int b = shape.block(), side = q.side;
  for (int i = 0; i < q.count; ++i) {
    q.first_link[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(q.links.size());
    const point p = q.points[static_cast<std::size_t>(i)];
    for (int m = 0; m < step_count(r); ++m) {
      const int dx = kSteps[static_cast<std::size_t>(m)][0], dy = kSteps[static_cast<std::size_t>(m)][1];
      const int tx = p.x + dx, ty = p.y + dy;
      if (tx >= 0 && ty >= 0 && tx < side && ty < side) continue;  // stays inside: carry_ring's costs
      const int ox = tx < 0 ? -1 : tx / b, oy = ty < 0 ? -1 : ty / b;
      large_link l{};
      l.source = static_cast<std::uint16_t>(i);
      l.around = static_cast<std::uint16_t>(ring_position(ox, oy, k));
      l.ox = static_cast<std::int16_t>(ox);
      l.oy = static_cast<std::int16_t>(oy);
      l.dx = static_cast<std::int8_t>(dx);
      l.dy = static_cast<std::int8_t>(dy);
      l.target = static_cast<std::uint8_t>(shape.boundary_index({tx - ox * b, ty - oy * b}));
      l.back = static_cast<std::uint8_t>(ring_position(p.x / b - ox, p.y / b - oy, 1));
      l.hx = static_cast<std::uint8_t>(p.x / b);
      l.hy = static_cast<std::uint8_t>(p.y / b);
      l.cost = step_cost(r, dx, dy);
      q.links.push_back(l);
      const std::array<point, 3> read{point{tx, ty}, point{tx, p.y}, point{p.x, ty}};
      large_shape::ring_test test{};
      for (std::size_t c = 0; c < 3; ++c) test.cell[c] = static_cast<std::uint16_t>(ring_id(read[c], side));
      for (unsigned blocked = 0; blocked < 8; ++blocked) {
        const ring_way grid{read, blocked, side};
        test.legal |= static_cast<std::uint8_t>(step_legal(r, grid, p.x, p.y, dx, dy) ? 1u << blocked : 0u);
      }
      q.ring_tests.push_back(test);
    }
  }
  q.first_link[static_cast<std::size_t>(q.count)] = static_cast<std::uint32_t>(q.links.size());
}

}  // namespace

void large_nodes::reset(const large_shape& q) {
  const std::size_t words = static_cast<std::size_t>((q.count + 63) / 64);
  g.assign(static_cast<std::size_t>(q.count), kUnreachable);
  parent.resize(static_cast<std::size_t>(q.count));
  neighbour.assign(static_cast<std::size_t>((q.blocks + 2) * (q.blocks + 2)), -1);
  link_ok.assign((q.links.size() + 63) / 64, 0);
  exitable.assign(words, 0);
  ingress.assign(words, 0);
}

int build_large_shapes(large_shapes& shapes, const rule& r, const block_shape& shape, int scale_log2, int top) {
  for (large_shape& q : shapes) q.blocks = 0;
  if (top != kSquareLevels) return top;  // large squares follow both small levels
  for (int level = top + 1; level <= kMaxSquareLevel; ++level) {
    const int k = 1 << level, side = k * shape.block(), last = r.on_vertices() ? side : side - 1;
    if (4 * last > kLargePoints) break;
    large_shape& q = shapes[static_cast<std::size_t>(level)];
    lay_large_ring(q, k, side, last);
    if (r.on_vertices()) {
      q.metric = {ring_metric::euclid, kCostOne, 0, scale_log2};
      build_large_vertices(q, k, shape);
    } else {
      q.metric = r.kind == rule_kind::tile ? carry_metric{ring_metric::manhattan, kCostOne, 0, 0}
                                           : carry_metric{ring_metric::octile, kCostOne, r.diagonal, 0};
      build_large_cells(q, k, r, shape);
    }
    top = level;
  }
  return top;
}

void prepare_large(large_nodes& nodes, const large_shape& q, int bx, int by, const grid_map& map, const rule& r,
                   std::vector<std::uint8_t>& ring) {
  std::fill(nodes.link_ok.begin(), nodes.link_ok.end(), 0);
  std::fill(nodes.exitable.begin(), nodes.exitable.end(), 0);
  auto set_ok = [&](std::size_t i, int source) {
    nodes.link_ok[i / 64] |= std::uint64_t{1} << (i % 64);
    nodes.exitable[static_cast<std::size_t>(source / 64)] |= std::uint64_t{1} << (source % 64);
  };
  const int b = q.side / q.blocks, side = q.side, x0 = bx * b, y0 = by * b;
  if (!r.on_vertices()) {
    // Cells: the ring of cells around the square, read from the map once, then each move's
    // legality looked up as prepare_square does.
    ring.assign(static_cast<std::size_t>(4 * side + 5), 0);
    for (int t = -1; t <= side; ++t) {
      ring[static_cast<std::size_t>(ring_id({t, -1}, side))] = map.blocked(x0 + t, y0 - 1);
      ring[static_cast<std::size_t>(ring_id({t, side}, side))] = map.blocked(x0 + t, y0 + side);
    }
    for (int t = 0; t < side; ++t) {
      ring[static_cast<std::size_t>(ring_id({-1, t}, side))] = map.blocked(x0 - 1, y0 + t);
      ring[static_cast<std::size_t>(ring_id({side, t}, side))] = map.blocked(x0 + side, y0 + t);
    }
    for (std::size_t i = 0; i < q.links.size(); ++i) {
      const large_shape::ring_test& t = q.ring_tests[i];
      const unsigned way = static_cast<unsigned>(ring[t.cell[0]] | ring[t.cell[1]] << 1 | ring[t.cell[2]] << 2);
      if ((t.legal >> way) & 1u) set_ok(i, q.links[i].source);
    }
    return;
  }
  // Vertices, as prepare_square: a link is legal when one of the vertex's cells in the block
  // it leads to is free, except at a double corner of the square under the default rule.
  std::array<bool, 4> corner_open{};  // by (x at the right) + 2 (y at the bottom)
  for (int c = 0; c < 4; ++c)
    corner_open[static_cast<std::size_t>(c)] =
        r.squeeze == squeezing::allowed || !double_corner(map, x0 + (c & 1) * side, y0 + (c >> 1) * side);
  for (std::size_t i = 0; i < q.links.size(); ++i) {
    const large_link& l = q.links[i];
    if ((~map.block_code(bx + l.ox, by + l.oy) & l.target_ring) == 0) continue;
    const point p = q.points[l.source];
    const bool corner = (p.x == 0 || p.x == side) && (p.y == 0 || p.y == side);
    if (corner && !corner_open[(p.x == 0 ? 0u : 1u) + (p.y == 0 ? 0u : 2u)]) continue;
    set_ok(i, l.source);
  }
}

}  // namespace lddb::block_astar_impl
