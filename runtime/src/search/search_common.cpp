// Names, defaults and endpoint checks shared by every search, and the last step of each
// (finish_path) and its check of the component labels (components_apart). See
// lddb/search.hpp.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <optional>
#include <string>

#include "map/component_labels.hpp"
#include "path/smooth.hpp"
#include "search/context.hpp"
#include "lddb/landmarks.hpp"
#include "lddb/search.hpp"
#include "lddb/segments.hpp"

namespace lddb {

namespace {

// Each returns true when the point can be a start or goal, else writes why into `why`
// (reusing its capacity: an invalid query allocates nothing once warm).
bool check_cell(const rule&, const grid_map& map, point p, const char* what, std::string& why) {
  if (!map.in_bounds(p.x, p.y)) {
    set_message(why, "%s cell (%d,%d) is off the %dx%d map (cells 0..%d x 0..%d)", what, p.x, p.y, map.width(),
                map.height(), map.width() - 1, map.height() - 1);
    return false;
  }
  if (map.blocked(p.x, p.y)) {
    set_message(why, "%s cell (%d,%d) is blocked", what, p.x, p.y);
    return false;
  }
  return true;
}

bool check_vertex(const rule& r, const grid_map& map, point p, const char* what, std::string& why) {
  if (p.x < 0 || p.y < 0 || p.x > map.width() || p.y > map.height()) {
    set_message(why, "%s vertex (%d,%d) is off the %dx%d map (vertices 0..%d x 0..%d)", what, p.x, p.y, map.width(),
                map.height(), map.width(), map.height());
    return false;
  }
  if (!vertex_usable(map, p.x, p.y)) {
    set_message(why, "%s vertex (%d,%d) is unusable: all four cells around it are blocked", what, p.x, p.y);
    return false;
  }
  // A point on a double corner belongs to its own cell's side; with that cell blocked it
  // has no side a path may start or end on (the rule's name is not printed: no allocation).
  if (endpoint_side(r, map, p.x, p.y) < 0) {
    set_message(why,
                "%s vertex (%d,%d) lies on a double corner whose own (south-east) cell (%d,%d) is blocked: not a "
                "start or goal under rule any-angle (squeeze=allowed accepts it)",
                what, p.x, p.y, p.x, p.y);
    return false;
  }
  return true;
}

}  // namespace

void set_message(std::string& out, const char* format, ...) {
  char buf[256];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  out.assign(buf);
}

void no_path_between_cells(const rule& r, point start, point goal, search_result& res) {
  res.status = search_status::no_path;
  const char* what = r.on_vertices() ? "vertex" : "cell";
  set_message(res.message, "no path from %s (%d,%d) to %s (%d,%d) under rule %s", what, start.x, start.y, what, goal.x,
              goal.y, r.name().c_str());
}

void describe_unit(const rule& r, const unit& u, search_result& res) {
  if (res.status != search_status::invalid_start && res.status != search_status::invalid_goal) return;
  res.message += " for a unit of size " + std::to_string(u.size) + (r.on_vertices() ? "" : " (cells)") +
                 " and movement class \"" + u.movement.name() + "\"";
}

void search_result::clear() {
  status = search_status::no_path;
  message.clear();
  path.clear();
  cost = kUnreachable;
  lower_bound = 0;
  length = 0;
  stats = {};
  expanded.clear();
}

bool prepare_endpoints(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
                       search_result& res) {
  // Written so that NaN fails too.
  if (!(options.weight >= 1 && options.weight <= search_options::kMaxWeight)) {
    res.status = search_status::invalid_option;
    set_message(res.message, "search_options::weight %g is out of range: a weight must be a finite number from 1 to %g",
                options.weight, search_options::kMaxWeight);
    return false;
  }
  const std::optional<int>& levels = options.diagnostics.square_levels;
  if (levels && (*levels < 1 || *levels > search_diagnostics::kMaxSquareLevels)) {
    res.status = search_status::invalid_option;
    set_message(res.message, "search_diagnostics::square_levels %d is out of range: a level from 1 to %d", *levels,
                search_diagnostics::kMaxSquareLevels);
    return false;
  }
  if (options.heuristic && !heuristic_admissible(*options.heuristic, r)) {
    res.status = search_status::invalid_option;
    res.message = std::string("search_options::heuristic ") + heuristic_name(*options.heuristic) +
                  " overestimates costs under rule " + r.name() + " (not admissible: it would give longer paths); " +
                  "leave it unset for the rule's own (" + heuristic_name(default_heuristic(r)) + ") or choose one of";
    const char* sep = " ";
    for (heuristic_kind h : {heuristic_kind::zero, heuristic_kind::manhattan, heuristic_kind::octile, heuristic_kind::euclidean})
      if (heuristic_admissible(h, r)) {
        res.message += sep;
        res.message += heuristic_name(h);
        sep = ", ";
      }
    res.message += "; search_options::weight trades length for speed with a bound";
    return false;
  }
  if (options.landmarks != nullptr && !options.landmarks->empty() && !(options.landmarks->rule_of() == r)) {
    res.status = search_status::invalid_option;
    res.message = "search_options::landmarks were built for rule " + options.landmarks->rule_of().name() +
                  ", but the query's rule is " + r.name();
    return false;
  }
  const auto check = r.on_vertices() ? check_vertex : check_cell;
  if (!check(r, map, start, "start", res.message)) {
    res.status = search_status::invalid_start;
    return false;
  }
  if (!check(r, map, goal, "goal", res.message)) {
    res.status = search_status::invalid_goal;
    return false;
  }
  if (start == goal) {
    res.status = search_status::found;
    res.path = {start};
    res.cost = 0;
    res.length = 0;
    if (options.diagnostics.record_expanded) res.expanded = {start};
    return false;
  }
  return true;
}

heuristic_kind default_heuristic(const rule& r) {
  switch (r.kind) {
    case rule_kind::tile:
      return heuristic_kind::manhattan;
    case rule_kind::octile:
      return heuristic_kind::octile;  // uses the rule's own diagonal cost: admissible for any
    case rule_kind::any_angle:
      return heuristic_kind::euclidean;
  }
  return heuristic_kind::zero;
}

bool heuristic_admissible(heuristic_kind h, const rule& r) {
  switch (r.kind) {
    case rule_kind::tile:  // unit straight moves: each kind is at most dx + dy
      return true;
    case rule_kind::octile:  // open space costs min * diagonal + (max - min) exactly
      switch (h) {
        case heuristic_kind::zero:
        case heuristic_kind::octile:
          return true;
        case heuristic_kind::manhattan:
          return r.diagonal >= kMaxDiagonalCost;
        case heuristic_kind::euclidean:  // (1,1) decides: sqrt 2 against one diagonal
          return r.diagonal >= euclid_cost(1, 1);
      }
      return false;
    case rule_kind::any_angle:  // the straight line is the shortest
      return h == heuristic_kind::zero || h == heuristic_kind::euclidean;
  }
  return false;
}

heuristic_kind heuristic_for(const search_options& options, const rule& r) {
  return options.heuristic.value_or(default_heuristic(r));
}

bool smooths(const search_options& options, const rule& r) { return options.smooth.value_or(r.on_vertices()); }

const char* heuristic_name(heuristic_kind h) {
  switch (h) {
    case heuristic_kind::zero:
      return "zero";
    case heuristic_kind::manhattan:
      return "manhattan";
    case heuristic_kind::octile:
      return "octile";
    case heuristic_kind::euclidean:
      return "euclidean";
  }
  return "unknown";
}

const char* search_kind_name(search_kind k) {
  switch (k) {
    case search_kind::block_astar:
      return "block_astar";
    case search_kind::jump_point_search:
      return "jump_point_search";
    case search_kind::astar:
      return "astar";
    case search_kind::theta_star:
      return "theta_star";
    case search_kind::lazy_theta_star:
      return "lazy_theta_star";
  }
  return "unknown";
}

const char* search_status_name(search_status s) {
  switch (s) {
    case search_status::found:
      return "found";
    case search_status::no_path:
      return "no_path";
    case search_status::invalid_start:
      return "invalid_start";
    case search_status::invalid_goal:
      return "invalid_goal";
    case search_status::rule_mismatch:
      return "rule_mismatch";
    case search_status::budget_exhausted:
      return "budget_exhausted";
    case search_status::in_progress:
      return "in_progress";
    case search_status::invalid_option:
      return "invalid_option";
  }
  return "unknown";
}

void finish_path(const rule& r, const grid_map& map, const search_options& options, search_result& res,
                 pull_scratch& scratch) {
  if (!smooths(options, r) || res.path.empty()) return;
  if (res.status != search_status::found && res.status != search_status::budget_exhausted) return;
  res.path.erase(std::unique(res.path.begin(), res.path.end()), res.path.end());
  smooth_in_place(r, map, res.path, res.stats.los_checks);
  // Cells keep their moves, so their cost; a vertex path is pulled tight, and its segments
  // are new.
  if (r.on_vertices()) {
    pull_path_tight(r, map, res.path, scratch, res.stats.los_checks);
    res.cost = segments_cost(res.path);
  }
  res.length = path_length(res.path);
}

bool components_apart(const rule& r, const grid_map& map, point start, point goal, const search_options& options) {
  if (!options.diagnostics.component_check) return false;
  const std::optional<point> a = component_cell(r, map, start), b = component_cell(r, map, goal);
  return a && b && detail::component_access::apart(map, connectivity_of(r), *a, *b);
}

void searched_whole_component(const rule& r, const grid_map& map, const search_options& options) {
  if (options.diagnostics.component_check) detail::component_access::exhausted(map, connectivity_of(r));
}

}  // namespace lddb
