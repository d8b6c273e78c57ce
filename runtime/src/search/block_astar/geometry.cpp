#include "search/block_astar/geometry.hpp"

#include <stdexcept>

#include "prepare/lower_bounds.hpp"

namespace lddb::block_astar_impl {

void block_links::build(const rule& r, const block_shape& shape, cost_t unit) {
  const int b = shape.block(), n = shape.boundary_count();
  links.clear();
  // The cells of vertex p (block coordinates) that lie in the block at offset (ox, oy),
  // as ring bits.
  auto vertex_ring = [&](point p, int ox, int oy) {
    std::uint64_t bits = 0;
    for (int cy = p.y - 1; cy <= p.y; ++cy)
      for (int cx = p.x - 1; cx <= p.x; ++cx) {
        const int kx = cx < 0 ? -1 : (cx >= b ? 1 : 0), ky = cy < 0 ? -1 : (cy >= b ? 1 : 0);
        if (kx == ox && ky == oy) bits |= std::uint64_t{1} << ((cy + 1) * (b + 2) + (cx + 1));
      }
    return bits;
  };
  auto add = [&](int i, int ox, int oy, point q, int step, cost_t cost) {
    const point p = shape.boundary_point(i);
    const int dx = step < 0 ? 0 : kSteps[static_cast<std::size_t>(step)][0];
    const int dy = step < 0 ? 0 : kSteps[static_cast<std::size_t>(step)][1];
    point_links[static_cast<std::size_t>(i)] |= std::uint64_t{1} << links.size();
    links.push_back({static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(shape.boundary_index(q)),
                     static_cast<std::uint8_t>(ring_position(ox, oy, 1)), static_cast<std::int8_t>(ox),
                     static_cast<std::int8_t>(oy), static_cast<std::int8_t>(dx), static_cast<std::int8_t>(dy),
                     static_cast<std::uint8_t>(step < 0 ? 0 : step),
                     static_cast<std::uint8_t>(step < 0 ? 0 : (p.y + 1) * (b + 2) + (p.x + 1)), 0, 0, 0,
                     step < 0 ? vertex_ring(p, ox, oy) : 0, cost});
  };
  corner_nw_bits = 0;
  point_at_nw_bit.fill(-1);
  for (int i = 0; i < n; ++i) {
    point_links[static_cast<std::size_t>(i)] = 0;
    const point p = shape.boundary_point(i);
    own_ring[static_cast<std::size_t>(i)] = vertex_ring(p, 0, 0);
    const int nw_bit = p.y * (b + 2) + p.x;  // cell (p.x - 1, p.y - 1) in the ring
    corner_nw_bits |= std::uint64_t{1} << nw_bit;
    point_at_nw_bit[static_cast<std::size_t>(nw_bit)] = static_cast<std::int8_t>(i);
    other_ring[static_cast<std::size_t>(i)] = 0;
    for (int ox = -1; ox <= 1; ++ox)
      for (int oy = -1; oy <= 1; ++oy)
        if (ox != 0 || oy != 0) other_ring[static_cast<std::size_t>(i)] |= vertex_ring(p, ox, oy);
    if (r.on_vertices()) {
      // A boundary vertex is the same vertex in every block that shares it.
      for (int ox = -1; ox <= 1; ++ox)
        for (int oy = -1; oy <= 1; ++oy) {
          if (ox == 0 && oy == 0) continue;
          const point q{p.x - ox * b, p.y - oy * b};
          if (q.x < 0 || q.y < 0 || q.x > b || q.y > b) continue;
          add(i, ox, oy, q, -1, 0);
        }
    } else {
      for (int m = 0; m < step_count(r); ++m) {
        const int dx = kSteps[static_cast<std::size_t>(m)][0], dy = kSteps[static_cast<std::size_t>(m)][1];
        const int tx = p.x + dx, ty = p.y + dy;
        if (tx >= 0 && ty >= 0 && tx < b && ty < b) continue;  // stays inside: the database's job
        const int ox = tx < 0 ? -1 : (tx >= b ? 1 : 0), oy = ty < 0 ? -1 : (ty >= b ? 1 : 0);
        add(i, ox, oy, {tx - ox * b, ty - oy * b}, m, step_cost(r, dx, dy));
      }
    }
  }
  if (links.size() > kMaxLinks) throw std::logic_error("block_astar: more links than a 64-bit mask holds");
  const heuristic_kind open_space = default_heuristic(r);
  for (int a = 0; a < n; ++a)
    for (int c = 0; c < n; ++c) {
      const point pa = shape.boundary_point(a), pc = shape.boundary_point(c);
      const cost_t d = heuristic_cost(open_space, r, pa.x, pa.y, pc.x, pc.y);
      floor_cost[static_cast<std::size_t>(a)][static_cast<std::size_t>(c)] = d > unit ? d - unit : 0;
    }
  all_links = links.size() == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << links.size()) - 1;
  linked_points = 0;
  for (const link& l : links) linked_points |= 1u << l.source;
}

int containing_blocks(const rule& r, const grid_map& map, point p, std::array<std::pair<point, point>, kMaxStarts>& out) {
  const int b = map.block();
  int count = 0;
  if (!r.on_vertices()) {
    out[0] = {{p.x / b, p.y / b}, {p.x % b, p.y % b}};
    return 1;
  }
  for (int bx = p.x / b; bx >= 0 && bx * b + b >= p.x && count < kMaxStarts; --bx) {
    if (bx >= map.blocks_x()) continue;
    for (int by = p.y / b; by >= 0 && by * b + b >= p.y && count < kMaxStarts; --by) {
      if (by >= map.blocks_y()) continue;
      out[static_cast<std::size_t>(count++)] = {{bx, by}, {p.x - bx * b, p.y - by * b}};
    }
  }
  return count;
}

}  // namespace lddb::block_astar_impl
