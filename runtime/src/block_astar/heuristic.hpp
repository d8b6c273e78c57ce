// Private: the estimate Block A* orders OPEN by. The search asks two things of a heuristic
// (block_heuristic): h of one point, and h of many points at once (a node's boundary
// points handed on together), so that a heuristic can overlap their arithmetic. Another
// heuristic (landmarks, say) is another type with these two members, chosen once per query.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>

#include "../heuristic.hpp"
#include "lddb/point.hpp"
#include "lddb/rule.hpp"
#include "lddb/search.hpp"

namespace lddb::block_astar_impl {

template <class H>
concept block_heuristic = requires(const H& h, point p, const point* points, int n, cost_t* out) {
  { h.h(p) } -> std::same_as<cost_t>;
  h.h_batch(points, n, out);  // out[k] = h(points[k]) for k < n
};

// The distance to the goal in open space of heuristic_kind (search_options::heuristic).
class goal_distance {
 public:
  static constexpr int kMaxBatch = 64;

  goal_distance(heuristic_kind kind, const rule& r, point goal) : kind_(kind), rule_(r), goal_(goal) {}

  cost_t h(point p) const { return heuristic_cost(kind_, rule_, p.x, p.y, goal_.x, goal_.y); }

  // n <= kMaxBatch. Euclidean: the square roots together, so that each does not wait on the
  // last (the same operations as h, so the same results).
  void h_batch(const point* points, int n, cost_t* out) const {
    if (kind_ != heuristic_kind::euclidean) {
      for (int k = 0; k < n; ++k) out[k] = h(points[k]);
      return;
    }
    std::array<double, kMaxBatch> squares;
    for (int k = 0; k < n; ++k) {
      const std::int64_t dx = points[k].x - goal_.x, dy = points[k].y - goal_.y;
      squares[static_cast<std::size_t>(k)] = static_cast<double>(dx * dx + dy * dy);
    }
    euclid_costs(squares.data(), n, out);
  }

 private:
  heuristic_kind kind_;
  const rule& rule_;
  point goal_;
};
static_assert(block_heuristic<goal_distance>);

}  // namespace lddb::block_astar_impl
