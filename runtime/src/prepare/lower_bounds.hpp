// Private: heuristics in fixed-point cost units (lower bounds on a path's cost), shared by
// every search; Block A*'s own use of them is in block_astar/heuristic.hpp.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "lddb/cost.hpp"
#include "lddb/landmarks.hpp"
#include "lddb/rule.hpp"
#include "lddb/point.hpp"
#include "lddb/search.hpp"

namespace lddb {

// Estimated cost between points (x0, y0) and (x1, y1); admissible for the rule when the
// heuristic is its default (or zero).
inline cost_t heuristic_cost(heuristic_kind h, const rule& r, int x0, int y0, int x1, int y1) {
  const std::int64_t dx = std::abs(x1 - x0), dy = std::abs(y1 - y0);
  switch (h) {
    case heuristic_kind::zero:
      return 0;
    case heuristic_kind::manhattan:
      return static_cast<cost_t>(dx + dy) * kCostOne;
    case heuristic_kind::octile: {
      const std::int64_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
      const cost_t diag = r.kind == rule_kind::octile ? r.diagonal : kSqrt2Cost;
      return static_cast<cost_t>(lo) * diag + static_cast<cost_t>(hi - lo) * kCostOne;
    }
    case heuristic_kind::euclidean:
      return euclid_cost(dx, dy);
  }
  return 0;
}

// Calls f.template operator()<H>() with the heuristic h as a template argument, so that a
// search's inner loop is compiled once per heuristic.
template <class F>
void with_heuristic(heuristic_kind h, F&& f) {
  switch (h) {
    case heuristic_kind::zero:
      return f.template operator()<heuristic_kind::zero>();
    case heuristic_kind::manhattan:
      return f.template operator()<heuristic_kind::manhattan>();
    case heuristic_kind::octile:
      return f.template operator()<heuristic_kind::octile>();
    case heuristic_kind::euclidean:
      return f.template operator()<heuristic_kind::euclidean>();
  }
}

// The landmarks' lower bound on the cost from a point to one goal (lddb/landmarks.hpp).
// A query uses the few landmarks that bound its start best (Goldberg & Harrelson's
// "active" landmarks): the maximum over a subset is as consistent as over all of them,
// and a bound computed at every generated point costs time in proportion to the
// landmarks it reads. Inactive (0 everywhere) without a set.
class landmark_bound {
 public:
  static constexpr int kActive = 4;
  landmark_bound() = default;
  // open_space: any-angle, the straight line from start to goal (0 for the cell rules).
  // When every landmark falls short of it at the start, the query goes without them: the
  // any-angle bound, scaled by cos(pi/8), falls below the straight line on open ground, and
  // reading the tables at every point would cost time for nothing (random512-25-1: 1.33x
  // the time, the same expansions). The cell rules' bound is a true distance that gains
  // deeper in the search even where it ties or trails at the start, so they always use it.
  landmark_bound(const landmark_set* set, point start, point goal, cost_t open_space) {
    if (set == nullptr || !set->has_point(goal) || !set->has_point(start)) return;
    // Rank the landmarks that reach both ends by their bound at the start (larger first,
    // then by index), keeping kActive.
    const bool tiles = set->tile_bounds();
    if (tiles && (!set->in_reach(start) || !set->in_reach(goal))) return;
    for (int i = 0; i < set->complete(); ++i) {
      std::uint32_t v = 0;
      if (tiles) {
        const landmark_set::range g = set->tile_range(goal, i), s = set->tile_range(start, i);
        if (g.lo == landmark_set::kUnreached || s.lo == landmark_set::kUnreached) continue;
        v = landmark_set::gap(s, g);
      } else {
        const std::uint32_t g = set->distance(goal, i), s = set->distance(start, i);
        if (g == landmark_set::kUnreached || s == landmark_set::kUnreached) continue;
        v = g > s ? g - s : s - g;
      }
      int at = count_;
      while (at > 0 && rank_[at - 1] < v) --at;
      if (at >= kActive) continue;
      const int last = count_ < kActive ? count_ : kActive - 1;
      for (int j = last; j > at; --j) {
        rank_[j] = rank_[j - 1];
        index_[j] = index_[j - 1];
      }
      rank_[at] = v;
      index_[at] = static_cast<std::uint8_t>(i);
      if (count_ < kActive) ++count_;
    }
    if (count_ == 0 || static_cast<cost_t>(rank_[0]) * set->unit_cost() < open_space) return;
    for (int j = 0; j < count_; ++j) goal_[j] = set->distance(goal, index_[j]);
    if (tiles) {
      for (int j = 0; j < count_; ++j) goal_hi_[j] = set->tile_range(goal, index_[j]).hi;
      ranges_ = set->ranges({0, 0});
    }
    // What every call reads, copied here: one pointer fewer to follow at each point.
    unit_ = set->unit_cost();
    narrow_ = set->width() == landmark_width::bits16;
    wide_table_ = narrow_ ? nullptr : set->wide({0, 0});
    narrow_table_ = narrow_ ? set->narrow({0, 0}) : nullptr;
    k_ = static_cast<std::size_t>(set->size());
    tiles_x_ = set->tiles_x();
    columns_ = static_cast<unsigned>(set->point_columns());
    rows_ = static_cast<unsigned>(set->point_rows());
  }
  bool active() const { return columns_ != 0; }
  // Always inlined, where the searches call it at every point: its tile branch (a call) made
  // the compiler leave it, and the search's h around it, out of line (+3.4% instructions in
  // tile's jump search).
  [[gnu::always_inline]] cost_t operator()(point p) const {
    // Inactive first, on its own: a search whose bound is a local can hoist that test.
    if (columns_ == 0 || static_cast<unsigned>(p.x) >= columns_ || static_cast<unsigned>(p.y) >= rows_) return 0;
    if (ranges_ != nullptr) return tile_bound(p);
    const std::size_t at = landmark_set::slot_in(p, tiles_x_) * k_;
    const std::uint32_t best = narrow_ ? best_of(narrow_table_ + at, landmark_set::kUnreached16)
                                       : best_of(wide_table_ + at, landmark_set::kUnreached);
    return static_cast<cost_t>(best) * unit_;
  }

