// Theta* and Lazy Theta* (Nash, Daniel, Koenig and Felner 2007; Nash, Koenig and Tovey
// 2010) on the vertices of the map, for the any-angle rules.
//
// Vertex (x, y) is the top-left corner of cell (x, y); the vertices are 0..W x 0..H,
// numbered row-major (y * (W + 1) + x). A vertex's neighbours are the eight unit moves
// (kSteps order) whose unit segment is legal (segment_legal); line of sight between any
// two vertices is segment_legal; a segment costs euclid_cost. State, heap and
// tie-breaking are shared with A* (node_search.hpp); the legal unit segments from a
// vertex are looked up by the pattern of its four cells in a table that segment_legal
// itself fills.
//
// Basic Theta* (UpdateVertex with line of sight from the parent): a neighbour s' of the
// expanded vertex s takes parent(s) as its parent when parent(s) sees s' ("path 2"),
// else s ("path 1"). The line-of-sight test is only made when its answer can change
// something (path 2 would improve g(s'), or path 1 would), so the result is exactly that
// of the textbook algorithm with fewer tests. Closed vertices are not re-opened.
//
// Lazy Theta*: a neighbour is given path 2 without a test; when a vertex is expanded its
// parent's line of sight is checked, and if it fails the vertex takes the best closed
// neighbour as its parent instead (SetVertex, made before the goal test).
//
// Sides (the default rule, squeeze forbidden): a path may visit a double corner but never
// pass there from one of its free cells to the other (lddb/segments.hpp), so a search
// state is a vertex and the side it was reached on. State id = vertex id on side 0,
// vertex id + vertex count on side 1 (only double corners have a side 1, so every other
// state keeps its vertex's id and tie-breaking). A state's moves leave on its side and
// reach their target on the side of the segment there; a shortcut from parent(u) is a
// candidate only where it leaves parent(u) on the side its path arrived on and reaches the
// neighbour on the side path 1 does (so Lazy Theta*'s SetVertex always has u to fall back
// on). The start and goal are on their own cell's side (endpoint_side). Under
// squeeze=allowed the search is instantiated without any of this and runs as before.
//
// search_options::weight > 1 orders OPEN by g + weight * h (closed vertices are never
// re-opened anyway). Neither search is optimal at weight 1, so no bound is proven; the
// tests check cost <= weight x the cost at weight 1 on generated maps.
#include <bit>
#include <string>

#include "search/context.hpp"
#include "prepare/prepared.hpp"
#include "prepare/lower_bounds.hpp"
#include "lddb/search.hpp"
#include "search/node_search.hpp"
#include "lddb/moves.hpp"
#include "lddb/segments.hpp"

