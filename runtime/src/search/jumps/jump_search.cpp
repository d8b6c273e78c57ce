// Jump point search on cells (Harabor and Grastien, AAAI 2011; with the row scans and the
// stronger pruning of their ICAPS 2014 paper): A* over the cells where an optimal path
// may have to turn, found by scanning rows and columns 64 cells a step (jump_scan.hpp).
// Nothing is built per map: the scans read grid_map's bits, which set_blocked keeps
// current in O(1), so a changed cell is seen by the next query.
//
// The rule: octile with corners=forbidden and a diagonal cost d with 1 < d < 2 (sqrt 2
// by default). Why the pruning keeps an optimal path there. Call a path canonical when,
// between two turning points, it makes all its diagonal moves before its straight ones.
// Every segment of a path between two cells that is free of obstacles can be rearranged
// into that order at the same cost, and the search keeps, of the neighbours of a cell
// reached from its parent p, only those that no path from p avoiding the cell reaches at
// no more cost, by a canonical path:
//  - reached straight, east say, from p = (x-1, y): the cell east; the cell north (x, y-1)
//    only when (x-1, y-1) is blocked (else p reaches it by one diagonal, d < 2), and then
//    also north-east (else p reaches it by that diagonal and one step east, d + 1, the
//    same cost but diagonal first); the same to the south. West, north-west and
//    south-west cost p less directly. Those two cells are the forced neighbours that
//    make (x, y) a jump point (jump_scan.hpp).
//  - reached diagonally, north-east say, from p = (x-1, y+1), which needs (x-1, y) and
//    (x, y+1) free: north, east and north-east. West and south are one step from p; north-
//    west and south-east two straight steps (2 < 2d) through those free side cells. A
//    diagonal move therefore has no forced neighbours under this corner rule.
// Both comparisons are strict but for the diagonal-first tie, which the order settles, so
// the pruned neighbours of successive cells never point back at each other, and an
// optimal path survives as a chain of jump points (Harabor and Grastien's Theorem 1 with
// these neighbour sets). With d = 1 or 2 more moves tie (two diagonals against two
// straight moves, or one diagonal against two), the argument fails, and those rules and
// the other corner rules are refused (rule_mismatch): Block A* and A* search them.
// tests/jump_search_test.cpp compares every answer with A* on generated maps that change
// between queries, for d = sqrt 2 and d = 1.5, and for tile.
//
// Tile, the same way with the canonical order "east or west first, then north or south"
// (Sturtevant and Rabin, "Canonical Orderings on Grids", IJCAI 2016, take JPS apart into
// such an order and bounded jumps): a path between two turning points can be rearranged
// into it at the same cost when the cells between are free. Reached going east, a cell
// keeps east, north and south (all three continue a canonical path: the walk east plays
// the diagonal walk's part, scanning north and south from each of its cells). Reached going
// north from p = (x, y+1), it keeps north; west (x-1, y) only when (x-1, y+1) is blocked
// (else p reaches it in two moves by the canonical west-then-north), the same to the east:
// exactly the forced neighbours the column scans stop at (jump_scan.hpp). Every move costs
// one, so ties are all settled by the order.
//
// The stronger pruning: a diagonal walk is not a node. Expanding a cell whose successor is
// a diagonal, the search walks the diagonal and, from every cell of it, scans the two
// straight directions it is made of; the jump points found are pushed with the expanded
// cell as parent. So every edge of the search goes diagonally first, then straight, and
// the path is filled in between jump points that way.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>

#include "map/cell_runs.hpp"
#include "search/context.hpp"
#include "prepare/lower_bounds.hpp"
#include "search/jumps/jump_scan.hpp"
#include "map/jump_tables.hpp"
#include "lddb/moves.hpp"
#include "lddb/prepare.hpp"
#include "lddb/search.hpp"
#include "search/node_search.hpp"
#include "prepare/prepared.hpp"

