// Private: heuristics in fixed-point cost units, shared by every search.
#pragma once

#include <cstdlib>

#include "lddb/rules.hpp"
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

}  // namespace lddb
