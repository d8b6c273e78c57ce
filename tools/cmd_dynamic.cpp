// tools/cmd_dynamic.cpp: `lddb dynamic`: a dynamic scenario of the Grid-based Path Planning
// Competition's dynamic track (version 2: X.scen and X.patch) from a Moving AI map and its
// scenario file, so that a game can measure its own maps as the competition measures.
//
// Patch 0 is the whole map at 0 0, followed by the first queries; then each round's changes
// (doors, buildings, regions redrawn, the whole map switched, or an earlier change lifted)
// and its queries, the STATE field counting the rounds. The generation and the reference
// costs are in dynamic_scenario.cpp. Both files are written atomically, and only once all
// of it has been made, so an error leaves no file behind.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "dynamic_scenario.hpp"
#include "lddb/map_file.hpp"
#include "lddb/scenario.hpp"

namespace lddb::cli {

namespace {

// The start kit's runner refuses maps wider or higher than this (GPPC_HARD_MAP_LIMIT).
constexpr int kMaxWrittenSide = 8000;

struct dynamic_args {
  std::string map, scen, out, kinds = "doors,buildings";
  std::optional<std::string> switch_to;
  std::uint64_t seed = 1;
  int rounds = 30, changes = 10, queries = 20, scale = 1, switch_every = 10;
  std::string door_length = "2-6", building_size = "2-8", region_size = "8-64";
};

const char* const kDynamicFooter = R"(Kinds of change (--kinds, comma-separated):
  doors      a wall of --door-length cells across free ground, closing a gap where it can
  buildings  a blocked rectangle of --building-size cells a side on free ground
  regions    a rectangle of --region-size cells a side redrawn: scattered cells, rooms, a
             maze, or cleared
  switch     the whole map replaced by --switch-to at the first change of every
             --switch-every-th round, and back at the next
Any door, building or region may later be lifted: a patch of the map's own cells under it.
Sizes are in cells of MAP; --scale N draws every cell, of the map and of each change, N x N.
Examples:
  lddb dynamic ../shared/maps/bg512/AR0500SR.map --scen ../shared/maps/bg512/AR0500SR.map.scen \
      --out /tmp/AR0500SR
  lddb dynamic ../shared/maps/bg512/AR0500SR.map --scen ../shared/maps/bg512/AR0500SR.map.scen \
      --out /tmp/AR0500SR-x4 --scale 4 --kinds doors,buildings,regions
)";

// "2-6" or "4" (both ends the same), each from 1 to hi.
void parse_range(const std::string& text, const std::string& option, int hi, int* lo_out, int* hi_out) {
  const std::size_t dash = text.find('-');
  const std::optional<std::uint64_t> lo = parse_unsigned(text.substr(0, dash));
  const std::optional<std::uint64_t> up = dash == std::string::npos ? lo : parse_unsigned(text.substr(dash + 1));
  const std::string expected = " (expected MIN-MAX or N, from 1 to " + std::to_string(hi) + ")";
  if (!lo || !up || text.find_first_not_of("0123456789-") != std::string::npos)
    throw usage_error(option + ": '" + text + "' is not a size" + expected);
  if (*lo > *up) throw usage_error(option + ": " + text + ": MIN is above MAX");
  if (*lo < 1 || *up > static_cast<std::uint64_t>(hi))
    throw usage_error(option + ": " + text + " is out of range" + expected);
  *lo_out = static_cast<int>(*lo);
  *hi_out = static_cast<int>(*up);
}

void parse_kinds(const std::string& text, dynamic_settings* s) {
  s->doors = s->buildings = s->regions = s->switches = false;
  std::istringstream in(text);
  bool any = false;
  for (std::string name; std::getline(in, name, ',');) {
    if (name == "doors") s->doors = true;
    else if (name == "buildings") s->buildings = true;
    else if (name == "regions") s->regions = true;
    else if (name == "switch") s->switches = true;
    else if (name.empty()) throw usage_error("--kinds: an empty name in '" + text + "'");
    else
      throw usage_error("--kinds: unknown kind '" + name + "' (expected doors, buildings, regions or switch)");
    any = true;
  }
  if (!any) throw usage_error("--kinds: no kind given (expected doors, buildings, regions or switch)");
}

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

cell_grid load_cells(const std::string& path) {
  std::string error;
  const std::optional<grid_map> g = load_map(path, &error);
  if (!g) throw failure(error);
  cell_grid cells(g->width(), g->height());
  for (int y = 0; y < g->height(); ++y)
    for (int x = 0; x < g->width(); ++x) cells.set(x, y, g->blocked(x, y));
  return cells;
}

// The scenario's start and goal cells; every query must be for the map's size (the loader
// holds them inside the size the line states), and one at least must have both ends free
// on the map as loaded.
std::vector<std::pair<point, point>> load_queries(const std::string& path, const std::string& map_path,
                                                  const cell_grid& map) {
  std::string error;
  const std::optional<scenario> scen = load_scenario(path, &error);
  if (!scen) throw failure(error);
  if (scen->queries.empty()) throw failure(path + ": holds no query");
  std::vector<std::pair<point, point>> out;
  bool any_free = false;
  for (const scenario_query& q : scen->queries) {
    if (q.map_width != map.width || q.map_height != map.height)
      throw failure(path + ":" + std::to_string(q.line) + ": the query is for a " +
                    size_text(q.map_width, q.map_height) + " map, but " + map_path + " is " +
                    size_text(map.width, map.height));
    any_free = any_free || (!map.at(q.start.x, q.start.y) && !map.at(q.goal.x, q.goal.y));
    out.emplace_back(q.start, q.goal);
  }
  if (!any_free) throw failure(path + ": no query has both ends free on " + map_path);
  return out;
}

// --out DIR/NAME (a trailing .scen is dropped): DIR/NAME.scen and DIR/NAME.patch.
std::string output_stem(const std::string& out) {
  const std::filesystem::path p(out);
  if (p.filename().empty() || p.filename() == "." || p.filename() == "..")
    throw usage_error("--out " + out + ": expected DIR/NAME, the scenario's name");
  return p.extension() == ".scen" ? (p.parent_path() / p.stem()).string() : out;
}

int run_dynamic(const dynamic_args& a) {
  dynamic_settings s;
  s.seed = a.seed;
  s.rounds = a.rounds;
  s.changes = a.changes;
  s.queries = a.queries;
  s.scale = a.scale;
  s.switch_every = a.switch_every;
  parse_kinds(a.kinds, &s);
  parse_range(a.door_length, "--door-length", 1024, &s.door_min, &s.door_max);
  parse_range(a.building_size, "--building-size", 1024, &s.building_min, &s.building_max);
  parse_range(a.region_size, "--region-size", 1024, &s.region_min, &s.region_max);
  if (s.switches && !a.switch_to) throw usage_error("--kinds switch needs --switch-to OTHER.map");
  if (!s.switches && a.switch_to) throw usage_error("--switch-to needs switch in --kinds");
  const std::string stem = output_stem(a.out);
  const std::string scen_path = stem + ".scen", patch_path = stem + ".patch";
  check_output_path("--out", scen_path);  // now, not after the references have been computed
  check_output_path("--out", patch_path);

  const cell_grid map = load_cells(a.map);
  if (static_cast<long long>(map.width) * a.scale > kMaxWrittenSide ||
      static_cast<long long>(map.height) * a.scale > kMaxWrittenSide)
    throw usage_error("--scale " + std::to_string(a.scale) + ": " + a.map + " (" + size_text(map.width, map.height) +
                      ") would be " + size_text(map.width * a.scale, map.height * a.scale) +
                      ", over the start kit's limit of " + std::to_string(kMaxWrittenSide) + " cells a side");
  cell_grid other;
  if (a.switch_to) {
    other = load_cells(*a.switch_to);
    if (other.width != map.width || other.height != map.height)
      throw failure(*a.switch_to + ": is " + size_text(other.width, other.height) + ", but --switch-to needs the size of " +
                    a.map + ", " + size_text(map.width, map.height));
  }
  const std::vector<std::pair<point, point>> queries = load_queries(a.scen, a.map, map);

  const auto t0 = std::chrono::steady_clock::now();
  const dynamic_scenario d = make_dynamic_scenario(map, a.switch_to ? &other : nullptr, queries, s);
  const std::string patch_name = std::filesystem::path(patch_path).filename().string();
  const std::string scen_text = dynamic_scen_text(d, patch_name), patch_text = dynamic_patch_text(d);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // The patch first: a .scen never names a patch file older than itself.
  {
    atomic_output patch_out("--out", patch_path), scen_out("--out", scen_path);
    patch_out.write(patch_text);
    scen_out.write(scen_text);
    patch_out.commit();
    scen_out.commit();
  }
  const std::size_t placements = d.commands.size() - static_cast<std::size_t>(d.queries);
  std::printf("wrote %s: %s, states 0 to %d, %d queries (%d without a path)\n", scen_path.c_str(),
              size_text(d.width * d.scale, d.height * d.scale).c_str(), s.rounds, d.queries, d.no_path);
  std::printf("wrote %s: %zu patches, %zu placed: the map, %d doors, %d buildings, %d regions, %d switches, %d lifts\n",
              patch_path.c_str(), d.patches.size(), placements, d.doors, d.buildings, d.regions, d.switches, d.lifts);
  if (d.unplaced > 0)
    std::printf("note: %d changes found no place on the map and were left out\n", d.unplaced);
  std::printf("generated in %.2f s (reference costs included)\n", seconds);
  return kExitOk;
}

}  // namespace