namespace lddb {

bool jump_point_search_supports(const rule& r) {
  return r.kind == rule_kind::tile || r.kind == rule_kind::any_angle ||
         (r.kind == rule_kind::octile && r.corners == corner_cutting::forbidden && r.diagonal > kMinDiagonalCost &&
          r.diagonal < kMaxDiagonalCost);
}

namespace {

template <bool Squeeze>
class jump_search {
 public:
  jump_search(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
              jump_search_state& st, search_result& res, bool straight_ties)
      : r_(r), map_(map), start_(start), goal_(goal), options_(options), st_(st), res_(res), w_(map.width()),
        straight_ties_(straight_ties), tables_(detail::jump_table_access::of(map)),
        weight_(weight_factor::of(options.weight)), landmarks_(usable_landmarks(options, map), start, goal, 0) {}

  template <heuristic_kind H>
  void run() {
    st_.begin(static_cast<std::size_t>(w_) * static_cast<std::size_t>(map_.height()));
    const bool reopen = weight_.is_one() || H == heuristic_kind::euclidean;
    const std::uint32_t sid = id(start_), gid = id(goal_);
    search_stats& stats = res_.stats;
    st_.touch(sid).g = 0;
    st_.push(sid, h<H>(start_), 0);
    ++stats.generated;
    while (!st_.open_empty()) {
      if (options_.max_expansions != 0 && stats.expanded >= options_.max_expansions) return give_up(sid);
      const node_search::heap_entry top = st_.pop();
      const std::uint32_t uid = top.id;
      node_search::node& u = st_.of(top);
      u.pos = node_search::kClosed;
      ++stats.expanded;
      const point up = at(uid);
      if (options_.diagnostics.record_expanded) res_.expanded.push_back(up);
      if (uid == gid) {
        stats.heap_ops = st_.heap_ops;
        fill_path(sid, gid);
        res_.status = search_status::found;
        res_.cost = u.g;
        res_.length = path_length(res_.path);
        return;
      }
      expand<H>(uid, up, uid == sid ? point{0, 0} : at(u.parent), uid == sid, reopen, u.g);
    }
    stats.heap_ops = st_.heap_ops;
    searched_whole_component(r_, map_, options_);
    no_path_between_cells(r_, start_, goal_, res_);
  }

 private:
  std::uint32_t id(point p) const {
    return static_cast<std::uint32_t>(p.y) * static_cast<std::uint32_t>(w_) + static_cast<std::uint32_t>(p.x);
  }
  point at(std::uint32_t i) const {
    return {static_cast<int>(i % static_cast<std::uint32_t>(w_)), static_cast<int>(i / static_cast<std::uint32_t>(w_))};
  }
  // Inlined whole, the landmarks' bound too: it runs at every node pushed.
  template <heuristic_kind H>
  [[gnu::flatten, gnu::always_inline]] cost_t h(point p) const {
    const cost_t a = heuristic_cost(H, r_, p.x, p.y, goal_.x, goal_.y), l = landmarks_(p);
    return weight_(a > l ? a : l);
  }

  template <heuristic_kind H>
  void relax(std::uint32_t parent, int x, int y, cost_t g, bool reopen) {
    const std::uint32_t vid = id({x, y});
    node_search::node& v = st_.touch(vid);
    if (g >= v.g || (!reopen && v.pos == node_search::kClosed)) return;
    v.g = g;
    v.parent = parent;
    ++res_.stats.generated;
    if (v.pos < node_search::kClosed) {
      st_.decrease(v, vid, g + st_.open_h(v), g);
    } else {
      v.pos = node_search::kNotOpen;
      st_.push(v, vid, g + h<H>({x, y}) + tie(x, y), g);
    }
  }

