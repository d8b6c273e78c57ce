// Private: the parts of smoothing (smooth.cpp) that a search runs on its own result, in
// place, so that a warm query does not allocate (search/search_common.cpp, finish_path).
#pragma once

#include <cstdint>
#include <vector>

#include "lddb/cost.hpp"
#include "lddb/grid.hpp"
#include "lddb/point.hpp"
#include "lddb/rule.hpp"

namespace lddb {

// smooth_path's first step, on `path` itself (no two consecutive points equal). Counts the
// line-of-sight tests in `los_checks`.
void smooth_in_place(const rule& r, const grid_map& map, std::vector<point>& path, std::uint64_t& los_checks);

// The rule's cost of a path of straight segments between vertices (any-angle), each
// segment's Euclidean length rounded as the rule rounds it.
cost_t segments_cost(const std::vector<point>& path);

}  // namespace lddb
