#include "search/block_astar/large_squares.hpp"

#include <algorithm>

#include "lddb/moves.hpp"
#include "lddb/segments.hpp"
#include "prepare/lower_bounds.hpp"

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

// The square's links (and, for cells, ring tests) from square_exits, as a small square's.
void add_large_links(large_shape& q, const rule& r, const block_shape& shape) {
  square_exits(q.points.data(), q.count, q.blocks, r, shape, [&q, &r](const square_exit& e) {
    q.first_link[static_cast<std::size_t>(e.source) + 1] = static_cast<std::uint32_t>(q.links.size() + 1);
    large_link l{};
    l.source = static_cast<std::uint16_t>(e.source);
    l.around = static_cast<std::uint16_t>(ring_position(e.ox, e.oy, q.blocks));
    l.ox = static_cast<std::int16_t>(e.ox);
    l.oy = static_cast<std::int16_t>(e.oy);
    l.dx = static_cast<std::int8_t>(e.dx);
    l.dy = static_cast<std::int8_t>(e.dy);
    l.target = static_cast<std::uint8_t>(e.target);
    l.back = static_cast<std::uint8_t>(e.back);
    l.hx = static_cast<std::uint8_t>(e.hx);
    l.hy = static_cast<std::uint8_t>(e.hy);
    l.target_ring = e.cells;
    l.cost = e.cost;
    q.links.push_back(l);
    if (!r.on_vertices())
      q.ring_tests.push_back({{static_cast<std::uint16_t>(e.ring[0]), static_cast<std::uint16_t>(e.ring[1]),
                               static_cast<std::uint16_t>(e.ring[2])},
                              e.legal});
  });
  for (int i = 1; i <= q.count; ++i)  // points without links start where the last point's end
    q.first_link[static_cast<std::size_t>(i)] =
        std::max(q.first_link[static_cast<std::size_t>(i)], q.first_link[static_cast<std::size_t>(i) - 1]);
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

void large_nodes::room_for(const large_shape& q) {
  const std::size_t words = static_cast<std::size_t>((q.count + 63) / 64);
  g.reserve(static_cast<std::size_t>(q.count));
  parent.reserve(static_cast<std::size_t>(q.count));
  neighbour.reserve(static_cast<std::size_t>((q.blocks + 2) * (q.blocks + 2)));
  link_ok.reserve((q.links.size() + 63) / 64);
  exitable.reserve(words);
  ingress.reserve(words);
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
    } else {
      q.metric = r.kind == rule_kind::tile ? carry_metric{ring_metric::manhattan, kCostOne, 0, 0}
                                           : carry_metric{ring_metric::octile, kCostOne, r.diagonal, 0};
    }
    add_large_links(q, r, shape);
    q.distance.resize(static_cast<std::size_t>(q.stride * q.stride));
    for (int dx = 0; dx <= last; ++dx)
      for (int dy = 0; dy <= last; ++dy) q.distance[static_cast<std::size_t>(dx * q.stride + dy)] = q.metric.cost(dx, dy);
    // Where rows stop paying (docs/benchmarks.md, "Large open squares"): carry_ring takes
    // about as long as 8 rows for cells, and for straight lines, whose rows read a table where
    // carry_ring takes square roots, about as long as half the ring.
    q.sparse_rows = r.on_vertices() ? q.count / 2 : 8;
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
    read_ring(map, x0, y0, side, ring.data());
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
