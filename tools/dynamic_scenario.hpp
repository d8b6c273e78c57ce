// tools/dynamic_scenario.hpp: dynamic scenarios in the format of the Grid-based Path
// Planning Competition's dynamic track (version 2: a .scen of commands and a .patch of small
// grids), made from a map and the queries of its Moving AI scenario (`lddb dynamic`).
//
// Every change is drawn at the map's own resolution and written magnified by the scale, so a
// scenario at scale N is the scale-1 scenario of the same seed drawn N times larger: the same
// changes in the same order and the same queries, only the reference costs computed anew on
// the larger grid. The reference costs come from the A* in dynamic_scenario.cpp (octile,
// diagonal sqrt(2), no corner cutting), kept apart from the library's searches so that it
// can judge them.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lddb/point.hpp"

namespace lddb::cli {

// Cells as a dynamic scenario draws them, row by row: 1 blocked, 0 free.
struct cell_grid {
  int width = 0, height = 0;
  std::vector<std::uint8_t> blocked;

  cell_grid() = default;
  cell_grid(int w, int h, bool fill = false)
      : width(w), height(h), blocked(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), fill ? 1 : 0) {}
  std::size_t index(int x, int y) const {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
  }
  bool at(int x, int y) const { return blocked[index(x, y)] != 0; }
  void set(int x, int y, bool b) { blocked[index(x, y)] = b ? 1 : 0; }
  // The w x h cells from (x, y), which must lie on the grid.
  cell_grid part(int x, int y, int w, int h) const;
  // Writes `patch` over the cells from (x, y), as a P command does.
  void place(const cell_grid& patch, int x, int y);
  // Each cell as n x n cells.
  cell_grid magnified(int n) const;
};

struct dynamic_settings {
  std::uint64_t seed = 1;
  int rounds = 30, changes = 10, queries = 20;
  bool doors = true, buildings = true, regions = false, switches = false;
  int scale = 1;
  // Sizes in cells of the map's own resolution (each drawn scale x scale).
  int door_min = 2, door_max = 6;          // cells in a row
  int building_min = 2, building_max = 8;  // each side
  int region_min = 8, region_max = 64;     // each side
  int switch_every = 10;                   // the map switches at the first change of rounds R, 2R, ...
};

// One command of the .scen, at the map's own resolution (written times the scale).
struct dynamic_command {
  bool query = false;
  int state = 0;
  int patch = 0;            // P: the index in dynamic_scenario::patches
  point at{}, goal{};       // P: the patch's top-left cell; Q: start and goal
  // Q: the least cost as counts of straight and diagonal steps; no_path when there is none.
  std::uint32_t straight = 0, diagonal = 0;
  bool no_path = false;
};

struct dynamic_scenario {
  int width = 0, height = 0, scale = 1;  // the map's own size; written times the scale
  std::vector<cell_grid> patches;        // at the map's own resolution; identical ones kept once
  std::vector<dynamic_command> commands;
  // What the changes were, for the summary.
  int doors = 0, buildings = 0, regions = 0, switches = 0, lifts = 0, unplaced = 0;
  int queries = 0, no_path = 0;
};

// The scenario: patch 0 is `map` at 0 0 with the first queries; then each round's changes
// and queries. `other` (when settings.switches) is the map switched to, of the same size.
// `queries` are the scenario file's start and goal cells, on the map; those whose ends are
// blocked at a round's moment are passed over then.
dynamic_scenario make_dynamic_scenario(const cell_grid& map, const cell_grid* other,
                                       const std::vector<std::pair<point, point>>& queries, const dynamic_settings& s);

// The least octile cost from s to g on `grid` (diagonal sqrt(2), both side cells of a
// diagonal step free) as counts of straight and diagonal steps, by A* with the octile
// distance; false when no path exists. Exact: a cost a + d sqrt(2) is kept as its two
// counts and compared through integers, never accumulated in floating point.
class octile_reference {
 public:
  void set_grid(const cell_grid& grid);
  bool least_steps(point s, point g, std::uint32_t* straight, std::uint32_t* diagonal);

 private:
  struct entry {
    std::uint64_t f;  // g + h, an exact order (cost_key in dynamic_scenario.cpp)
    std::uint32_t h;  // to break ties
    std::uint32_t node;
  };
  int pitch_ = 0;                     // the grid's width plus a blocked margin each side
  std::vector<std::uint8_t> free_;    // with the margin, so that no step needs a bounds check
  std::vector<std::uint32_t> stamp_;  // 2 * search: reached by this search; + 1: settled
  std::vector<std::uint64_t> steps_;  // straight << 32 | diagonal, valid where stamped
  std::uint32_t search_ = 0;
  std::vector<entry> open_;
};

// The files' text: the .scen names its patch file `patch_file` (a name beside it).
std::string dynamic_scen_text(const dynamic_scenario& d, const std::string& patch_file);
std::string dynamic_patch_text(const dynamic_scenario& d);
// A cost as the dev scenarios write it: 15 significant digits, "-1" for none.
std::string dynamic_cost_text(const dynamic_command& q);

}  // namespace lddb::cli
