// Private: the parts of a search_context. Each search family owns its own state struct,
// defined next to its code; the context only creates, frees and measures them.
#pragma once

#include <cstddef>
#include <string>

#include "lddb/landmarks.hpp"
#include "lddb/search.hpp"
#include "path/pull_tight.hpp"

namespace lddb {

struct block_search_state;  // block_astar/search.hpp
struct node_search_state;   // the reference searches (astar.cpp, theta.cpp)
struct jump_search_state;   // jump point search on cells (jump_search.cpp)

void destroy_state(block_search_state* s);
void destroy_state(node_search_state* s);
void destroy_state(jump_search_state* s);
std::size_t state_bytes(const block_search_state* s);
std::size_t state_bytes(const node_search_state* s);
std::size_t state_bytes(const jump_search_state* s);
// search_context::reserve: creates the state when missing and sizes it for the map
// (block_astar/reserve.cpp, astar.cpp); `write`: writes the pages of what it sized, which
// are otherwise mapped by the queries that first write them (reserve_options).
void reserve_state(block_search_state*& s, const database& db, const grid_map& map, bool write);
void reserve_state(node_search_state*& s, const rule& r, const grid_map& map, bool write);
// Jump point search under rule r (on the map's cells, any-angle too); `pull`: where
// any-angle by jumps pulls its path tight (the reference searches' state).
void reserve_state(jump_search_state*& s, node_search_state*& pull, const rule& r, const grid_map& map, bool write);

// Sets `out` to the printf-style text, reusing its capacity: the messages of normal
// outcomes (no path, budget exhausted) must not allocate in a warm query.
void set_message(std::string& out, const char* format, ...) __attribute__((format(printf, 2, 3)));
// `res` answers no_path between the cells (vertices, under a rule on vertices) start and
// goal under rule r, with the message of every search on cells (A*, jump point search).
void no_path_between_cells(const rule& r, point start, point goal, search_result& res);

// Jump point search on the cells (jump_search.cpp), the work of jump_point_search; with
// straight_ties nodes of equal f are ordered by how far off the start-goal line they lie,
// and with squeeze a path may also step diagonally between two free cells that touch only
// at a corner (a double corner, which any-angle with squeeze=allowed passes).
void jump_cells(const rule& r, const grid_map& map, point start, point goal, const search_options& asked,
                search_context& ctx, search_result& res, bool straight_ties, bool squeeze);
// Any-angle by jumps (jump_any_angle.cpp): jump_point_search under an any-angle rule.
void jump_any_angle(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
                    search_context& ctx, search_result& res);

// Checks a query's start and goal for the rule (cells or vertices) and answers
// start == goal. Returns true when the search must run; otherwise `res` is complete
// (invalid_start, invalid_goal with a message naming the point, or found). Under the
// default any-angle rule a start or goal on a double corner whose own cell is blocked is
// refused too (endpoint_side -1). First of all, it refuses a search_options::weight out of
// range and a heuristic not admissible for the rule (invalid_option).
bool prepare_endpoints(const rule& r, const grid_map& map, point start, point goal, const search_options& options,
                       search_result& res);

// search_options::smooth on a search's answer (found or budget_exhausted), the last step of
// every search (search_common.cpp): when the options ask for it, smooths res.path in place and pulls a vertex
// path tight (no allocation once `scratch` has grown), counts the line-of-sight tests in
// res.stats.los_checks and sets `length`, and for any-angle `cost`, from the new waypoints.
void finish_path(const rule& r, const grid_map& map, const search_options& options, search_result& res,
                 pull_scratch& scratch);

// search_options::landmarks when a search may use them on this map: set, not empty and
// current (no cell freed since they were built); nullptr otherwise (the rule's own
// heuristic alone). prepare_endpoints has checked their rule. Tile bounds, which are not
// consistent, only at weight 1: a weighted search closes points for good.
inline const landmark_set* usable_landmarks(const search_options& options, const grid_map& map) {
  const landmark_set* l = options.landmarks;
  if (l != nullptr && l->tile_bounds() && options.weight != 1.0) return nullptr;
  return l != nullptr && l->current_for(map) ? l : nullptr;
}

// search_diagnostics::component_check: true when the map's component labels show that no path
// joins start and goal, valid endpoints (prepare_endpoints), so the search can answer
// no_path without expanding anything.
bool components_apart(const rule& r, const grid_map& map, point start, point goal, const search_options& options);
// A search that ran out of cells under search_diagnostics::component_check calls this: labels
// left coarse by blocked cells (which let it search) are rebuilt by the next prepare_step,
// so that later queries to an unreachable goal are answered at once.
void searched_whole_component(const rule& r, const grid_map& map, const search_options& options);

// search_options::unit: unless it is the unit the map itself is for (unit_view), runs
// `search(view, options)` on the unit's view, with options whose unit is that view's own,
// and returns true; `res` is then the view's answer, its invalid start or goal saying for
// which unit. A size out of range answers invalid_option. False: search the map itself.
void describe_unit(const rule& r, const unit& u, search_result& res);
template <class Search>
bool on_unit_view(const rule& r, const grid_map& map, const search_options& options, search_result& res,
                  Search&& search) {
  const int footprint = unit_footprint(r, options.unit);
  if (footprint == 1 && options.unit.movement == movement_class::ground()) return false;
  if (footprint == 0) {
    res.clear();
    res.status = search_status::invalid_option;
    set_message(res.message, "search_options::unit size %d is outside 0..%d", options.unit.size, unit::kMaxSize);
    return true;
  }
  search_options own = options;
  own.unit = unit{};
  search(map.view(footprint, options.unit.movement), own);
  describe_unit(r, options.unit, res);
  return true;
}

// The searches reach a context's state through this; callers of the library do not.
struct detail::context_access {
  static search_context::impl& state(search_context& ctx) { return *ctx.impl_; }
};

struct search_context::impl {
  block_search_state* block = nullptr;  // created on first use by block_astar
  node_search_state* node = nullptr;    // created on first use by the reference searches
  jump_search_state* jump = nullptr;    // created on first use by jump point search
  impl() = default;
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;
  ~impl() {
    destroy_state(block);
    destroy_state(node);
    destroy_state(jump);
  }
};

}  // namespace lddb
