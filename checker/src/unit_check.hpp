// The checker's paths of units of other sizes and classes (unit_check.cpp; lddb/checker.hpp,
// checker::unit_path_ok, says what is checked).
#pragma once

#include <span>

#include "lddb/checker.hpp"

namespace lddb::checker {

// unit_path_ok's check, with the rule's length of a valid path.
check_result check_unit_polyline(const rule& r, const grid_map& map, const unit& u, std::span<const point> path,
                                  cell_steps steps);

}  // namespace lddb::checker
