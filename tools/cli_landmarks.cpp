// The search commands' preparation (lddb/prepare.hpp): --no-prepare, --landmarks K.
#include <string>

#include "cli_search.hpp"

namespace lddb::cli {

void add_prepare_options(CLI::App* cmd, bool& no_prepare, std::optional<int>& count,
                         std::optional<std::string>& placement) {
  cmd->add_flag("--no-prepare", no_prepare,
                "Search each map as loaded: no lddb::prepare (no landmarks, the rule's default squares, no jumps)");
  cmd->add_option("--landmarks", count,
                  "Landmarks for each map (0 to " + std::to_string(landmark_set::kMaxLandmarks) +
                      "; default: what lddb::prepare chooses for the map: 8 or none, fewer and of 16 bits past "
                      "1024 x 1024)")
      ->check(whole_number(0, landmark_set::kMaxLandmarks));
  cmd->add_option("--landmark-placement", placement, "Where landmarks go: farthest (default) or random");
}

std::optional<preparation_report> prepare_map(const search_setup& s, grid_map& map) {
  if (!s.prepare && (!s.landmarks || *s.landmarks == 0)) return std::nullopt;
  prepare_options o;
  o.mode = prepare_mode::complete;  // all of it off the searches' clock
  o.placement = s.placement;
  o.landmarks = s.landmarks;
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