 private:
  // Tile bounds (landmark_set::tile_range): the goal's tile's range against p's tile's.
  [[gnu::noinline]] cost_t tile_bound(point p) const {
    const std::uint16_t* r = ranges_ + (landmark_set::slot_in(p, tiles_x_) >> 4) * k_ * 2;
    std::uint32_t best = 0;
    for (int j = 0; j < count_; ++j) {
      const std::uint32_t lo = r[2 * index_[j]], hi = r[2 * index_[j] + 1];
      if (lo == landmark_set::kUnreached16) continue;
      const std::uint32_t d = landmark_set::gap({lo, hi}, {goal_[j], goal_hi_[j]});
      best = d > best ? d : best;
    }
    return static_cast<cost_t>(best) * unit_;
  }
  template <class T>
  std::uint32_t best_of(const T* d, T unreached) const {
    std::uint32_t best = 0;
    for (int j = 0; j < count_; ++j) {
      const T raw = d[index_[j]];
      if (raw == unreached) continue;  // not joined to the goal: any bound is safe, 0 is
      const std::uint32_t a = goal_[j], b = raw;
      const std::uint32_t diff = a > b ? a - b : b - a;
      best = diff > best ? diff : best;
    }
    return best;
  }

  int count_ = 0;
  bool narrow_ = false;
  cost_t unit_ = 0;
  const std::uint32_t* wide_table_ = nullptr;
  const std::uint16_t* narrow_table_ = nullptr;
  const std::uint16_t* ranges_ = nullptr;  // tile bounds: goal_ holds the goal's least, goal_hi_ its greatest
  std::size_t k_ = 0;
  int tiles_x_ = 0;
  unsigned columns_ = 0, rows_ = 0;
  std::array<std::uint32_t, kActive> goal_{}, goal_hi_{}, rank_{};
  std::array<std::uint8_t, kActive> index_{};
};

// search_options::weight as a factor in fixed point: h * units >> kWeightShift. Integer, so
// every platform orders OPEN alike; rounded down, so the bound holds for the weight asked
// for. At weight 1 (units = 1 << kWeightShift) it returns h itself. No overflow: an h on a
// kMaxSide map is below 2^47 and units at most 2^16.
struct weight_factor {
  static constexpr int kWeightShift = 12;
  std::uint64_t units = std::uint64_t{1} << kWeightShift;
  static weight_factor of(double weight) {
    return {static_cast<std::uint64_t>(std::floor(weight * static_cast<double>(std::uint64_t{1} << kWeightShift)))};
  }
  bool is_one() const { return units == std::uint64_t{1} << kWeightShift; }
  cost_t operator()(cost_t h) const { return (h * units) >> kWeightShift; }
};

// euclid_cost_of_squared for n squared lengths at once: the same operations, so the same
// results, with the square roots two to an instruction where SSE2 has them.
inline void euclid_costs(const double* squared, int n, cost_t* out) {
  int j = 0;
#ifdef __SSE2__
  const __m128d scale = _mm_set1_pd(static_cast<double>(kCostOne)), half = _mm_set1_pd(0.5);
  for (; j + 2 <= n; j += 2) {
    alignas(16) double d[2];
    _mm_store_pd(d, _mm_add_pd(_mm_mul_pd(_mm_sqrt_pd(_mm_loadu_pd(squared + j)), scale), half));
    out[j] = static_cast<cost_t>(static_cast<std::int64_t>(d[0]));  // below 2^63: a signed
    out[j + 1] = static_cast<cost_t>(static_cast<std::int64_t>(d[1]));  // conversion, one instruction
  }
#endif
  for (; j < n; ++j) out[j] = euclid_cost_of_squared(squared[j]);
}

}  // namespace lddb
