// A simple subgoal graph (after Uras, Koenig and Hernandez, ICAPS 2013) for octile with
// corners=forbidden, kept current cell by cell by a local repair: built to measure subgoal
// graphs against the default search under change (bench_subgoal_graph.cpp; docs/
// benchmarks.md, "Subgoal graphs repaired locally"). Not part of the library: it did not pay.
//
// Subgoals are the free cells at the convex corners of obstacles: a diagonal neighbour
// blocked, the two cells beside that diagonal free. Each subgoal keeps the subgoals it
// reaches "directly h-reachably" (an octile-shortest free path with no subgoal on it), found
// by Uras et al.'s clearance exploration: straight lines, then from each cell of each
// diagonal the two straight lines it is made of, each cut where an earlier one stopped, so
// every edge is a diagonal-first free path. A query connects the start and the goal the same
// way and runs A* on the graph.
//
// Repair: a changed cell changes which cells are subgoals only in its 3 x 3 neighbourhood,
// and a subgoal's edges only if the cell lies in the region its exploration read. Each
// subgoal keeps that region's bounding box, registered in buckets of 16 x 16 cells; a change
// re-explores the subgoals whose box meets the 3 x 3 neighbourhood and the new ones.
#pragma once

#include <cstdint>
#include <vector>

#include "lddb/cost.hpp"
#include "lddb/grid.hpp"
#include "lddb/point.hpp"

namespace subgoals {

struct box {
  int x0, y0, x1, y1;  // inclusive
};

struct edge {
  std::int32_t to;  // subgoal index, or -2 for the query's goal
  lddb::cost_t cost;
};

class subgoal_graph {
 public:
  explicit subgoal_graph(const lddb::grid_map& m);

  // After map.set_blocked(x, y, ...): the repair.
  void cell_changed(int x, int y);

  // Least octile cost from s to g (free cells), or kNoPath; `path` the turning points.
  lddb::cost_t find(lddb::point s, lddb::point g, std::vector<lddb::point>& path);
  static constexpr lddb::cost_t kNoPath = ~lddb::cost_t{0};

  std::size_t subgoals() const { return live_; }
  std::size_t edges() const;
  std::size_t memory_bytes() const;
  std::uint64_t reexplored = 0;  // subgoals explored again by repairs

 private:
  bool free(int x, int y) const { return x >= 0 && y >= 0 && x < w_ && y < h_ && !m_.blocked(x, y); }
  bool is_subgoal_cell(int x, int y) const;
  std::int32_t sg_at(int x, int y) const { return id_[static_cast<std::size_t>(y) * w_ + x]; }
  // The exploration from p: every subgoal (and `target` when not null) it reaches directly.
  void explore(lddb::point p, const lddb::point* target, std::vector<edge>& out, box& read) const;
  void add_subgoal(int x, int y);
  void remove_subgoal(std::int32_t i);
  void reexplore(std::int32_t i);
  void enter_buckets(std::int32_t i);
  void leave_buckets(std::int32_t i);

  // Bits `from`..`from + 63` of subgoal line `line` (rows, or columns), 0 off the map.
  std::uint64_t sg_bits(const std::vector<std::uint64_t>& lines, std::size_t words, int extent, int line, int from) const;
  void set_sg_bit(int x, int y, bool on);

  const lddb::grid_map& m_;
  int w_, h_, bw_, bh_;
  std::size_t row_words_, col_words_;
  std::vector<std::uint64_t> sg_rows_, sg_cols_;
  std::vector<std::int32_t> id_;  // per cell: subgoal index or -1
  std::vector<lddb::point> at_;
  std::vector<std::vector<edge>> out_;
  std::vector<box> read_;
  std::vector<char> alive_;
  std::vector<std::int32_t> free_ids_;
  std::vector<std::vector<std::int32_t>> buckets_;
  std::size_t live_ = 0;
  // Query state.
  std::vector<lddb::cost_t> g_;
  std::vector<std::int32_t> parent_;
  std::vector<std::uint32_t> seen_;
  std::vector<lddb::cost_t> to_goal_;
  std::vector<std::uint32_t> goal_mark_;
  std::uint32_t stamp_ = 0;
  std::vector<edge> scratch_s_, scratch_g_;
};

}  // namespace subgoals