void add_dynamic_command(CLI::App& app, command_action& chosen) {
  auto a = std::make_shared<dynamic_args>();
  auto* cmd = app.add_subcommand("dynamic", "Write a dynamic scenario (GPPC dynamic track, X.scen + X.patch) from a map");
  cmd->add_option("map", a->map, "Moving AI .map file")->required();
  cmd->add_option("--scen,-s", a->scen, "The map's Moving AI .scen file: the queries")->required();
  cmd->add_option("--out,-o", a->out, "DIR/NAME: writes DIR/NAME.scen and DIR/NAME.patch (atomically)")->required();
  cmd->add_option("--seed", a->seed, "Seed of the changes and of the queries' order")
      ->check(whole_number(0, UINT64_MAX))
      ->capture_default_str();
  cmd->add_option("--rounds", a->rounds, "Rounds of changes, each followed by queries (0: the map alone)")
      ->check(whole_number(0, 100'000))
      ->capture_default_str();
  cmd->add_option("--changes", a->changes, "Changes a round")->check(whole_number(1, 100'000))->capture_default_str();
  cmd->add_option("--queries", a->queries, "Queries after the map and after each round")
      ->check(whole_number(1, 1'000'000))
      ->capture_default_str();
  cmd->add_option("--kinds", a->kinds, "Kinds of change: doors, buildings, regions, switch (comma-separated)")
      ->capture_default_str();
  cmd->add_option("--switch-to", a->switch_to, "With --kinds switch: the map switched to, of MAP's size");
  cmd->add_option("--switch-every", a->switch_every, "With --kinds switch: switch at every R-th round")
      ->check(whole_number(1, 100'000))
      ->capture_default_str();
  cmd->add_option("--scale", a->scale, "Draw every cell N x N and multiply the coordinates by N")
      ->check(whole_number(1, kMaxWrittenSide))
      ->capture_default_str();
  cmd->add_option("--door-length", a->door_length, "Cells in a door, MIN-MAX")->capture_default_str();
  cmd->add_option("--building-size", a->building_size, "Cells a side of a building, MIN-MAX")->capture_default_str();
  cmd->add_option("--region-size", a->region_size, "Cells a side of a region, MIN-MAX")->capture_default_str();
  cmd->footer(kDynamicFooter);
  cmd->callback([a, &chosen] { chosen = [a] { return run_dynamic(*a); }; });
}

}  // namespace lddb::cli
