#include "regions.hpp"

#include <stdexcept>

#include "lddb/segments.hpp"
#include "lddb/stored_cost.hpp"

namespace lddb::block_astar_impl {

namespace {

// A square of 2^level x 2^level blocks: its boundary vertices, their straight-line costs
// and the links from them to every block around the square that holds them.
void build_square(node_shape& q, int level, const block_shape& shape, int scale_log2) {
  const int b = shape.block();
  const int k = 1 << level, side = k * b, stride = side + 1, n = 4 * side;
  q.blocks = k;
  q.side = side;
  q.count = n;
  // Boundary vertices clockwise from the top-left, as block_shape numbers a block's.
  q.index.assign(static_cast<std::size_t>(stride * stride), -1);
  int next = 0;
  auto add_point = [&](int x, int y) {
    q.points[static_cast<std::size_t>(next)] = {x, y};
    q.index[static_cast<std::size_t>(y * stride + x)] = next++;
  };
  for (int x = 0; x < side; ++x) add_point(x, 0);
  for (int y = 0; y < side; ++y) add_point(side, y);
  for (int x = side; x > 0; --x) add_point(x, side);
  for (int y = side; y > 0; --y) add_point(0, y);
  // Straight segments, each rounded as a database stores a length.
  q.cost.resize(static_cast<std::size_t>(n * n));
  for (int a = 0; a < n; ++a)
    for (int c = 0; c < n; ++c) {
      const point pa = q.points[static_cast<std::size_t>(a)], pc = q.points[static_cast<std::size_t>(c)];
      q.cost[static_cast<std::size_t>(a * n + c)] = as_stored_length(euclid_cost(pa.x - pc.x, pa.y - pc.y), scale_log2);
    }
  q.links.clear();
  for (int i = 0; i < n; ++i) {
    q.first_link[static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(q.links.size());
    const point p = q.points[static_cast<std::size_t>(i)];
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
        // When the block there is a plain block (not in a square), the vertex's index in it
        // and where that block finds this square (as the hand-on works them out).
        const int hx = holding_block(p.x, k, b), hy = holding_block(p.y, k, b);
        const std::uint8_t target = static_cast<std::uint8_t>(shape.boundary_index({p.x - ox * b, p.y - oy * b}));
        const std::uint8_t back = static_cast<std::uint8_t>(ring_position(hx - ox, hy - oy, 1));
        q.links.push_back({static_cast<std::uint8_t>(i), target, static_cast<std::uint8_t>(ring_position(ox, oy, k)),
                           static_cast<std::int8_t>(ox), static_cast<std::int8_t>(oy), 0, 0, 0, 0, back, cells, 0});
      }
  }
  q.first_link[static_cast<std::size_t>(n)] = static_cast<std::uint16_t>(q.links.size());
  if (q.links.size() > 128) throw std::logic_error("block_astar: more square links than square_nodes::link_ok holds");
}

}  // namespace

void build_node_shapes(node_shapes& shapes, const rule& r, const block_shape& shape, int scale_log2) {
  node_shape& block = shapes[0];
  block.blocks = 1;
  block.side = shape.block();
  block.count = shape.boundary_count();
  for (int i = 0; i < block.count; ++i) block.points[static_cast<std::size_t>(i)] = shape.boundary_point(i);
  for (int level = 1; level <= kSquareLevels; ++level) shapes[static_cast<std::size_t>(level)].blocks = 0;
  if (!r.on_vertices() || shape.block() > kMaxSquareBlock) return;
  for (int level = 1; level <= kSquareLevels; ++level)
    build_square(shapes[static_cast<std::size_t>(level)], level, shape, scale_log2);
}

void prepare_square(block_slot& slot, square_nodes& nodes, const node_shape& q, const grid_map& map, const rule& r) {
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
  std::array<std::uint64_t, 2> ok{};
  point_set exitable = 0;
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
  slot.link_ok = 0;
  slot.exitable = exitable;
  slot.free_ring = 0;
}

}  // namespace lddb::block_astar_impl
