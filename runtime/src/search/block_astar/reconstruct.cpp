// The path of a finished query: from the goal back through the parents to the start.
#include <algorithm>
#include <cstdlib>

#include "map/cell_runs.hpp"
#include "search/block_astar/search.hpp"

namespace lddb::block_astar_impl {

namespace {

// Appends p unless it repeats the last point, so that no waypoint repeats (to_path relies
// on it). Inlined: it runs for every waypoint, and a call costs more than its test.
[[gnu::always_inline]] inline void add_point(std::vector<point>& out, point p) {
  if (out.empty() || !(out.back() == p)) out.push_back(p);
}

// Appends the points of a block_graph path (point indices) in global coordinates.
void add_local(std::vector<point>& out, const block_shape& shape, const block_slot& s, const int* pts, int count,
               bool reverse) {
  const int b = shape.block();
  for (int k = 0; k < count; ++k) {
    const point q = shape.point_at(pts[reverse ? count - 1 - k : k]);
    add_point(out, {s.bx * b + q.x, s.by * b + q.y});
  }
}

}  // namespace

void block_search::walk_back(int s, int x, std::vector<point>& out) const {
  int chain[block_graph::kMaxPoints];
  while (true) {
    const block_slot& cur = slot(s);
    add_point(out, global(cur, x));
    const wide_parent p = parent_of(cur, x);
    if (p.kind == via::block && cur.level) {
      // A square: a straight segment (any-angle), diagonal steps then straight ones
      // (octile: the run filled below), or one bend (tile), all inside the free square.
      if (rule_.kind == rule_kind::tile) {
        const point exit = global(cur, x), entry = global(cur, p.index);
        add_point(out, {entry.x, exit.y});
      }
      x = p.index;
    } else if (p.kind == via::block) {
      inflections inf;
      db_.path(cur.code, x, p.index, &inf);  // from x back to the ingress point
      for (int k = 0; k < inf.count; ++k)
        add_point(out, {cur.bx * b_ + inf.points[static_cast<std::size_t>(k)].x,
                        cur.by * b_ + inf.points[static_cast<std::size_t>(k)].y});
      x = p.index;
    } else if (p.kind == via::neighbour) {
      s = neighbour_of(cur, p.around);  // set when the g-value was handed on
      x = p.index;
    } else {  // via::start
      const int len = st_.start_paths[p.index].path_to(shape_.point_index(shape_.boundary_point(x)), chain);
      add_local(out, shape_, cur, chain, len, true);  // x ... start
      return;
    }
  }
}

cost_t block_search::cost_back(int s, int x) const {
  cost_t c = 0;
  while (true) {
    const block_slot& cur = slot(s);
    const wide_parent p = parent_of(cur, x);
    if (p.kind == via::block && cur.level) {  // a square: its closed-form costs
      if (is_large(cur)) {
        const point a = global(cur, p.index), b = global(cur, x);
        c += large_shape_of(cur).metric.cost(b.x - a.x, b.y - a.y);
      } else {
        const node_shape& q = shape_of(cur);
        c += q.cost[static_cast<std::size_t>(p.index) * static_cast<std::size_t>(q.count) + static_cast<std::size_t>(x)];
      }
      x = p.index;
    } else if (p.kind == via::block) {
      c += db_.view(cur.code).cost(p.index, x);
      x = p.index;
    } else if (p.kind == via::neighbour) {  // one move between cells; the same vertex costs 0
      const int from = neighbour_of(cur, p.around);
      if (!rule_.on_vertices()) {
        const point a = global(slot(from), p.index), b = global(cur, x);
        c += a.x != b.x && a.y != b.y ? rule_.diagonal : kCostOne;
      }
      s = from;
      x = p.index;
    } else {  // via::start
      return c + st_.start_paths[p.index].cost[static_cast<std::size_t>(shape_.point_index(shape_.boundary_point(x)))];
    }
  }
}

cost_t block_search::path_cost() const {
  if (q_.direct_start >= 0) return q_.length;  // inside the start block: one local path
  // Cell rules store exact costs, so at weight 1 the length found is the least cost (the
  // heuristic is admissible). The path walked back costs at most the g-values recorded
  // along it (a parent's g only falls), and no path costs less: it costs the length.
  if (weight_.is_one() && !rule_.on_vertices()) return q_.length;
  const block_slot& gs = slot(q_.best_goal_slot);
  const cost_t to_goal = st_.goal_paths[static_cast<std::size_t>(gs.goal_index)]
                             .cost[static_cast<std::size_t>(shape_.point_index(shape_.boundary_point(q_.best_point)))];
  return to_goal + cost_back(q_.best_goal_slot, q_.best_point);
}

void block_search::reconstruct(search_result& r) const {
  // Walk back from the goal, collecting waypoints from goal to start into r.path, then
  // reverse and fill them in place: the answer's own vector is the only one that grows
  // with the path, so a context sized by search_context::reserve never does.
  std::vector<point>& way = r.path;
  way.clear();
  // Every move costs at least kCostOne, so a cell path has at most length / kCostOne + 1
  // cells (tile: exactly), its waypoints among them: room for all at once, not grown step
  // by step as they arrive.
  if (!rule_.on_vertices()) way.reserve(static_cast<std::size_t>(q_.length / kCostOne) + 1);
  int chain[block_graph::kMaxPoints];
  if (q_.direct_start >= 0) {
    const block_slot& s = slot(q_.start_slot[static_cast<std::size_t>(q_.direct_start)]);
    const int goal = q_.goal_state[static_cast<std::size_t>(s.goal_index)];
    const int len = st_.start_paths[static_cast<std::size_t>(q_.direct_start)].path_to(goal, chain);
    add_local(way, shape_, s, chain, len, true);
  } else {
    const block_slot& gs = slot(q_.best_goal_slot);
    const int len = st_.goal_paths[static_cast<std::size_t>(gs.goal_index)].path_to(
        shape_.point_index(shape_.boundary_point(q_.best_point)), chain);
    add_local(way, shape_, gs, chain, len, false);  // goal ... y
    walk_back(q_.best_goal_slot, q_.best_point, way);
  }
  to_path(way);
}

void block_search::to_path(std::vector<point>& way) const {
  std::reverse(way.begin(), way.end());
  if (rule_.on_vertices() || way.empty()) return;
  // Cells: every cell of the runs between the waypoints. No waypoint repeats (add_point).
  fill_runs<false>(way);
}

}  // namespace lddb::block_astar_impl
