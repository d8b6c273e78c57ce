// The path checker on a grid_map: bounds, then the generic checks of lddb/checker.hpp, or
// for a unit of another size or class, unit_check.cpp's.
#include "lddb/checker.hpp"
#include "unit_check.hpp"

namespace lddb {

namespace {

// Empty when every point is on the map: cells in 0..W-1 x 0..H-1, vertices (cell corners)
// in 0..W x 0..H.
std::string off_map_problem(const rule& r, const grid_map& map, const std::vector<point>& path) {
  const int extra = r.kind == rule_kind::any_angle ? 1 : 0;
  const int w = map.width() + extra, h = map.height() + extra;
  const char* const what = extra ? "vertex" : "cell";
  for (std::size_t k = 0; k < path.size(); ++k) {
    const point p = path[k];
    if (p.x < 0 || p.y < 0 || p.x >= w || p.y >= h)
      return std::string(what) + " " + std::to_string(k) + " " + checker::point_text(p) + " is off the " +
             std::to_string(map.width()) + "x" + std::to_string(map.height()) + " map";
  }
  return "";
}

}  // namespace

check_result check_path(const rule& r, const grid_map& map, point start, point goal, const std::vector<point>& path,
                        cell_steps steps) {
  if (std::string why = off_map_problem(r, map, path); !why.empty()) return check_result{false, std::move(why), 0};
  return checker::check_path(r, map, start, goal, std::span<const point>(path), steps);
}

check_result check_path(const rule& r, const grid_map& map, const unit& u, point start, point goal,
                        const std::vector<point>& path, cell_steps steps) {
  // The one-cell unit (a point under any-angle) of the ground class moves on the map itself.
  const bool plain = u.movement == movement_class::ground() && (r.kind == rule_kind::any_angle ? u.size == 0 : u.size <= 1);
  if (plain && u.size >= 0) return check_path(r, map, start, goal, path, steps);
  const std::span<const point> pts(path);
  if (std::string why = checker::ends_problem(start, goal, pts); !why.empty()) return check_result{false, std::move(why), 0};
  if (std::string why = off_map_problem(r, map, path); !why.empty()) return check_result{false, std::move(why), 0};
  return checker::check_unit_polyline(r, map, u, pts, steps);
}

}  // namespace lddb
