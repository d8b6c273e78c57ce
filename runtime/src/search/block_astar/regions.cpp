#include "search/block_astar/regions.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "lddb/moves.hpp"
#include "lddb/segments.hpp"
#include "lddb/stored_cost.hpp"
#include "prepare/lower_bounds.hpp"

namespace lddb::block_astar_impl {

int ring_id(point c, int side) {
  if (c.y == -1) return c.x + 1;
  if (c.y == side) return side + 2 + c.x + 1;
  if (c.x == -1) return 2 * side + 4 + c.y;
  if (c.x == side) return 3 * side + 4 + c.y;
  return 4 * side + 4;
}

bool ring_way::blocked(int x, int y) const {
  for (std::size_t c = 0; c < 3; ++c)
    if (read[c] == point{x, y} && ring_id(read[c], side) != 4 * side + 4) return (way >> c) & 1u;
  return false;  // inside the free square
}

void square_exits(const point* points, int count, int k, const rule& r, const block_shape& shape,
                  const std::function<void(const square_exit&)>& f) {
  const int b = shape.block(), side = k * b;
  for (int i = 0; i < count; ++i) {
    const point p = points[i];
    if (r.on_vertices()) {
      // A vertex leads to every block around the square that holds it: the very same vertex.
      const int hx = holding_block(p.x, k, b), hy = holding_block(p.y, k, b);
      for (int ox = -1; ox <= k; ++ox)
        for (int oy = -1; oy <= k; ++oy) {
          if (ox >= 0 && ox < k && oy >= 0 && oy < k) continue;  // the square's own blocks
          if (p.x < ox * b || p.x > ox * b + b || p.y < oy * b || p.y > oy * b + b) continue;
          square_exit e{};
          for (int cy = p.y - 1; cy <= p.y; ++cy)  // the vertex's cells in that block, as its pattern bits
            for (int cx = p.x - 1; cx <= p.x; ++cx) {
              const int lx = cx - ox * b, ly = cy - oy * b;
              if (lx >= 0 && lx < b && ly >= 0 && ly < b) e.cells |= std::uint64_t{1} << (ly * b + lx);
            }
          e.source = i;
          e.ox = ox;
          e.oy = oy;
          e.target = shape.boundary_index({p.x - ox * b, p.y - oy * b});
          e.back = ring_position(hx - ox, hy - oy, 1);
          e.hx = hx;
          e.hy = hy;
          f(e);
        }
      continue;
    }
    for (int m = 0; m < step_count(r); ++m) {
      const int dx = kSteps[static_cast<std::size_t>(m)][0], dy = kSteps[static_cast<std::size_t>(m)][1];
      const int tx = p.x + dx, ty = p.y + dy;
      if (tx >= 0 && ty >= 0 && tx < side && ty < side) continue;  // stays inside: the square's costs
      square_exit e{};
      e.source = i;
      e.ox = tx < 0 ? -1 : tx / b;  // the block the move enters
      e.oy = ty < 0 ? -1 : ty / b;
      e.dx = dx;
      e.dy = dy;
      e.target = shape.boundary_index({tx - e.ox * b, ty - e.oy * b});
      e.back = ring_position(p.x / b - e.ox, p.y / b - e.oy, 1);
      e.hx = p.x / b;
      e.hy = p.y / b;
      e.cost = step_cost(r, dx, dy);
      // The cells step_legal reads (target, and the side cells of a diagonal) that lie on
      // the ring, and its answer for each way they can be blocked.
      const std::array<point, 3> read{point{tx, ty}, point{tx, p.y}, point{p.x, ty}};
      for (std::size_t c = 0; c < 3; ++c) e.ring[c] = ring_id(read[c], side);
      for (unsigned blocked = 0; blocked < 8; ++blocked) {
        const ring_way grid{read, blocked, side};
        e.legal |= static_cast<std::uint8_t>(step_legal(r, grid, p.x, p.y, dx, dy) ? 1u << blocked : 0u);
      }
      f(e);
    }
  }
}

void read_ring(const grid_map& map, int x0, int y0, int side, std::uint8_t* ring) {
  for (int t = -1; t <= side; ++t) {
    ring[ring_id({t, -1}, side)] = map.blocked(x0 + t, y0 - 1);
    ring[ring_id({t, side}, side)] = map.blocked(x0 + t, y0 + side);
  }
  for (int t = 0; t < side; ++t) {
    ring[ring_id({-1, t}, side)] = map.blocked(x0 - 1, y0 + t);
    ring[ring_id({side, t}, side)] = map.blocked(x0 + side, y0 + t);
  }
  ring[4 * side + 4] = 0;  // a cell inside: free
}

namespace {

// A small square's links (and, for cells, ring tests) from square_exits.
void add_links(node_shape& q, const rule& r, const block_shape& shape) {
  q.links.clear();
  q.ring_tests.clear();
  q.first_link.fill(0);
  square_exits(q.points.data(), q.count, q.blocks, r, shape, [&q, &r](const square_exit& e) {
    q.first_link[static_cast<std::size_t>(e.source) + 1] = static_cast<std::uint16_t>(q.links.size() + 1);
    q.links.push_back({static_cast<std::uint8_t>(e.source), static_cast<std::uint8_t>(e.target),
                       static_cast<std::uint8_t>(ring_position(e.ox, e.oy, q.blocks)), static_cast<std::int8_t>(e.ox),
                       static_cast<std::int8_t>(e.oy), static_cast<std::int8_t>(e.dx), static_cast<std::int8_t>(e.dy), 0,
                       0, static_cast<std::uint8_t>(e.back), static_cast<std::uint8_t>(e.hx),
                       static_cast<std::uint8_t>(e.hy), e.cells, e.cost});
    if (!r.on_vertices())
      q.ring_tests.push_back({{static_cast<std::uint8_t>(e.ring[0]), static_cast<std::uint8_t>(e.ring[1]),
                               static_cast<std::uint8_t>(e.ring[2])},
                              e.legal});
  });
  // Points without links start where the last point's end.
  for (int i = 1; i <= q.count; ++i)
    q.first_link[static_cast<std::size_t>(i)] =
        std::max(q.first_link[static_cast<std::size_t>(i)], q.first_link[static_cast<std::size_t>(i) - 1]);
}

// The points of a square of k x k blocks, side cells a side, clockwise from the top-left as
// block_shape numbers a block's, on the lattice 0..last a side (vertices: last = side;
// cells: last = side - 1), their index, and cost(a, c) between each two.
template <class Cost>
void lay_ring(node_shape& q, int k, int side, int last, Cost cost) {
  const int stride = last + 1, n = 4 * last;
  q.blocks = k;
  q.side = side;
  q.count = n;
  q.stride = stride;
  q.index.assign(static_cast<std::size_t>(stride * stride), -1);
  int next = 0;
  auto add_point = [&](int x, int y) {
    q.points[static_cast<std::size_t>(next)] = {x, y};
    q.index[static_cast<std::size_t>(y * stride + x)] = next++;
  };
  for (int x = 0; x < last; ++x) add_point(x, 0);
  for (int y = 0; y < last; ++y) add_point(last, y);
  for (int x = last; x > 0; --x) add_point(x, last);
  for (int y = last; y > 0; --y) add_point(0, y);
  q.cost.resize(static_cast<std::size_t>(n * n));
  for (int a = 0; a < n; ++a)
    for (int c = 0; c < n; ++c)
      q.cost[static_cast<std::size_t>(a * n + c)] = cost(q.points[static_cast<std::size_t>(a)], q.points[static_cast<std::size_t>(c)]);
}

// A square of 2^level x 2^level blocks: its boundary vertices, their straight-line costs
// and the links from them to every block around the square that holds them.
void build_square(node_shape& q, int level, const rule& r, const block_shape& shape, int scale_log2) {
  const int b = shape.block(), k = 1 << level, side = k * b;
  // Straight segments, each rounded as a database stores a length.
  lay_ring(q, k, side, side, [scale_log2](point pa, point pc) {
    return as_stored_length(euclid_cost(pa.x - pc.x, pa.y - pc.y), scale_log2);
  });
  add_links(q, r, shape);
  if (q.links.size() > kMaxSquareLinks) throw std::logic_error("block_astar: more square links than square_nodes::link_ok holds");
}

// A square of 2^level x 2^level blocks under a cell rule: its boundary cells, the exact
// cost between each two (every move inside a free square is legal, so Manhattan for tile
// and octile distance for octile), and each move from a boundary cell out of the square,
// with step_legal's answer for every way the ring cells it reads can be blocked
// (ring_tests), which prepare_square looks up against the map.
void build_cell_square(node_shape& q, int level, const rule& r, const block_shape& shape) {
  const int b = shape.block(), k = 1 << level, side = k * b;
  const heuristic_kind metric = default_heuristic(r);  // Manhattan or octile with r.diagonal
  lay_ring(q, k, side, side - 1,
           [&r, metric](point pa, point pc) { return heuristic_cost(metric, r, pa.x, pa.y, pc.x, pc.y); });
  add_links(q, r, shape);
  if (q.links.size() > kMaxSquareLinks) throw std::logic_error("block_astar: more square links than square_nodes::link_ok holds");
}

}  // namespace

void build_block_shape(node_shapes& shapes, const block_shape& shape) {
  node_shape& block = shapes[0];
  block.blocks = 1;
  block.side = shape.block();
  block.count = shape.boundary_count();
  for (int i = 0; i < block.count; ++i) block.points[static_cast<std::size_t>(i)] = shape.boundary_point(i);
}

int build_square_shapes(node_shapes& shapes, const rule& r, const block_shape& shape, int scale_log2) {
  int top = 0;
  for (int level = 1; level <= kSquareLevels; ++level) {
    node_shape& q = shapes[static_cast<std::size_t>(level)];
    q.blocks = 0;
    const int side = (1 << level) * shape.block();
    // Any-angle keeps b <= 4, as measured (docs/benchmarks.md); a 2 x 2 square of 5 x 5
    // blocks would fit its 40 vertices.
    if (top != level - 1 || (r.on_vertices() ? 4 * side : 4 * side - 4) > kNodePoints ||
        (r.on_vertices() && shape.block() > 4))
      continue;
    if (r.on_vertices())
      build_square(q, level, r, shape, scale_log2);
    else
      build_cell_square(q, level, r, shape);
    top = level;
  }
  return top;
}

void prepare_square(block_slot& slot, square_nodes& nodes, const node_shape& q, const grid_map& map, const rule& r) {
  slot.link_ok = 0;
  slot.free_ring = 0;
  std::array<std::uint64_t, kMaxSquareLinks / 64> ok{};
  point_set exitable = 0;
  if (!r.on_vertices()) {
    // Cells: a move out of the square is legal as step_legal says (its target and, for a
    // diagonal under a corner rule, the side cell outside the square), asked of the square
    // and the ring of cells around it, read from the map once.
    const int b = q.side / q.blocks, side = q.side, x0 = slot.bx * b, y0 = slot.by * b;
    std::array<std::uint8_t, kNodePoints + 8 + 1> blocked{};  // by ring_id
    read_ring(map, x0, y0, side, blocked.data());
    for (std::size_t i = 0; i < q.links.size(); ++i) {
      const node_shape::ring_test& t = q.ring_tests[i];
      const unsigned way = blocked[t.cell[0]] | blocked[t.cell[1]] << 1 | blocked[t.cell[2]] << 2;
      const std::uint64_t legal = (t.legal >> way) & 1u;
      ok[i / 64] |= legal << (i % 64);
      exitable |= legal << q.links[i].source;
    }
    nodes.link_ok = ok;
    slot.exitable = exitable;
    return;
  }
  // Every cell is free, so each boundary vertex is usable here; a link is legal when one
  // of the vertex's cells in the block it leads to is free. Under the default rule a
  // corner of the square may be a double corner, whose other side is the diagonal
  // block's: nothing is handed on there (geometry.hpp's prepare_block, for plain blocks).
  const int k = q.blocks, b = q.side / k;
  std::array<bool, 4> corner_open{};  // by (x at the right) + 2 (y at the bottom)
  for (int c = 0; c < 4; ++c)
    corner_open[static_cast<std::size_t>(c)] =
        r.squeeze == squeezing::allowed ||
        !double_corner(map, slot.bx * b + (c & 1) * q.side, slot.by * b + (c >> 1) * q.side);
  std::array<std::uint32_t, kSquareRing> codes;  // by ring position
  for (int ox = -1; ox <= k; ++ox)
    for (int oy = -1; oy <= k; ++oy)
      codes[static_cast<std::size_t>(ring_position(ox, oy, k))] = map.block_code(slot.bx + ox, slot.by + oy);
  for (std::size_t i = 0; i < q.links.size(); ++i) {
    const link& l = q.links[i];
    if ((~codes[l.around] & l.target_ring) == 0) continue;
    const point p = q.points[l.source];
    const bool corner = (p.x == 0 || p.x == q.side) && (p.y == 0 || p.y == q.side);
    if (corner && !corner_open[(p.x == 0 ? 0u : 1u) + (p.y == 0 ? 0u : 2u)]) continue;
    ok[i / 64] |= std::uint64_t{1} << (i % 64);
    exitable |= point_set{1} << l.source;
  }
  nodes.link_ok = ok;
  slot.exitable = exitable;
}

}  // namespace lddb::block_astar_impl