  // With straight_ties, among nodes of equal f those nearer the straight line from start to
  // goal come first (by how much a detour through them lengthens it, in 1/16 of a cell), so
  // that of the many paths of least octile cost the search keeps one near the line: what an
  // any-angle path pulled tight from it wants. The term stays below 2^-16 of a cell, less
  // than the gap between two distinct f values a + b sqrt 2 while |b| is below 13,860 (the
  // convergents of sqrt 2), so on any map up to about 6,900 cells a side it only orders ties.
  cost_t tie(int x, int y) const {
    if (!straight_ties_) return 0;
    const double detour = std::hypot(double(x - start_.x), double(y - start_.y)) +
                          std::hypot(double(x - goal_.x), double(y - goal_.y)) - straight_;
    return static_cast<cost_t>(std::min(detour, 4096.0) * 16.0);
  }

  // Cell (x, y) is blocked; x and y at most one cell off the map, which the margins of
  // grid_map::row_line cover: one word read.
  [[gnu::always_inline]] bool blocked(int x, int y) const { return ((map_.row_line(y)[x >> 6] >> (x & 63)) & 1u) != 0; }

  template <int DX, int DY>
  static constexpr int direction_of = DX > 0   ? detail::jump_tables::east
                                      : DX < 0 ? detail::jump_tables::west
                                      : DY > 0 ? detail::jump_tables::south
                                               : detail::jump_tables::north;

  // Where the scan from (x, y) in direction (DX, DY) stops, from its entry `e` in the map's
  // jump tables (map/jump_tables.hpp): the goal when it lies on the line before the stop,
  // else the stop if it is a jump point, else none. An entry 0 (no stop within kFar cells)
  // reads on from the entry kFar cells ahead.
  template <int DX, int DY>
  [[gnu::always_inline]] int tabled(int x, int y, std::int8_t e) const {
    constexpr bool forward = DX + DY > 0;
    constexpr int far = forward ? detail::jump_tables::kFar : -detail::jump_tables::kFar;
    const int from = DY == 0 ? x : y;
    int pos = from;
    while (e == 0) [[unlikely]] {
      pos += far;
      e = (DY == 0 ? tables_->at(pos, y) : tables_->at(x, pos))[direction_of<DX, DY>];
    }
    const int len = e < 0 ? -e : e, stop = forward ? pos + len : pos - len;
    const bool on_line = DY == 0 ? goal_.y == y : goal_.x == x;
    const int gp = DY == 0 ? goal_.x : goal_.y;
    if (on_line && (forward ? (gp > from && gp <= stop) : (gp < from && gp >= stop))) return gp;
    if constexpr (Squeeze) return e > 0 ? stop : jump::wall(stop);
    return e > 0 ? stop : jump::kNone;
  }

  template <heuristic_kind H, int DX, int DY>
  [[gnu::always_inline]] void straight(std::uint32_t uid, int x, int y, cost_t g, bool reopen) {
    int at;
    if (tables_ != nullptr) at = tabled<DX, DY>(x, y, tables_->at(x, y)[direction_of<DX, DY>]);
    else if constexpr (DY == 0) at = jump::scan<true, (DX > 0), Squeeze>(map_, y, x, goal_.y == y, goal_.x);
    else at = jump::scan<false, (DY > 0), Squeeze>(map_, x, y, goal_.x == x, goal_.y);
    found<H, DX, DY>(uid, x, y, at, g, reopen);
  }

