// lddb/block_graph.hpp: least-cost paths inside one block pattern, the search the
// generator runs from every boundary point and Block A* runs from its start and goal.
#pragma once

#include <array>
#include <cstdint>

#include "lddb/block_shape.hpp"
#include "lddb/cost.hpp"
#include "lddb/rule.hpp"

namespace lddb {

// Least-cost paths inside one block pattern (outside the block counts as blocked) from one
// point to every point of the block. This is the search the generator runs from every
// boundary point and Block A* runs from its start and goal, so the two cannot disagree.
//
// Cells: of all least-cost paths the one with the fewest turns, exactly as Dijkstra over
// (cell, heading) states keyed (cost, turns) would find it. Vertices: Dijkstra over the
// visibility graph of the block's corners keyed (cost, segments). Remaining ties go to
// the lowest state index.
class block_graph {
 public:
  static constexpr int kMaxPoints = (block_shape::kMaxBlock + 1) * (block_shape::kMaxBlock + 1);
  // Vertices under the default any-angle rule: a double corner inside the block is two
  // search states, one per free side (lddb/segments.hpp). State p < point_count() is point
  // p (on side 0 at a double corner); the states after them are the side-1 states of the
  // block's double corners. A boundary vertex is never a double corner within one pattern
  // (outside counts as blocked), so boundary points are always their own single state.
  static constexpr int kMaxInner = (block_shape::kMaxBlock - 1) * (block_shape::kMaxBlock - 1);
  static constexpr int kMaxStates = kMaxPoints + kMaxInner;

  struct paths {
    std::array<cost_t, kMaxStates> cost{};  // by state; kUnreachable when not reachable
    // Internal search states; read them through path_to().
    std::array<int, kMaxPoints * 9> parent{};
    std::array<int, kMaxStates> best_state{};
    int stride = 1;
    int points = 0;                               // vertices: states from here are side-1 states
    std::array<std::int8_t, kMaxInner> inner{};  // ... of these points
    // The points (indices) of the path from the source to `target` (a state: a point, or
    // endpoint_state() for a start or goal), both included; returns how many (0 when
    // unreachable). `out` holds kMaxPoints.
    int path_to(int target, int* out) const;
  };

  // Vertices: the visibility graph is built for all pairs up front (eager: the generator
  // searches from every boundary point of a pattern), or pair by pair when a search first
  // needs one (lazy: Block A* searches once from its start and goal, and a pair that
  // could not improve a cost is never tested). Both give the very same paths.
  enum class visibility : std::uint8_t { eager, lazy };
  block_graph(const rule& r, const block_shape& shape, std::uint32_t code, visibility mode = visibility::eager);
  // `source` is a state: a point, or endpoint_state() for a start or goal.
  void search(int source, paths& out) const;
  const block_shape& shape() const { return shape_; }
  // The state of a start or goal at point `index`: the side of its own (south-east) cell at a
  // double corner inside the block, -1 when that cell is blocked there (not a legal start
  // or goal, lddb/segments.hpp's endpoint_side), else the point itself.
  int endpoint_state(int index) const;

 private:
  bool sees(int u, int v) const;  // vertices: is segment u-v legal (tested now when lazy)
  int state_count() const { return shape_.point_count() + inner_count_; }
  const rule& rule_;
  const block_shape& shape_;
  std::uint32_t code_;
  // Vertices: who sees whom, for the pairs tested so far (all of them when eager).
  mutable std::array<std::uint64_t, kMaxPoints> visible_{}, tested_{};
  std::array<bool, kMaxPoints> usable_{};
  std::uint64_t usable_mask_ = 0;
  // Vertices, default rule: the block's double corners (bit per point), the side-1 state of
  // each (-1 elsewhere) and the point of each side-1 state.
  std::uint64_t double_corners_ = 0;
  std::array<std::int8_t, kMaxPoints> second_{};
  std::array<std::int8_t, kMaxInner> inner_{};
  int inner_count_ = 0;
  bool lazy_ = false;
};

}  // namespace lddb
