// Algorithm 1: expanding one node.

#include "search/block_astar/search.hpp"

namespace lddb::block_astar_impl {

block_search::expansion block_search::pick_expansion() const {
#if LDDB_AVX2_KERNELS
  if (avx2_) return st_.squares ? &block_search::expand<true, avx2_rows> : &block_search::expand<false, avx2_rows>;
#endif
  return st_.squares ? &block_search::expand<true, scalar_rows> : &block_search::expand<false, scalar_rows>;
}

// kSquares: this query may meet open squares; false compiles them out. Rows: the row
// kernels of min_plus.hpp.
template <bool kSquares, class Rows>
point_set block_search::expand(int s, point_set ingress) {
  if (kSquares && is_large(slot(s))) {  // its points and its ingress are its own
    expand_large(s);
    return 0;
  }
  // At most 20 new neighbours (around a 4 x 4 square): with room for them, slot references
  // and square point arrays stay valid below.
  st_.pool.reserve_more(21, map_blocks_);
  if (kSquares && st_.square_state.capacity() < st_.squares_used + 21 && !st_.square_room_holds(map_))
    st_.square_state.reserve(2 * (st_.squares_used + 21));
  block_slot& cur = slot(s);
  ++q_.stats.expanded;
  if (q_.options.diagnostics.record_expanded) {  // for pictures: a square is its blocks
    const int k = shape_of(cur).blocks;
    for (int dy = 0; dy < k; ++dy)
      for (int dx = 0; dx < k; ++dx) q_.expanded.push_back({cur.bx + dx, cur.by + dy});
  }
  if (!cur.prepared) {
    if (kSquares && cur.level)
      prepare_square(cur, square_of(cur), shape_of(cur), map_, rule_);
    else
      prepare_block(cur, st_.links, map_, rule_, b_, n_);
    cur.prepared = true;
  }
  // Line 5: the egress points' g-values through the node from the ingress points.
  const point_set changed = egress_costs<kSquares, Rows>(cur, ingress);
  q_.stats.generated += count_points(changed);

  // Line 6: hand on every point that changed here or arrived since the last expansion,
  // along the links that are legal from this node.
  st_.touched.clear();
  const point_set hand_on = to_hand_on(cur, ingress, changed);
  if (kSquares && rule_.on_vertices())
    weight_.is_one() ? hand_on_squares<false>(s, cur, hand_on) : hand_on_squares<true>(s, cur, hand_on);
  else if (kSquares)
    hand_on_cell_squares(s, cur, hand_on);
  else if (rule_.on_vertices())
    weight_.is_one() ? hand_on_blocks<true, false>(s, cur, hand_on) : hand_on_blocks<true, true>(s, cur, hand_on);
  else
    weight_.is_one() ? hand_on_blocks<false, false>(s, cur, hand_on) : hand_on_blocks<false, true>(s, cur, hand_on);
  // Lines 8-16: each neighbour goes to OPEN with its heap value.
  push_offers();
  return hand_on | ingress;
}

// The format's decoders of stored costs, the encoding fixed once per expansion
// (cost_view::decode tests the encoding on every lookup, in the innermost loop).
struct shifted_units {  // cost_encoding other than octile_pair: whole stored units
  int shift;
  cost_t operator()(std::uint16_t v) const { return decode_fixed_point(v, shift); }
};
struct octile_pairs {  // cost_encoding::octile_pair: straight steps in the low byte, diagonals in the high
  cost_t diagonal;
  cost_t operator()(std::uint16_t v) const { return decode_octile_pair(v, diagonal); }
};

// Line 5: the min-plus product of the ingress g-values and the node's costs, into the
// egress points (those that can hand a g-value on), with the way costs are read chosen
// once, outside the loops. Returns the points improved.
template <bool kSquares, class Rows>
[[gnu::always_inline]] inline point_set block_search::egress_costs(block_slot& cur, point_set ingress) {
  const point_set egress = cur.exitable & ~cur.closed;  // exitable points are usable; closed ones stay
  if (kSquares && cur.level) {  // straight lines, all finite
    square_nodes& sq = square_of(cur);
    const node_shape& q = shape_of(cur);
#if LDDB_AVX2_KERNELS
    if (square_avx2_)  // the count is 4 (side - 1) or 4 side: a multiple of 4
      return avx2_rows::relax(sq.g.data(), sq.parent.data(), q.cost.data(), static_cast<std::size_t>(q.count), q.count,
                              ingress, egress);
#endif
    return Rows::relax(sq.g.data(), sq.parent.data(), q.cost.data(), static_cast<std::size_t>(q.count), q.count,
                       ingress, egress);
  }
  if (cur.code == 0 && db_.open_costs_finite())  // open ground, the common block on game maps: kept decoded
    return Rows::relax(cur.g.data(), cur.parent.data(), db_.open_costs(), static_cast<std::size_t>(n_), n_, ingress,
                       egress);
  if (db_.info().encoding == cost_encoding::octile_pair)
    return egress_costs_stored<Rows>(cur, ingress, egress, octile_pairs{rule_.diagonal});
  return egress_costs_stored<Rows>(cur, ingress, egress, shifted_units{kCostShift - db_.info().scale_log2});
}

// Line 5 through the database's stored costs, which may be kUnreachable. floor_cost first
// rules out the pairs that cannot improve, so that most lookups are skipped.
template <class Rows, class Decode>
[[gnu::always_inline]] inline point_set block_search::egress_costs_stored(block_slot& cur, point_set ingress,
                                                                         point_set egress, Decode decode) {
  const database::cost_view costs = db_.view(cur.code);
  const auto& floor = st_.links.floor_cost;
  point_set changed = 0;
  for (point_set m = ingress; m; m &= m - 1) {
    const int y = __builtin_ctzll(m);
    if ((changed >> y) & 1u) continue;  // improved through another ingress point: dominated
    const cost_t gy = cur.g[static_cast<std::size_t>(y)];
    const auto& floor_row = floor[static_cast<std::size_t>(y)];
    point_set e = egress & ~(point_set{1} << y);
    e &= Rows::improved(gy, floor_row.data(), cur.g.data(), n_);  // the floor test for the whole row at once
    for (; e; e &= e - 1) {
      const int x = __builtin_ctzll(e);
      // Cannot improve (passes always when the row was tested above; predicted so).
      if (gy + floor_row[static_cast<std::size_t>(x)] >= cur.g[static_cast<std::size_t>(x)]) continue;
      const cost_t c = decode(costs.stored(y, x));
      if (c == kUnreachable) continue;
      const cost_t total = gy + c;
      if (total < cur.g[static_cast<std::size_t>(x)]) {
        cur.g[static_cast<std::size_t>(x)] = total;
        cur.parent[static_cast<std::size_t>(x)] = {via::block, static_cast<std::uint8_t>(y), 0};
        changed |= point_set{1} << x;
      }
    }
  }
  return changed;
}

// The points line 6 hands on. A vertex that arrived from a neighbour was handed on by that
// neighbour to every block that shares it, so only the start's own points come with their
// ingress. Cells hand an arrived point on by moves the neighbour could not make.
inline point_set block_search::to_hand_on(const block_slot& cur, point_set ingress, point_set changed) const {
  point_set hand_on = changed | ingress;
  if (!rule_.on_vertices()) return hand_on;
  const parent_ref* const parent = store(cur).parent;
  for (point_set m = ingress & ~changed; m; m &= m - 1) {
    const int y = __builtin_ctzll(m);
    if (parent[y].kind == via::neighbour) hand_on &= ~(point_set{1} << y);
  }
  return hand_on;
}

// The paper's hand-on between two blocks: g-value ng reaches point l.target of nb through
// link l. False when it does not improve that point.
template <bool kWeighted>
[[gnu::always_inline]] inline bool block_search::improve_block(block_slot& nb, const link& l, cost_t ng) {
  if (ng >= nb.g[l.target] || (kWeighted && ((nb.closed >> l.target) & 1u))) return false;
  nb.g[l.target] = ng;
  nb.parent[l.target] = {via::neighbour, l.source, static_cast<std::uint8_t>(8 - l.around)};
  nb.ingress |= point_set{1} << l.target;
  ++q_.stats.generated;
  return true;
}

// Line 6 between plain blocks: each link's target and way back are its own. One
// instantiation per kind of point, so that neither tests the kind on every link.
template <bool kVertices, bool kWeighted>
[[gnu::always_inline]] inline void block_search::hand_on_blocks(int s, block_slot& cur, point_set hand_on) {
  std::uint64_t todo = 0;
  const point_set sources = hand_on & cur.exitable;
  for (point_set m = sources; m; m &= m - 1) todo |= st_.links.point_links[static_cast<std::size_t>(__builtin_ctzll(m))];
  todo &= cur.link_ok;
  // A vertex is the same point in every block that shares it, so its h is worked out once
  // for all the links from it; a cell's differs with each move.
  std::array<cost_t, kMaxBoundary> hv;
  if (kVertices) heuristics(cur, sources, hv.data());
  for (; todo; todo &= todo - 1) {
    const link& l = st_.links.links[static_cast<std::size_t>(__builtin_ctzll(todo))];
    if (kVertices && (cur.free_ring & l.target_ring) == 0) continue;
    const cost_t ng = cur.g[l.source] + l.cost;
    int& ns = cur.neighbour[l.around];
    if (ns < 0) {
      ns = slot_of(cur.bx + l.ox, cur.by + l.oy);
      slot(ns).neighbour[static_cast<std::size_t>(8 - l.around)] = s;
    }
    block_slot& nb = slot(ns);
    if (!improve_block<kWeighted>(nb, l, ng)) continue;
    offer<kWeighted>(ns, ng, kVertices ? hv[l.source] : h(global_in_block(nb, l.target)));
  }
}

// Hands the g-value of vertex l.source of node s on along link l (legal); hv is its h.
template <bool kWeighted>
[[gnu::always_inline]] inline void block_search::hand_on_vertex(int s, block_slot& cur, const cost_t* cur_g,
                                                                int* neighbours, const link& l, cost_t hv) {
  const cost_t ng = cur_g[l.source];  // the very same vertex: no cost
  int& ns = neighbours[l.around];
  if (ns < 0) {
    ns = slot_of(cur.bx + l.ox, cur.by + l.oy);
    block_slot& fresh = slot(ns);
    if (!cur.level && !fresh.level) fresh.neighbour[static_cast<std::size_t>(8 - l.around)] = s;
  }
  block_slot& nb = slot(ns);
  if (!cur.level && !nb.level) {  // two blocks: the paper's hand-on (their caches point both ways)
    if (improve_block<kWeighted>(nb, l, ng)) offer<kWeighted>(ns, ng, hv);
    return;
  }
  // The vertex numbered in nb, and a block of this node that holds it, placed in nb's ring
  // (where nb finds this node, for walk_back). From a square into a plain block, the link
  // knows both.
  std::uint32_t target = l.target, back = l.back;
  if (is_large(nb)) {
    const point p = shape_of(cur).points[l.source];
    const large_shape& to = large_shape_of(nb);
    const int vx = (cur.bx - nb.bx) * b_ + p.x, vy = (cur.by - nb.by) * b_ + p.y;
    const int hx = cur.bx + (cur.level ? holding_block(p.x, shape_of(cur).blocks, b_) : 0);
    const int hy = cur.by + (cur.level ? holding_block(p.y, shape_of(cur).blocks, b_) : 0);
    return receive_large(ns, to.index[static_cast<std::size_t>(vy * to.stride + vx)], ring_index(nb, hx, hy), s,
                         l.source, ng, hv);
  }
  if (nb.level) {
    const node_shape& from = shape_of(cur);
    const node_shape& to = shape_of(nb);
    const point p = from.points[l.source];
    const int vx = (cur.bx - nb.bx) * b_ + p.x, vy = (cur.by - nb.by) * b_ + p.y;
    target = static_cast<std::uint32_t>(to.index[static_cast<std::size_t>(vy * (to.side + 1) + vx)]);
    int hx = cur.bx, hy = cur.by;
    if (cur.level) {  // holding_block is 0 in a plain block: spare the divisions
      hx += holding_block(p.x, from.blocks, b_);
      hy += holding_block(p.y, from.blocks, b_);
    }
    back = static_cast<std::uint32_t>(ring_index(nb, hx, hy));
  }
  const node_store<false> there = store(nb);
  if (ng >= there.g[target] || (kWeighted && ((nb.closed >> target) & 1u))) return;
  there.g[target] = ng;
  there.parent[target] = {via::neighbour, l.source, static_cast<std::uint8_t>(back)};
  there.neighbour[back] = s;
  nb.ingress |= point_set{1} << target;
  ++q_.stats.generated;
  offer<kWeighted>(ns, ng, hv);
}

// Line 6 when the query has open squares: the same vertex has another boundary index in a
// square, and a square has more blocks around it, so a link's target and the way back are
// worked out from the two nodes' shapes.
template <bool kWeighted>
[[gnu::always_inline]] inline void block_search::hand_on_squares(int s, block_slot& cur, point_set hand_on) {
  const node_store<false> here = store(cur);
  const point_set sources = hand_on & cur.exitable;
  std::array<cost_t, kNodePoints> hv;
  heuristics(cur, sources, hv.data());
  if (cur.level) {
    // A square's links come in order of source, up to 84 of them: walk each source's.
    each_square_link(cur, sources, [&](const link& l, int i) {
      hand_on_vertex<kWeighted>(s, cur, here.g, here.neighbour, l, hv[static_cast<std::size_t>(i)]);
    });
    return;
  }
  std::uint64_t todo = 0;
  for (point_set m = sources; m; m &= m - 1) todo |= st_.links.point_links[static_cast<std::size_t>(__builtin_ctzll(m))];
  for (todo &= cur.link_ok; todo; todo &= todo - 1) {
    const link& l = st_.links.links[static_cast<std::size_t>(__builtin_ctzll(todo))];
    if ((cur.free_ring & l.target_ring) != 0) hand_on_vertex<kWeighted>(s, cur, here.g, here.neighbour, l, hv[l.source]);
  }
}

// Hands the g-value of cell l.source of node s on along link l (a legal move) when the
// query has open squares. Into a plain block as improve_block does (a square's link knows
// the target's index there and the way back); into a square out of line (hand_into_square),
// which keeps this hot loop small.
template <bool kFromSquare>
[[gnu::always_inline]] inline void block_search::hand_on_cell(int s, block_slot& cur, const cost_t* cur_g,
                                                              int* neighbours, const link& l) {
  const cost_t ng = cur_g[l.source] + l.cost;
  int& ns = neighbours[l.around];
  if (ns < 0) {
    ns = slot_of(cur.bx + l.ox, cur.by + l.oy);
    block_slot& fresh = slot(ns);
    if (!kFromSquare && !fresh.level) fresh.neighbour[static_cast<std::size_t>(8 - l.around)] = s;
  }
  block_slot& nb = slot(ns);
  if (nb.level) return hand_into_square(s, cur, l, ns, ng);
  if (!kFromSquare) {
    if (improve_block(nb, l, ng)) offer(ns, ng, h(global_in_block(nb, l.target)));
    return;
  }
  if (ng >= nb.g[l.target] || ((nb.closed >> l.target) & 1u)) return;
  nb.g[l.target] = ng;
  nb.parent[l.target] = {via::neighbour, l.source, l.back};
  nb.neighbour[l.back] = s;
  nb.ingress |= point_set{1} << l.target;
  ++q_.stats.generated;
  offer(ns, ng, h(global_in_block(nb, l.target)));
}

// hand_on_cell into square ns: the target cell numbered in it, and where it finds the
// block of node s that the move leaves.
[[gnu::noinline]] void block_search::hand_into_square(int s, const block_slot& cur, const link& l, int ns, cost_t ng) {
  block_slot& nb = slot(ns);
  const point from = shape_of(cur).points[l.source];
  if (is_large(nb)) {
    const large_shape& q = large_shape_of(nb);
    const int tx = (cur.bx - nb.bx) * b_ + from.x + l.dx, ty = (cur.by - nb.by) * b_ + from.y + l.dy;
    const int target = q.index[static_cast<std::size_t>(ty * q.stride + tx)];
    const int back = ring_index(nb, cur.bx + (cur.level ? l.hx : 0), cur.by + (cur.level ? l.hy : 0));
    return receive_large(ns, target, back, s, l.source, ng, h(global(nb, target)));
  }
  const node_shape& q = shape_of(nb);
  const int tx = (cur.bx - nb.bx) * b_ + from.x + l.dx, ty = (cur.by - nb.by) * b_ + from.y + l.dy;
  const int target = q.index[static_cast<std::size_t>(ty * q.stride + tx)];
  const int back = ring_index(nb, cur.bx + (cur.level ? l.hx : 0), cur.by + (cur.level ? l.hy : 0));
  square_nodes& there = square_of(nb);
  if (ng >= there.g[static_cast<std::size_t>(target)] || ((nb.closed >> target) & 1u)) return;
  there.g[static_cast<std::size_t>(target)] = ng;
  there.parent[static_cast<std::size_t>(target)] = {via::neighbour, l.source, static_cast<std::uint8_t>(back)};
  there.neighbour[static_cast<std::size_t>(back)] = s;
  nb.ingress |= point_set{1} << target;
  ++q_.stats.generated;
  offer(ns, ng, h(global(nb, target)));
}

// Line 6 for tile and octile when the query has open squares: a square's links are its
// own (up to 188 of them, legal as prepare_square found), a plain block's the usual ones.
[[gnu::always_inline]] inline void block_search::hand_on_cell_squares(int s, block_slot& cur, point_set hand_on) {
  const point_set sources = hand_on & cur.exitable;
  if (cur.level) {
    const node_store<false> here = store(cur);
    each_square_link(cur, sources, [&](const link& l, int) { hand_on_cell<true>(s, cur, here.g, here.neighbour, l); });
    return;
  }
  std::uint64_t todo = 0;
  for (point_set m = sources; m; m &= m - 1) todo |= st_.links.point_links[static_cast<std::size_t>(__builtin_ctzll(m))];
  for (todo &= cur.link_ok; todo; todo &= todo - 1)
    hand_on_cell<false>(s, cur, cur.g.data(), cur.neighbour.data(), st_.links.links[static_cast<std::size_t>(__builtin_ctzll(todo))]);
}

template point_set block_search::expand<false, scalar_rows>(int, point_set);
template point_set block_search::expand<true, scalar_rows>(int, point_set);
#if LDDB_AVX2_KERNELS
template point_set block_search::expand<false, avx2_rows>(int, point_set);
template point_set block_search::expand<true, avx2_rows>(int, point_set);
#endif

}  // namespace lddb::block_astar_impl
