// A* on cells for the tile and octile rules: the reference Block A* is measured against.
//
// Per-cell records live in the search_context (node_search.hpp) and are reused across
// queries with a generation counter; the open list is an indexed 4-ary heap with
// decrease-key and the fixed tie-breaking documented in node_search.hpp (f, then larger
// g, then smaller cell index). The goal test is made when a cell is popped, so the cost
// returned is optimal whenever the heuristic is admissible. A closed cell whose g still
// improves is re-opened (this never happens with a consistent heuristic, such as the
// defaults; it keeps Euclidean, whose fixed-point rounding can be inconsistent by one
// unit, exactly optimal). The legal moves from a cell are looked up by the pattern of
// the 3x3 cells around it in a table that step_legal itself fills (node_search.hpp).
//
// search_options::weight > 1 orders OPEN by g + weight * h, and a closed cell is then not
// re-opened: with a consistent heuristic the cost found is still at most weight times the
// optimum (Likhachev, Gordon and Thrun, ARA*, 2003), and re-opening would spend the
// expansions the weight saves. Euclidean keeps re-opening, for its rounding.
#include <bit>
#include <string>

#include "search/context.hpp"
#include "prepare/prepared.hpp"
#include "prepare/lower_bounds.hpp"
#include "lddb/search.hpp"
#include "search/node_search.hpp"
#include "lddb/moves.hpp"

