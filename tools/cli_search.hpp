// tools/cli_search.hpp: what the search subcommands (solve, bench, render, demo) share.
//
// Choosing an algorithm, a rule and a database from the command line (with the defaults
// and the mismatch errors every command must agree on), running one query with the
// search timed apart from everything else, checking its path with the independent
// checker (lddb/checker.hpp), and drawing maps and paths as SVG.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "cli_options.hpp"
#include "lddb/checker.hpp"
#include "lddb/data_dir.hpp"
#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/landmarks.hpp"
#include "lddb/prepare.hpp"
#include "lddb/search.hpp"

namespace lddb::cli {

// ----------------------------------------------------------------------------- set-up

// The help text of the search commands (solve, bench, render) on algorithms, rules,
// databases and points.
extern const char* const kSearchRulesHelp;

// find-path (the default) runs lddb::find_path, the search the map's preparation chose;
// each other name runs that search alone.
enum class algorithm : std::uint8_t { find_path, block_astar, astar, jps, theta, lazy_theta };
const char* algorithm_name(algorithm a);
// "find-path", "block-astar", "astar", "jps", "theta", "lazy-theta"; throws usage_error naming `option`.
algorithm parse_algorithm(const std::string& text, const std::string& option);
// Does it search with a database (find-path, block-astar)?
constexpr bool uses_database(algorithm a) { return a == algorithm::find_path || a == algorithm::block_astar; }
// "X,Y" (spaces allowed around the numbers); throws usage_error naming `option`.
point parse_point(const std::string& text, const std::string& option);

// The folder of shipped databases, in the order of lddb/data_dir.hpp ($LDDB_DATA_DIR, the
// program's ../share/lddb, liblddb's, the install's, the source tree's for a build tree).
std::string default_data_dir();

// An algorithm with its rule, database and heuristic, resolved from the options:
//  - the rule comes from --lddb when given (and --rule must then agree), else --rule, else
//    octile (any-angle for theta and lazy-theta);
//  - find-path and block-astar open --lddb, else the shipped <data dir>/<rule>-4.lddb;
//  - astar needs a cell rule (tile, octile), theta and lazy-theta any-angle.
// Throws usage_error for a wrong combination and failure for a missing or bad database.
// The search options of the command line, one per row of lddb/option_table.hpp
// (add_search_options): each option's text, or for a flag whether its on or off name was given.
struct search_option_args {
  std::map<std::string, std::optional<std::string>> text;
  std::map<std::string, bool> on, off;
};
// Adds --<tool> (and a flag's --<tool_off>) for every row of the table that has one.
void add_search_options(CLI::App* cmd, search_option_args& args);
// The options given, each checked by the table under rule r; throws usage_error naming the
// option (--size 9 is outside 0..8 ...) and for a flag given both on and off.
search_options read_search_options(const search_option_args& args, const rule& r);

struct search_setup {
  algorithm algo = algorithm::find_path;
  rule movement;
  std::shared_ptr<const database> db;  // find-path and block-astar only
  std::string db_path;
  search_options options;  // from the command line's search options (add_search_options)
  bool prepare = true;        // lddb::prepare each map (--no-prepare: not)
  std::optional<int> landmarks{};  // --landmarks: instead of the preparation's count (0: none)
  bool tile_bounds = false;        // --landmark-tiles: landmark bounds per tile (prepare_options::tile_bounds)
  landmark_placement placement = landmark_placement::farthest;
  // Does the unit move on the map itself (a one-cell unit, a point for any-angle, of the
  // ground class)? Then the scenarios' optima apply to it.
  bool default_unit() const;
  std::string label() const;  // "find-path (octile)", "block-astar (any-angle, fixed blocks, weight 1.5)"
  bool smoothed() const { return smooths(options, movement); }  // are the paths smoothed?
  const lddb::unit& unit() const { return options.unit; }
  heuristic_kind heuristic() const { return heuristic_for(options, movement); }
};
struct setup_options {
  std::optional<std::string> rule_text, lddb;
  search_option_args search;               // --heuristic, --weight, --smooth, --size...
  std::optional<int> landmarks{};          // --landmarks
  std::optional<std::string> placement{};  // --landmark-placement
  bool tile_bounds = false;                // --landmark-tiles
  bool no_prepare = false;                 // --no-prepare
};
// Throws usage_error also for a --heuristic not admissible for the rule (whatever the
// weight: search_options::heuristic says why) and for --smooth with --raw.
search_setup make_setup(algorithm algo, const setup_options& options);
// The block size a map must have for this search (the database's, else 4).
int block_size_for(const search_setup& s);

// "size 2, class .GS"; size 0 is shown as 1 under tile and octile (the same unit) and as
// "0 (a point)" under any-angle.
std::string unit_text(const lddb::rule& r, const lddb::unit& u);

// The options --no-prepare, --landmarks K, --landmark-tiles and --landmark-placement, on a
// search command.
void add_prepare_options(CLI::App* cmd, setup_options& o);
// Prepares one map for the setup's rule (lddb/prepare.hpp), all of it before it returns,
// as the setup asks: by default what the measured rules choose, with --landmarks K that
// many landmarks; with --no-prepare nothing (unless --landmarks K: then only those, and
// the rule's default squares). nullopt when nothing was prepared. The report holds the
// wall time and the bytes.
std::optional<preparation_report> prepare_map(const search_setup& s, grid_map& map);

// Opens a database or throws failure naming it.
std::shared_ptr<const database> open_database(const std::string& path);
// Loads a map or throws failure naming the file and line.
grid_map load_map_or_fail(const std::string& path, int block);

// Is `p` a usable start/goal for the rule on this map? Empty when it is, else why
// ("(3,4) is blocked", "(600,2) is off the 512x512 map"). For a unit other than the one-cell
// ground unit, asked of the map as the unit sees it (unit_view): where its square fits.
std::string endpoint_problem(const rule& r, const grid_map& map, point p, const lddb::unit& u = {});
// Can the unit not stand at a scenario's start or goal cell? Its max(size, 1) square of cells
// from `p` is not all open to its class, or (any-angle) endpoint_problem says no to the vertex.
// For the default unit: the cell is blocked.
bool unit_cannot_stand(const rule& r, const grid_map& map, point p, const lddb::unit& u);

// ----------------------------------------------------------------------------- one query

struct query_run {
  search_result result;       // as the search returned it (smoothed when the setup's smooth says)
  std::vector<point> path;    // result.path, the path reported
  // The rule's cost of `path` as the checker recomputes it when valid, else path_length;
  // equal to the Euclidean length but for octile rules with another diagonal cost.
  double length = 0;
  std::uint64_t search_ns = 0;  // the search call alone (smoothing included: the library does it)
  check_result check;         // of `path`; valid is false when no path was found
  std::size_t state_bytes = 0;  // ctx.memory_bytes() right after the search
  // search_ns is one call (1), or the median of this many warm runs (run_query_warm).
  int timed_runs = 1;
  // Block A* handed the query to jump point search (the map's preparation chose it):
  // result.expanded holds cells, not blocks.
  bool jumps = false;
};
query_run run_query(const search_setup& s, const grid_map& map, point start, point goal, search_context& ctx,
                    bool record_expanded = false, const landmark_set* landmarks = nullptr);
// run_query in two steps, for callers that reuse their query_runs (the result's vectors
// keep their capacity) or run the steps on several threads: run_search makes the timed
// search call alone (result, search_ns, state_bytes); finish_query then checks the path
// (path, length, check).
void run_search(const search_setup& s, const grid_map& map, point start, point goal, search_context& ctx,
                query_run& q, bool record_expanded = false, const landmark_set* landmarks = nullptr);
void finish_query(const search_setup& s, const grid_map& map, point start, point goal, query_run& q);

// What solve and render report: a warm query's time, as a game's frames see it (and as
// `lddb bench` measures). The context is reserved for the map (search_context::reserve),
// the query runs once untimed, then kWarmRuns times timed; search_ns is the median of
// those, timed_runs kWarmRuns; then finish_query. A first, cold query also pays for growing
// the context and building the map's component labels (docs/benchmarks.md, "First query").
constexpr int kWarmRuns = 9;
query_run run_query_warm(const search_setup& s, const grid_map& map, point start, point goal, search_context& ctx,
                         const landmark_set* landmarks = nullptr);
// "312.4 µs (median of 9 warm runs)", or "312.4 µs" for one call.
std::string time_text(const query_run& q);

// ----------------------------------------------------------------------------- output

// Text made safe for SVG/XML: & < > " as entities.
std::string xml_escape(const std::string& s);

// "(3,4)" (the checker's); "(1,2) (3,4) ..." for a list.
using checker::point_text;
std::string points_text(const std::vector<point>& pts);
// A length with 4 decimals, "-" for none.
std::string format_length(double v);
std::string format_fixed(double v, int decimals);

// Writes `content` to "<path>.tmp-<pid>" and renames it over `path`; throws failure
// naming the file.
void write_file_atomically(const std::string& path, const std::string& content);

// An SVG picture of a map with the searches drawn on it. A search of a unit other than the
// default draws the unit's square (its footprint) at each point of its path, and its path
// through the square's centre.
struct svg_search {
  std::string label;            // e.g. "block-astar (any-angle)"
  const search_setup* setup = nullptr;
  const query_run* run = nullptr;
};
struct svg_picture {
  const grid_map* map = nullptr;
  std::string title;
  std::optional<point> start, goal;
  bool vertices = false;        // start and goal are corners (any-angle) rather than cells
  int block_lines = 0;          // draw block boundaries every this many cells (0: none)
  // The cells drawn dark: those closed to this class (the searches' units'), the map's
  // blocked cells for ground.
  movement_class terrain = movement_class::ground();
  std::vector<svg_search> searches;
};
std::string render_svg(const svg_picture& picture);

}  // namespace lddb::cli
