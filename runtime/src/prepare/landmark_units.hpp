// Private: the cost units of the landmark tables (landmarks.cpp): a move's cost under the
// tables' metric, and the unit a 16-bit table stores it in.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "lddb/cost.hpp"
#include "lddb/rule.hpp"

namespace lddb::landmark_units {

// Any-angle: cos(pi/8) bounds a segment's length over its octile length from below; the
// factor 1 - 2^-10 keeps the bound under Block A*'s stored lengths too, which round each
// length to the nearest 2^-11 of a unit (docs/format.md), so fall short of it by at most
// 2^-12 of it.
inline constexpr double kAnyAngleScale = 0.92387953251128675613 * (1.0 - 1.0 / 1024.0);

inline constexpr double kNarrowCap = 65534.0;  // the largest distance a 16-bit table stores

// The cost units of a straight and a diagonal move of the tables' metric (any-angle: scaled
// by kAnyAngleScale; tile has no diagonal move: 0).
struct move_costs {
  double straight = 0, diagonal = 0;
};
inline move_costs costs_of(const rule& r) {
  const double one = static_cast<double>(kCostOne);
  if (r.on_vertices()) return {kAnyAngleScale * one, kAnyAngleScale * std::sqrt(2.0) * one};
  if (r.kind == rule_kind::octile) return {one, static_cast<double>(r.diagonal)};
  return {one, 0.0};
}

// The stored units of a move at `unit` cost units a stored unit: rounded down.
inline void set_units(std::uint32_t* u, const move_costs& c, double unit) {
  u[0] = static_cast<std::uint32_t>(std::floor(c.straight / unit));
  u[1] = c.diagonal > 0 ? static_cast<std::uint32_t>(std::floor(c.diagonal / unit)) : u[0];
}

// A 16-bit table's unit for distances up to `longest` cost units: of the units at which a
// straight move is S stored units, for S from the largest that fits down to half of it,
// the one whose rounding loses least of a move (the diagonal's fraction, mostly: with S =
// 17 a diagonal is 24 units, 0.17% short of 17 sqrt 2).
inline double narrow_unit(const move_costs& c, double longest) {
  const double least = std::max(1.0, std::ceil(longest / kNarrowCap));
  // At most the cap a straight move (a map whose free cells are one point has no distance
  // to fit at all).
  const double most_units = std::clamp(std::floor(c.straight / least), 1.0, kNarrowCap);
  double best_unit = std::floor(c.straight / most_units), best_loss = 2.0;
  for (double units = most_units; units >= std::max(1.0, std::floor(most_units / 2)); units -= 1) {
    const double unit = std::floor(c.straight / units);
    if (unit < least) continue;
    double loss = 1.0 - std::floor(c.straight / unit) * unit / c.straight;
    if (c.diagonal > 0) loss = std::max(loss, 1.0 - std::floor(c.diagonal / unit) * unit / c.diagonal);
    if (loss < best_loss) {
      best_loss = loss;
      best_unit = unit;
    }
  }
  return best_unit;
}

}  // namespace lddb::landmark_units
