// Any-angle paths by jumps: jump point search on the cells, then the path pulled tight
// (pull_tight.cpp says how).
//
// Why a cell path carries over. Vertex (x, y) is the top-left corner of cell (x, y). For
// octile moves with corners=forbidden between free cells, the segment from the top-left
// corner of a cell to that of its neighbour runs along the top or left edge of one of the
// two cells, or across one free cell (a diagonal move's side cell, or one of the two), so
// it is legal under either squeeze rule; a straight run of moves is one legal segment. The
// start and goal are corners of the cells chosen for them (their own cell at a double
// corner, the side a query there belongs to), and every segment of the walk around such a
// vertex lies on that side. The free cells joined by a legal path of the point are exactly
// those joined by such moves, and the ways round obstacles the same, as long as the point
// never passes between two free cells that touch only at a corner: always under
// squeeze=forbidden.
//
// Under squeeze=allowed the point may pass there, through a double corner, so the cell
// search also steps diagonally between those two cells (jump_cells with squeeze: the cells
// beside a double corner are jump points, searched from in every direction and across).
// From the top-left corner of a cell to that of the next, such a step north-west or
// south-east runs across one of the two free cells and through the double corner, legal as
// it is; north-east or south-west it would cross a blocked cell, so the path goes by the
// double corner itself, along the two cells' edges (through_double_corners). The moves of
// a cell path then join exactly the cells a legal path joins, under either rule.
//
// Which cell path. Octile costs tie between very different paths (every door of a wall
// within the parallelogram of start and goal costs the same), while Euclidean length does
// not; the search breaks ties towards the straight line (jump_cells' straight_ties), so
// that the path kept is in the region of the shortest any-angle path.
//
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>

#include "search/context.hpp"
#include "lddb/search.hpp"
#include "lddb/segments.hpp"
#include "search/node_search.hpp"
#include "path/pull_tight.hpp"
#include "path/smooth.hpp"

namespace lddb {

namespace {

// The free cell of vertex v a path from it starts in: its own cell at a double corner
// (the side a query there belongs to), else the free one of its four cells toward `to`.
point endpoint_cell(const rule& r, const grid_map& map, point v, point to) {
  if (endpoint_side(r, map, v.x, v.y) == 1) return v;
  const int qx = to.x >= v.x ? 0 : -1, qy = to.y >= v.y ? 0 : -1;
  const point order[4] = {{v.x + qx, v.y + qy}, {v.x - 1 - qx, v.y + qy}, {v.x + qx, v.y - 1 - qy},
                          {v.x - 1 - qx, v.y - 1 - qy}};
  for (point c : order)
    if (!map.blocked(c.x, c.y)) return c;
  return v;
}

// The start sees the goal: the straight segment between them is legal and, where a start
// or goal lies on a double corner under the default rule, on that point's own side. It is
// then the shortest path, and no search is needed (on open ground, most short queries).
bool in_sight(const rule& r, const grid_map& map, point a, point b) {
  if (!segment_legal(r, map, a.x, a.y, b.x, b.y)) return false;
  const auto keeps_side = [&](point v, point to) {
    const int side = endpoint_side(r, map, v.x, v.y);
    return side == 0 || segment_side(map, v.x, v.y, to.x, to.y) == side;
  };
  return keeps_side(a, b) && keeps_side(b, a);
}

// Under squeeze=allowed: the turning points `turns` of a cell path (corners of cells), with
// the double corner inserted at every step north-east or south-west through one, into
// `out`. The cells' top-left corners on either side stay, so every other segment is a run
// of moves as before and a start or goal on the run is still met.
void through_double_corners(const grid_map& map, const std::vector<point>& turns, std::vector<point>& out) {
  out.clear();
  for (std::size_t k = 0; k < turns.size(); ++k) {
    const point b = turns[k];
    if (k > 0) {
      const point a = turns[k - 1];
      const int dx = (b.x > a.x) - (b.x < a.x), dy = (b.y > a.y) - (b.y < a.y);
      if (dx != 0 && dx == -dy && std::abs(b.x - a.x) == std::abs(b.y - a.y)) {  // a diagonal run
        for (point c = a; !(c == b); c = {c.x + dx, c.y + dy}) {
          if (!map.blocked(c.x + dx, c.y) || !map.blocked(c.x, c.y + dy)) continue;
          if (!(c == out.back())) out.push_back(c);
          out.push_back({std::max(c.x, c.x + dx), std::max(c.y, c.y + dy)});
          out.push_back({c.x + dx, c.y + dy});
        }
      }
    }
    if (out.empty() || !(b == out.back())) out.push_back(b);
  }
}

}  // namespace

void jump_any_angle(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
                    search_context& ctx, search_result& res) {
  res.clear();
  if (!prepare_endpoints(r, map, start, goal, options, res)) return;
  if (components_apart(r, map, start, goal, options)) return no_path_between_cells(r, start, goal, res);
  ++res.stats.los_checks;
  if (in_sight(r, map, start, goal)) {
    res.path.assign({start, goal});
    res.status = search_status::found;
    res.cost = segments_cost(res.path);
    res.length = path_length(res.path);
    return;
  }
  search_options cells;
  cells.diagnostics.component_check = false;  // the vertices' labels said it: no labels of cells built
  cells.heuristic = heuristic_kind::octile;
  cells.smooth = true;  // the turning points: straight runs of moves between them
  cells.diagnostics.use_prepared = false;
  cells.weight = options.weight;
  cells.max_expansions = options.max_expansions;
  cells.diagnostics.record_expanded = options.diagnostics.record_expanded;
  const point cs = endpoint_cell(r, map, start, goal), cg = endpoint_cell(r, map, goal, start);
  const bool squeeze = r.squeeze == squeezing::allowed && map.double_corner_count() != 0;
  jump_cells(rule::octile(), map, cs, cg, cells, ctx, res, true, squeeze);
  if (res.status == search_status::no_path) {
    searched_whole_component(r, map, options);
    return no_path_between_cells(r, start, goal, res);
  }
  if (res.status != search_status::found && res.status != search_status::budget_exhausted) return;
  // Corners of the cells: the start, each turning cell's top-left corner, the goal.
  node_search_state& st = node_state(ctx);
  const std::vector<point>* turns = &res.path;
  if (squeeze) {
    through_double_corners(map, res.path, st.pull.out);  // out is free until the pull
    turns = &st.pull.out;
  }
  const std::vector<point>& cells_way = *turns;
  std::vector<point>& p = st.pull.in;
  p.clear();
  p.push_back(start);
  // The start or goal may lie on the way (the corner of a cell passed between two turns):
  // the path then starts or ends there, on that run of moves.
  for (std::size_t k = 0; k < cells_way.size(); ++k) {
    const point c = cells_way[k];
    if (k > 0 && on_segment(cells_way[k - 1], c, start)) p.resize(1);
    if (k > 0 && on_segment(cells_way[k - 1], c, goal)) break;
    if (!(c == p.back())) p.push_back(c);
    if (c == goal) break;
  }
  if (res.status == search_status::found && !(goal == p.back())) p.push_back(goal);
  pull_tight_in_place(r, map, st.pull, res.stats.los_checks);
  res.path.assign(p.begin(), p.end());
  res.cost = segments_cost(res.path);
  res.length = path_length(res.path);
}

}  // namespace lddb