  // The scan from (x, y) stopped at `at` (jump::kNone, or jump::wall(p) under Squeeze: at
  // the blocked cell p).
  template <heuristic_kind H, int DX, int DY>
  [[gnu::always_inline]] void found(std::uint32_t uid, int x, int y, int at, cost_t g, bool reopen) {
    if (jump::is_wall(at)) {
      if constexpr (Squeeze) {  // the cell before the wall may squeeze past it
        constexpr int back = DX + DY > 0 ? -1 : 1;
        at = jump::wall_position(at) + back;
        const int cx = DY == 0 ? at : x, cy = DY == 0 ? y : at;
        constexpr int ax = DY != 0 ? 1 : 0, ay = DX != 0 ? 1 : 0;  // the sides: (ax, ay) and (-ax, -ay)
        if (!(cx == x && cy == y) && (squeezes(cx, cy, DX + ax, DY + ay) || squeezes(cx, cy, DX - ax, DY - ay)))
          reached<H, DX, DY>(uid, x, y, at, g, reopen);
      }
      return;
    }
    reached<H, DX, DY>(uid, x, y, at, g, reopen);
  }
  // The jump point at position `at` of the line from (x, y): pushed at its distance.
  template <heuristic_kind H, int DX, int DY>
  [[gnu::always_inline]] void reached(std::uint32_t uid, int x, int y, int at, cost_t g, bool reopen) {
    const int d = DY == 0 ? at - x : at - y;
    const cost_t cost = g + static_cast<cost_t>(d < 0 ? -d : d) * kCostOne;
    if constexpr (DY == 0) relax<H>(uid, at, y, cost, reopen);
    else relax<H>(uid, x, at, cost, reopen);
  }

  // Walks the diagonal (DX, DY) from (x, y), scanning both straight directions from each
  // of its cells (the stronger pruning: the diagonal's cells are not pushed). A scan whose
  // first cell is blocked finds nothing and is not started.
  template <heuristic_kind H, int DX, int DY>
  void diagonal(std::uint32_t uid, int x, int y, cost_t g, bool reopen) {
    if (tables_ != nullptr) return diagonal_tabled<H, DX, DY>(uid, x, y, g, reopen);
    const int x0 = x;
    bool side_x = blocked(x + DX, y), side_y = blocked(x, y + DY);
    while (!side_x && !side_y && !blocked(x + DX, y + DY)) {
      x += DX;
      y += DY;
      g += r_.diagonal;
      if (x == goal_.x && y == goal_.y) return relax<H>(uid, x, y, g, reopen);
      side_x = blocked(x + DX, y);
      side_y = blocked(x, y + DY);
      if (!side_x) straight<H, DX, 0>(uid, x, y, g, reopen);
      if (!side_y) straight<H, 0, DY>(uid, x, y, g, reopen);
    }
    walk_ended<H, DX, DY>(uid, x0, x, y, g, reopen);
  }

  // Under squeeze=allowed: a diagonal walk that ends where the diagonal ahead passes a
  // double corner pushes its last cell (the walk came in with both sides free, so the
  // walk's own diagonal is the only one its last cell can squeeze through).
  template <heuristic_kind H, int DX, int DY>
  [[gnu::always_inline]] void walk_ended(std::uint32_t uid, int x0, int x, int y, cost_t g, bool reopen) {
    if constexpr (Squeeze)
      if (x != x0 && squeezes(x, y, DX, DY)) relax<H>(uid, x, y, g, reopen);
  }

  // Under squeeze=allowed, from cell (x, y) diagonally (dx, dy) through a double corner:
  // both cells beside the move blocked, the one across free. No path of octile moves with
  // corners=forbidden takes that step; jump_any_angle's paths may (jump_any_angle.cpp).
  bool squeezes(int x, int y, int dx, int dy) const {
    return blocked(x + dx, y) && blocked(x, y + dy) && !blocked(x + dx, y + dy);
  }

  // The same walk with the jump tables: a cell's two entries also say whether the cells
  // beside it are blocked (a scan that stops one cell ahead at a blocked cell), and the
  // entry of the cell beside it across, whether the diagonal cell is.
  template <heuristic_kind H, int DX, int DY>
  void diagonal_tabled(std::uint32_t uid, int x, int y, cost_t g, bool reopen) {
    constexpr int along_x = direction_of<DX, 0>, along_y = direction_of<0, DY>;
    const std::ptrdiff_t step = static_cast<std::ptrdiff_t>(DY) * tables_->width() + DX;
    const detail::jump_tables::entry* e = &tables_->at(x, y);
    const int x0 = x;
    while ((*e)[along_x] != -1 && (*e)[along_y] != -1 && e[DX][along_y] != -1) {
      x += DX;
      y += DY;
      g += r_.diagonal;
      if (x == goal_.x && y == goal_.y) return relax<H>(uid, x, y, g, reopen);
      e += step;
      const std::int8_t ex = (*e)[along_x], ey = (*e)[along_y];
      if (ex != -1) found<H, DX, 0>(uid, x, y, tabled<DX, 0>(x, y, ex), g, reopen);
      if (ey != -1) found<H, 0, DY>(uid, x, y, tabled<0, DY>(x, y, ey), g, reopen);
    }
    walk_ended<H, DX, DY>(uid, x0, x, y, g, reopen);
  }