namespace lddb {

void destroy_state(node_search_state* s) { delete s; }
std::size_t state_bytes(const node_search_state* s) { return s ? s->bytes() : 0; }

void reserve_state(node_search_state*& s, const rule& r, const grid_map& map, bool write) {
  if (!s) s = new node_search_state();
  const std::size_t w = static_cast<std::size_t>(map.width()), h = static_cast<std::size_t>(map.height());
  if (r.on_vertices()) {  // Theta*: a state per vertex, two at double corners under the default rule (theta.cpp)
    s->reserve((w + 1) * (h + 1) * (r.squeeze == squeezing::forbidden ? 2 : 1), write);
    (void)s->moves.vertices_for(r);
    s->pull.reserve(map);  // finish_path's, and any-angle by jumps'
  } else {
    s->reserve(w * h, write);
    (void)s->moves.cells_for(r);
  }
}

namespace {

template <heuristic_kind H>
void astar_core(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
                node_search_state& st, search_result& res) {
  using node_search::kClosed;
  const int w = map.width();
  const auto index = [w](int x, int y) { return static_cast<std::uint32_t>(y) * static_cast<std::uint32_t>(w) + static_cast<std::uint32_t>(x); };
  st.begin(static_cast<std::size_t>(w) * static_cast<std::size_t>(map.height()));
  const std::uint32_t sid = index(start.x, start.y), gid = index(goal.x, goal.y);
  const auto& moves = st.moves.cells_for(r);  // tile: the four straight moves only
  cost_t step_costs[8];
  std::ptrdiff_t offsets[8];
  for (int k = 0; k < 8; ++k) {
    step_costs[k] = step_cost(r, kSteps[k][0], kSteps[k][1]);
    offsets[k] = static_cast<std::ptrdiff_t>(kSteps[k][1]) * w + kSteps[k][0];
  }
  search_stats& stats = res.stats;
  const weight_factor weight = weight_factor::of(options.weight);
  const bool reopen = weight.is_one() || H == heuristic_kind::euclidean;
  const landmark_bound landmarks(usable_landmarks(options, map), start, goal, 0);  // consistent, like H
  const auto h_of = [&](int x, int y) {
    const cost_t h = heuristic_cost(H, r, x, y, goal.x, goal.y), l = landmarks({x, y});
    return weight(h > l ? h : l);
  };

  st.touch(sid).g = 0;
  st.push(sid, h_of(start.x, start.y), 0);
  ++stats.generated;
  bool found = false;
  while (!st.open_empty()) {
    if (options.max_expansions != 0 && stats.expanded >= options.max_expansions) {
      stats.heap_ops = st.heap_ops;
      st.give_up(sid, st.open_top().id, [w](std::uint32_t id) {
        return point{static_cast<int>(id % static_cast<std::uint32_t>(w)), static_cast<int>(id / static_cast<std::uint32_t>(w))};
      }, options.max_expansions, res);
      if (!weight.is_one()) res.lower_bound = 0;  // an inflated key bounds nothing
      return;
    }
    const node_search::heap_entry top = st.pop();
    const std::uint32_t uid = top.id;
    node_search::node& u = st.at(uid);
    u.pos = kClosed;
    ++stats.expanded;
    const int ux = static_cast<int>(uid % static_cast<std::uint32_t>(w));
    const int uy = static_cast<int>(uid / static_cast<std::uint32_t>(w));
    if (options.diagnostics.record_expanded) res.expanded.push_back(point{ux, uy});
    if (uid == gid) {
      found = true;
      break;
    }
    // The legal moves from u, by the 3x3 cells around it.
    const cost_t ug = u.g;
    for (unsigned legal = moves[gather_cells(map, ux - 1, uy - 1, 3)]; legal != 0; legal &= legal - 1) {
      const int k = std::countr_zero(legal);
      const int dx = kSteps[k][0], dy = kSteps[k][1];
      const std::uint32_t vid = static_cast<std::uint32_t>(static_cast<std::ptrdiff_t>(uid) + offsets[k]);
      node_search::node& v = st.touch(vid);
      const cost_t ng = ug + step_costs[k];
      if (ng >= v.g || (!reopen && v.pos == kClosed)) continue;
      v.g = ng;
      v.parent = uid;
      ++stats.generated;
      if (v.pos < kClosed) {
        st.decrease(vid, ng + st.open_h(vid), ng);
      } else {  // new, or re-opened
        v.pos = node_search::kNotOpen;
        st.push(vid, ng + h_of(ux + dx, uy + dy), ng);
      }
    }
  }
  stats.heap_ops = st.heap_ops;
  if (!found) {
    searched_whole_component(r, map, options);
    no_path_between_cells(r, start, goal, res);
    return;
  }
  st.trace_path(sid, gid, [w](std::uint32_t id) {
    return point{static_cast<int>(id % static_cast<std::uint32_t>(w)), static_cast<int>(id / static_cast<std::uint32_t>(w))};
  }, res.path);
  res.status = search_status::found;
  res.cost = st.at(gid).g;
  // As every search: the Euclidean length of the returned points (search.hpp). With a
  // diagonal other than sqrt2 this is not the rule's cost; `cost` is.
  res.length = path_length(res.path);
}

}  // namespace

search_result astar(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
                    search_context& ctx) {
  search_result res;
  astar(r, map, start, goal, options, ctx, res);
  return res;
}

void astar(const rule& r, const grid_map& map, point start, point goal, const search_options& asked,
           search_context& ctx, search_result& res) {
  res.searched = search_kind::astar;
  if (on_unit_view(r, map, asked, res, [&](const grid_map& view, const search_options& o) {
        astar(r, view, start, goal, o, ctx, res);
      }))
    return;
  search_options scratch;
  const search_options& options = detail::with_prepared(asked, r, map, scratch);
  res.clear();
  if (r.on_vertices()) {
    res.status = search_status::rule_mismatch;
    res.message = "astar() searches cells (tile, octile); rule " + r.name() +
                  " is on vertices: use theta_star() or lazy_theta_star()";
    return;
  }
  if (!prepare_endpoints(r, map, start, goal, options, res)) return;
  if (components_apart(r, map, start, goal, options)) return no_path_between_cells(r, start, goal, res);
  node_search_state& st = node_state(ctx);
  with_heuristic(heuristic_for(options, r),
                 [&]<heuristic_kind H>() { astar_core<H>(r, map, start, goal, options, st, res); });
  finish_path(r, map, options, res, st.pull);
}

}  // namespace lddb
