// The path checker on a grid_map: bounds, then the generic checks of lddb/checker.hpp.
#include "lddb/checker.hpp"

namespace lddb {

check_result check_path(const rule& r, const grid_map& map, point start, point goal, const std::vector<point>& path,
                        cell_steps steps) {
  // Cells lie in 0..W-1 x 0..H-1; vertices (cell corners) in 0..W x 0..H.
  const int extra = r.kind == rule_kind::any_angle ? 1 : 0;
  const int w = map.width() + extra, h = map.height() + extra;
  const char* const what = extra ? "vertex" : "cell";
  for (std::size_t k = 0; k < path.size(); ++k) {
    const point p = path[k];
    if (p.x < 0 || p.y < 0 || p.x >= w || p.y >= h)
      return check_result{false,
                          std::string(what) + " " + std::to_string(k) + " " + checker::point_text(p) + " is off the " +
                              std::to_string(map.width()) + "x" + std::to_string(map.height()) + " map",
                          0};
  }
  return checker::check_path(r, map, start, goal, std::span<const point>(path), steps);
}

}  // namespace lddb
