// find_path: the search the map's preparation chose, run by its own name. See
// lddb/find_path.hpp.
#include "lddb/find_path.hpp"

#include "lddb/unit.hpp"
#include "prepare/prepared.hpp"

namespace lddb {

search_kind find_path_search(const database& db, const grid_map& map, const search_options& options) {
  if (options.diagnostics.search) return *options.diagnostics.search;
  const rule& r = db.movement();
  // Block A* answers what it refuses (another block size, another rule expected).
  if (map.block() != db.shape().block()) return search_kind::block_astar;
  if (options.expected_rule && !(*options.expected_rule == r)) return search_kind::block_astar;
  if (!options.diagnostics.use_prepared || map.preparations() == nullptr) return search_kind::block_astar;
  const detail::prepared_rule* p = map.preparations()->find(r);
  if (p == nullptr || !p->plan.jumps) return search_kind::block_astar;
  // A unit of a size out of range: Block A* answers invalid_option.
  if (unit_footprint(r, options.unit) == 0) return search_kind::block_astar;
  return search_kind::jump_point_search;
}

void find_path(const database& db, const grid_map& map, point start, point goal, const search_options& options,
               search_context& ctx, search_result& out) {
  const rule& r = db.movement();
  switch (find_path_search(db, map, options)) {
    case search_kind::block_astar:
      return block_astar(db, map, start, goal, options, ctx, out);
    case search_kind::jump_point_search:
      return jump_point_search(r, map, start, goal, options, ctx, out);
    case search_kind::astar:
      return astar(r, map, start, goal, options, ctx, out);
    case search_kind::theta_star:
      return theta_star(r, map, start, goal, options, ctx, out);
    case search_kind::lazy_theta_star:
      return lazy_theta_star(r, map, start, goal, options, ctx, out);
  }
  block_astar(db, map, start, goal, options, ctx, out);
}

search_result find_path(const database& db, const grid_map& map, point start, point goal,
                        const search_options& options, search_context& ctx) {
  search_result r;
  find_path(db, map, start, goal, options, ctx, r);
  return r;
}

}  // namespace lddb