  template <heuristic_kind H, int DX, int DY>
  void forward(std::uint32_t uid, point u, cost_t g, bool reopen) {
    if constexpr (DX == 0 || DY == 0) straight<H, DX, DY>(uid, u.x, u.y, g, reopen);
    else diagonal<H, DX, DY>(uid, u.x, u.y, g, reopen);
  }

  // A node reached going (DX, DY), straight: on along it, and where the cell beside-behind
  // is blocked and the one beside free (jump_scan.hpp), that side and the diagonal.
  template <heuristic_kind H, int DX, int DY>
  void travel(std::uint32_t uid, point u, cost_t g, bool reopen) {
    straight<H, DX, DY>(uid, u.x, u.y, g, reopen);
    constexpr int ax = DY != 0 ? 1 : 0, ay = DX != 0 ? 1 : 0;  // one side is (ax, ay), the other (-ax, -ay)
    if (blocked(u.x - DX - ax, u.y - DY - ay) && !blocked(u.x - ax, u.y - ay)) {
      forward<H, -ax, -ay>(uid, u, g, reopen);
      forward<H, DX - ax, DY - ay>(uid, u, g, reopen);
    }
    if (blocked(u.x - DX + ax, u.y - DY + ay) && !blocked(u.x + ax, u.y + ay)) {
      forward<H, ax, ay>(uid, u, g, reopen);
      forward<H, DX + ax, DY + ay>(uid, u, g, reopen);
    }
  }

  // Tile: walks east or west (DX) from (x, y), scanning north and south from each cell
  // (the walk's cells are not pushed, as a diagonal walk's are not).
  template <heuristic_kind H, int DX>
  void across(std::uint32_t uid, int x, int y, cost_t g, bool reopen) {
    while (!blocked(x + DX, y)) {
      x += DX;
      g += kCostOne;
      if (x == goal_.x && y == goal_.y) return relax<H>(uid, x, y, g, reopen);
      if (!blocked(x, y - 1)) straight<H, 0, -1>(uid, x, y, g, reopen);
      if (!blocked(x, y + 1)) straight<H, 0, 1>(uid, x, y, g, reopen);
    }
  }

  // Tile: a node reached going north or south (DY): on along it, and east or west where the
  // cell beside-behind is blocked and the one beside free.
  template <heuristic_kind H, int DY>
  void climb(std::uint32_t uid, point u, cost_t g, bool reopen) {
    straight<H, 0, DY>(uid, u.x, u.y, g, reopen);
    if (blocked(u.x - 1, u.y - DY) && !blocked(u.x - 1, u.y)) across<H, -1>(uid, u.x, u.y, g, reopen);
    if (blocked(u.x + 1, u.y - DY) && !blocked(u.x + 1, u.y)) across<H, 1>(uid, u.x, u.y, g, reopen);
  }

  template <heuristic_kind H>
  void expand_tile(std::uint32_t uid, point u, point parent, bool is_start, bool reopen, cost_t g) {
    if (is_start) {  // N, E, S, W, as kSteps
      straight<H, 0, -1>(uid, u.x, u.y, g, reopen);
      across<H, 1>(uid, u.x, u.y, g, reopen);
      straight<H, 0, 1>(uid, u.x, u.y, g, reopen);
      across<H, -1>(uid, u.x, u.y, g, reopen);
      return;
    }
    // Every node but the start and the goal ends a scan north or south.
    if (u.y < parent.y) climb<H, -1>(uid, u, g, reopen);
    else climb<H, 1>(uid, u, g, reopen);
  }

