// Private: the estimate Block A* orders OPEN by. The search asks two things of a heuristic
// (block_heuristic): h of one point, and h of many points at once (a node's boundary
// points handed on together), so that a heuristic can overlap their arithmetic. Another
// heuristic (landmarks, say) is another type with these two members, chosen once per query.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>

#include "prepare/lower_bounds.hpp"
#include "lddb/point.hpp"
#include "lddb/rule.hpp"
#include "lddb/search.hpp"

namespace lddb::block_astar_impl {

template <class H>
concept block_heuristic = requires(const H& h, point p, const point* points, std::uint64_t which, cost_t* out) {
  { h.h(p) } -> std::same_as<cost_t>;
  h.h_batch(p, points, which, out);  // out[i] = h(p + points[i]) for each bit i of which
};

// The distance to the goal in open space of heuristic_kind (search_options::heuristic),
// raised to the landmarks' lower bound where the query has usable landmarks (both are
// consistent, so their maximum is).
class goal_distance {
 public:
  goal_distance(heuristic_kind kind, const rule& r, point start, point goal, const landmark_set* landmarks)
      : kind_(kind), rule_(r), goal_(goal), landmarks_(landmarks, start, goal, r.on_vertices() ? heuristic_cost(kind, r, start.x, start.y, goal.x, goal.y) : 0) {}

  // Inlined into the hand-on loops (called for every improved cell), with the landmarks'
  // table reads out of line: an out-of-line h cost octile den520d 9% of its instructions.
  [[gnu::always_inline]] cost_t h(point p) const {
    const cost_t h = heuristic_cost(kind_, rule_, p.x, p.y, goal_.x, goal_.y);
    if (!landmarks_.active()) return h;
    return raised(h, p);
  }

  // A node's boundary points at origin + points[i], i < 64. Euclidean: the square roots
  // together, so that each does not wait on the last (the same operations as h, so the
  // same results).
  void h_batch(point origin, const point* points, std::uint64_t which, cost_t* out) const {
    if (kind_ != heuristic_kind::euclidean || landmarks_.active()) {
      for (; which; which &= which - 1) {
        const int i = __builtin_ctzll(which);
        out[i] = h({origin.x + points[i].x, origin.y + points[i].y});
      }
      return;
    }
    std::array<double, 64> squares;
    std::array<std::uint8_t, 64> index;
    int k = 0;
    for (; which; which &= which - 1) {
      const int i = __builtin_ctzll(which);
      const std::int64_t dx = origin.x + points[i].x - goal_.x, dy = origin.y + points[i].y - goal_.y;
      squares[static_cast<std::size_t>(k)] = static_cast<double>(dx * dx + dy * dy);
      index[static_cast<std::size_t>(k++)] = static_cast<std::uint8_t>(i);
    }
    std::array<cost_t, 64> costs;
    euclid_costs(squares.data(), k, costs.data());
    for (int j = 0; j < k; ++j) out[index[static_cast<std::size_t>(j)]] = costs[static_cast<std::size_t>(j)];
  }

 private:
  [[gnu::noinline]] cost_t raised(cost_t h, point p) const {
    const cost_t l = landmarks_(p);
    return h > l ? h : l;
  }

  heuristic_kind kind_;
  const rule& rule_;
  point goal_;
  landmark_bound landmarks_;
};
static_assert(block_heuristic<goal_distance>);

// search_options::weight as Block A* applies it: a node's key is g + weight * h. The bound
// (cost <= weight x the least cost over the search's own graph, search.hpp) needs h to stay
// below that graph's costs. Cell rules store exact costs. A fixed-point database (any-angle)
// rounds each stored length L to the nearest 2^-scale_log2, so a stored cost may fall short
// of L by 2^-(scale_log2 + 1), at most that fraction of L (L >= 1 between two boundary
// points); above weight 1 the factor takes that fraction off too. At weight 1 it is h.
inline weight_factor key_weight(double weight, const rule& r, int scale_log2) {
  weight_factor f = weight_factor::of(weight);
  if (f.is_one() || !r.on_vertices()) return f;
  const int k = scale_log2 + 1;
  f.units = (f.units * ((std::uint64_t{1} << k) - 1)) >> k;
  return f;
}

}  // namespace lddb::block_astar_impl