namespace lddb {

namespace {

void no_path(const rule& r, point start, point goal, search_result& res) {
  res.status = search_status::no_path;
  set_message(res.message, "no path from vertex (%d,%d) to vertex (%d,%d) under rule %s", start.x, start.y, goal.x,
              goal.y, r.name().c_str());
}

template <bool Lazy, heuristic_kind H, bool Sides>
void theta_core(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
                node_search_state& st, search_result& res) {
  using node_search::kClosed;
  const std::uint32_t vw = static_cast<std::uint32_t>(map.width()) + 1;
  const std::uint32_t nv = vw * (static_cast<std::uint32_t>(map.height()) + 1);  // vertices; side-1 states follow
  const auto index = [vw](int x, int y) { return static_cast<std::uint32_t>(y) * vw + static_cast<std::uint32_t>(x); };
  const auto xy = [vw, nv](std::uint32_t id) {
    if constexpr (Sides) id = id >= nv ? id - nv : id;
    return point{static_cast<int>(id % vw), static_cast<int>(id / vw)};
  };
  const auto state = [nv](std::uint32_t vid, int side) { return side != 0 ? vid + nv : vid; };
  st.begin(static_cast<std::size_t>(nv) * (Sides ? 2 : 1));
  std::uint32_t sid = index(start.x, start.y), gid = index(goal.x, goal.y);
  if constexpr (Sides) {  // prepare_endpoints refused side -1
    st.touch_vertex(sid, map, start.x, start.y);  // its cells, for a start on side 1
    sid = state(sid, endpoint_side(r, map, start.x, start.y));
    gid = state(gid, endpoint_side(r, map, goal.x, goal.y));
  }
  cost_t unit_costs[8];
  std::ptrdiff_t offsets[8];
  for (int k = 0; k < 8; ++k) {
    unit_costs[k] = euclid_cost(kSteps[k][0], kSteps[k][1]);
    offsets[k] = static_cast<std::ptrdiff_t>(kSteps[k][1]) * static_cast<std::ptrdiff_t>(vw) + kSteps[k][0];
  }
  const auto& moves = st.moves.vertices_for(r);
  const auto& sides = st.moves.vertex_side;
  // Sides: is the vertex of a touched record a double corner? (Only those have a side 1.)
  const auto corner = [&](std::uint32_t vid) { return sides[st.at(vid).cells][1] != 0; };
  search_stats& stats = res.stats;
  const weight_factor weight = weight_factor::of(options.weight);  // OPEN: g + weight * h
  const landmark_bound landmarks(usable_landmarks(options, map), start, goal,
                                 heuristic_cost(H, r, start.x, start.y, goal.x, goal.y));
  const auto h_of = [&](int x, int y) {
    const cost_t h = heuristic_cost(H, r, x, y, goal.x, goal.y), l = landmarks({x, y});
    return weight(h > l ? h : l);
  };
  const auto los = [&](point a, point b) {
    ++stats.los_checks;
    return segment_legal(r, map, a.x, a.y, b.x, b.y);
  };

  {
    node_search::node& s = st.touch(sid);
    s.g = 0;
    s.parent = sid;
  }
  st.push(sid, h_of(start.x, start.y), 0);
  ++stats.generated;
  bool found = false;
  while (!st.open_empty()) {
    if (options.max_expansions != 0 && stats.expanded >= options.max_expansions) {
      // Lazy Theta*: an open vertex's parent is not yet checked for line of sight; its
      // parent, closed, is.
      std::uint32_t to = st.open_top().id;
      if constexpr (Lazy) to = st.at(to).parent;
      if constexpr (Sides) {
        // The partial path ends where a unit may stand and plan again from: not on a double
        // corner on another side than its own cell's (the start's side rule); else earlier.
        for (point e = xy(to); to != sid && endpoint_side(r, map, e.x, e.y) != static_cast<int>(to >= nv); e = xy(to))
          to = st.at(to).parent;
      }
      stats.heap_ops = st.heap_ops;
      st.give_up(sid, to, xy, options.max_expansions, res);
      if (!weight.is_one()) res.lower_bound = 0;  // an inflated key bounds nothing
      return;
    }
    const std::uint32_t uid = st.pop().id;
    node_search::node& u = st.at(uid);
    const point up = xy(uid);
    std::uint32_t uvid = uid;  // u's vertex
    unsigned legal_moves;      // the legal unit segments from u (on its side), by its four cells
    if constexpr (Sides) {
      uvid = index(up.x, up.y);
      const std::uint32_t own = st.at(uvid).cells;
      legal_moves = moves[own] & sides[own][uid != uvid];
    } else {
      legal_moves = moves[gather_cells(map, up.x - 1, up.y - 1, 2)];
    }
    if constexpr (Lazy) {
      if (u.parent != uid && !los(xy(u.parent), up)) {
        // SetVertex: the best closed neighbour (first in kSteps order on ties); at a double
        // corner, its state on the side of the unit segment to u, whose moves to u are legal.
        // (k ^ 2 is the move opposite k in kSteps order.)
        const auto toward_u = [&](int k, std::uint32_t vid, point p) {
          if constexpr (Sides) return vid + ((sides[st.touch_vertex(vid, map, p.x, p.y).cells][1] >> (k ^ 2)) & 1u) * nv;
          return vid;
        };
        cost_t best = kUnreachable;
        std::uint32_t best_id = u.parent;
        for (unsigned legal = legal_moves; legal != 0; legal &= legal - 1) {
          const int k = std::countr_zero(legal);
          const std::uint32_t nid = toward_u(k, static_cast<std::uint32_t>(static_cast<std::ptrdiff_t>(uvid) + offsets[k]),
                                             point{up.x + kSteps[k][0], up.y + kSteps[k][1]});
          const node_search::node& nb = st.touch(nid);
          if (nb.pos != kClosed) continue;
          const cost_t c = nb.g + unit_costs[k];
          if (c < best) {
            best = c;
            best_id = nid;
          }
        }
        u.g = best;
        u.parent = best_id;
      }
    }
    u.pos = kClosed;
    ++stats.expanded;
    if (options.diagnostics.record_expanded) res.expanded.push_back(up);
    if (uid == gid) {
      found = true;
      break;
    }
    const std::uint32_t pid = u.parent;
    const point pp = xy(pid);
    const cost_t pg = st.at(pid).g, ug = u.g;
    const bool parent_corner = Sides && pid != uid && corner(index(pp.x, pp.y));
    for (unsigned legal = legal_moves; legal != 0; legal &= legal - 1) {
      const int k = std::countr_zero(legal);
      const int dx = kSteps[k][0], dy = kSteps[k][1];
      const std::uint32_t vvid = static_cast<std::uint32_t>(static_cast<std::ptrdiff_t>(uvid) + offsets[k]);
      const point vp{up.x + dx, up.y + dy};
      // The state path 1 reaches: at a double corner, on the side of the segment back to u
      // (move k ^ 2).
      std::uint32_t vid = vvid;
      unsigned v_sides = 0;  // Sides: the unit segments on v's side 1 (none unless a double corner)
      node_search::node* vrec;
      if constexpr (Sides) {
        vrec = &st.touch_vertex(vvid, map, vp.x, vp.y);
        v_sides = sides[vrec->cells][1];
        if ((v_sides >> (k ^ 2)) & 1u) {
          vid = state(vvid, 1);
          vrec = &st.touch(vid);
        }
      } else {
        vrec = &st.touch(vid);
      }
      node_search::node& v = *vrec;
      if (v.pos == kClosed) continue;
      bool shortcut = pid != uid;  // path 2 is a candidate (u is not the start)
      if constexpr (Sides) {
        // Path 2 must leave parent(u) on the side u's path left it on, and reach v on the
        // side path 1 does (else it would reach another state). Neither fails where the
        // segment from parent(u) to v is legal, u being a unit step from v on its side, so
        // this only spares a line-of-sight test and keeps every state's path side-keeping
        // by construction.
        if (shortcut)
          shortcut = !(vp == pp) &&
                     (!parent_corner || segment_side(map, pp.x, pp.y, vp.x, vp.y) == static_cast<int>(pid >= nv)) &&
                     (v_sides == 0 || state(vvid, segment_side(map, vp.x, vp.y, pp.x, pp.y)) == vid);
      }
      cost_t ng;
      std::uint32_t parent;
      if (!shortcut) {  // u is the start (path 1 and path 2 coincide), or path 2 keeps no sides
        ng = ug + unit_costs[k];
        parent = uid;
        if (ng >= v.g) continue;
      } else if constexpr (Lazy) {
        ng = pg + euclid_cost(vp.x - pp.x, vp.y - pp.y);
        parent = pid;
        if (ng >= v.g) continue;
      } else {
        const cost_t g2 = pg + euclid_cost(vp.x - pp.x, vp.y - pp.y);
        const cost_t g1 = ug + unit_costs[k];
        if (g2 < v.g) {
          if (los(pp, vp)) {
            ng = g2;
            parent = pid;
          } else if (g1 < v.g) {
            ng = g1;
            parent = uid;
          } else {
            continue;
          }
        } else if (g1 < v.g && !los(pp, vp)) {  // only when rounding makes path 1 cheaper
          ng = g1;
          parent = uid;
        } else {
          continue;
        }
      }
      const bool is_open = v.pos != node_search::kNotOpen;
      v.g = ng;
      v.parent = parent;
      ++stats.generated;
      if (is_open) st.decrease(vid, ng + st.open_h(vid), ng);
      else st.push(vid, ng + h_of(vp.x, vp.y), ng);
    }
  }
  stats.heap_ops = st.heap_ops;
  if (!found) {
    searched_whole_component(r, map, options);
    no_path(r, start, goal, res);
    return;
  }
  st.trace_path(sid, gid, xy, res.path);
  res.status = search_status::found;
  res.cost = st.at(gid).g;
  res.length = path_length(res.path);
}

// The rule picks the instantiation: sides only where double corners may not be passed.
template <bool Lazy, heuristic_kind H>
void theta_rule(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
                node_search_state& st, search_result& res) {
  if (r.squeeze == squeezing::forbidden) theta_core<Lazy, H, true>(r, map, start, goal, options, st, res);
  else theta_core<Lazy, H, false>(r, map, start, goal, options, st, res);
}

template <bool Lazy>
void theta_search(const char* name, const rule& r, const grid_map& map, point start, point goal,
                  const search_options& asked, search_context& ctx, search_result& res) {
  res.searched = Lazy ? search_kind::lazy_theta_star : search_kind::theta_star;
  if (on_unit_view(r, map, asked, res, [&](const grid_map& view, const search_options& o) {
        theta_search<Lazy>(name, r, view, start, goal, o, ctx, res);
      }))
    return;
  search_options scratch;
  const search_options& options = detail::with_prepared(asked, r, map, scratch);
  res.clear();
  if (!r.on_vertices()) {
    res.status = search_status::rule_mismatch;
    res.message = std::string(name) + "() searches vertices (any-angle); rule " + r.name() + " is on cells: use astar()";
    return;
  }
  if (!prepare_endpoints(r, map, start, goal, options, res)) return;
  if (components_apart(r, map, start, goal, options)) return no_path(r, start, goal, res);
  node_search_state& st = node_state(ctx);
  switch (heuristic_for(options, r)) {
    case heuristic_kind::zero:
      theta_rule<Lazy, heuristic_kind::zero>(r, map, start, goal, options, st, res);
      break;
    case heuristic_kind::manhattan:
      theta_rule<Lazy, heuristic_kind::manhattan>(r, map, start, goal, options, st, res);
      break;
    case heuristic_kind::octile:
      theta_rule<Lazy, heuristic_kind::octile>(r, map, start, goal, options, st, res);
      break;
    case heuristic_kind::euclidean:
      theta_rule<Lazy, heuristic_kind::euclidean>(r, map, start, goal, options, st, res);
      break;
  }
  finish_path(r, map, options, res, st.pull);
}

}  // namespace

void theta_star(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
                search_context& ctx, search_result& out) {
  theta_search<false>("theta_star", r, map, start, goal, options, ctx, out);
}

void lazy_theta_star(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
                     search_context& ctx, search_result& out) {
  theta_search<true>("lazy_theta_star", r, map, start, goal, options, ctx, out);
}

search_result theta_star(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
                         search_context& ctx) {
  search_result res;
  theta_star(r, map, start, goal, options, ctx, res);
  return res;
}

search_result lazy_theta_star(const rule& r, const grid_map& map, point start, point goal,
                              const search_options& options, search_context& ctx) {
  search_result res;
  lazy_theta_star(r, map, start, goal, options, ctx, res);
  return res;
}

}  // namespace lddb