  template <heuristic_kind H>
  void expand(std::uint32_t uid, point u, point parent, bool is_start, bool reopen, cost_t g) {
    if (tile_) return expand_tile<H>(uid, u, parent, is_start, reopen, g);
    // A cell beside a double corner (squeeze=allowed) is searched from as a start: every
    // direction, and through the double corner.
    if constexpr (Squeeze)
      for (const point d : {point{1, 1}, point{1, -1}, point{-1, 1}, point{-1, -1}})
        if (squeezes(u.x, u.y, d.x, d.y)) {
          relax<H>(uid, u.x + d.x, u.y + d.y, g + r_.diagonal, reopen);
          is_start = true;
        }
    if (is_start) {  // every direction, in the order of kSteps
      forward<H, 0, -1>(uid, u, g, reopen);
      forward<H, 1, 0>(uid, u, g, reopen);
      forward<H, 0, 1>(uid, u, g, reopen);
      forward<H, -1, 0>(uid, u, g, reopen);
      forward<H, 1, -1>(uid, u, g, reopen);
      forward<H, 1, 1>(uid, u, g, reopen);
      forward<H, -1, 1>(uid, u, g, reopen);
      forward<H, -1, -1>(uid, u, g, reopen);
      return;
    }
    // Every node but the start and the goal ends a straight scan: its direction of travel
    // is the straight part of the edge from its parent.
    const int dx = u.x - parent.x, dy = u.y - parent.y;
    if (std::abs(dx) > std::abs(dy)) {
      if (dx > 0) travel<H, 1, 0>(uid, u, g, reopen);
      else travel<H, -1, 0>(uid, u, g, reopen);
    } else {
      if (dy > 0) travel<H, 0, 1>(uid, u, g, reopen);
      else travel<H, 0, -1>(uid, u, g, reopen);
    }
  }

  // res_.path: every cell from the start to node `to`: the jump points, then the runs
  // between them, which go as the edges do (diagonal first, or across first for tile).
  void fill_path(std::uint32_t from, std::uint32_t to) {
    st_.trace_path(from, to, [this](std::uint32_t i) { return at(i); }, res_.path);
    fill_runs_of_path();
  }
  void fill_runs_of_path() {
    if (turns_only_ && tile_) add_bends<true>(res_.path);
    else if (turns_only_) add_bends<false>(res_.path);
    else if (tile_) fill_runs<true>(res_.path);
    else fill_runs<false>(res_.path);
  }

  // The budget ran out: the path to the most promising open node (the state's
  // give_up, which traces its jump points), then filled in.
  void give_up(std::uint32_t sid) {
    res_.stats.heap_ops = st_.heap_ops;
    st_.give_up(sid, st_.open_top().id, [this](std::uint32_t i) { return at(i); }, options_.max_expansions, res_);
    if (!weight_.is_one()) res_.lower_bound = 0;  // an inflated key bounds nothing
    fill_runs_of_path();
    res_.length = path_length(res_.path);  // of every cell, as when found
  }

