// lddb/find_path.hpp: the one call a game makes for a path.
//
//   lddb::prepare(db, map);                        // once per map (lddb/prepare.hpp)
//   lddb::search_context ctx;                      // one per thread
//   lddb::search_result r = lddb::find_path(db, map, start, goal, {}, ctx);
//   if (r.found()) follow(r.path);                 // r.searched says which search answered
//
// find_path runs the search the map's preparation chose for the database's rule: jump point
// search where it measured faster (open ground, rooms, corridors), Block A* elsewhere
// (scattered obstacles, any-angle maps with double corners under squeeze=allowed), and Block
// A* on a map never prepared. Each search stays callable by its own name (lddb/search.hpp)
// and then runs exactly that search.
#pragma once

#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/point.hpp"
#include "lddb/search.hpp"
#include "lddb/search_options.hpp"

namespace lddb {

// A path from start to goal under the database's rule: cells for tile and octile, vertices
// for any-angle. Costs are optimal for tile and octile at weight 1, whichever search runs.
// The result's `searched` names the search that answered, and so what its stats count.
search_result find_path(const database& db, const grid_map& map, point start, point goal,
                        const search_options& options, search_context& ctx);

// The same, answering into `out`: its vectors and message keep their capacity, so with a
// warm context and a reused result a query allocates nothing (tests/alloc_test.cpp).
void find_path(const database& db, const grid_map& map, point start, point goal, const search_options& options,
               search_context& ctx, search_result& out);

// The search find_path runs for a query with these options on this map (its unit's view
// follows the map): search_diagnostics::search when set, else jump point search where the
// map's preparation chose it for the database's rule, else Block A*.
search_kind find_path_search(const database& db, const grid_map& map, const search_options& options);

}  // namespace lddb
