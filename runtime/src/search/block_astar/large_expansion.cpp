// Algorithm 1 for a large open square: the ingress points' rows, or carry_ring when many
// arrived, in place of the min-plus product over a cost matrix (which would hold up to
// 256 x 256 costs), then the hand-on along the square's own links into whatever node lies
// around it.
#include <cstdlib>

#include "search/block_astar/search.hpp"

namespace lddb::block_astar_impl {

void block_search::expand_large(int s) {
  // A new node for each block of the ring around at most: slot references stay valid
  // below, and large_state is a deque.
  st_.pool.reserve_more(static_cast<std::size_t>(4 * (1 << slot(s).level) + 5), map_blocks_);
  block_slot& cur = slot(s);
  large_nodes& nodes = large_of(cur);
  const large_shape& q = large_shape_of(cur);
  ++q_.stats.expanded;
  if (q_.options.diagnostics.record_expanded)
    for (int dy = 0; dy < q.blocks; ++dy)
      for (int dx = 0; dx < q.blocks; ++dx) q_.expanded.push_back({cur.bx + dx, cur.by + dy});
  if (!cur.prepared) {
    prepare_large(nodes, q, cur.bx, cur.by, map_, rule_, st_.large_ring);
    cur.prepared = true;
  }
  // Line 5: the egress points' g-values through the square, kept where they improve a
  // point that can hand them on: by rows from a few ingress points, else by carry_ring.
  const std::size_t n = static_cast<std::size_t>(q.count), words = (n + 63) / 64;
  std::vector<std::uint64_t>& hand = st_.large_hand;
  hand.assign(words, 0);
  int arrived = 0;
  for (std::size_t w = 0; w < words; ++w) arrived += __builtin_popcountll(nodes.ingress[w]);
  const auto improve = [&](std::size_t t, cost_t v, int from) {
    nodes.g[t] = v;
    nodes.parent[t] = {via::block, static_cast<std::uint16_t>(from), 0};
    hand[t / 64] |= std::uint64_t{1} << (t % 64);
    ++q_.stats.generated;
  };
  if (arrived <= q.sparse_rows) {
    for (std::size_t w = 0; w < words; ++w)
      for (std::uint64_t m = nodes.ingress[w]; m; m &= m - 1) {
        const std::size_t y = w * 64 + static_cast<std::size_t>(__builtin_ctzll(m));
        if ((hand[w] >> (y % 64)) & 1u) continue;  // improved through another ingress point: dominated
        const cost_t gy = nodes.g[y];
        const point py = q.points[y];
        for (std::size_t v = 0; v < words; ++v)
          for (std::uint64_t e = nodes.exitable[v]; e; e &= e - 1) {
            const std::size_t t = v * 64 + static_cast<std::size_t>(__builtin_ctzll(e));
            const point pt = q.points[t];
            const cost_t c = gy + q.distance[static_cast<std::size_t>(std::abs(pt.x - py.x) * q.stride + std::abs(pt.y - py.y))];
            if (c < nodes.g[t]) improve(t, c, static_cast<int>(y));
          }
      }
  } else {
    // Every g-value, not only the ingress: each is a real path's cost, so the points that
    // did not change since the last expansion change nothing.
    st_.carry_out.resize(n);
    st_.carry_from.resize(n);
    carry_ring(q.metric, q.last, nodes.g.data(), st_.carry_out.data(), st_.carry_from.data(), st_.carry);
    for (std::size_t w = 0; w < words; ++w)
      for (std::uint64_t m = nodes.exitable[w]; m; m &= m - 1) {
        const std::size_t t = w * 64 + static_cast<std::size_t>(__builtin_ctzll(m));
        if (st_.carry_out[t] < nodes.g[t]) improve(t, st_.carry_out[t], st_.carry_from[t]);
      }
  }
  for (std::size_t w = 0; w < words; ++w) {
    // Line 6's points: those that changed and, for cells, those that arrived (moves the
    // neighbour they came from could not make). An arrived vertex was handed on by its
    // neighbour to every block that shares it.
    if (!rule_.on_vertices()) hand[w] |= nodes.ingress[w] & nodes.exitable[w];
    nodes.ingress[w] = 0;
  }
  cur.ingress = 0;
  st_.touched.clear();
  for (std::size_t w = 0; w < words; ++w)
    for (std::uint64_t m = hand[w]; m; m &= m - 1) {
      const int i = static_cast<int>(w * 64) + __builtin_ctzll(m);
      const cost_t gi = nodes.g[static_cast<std::size_t>(i)];
      const cost_t hv = rule_.on_vertices() ? h(global(cur, i)) : 0;  // a vertex's h is the same in every node
      for (std::uint32_t k = q.first_link[static_cast<std::size_t>(i)]; k < q.first_link[static_cast<std::size_t>(i) + 1]; ++k)
        if ((nodes.link_ok[k / 64] >> (k % 64)) & 1u) {
          const large_link& l = q.links[k];
          hand_from_large(s, q, i, l, gi + l.cost, hv);
        }
    }
  push_offers();
}

void block_search::receive_large(int ns, int target, int back, int s, int source, cost_t ng, cost_t hn) {
  block_slot& nb = slot(ns);
  large_nodes& there = large_of(nb);
  const std::size_t t = static_cast<std::size_t>(target);
  if (ng >= there.g[t]) return;
  there.g[t] = ng;
  there.parent[t] = {via::neighbour, static_cast<std::uint16_t>(source), static_cast<std::uint16_t>(back)};
  there.neighbour[static_cast<std::size_t>(back)] = s;
  there.ingress[t / 64] |= std::uint64_t{1} << (t % 64);
  nb.ingress = 1;  // something arrived (the points are in `there`)
  ++q_.stats.generated;
  offer(ns, ng, hn);
}

void block_search::hand_from_large(int s, const large_shape& q, int source, const large_link& l, cost_t ng,
                                   cost_t hv) {
  const block_slot& cur = slot(s);
  int& cached = large_of(cur).neighbour[l.around];
  if (cached < 0) cached = slot_of(cur.bx + l.ox, cur.by + l.oy);
  const int ns = cached;
  block_slot& nb = slot(ns);
  const bool vertices = rule_.on_vertices();
  if (nb.level == 0) {  // the link knows the target's index there and where it finds this square
    if (ng >= nb.g[l.target] || ((nb.closed >> l.target) & 1u)) return;
    nb.g[l.target] = ng;
    nb.parent[l.target] = {via::neighbour, static_cast<std::uint8_t>(source), l.back};
    nb.neighbour[l.back] = s;
    nb.ingress |= point_set{1} << l.target;
    ++q_.stats.generated;
    offer(ns, ng, vertices ? hv : h(global_in_block(nb, l.target)));
    return;
  }
  // A square: the target numbered in it, and the block of this square it finds us at.
  const point p = q.points[static_cast<std::size_t>(source)];
  const int tx = (cur.bx - nb.bx) * b_ + p.x + l.dx, ty = (cur.by - nb.by) * b_ + p.y + l.dy;
  const int back = ring_index(nb, cur.bx + l.hx, cur.by + l.hy);
  if (is_large(nb)) {
    const large_shape& to = large_shape_of(nb);
    const int target = to.index[static_cast<std::size_t>(ty * to.stride + tx)];
    return receive_large(ns, target, back, s, source, ng, vertices ? hv : h(global(nb, target)));
  }
  const node_shape& to = shape_of(nb);
  const int target = to.index[static_cast<std::size_t>(ty * to.stride + tx)];
  square_nodes& there = square_of(nb);
  if (ng >= there.g[static_cast<std::size_t>(target)] || ((nb.closed >> target) & 1u)) return;
  there.g[static_cast<std::size_t>(target)] = ng;
  there.parent[static_cast<std::size_t>(target)] = {via::neighbour, static_cast<std::uint8_t>(source),
                                                    static_cast<std::uint8_t>(back)};
  there.neighbour[static_cast<std::size_t>(back)] = s;
  nb.ingress |= point_set{1} << target;
  ++q_.stats.generated;
  offer(ns, ng, vertices ? hv : h(global(nb, target)));
}

}  // namespace lddb::block_astar_impl