  const rule& r_;
  const grid_map& map_;
  point start_, goal_;
  const search_options& options_;
  jump_search_state& st_;
  search_result& res_;
  int w_;
  bool straight_ties_;
  // The map's straight jumps, made by its preparation under any rule (null: the scans read
  // the bits). They answer as the scans do, so every search on the map's cells reads them.
  const detail::jump_tables* tables_;
  double straight_ = straight_ties_ ? std::hypot(double(goal_.x - start_.x), double(goal_.y - start_.y)) : 0.0;
  bool tile_ = r_.kind == rule_kind::tile;
  // A smoothed path (finish_path) keeps only the turning points: no need to fill the runs.
  bool turns_only_ = smooths(options_, r_);
  weight_factor weight_;
  landmark_bound landmarks_;
};

}  // namespace

double corner_share(const grid_map& map) {
  std::uint64_t corners = 0, free_cells = 0;
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); x += 64) {
      const std::uint64_t here = ~map.row_bits(x, y);  // cells off the map read as blocked
      free_cells += static_cast<std::uint64_t>(std::popcount(here));
      for (int dy = -1; dy <= 1; dy += 2)
        for (int dx = -1; dx <= 1; dx += 2)
          corners += static_cast<std::uint64_t>(std::popcount(here & ~map.row_bits(x + dx, y) & ~map.row_bits(x, y + dy) &
                                                               map.row_bits(x + dx, y + dy)));
    }
  return free_cells == 0 ? 0.0 : static_cast<double>(corners) / static_cast<double>(free_cells);
}

search_result jump_point_search(const rule& r, const grid_map& map, point start, point goal,
                                const search_options& options, search_context& ctx) {
  search_result res;
  jump_point_search(r, map, start, goal, options, ctx, res);
  return res;
}

void jump_point_search(const rule& r, const grid_map& map, point start, point goal, const search_options& asked,
                       search_context& ctx, search_result& res) {
  res.searched = search_kind::jump_point_search;
  if (on_unit_view(r, map, asked, res, [&](const grid_map& view, const search_options& o) {
        jump_point_search(r, view, start, goal, o, ctx, res);
      }))
    return;
  if (r.on_vertices()) return jump_any_angle(r, map, start, goal, asked, ctx, res);
  jump_cells(r, map, start, goal, asked, ctx, res, false, false);
}

void jump_cells(const rule& r, const grid_map& map, point start, point goal, const search_options& asked,
                search_context& ctx, search_result& res, bool straight_ties, bool squeeze) {
  search_options scratch;
  const search_options& options = detail::with_prepared(asked, r, map, scratch);
  res.clear();
  if (!jump_point_search_supports(r)) {
    res.status = search_status::rule_mismatch;
    res.message = "jump_point_search() searches tile, octile with corners=forbidden and a diagonal cost strictly "
                  "between 1 and 2, and any-angle; rule " + r.name() + " is not one: use block_astar() or astar()";
    return;
  }
  if (!prepare_endpoints(r, map, start, goal, options, res)) return;
  if (components_apart(r, map, start, goal, options)) return no_path_between_cells(r, start, goal, res);
  // Any-angle under squeeze=allowed on a map with double corners: the cells beside a double
  // corner are jump points, and step across it (jump_search<true>::squeezes).
  if (squeeze && map.double_corner_count() != 0) {
    jump_search<true> js(r, map, start, goal, options, jump_state(ctx), res, straight_ties);
    with_heuristic(heuristic_for(options, r), [&]<heuristic_kind H>() { js.template run<H>(); });
  } else {
    jump_search<false> js(r, map, start, goal, options, jump_state(ctx), res, straight_ties);
    with_heuristic(heuristic_for(options, r), [&]<heuristic_kind H>() { js.template run<H>(); });
  }
  finish_path(r, map, options, res, jump_state(ctx).pull);
}

void destroy_state(jump_search_state* s) { delete s; }
std::size_t state_bytes(const jump_search_state* s) { return s ? s->bytes() : 0; }

void reserve_state(jump_search_state*& s, node_search_state*& pull, const rule& r, const grid_map& map, bool write) {
  if (!s) s = new jump_search_state();
  s->reserve(static_cast<std::size_t>(map.width()) * static_cast<std::size_t>(map.height()), write);
  if (!r.on_vertices()) return;
  s->pull.reserve(map);  // finish_path's, on the cells' path
  if (!pull) pull = new node_search_state();
  pull->pull.reserve(map);  // jump_any_angle pulls the path of corners tight there
}

}  // namespace lddb
