// The search commands' preparation (lddb/prepare.hpp): --no-prepare, --landmarks K,
// --landmark-tiles.
#include <string>

#include "cli_search.hpp"

namespace lddb::cli {

void add_prepare_options(CLI::App* cmd, setup_options& o) {
  cmd->add_flag("--no-prepare", o.no_prepare,
                "Search each map as loaded: no lddb::prepare (no landmarks, the rule's default squares, no jumps)");
  cmd->add_option("--landmarks", o.landmarks,
                  "Landmarks for each map (0 to " + std::to_string(landmark_set::kMaxLandmarks) +
                      "; default: what lddb::prepare chooses for the map: 8 or none, fewer and of 16 bits past "
                      "1024 x 1024, for octile 16 as tile bounds where fewer than 8 fit)")
      ->check(whole_number(0, landmark_set::kMaxLandmarks));
  cmd->add_flag("--landmark-tiles", o.tile_bounds,
                "Landmark bounds per tile of 4 x 4 cells (tile and octile): " + std::to_string(kTileLandmarks) +
                    " landmarks, or --landmarks K, in an eighth of a 16-bit table's memory each, where the "
                    "preparation builds landmarks (octile's default where fewer than 8 a cell fit)");
  cmd->add_option("--landmark-placement", o.placement, "Where landmarks go: farthest (default) or random");
}

std::optional<preparation_report> prepare_map(const search_setup& s, grid_map& map) {
  if (!s.prepare && (!s.landmarks || *s.landmarks == 0)) return std::nullopt;
  prepare_options o;
  o.mode = prepare_mode::complete;  // all of it off the searches' clock
  o.placement = s.placement;
  o.landmarks = s.landmarks;
  if (s.tile_bounds) o.tile_bounds = true;
  const std::optional<bool> squares = s.options.diagnostics.open_squares;
  o.open_squares = squares;
  // Block A* alone, or find-path told --no-jumps: prepared for Block A* (its landmarks).
  if (s.algo == algorithm::block_astar || s.options.diagnostics.search == search_kind::block_astar || !s.prepare)
    o.jumps = false;
  if (!s.prepare) o.open_squares = squares.value_or(s.movement.on_vertices());
  if (uses_database(s.algo)) return prepare(*s.db, map, o);
  return prepare(s.movement, map, o);
}

}  // namespace lddb::cli
