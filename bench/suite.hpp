// bench/suite.hpp: `lddb-bench suite paper`, the paper's benchmark (Yap et al., AAAI 2011).
//
// Table 1 (random maps with 0-50% obstacles), Table 2 (a large empty map, zero heuristic)
// and every folder of benchmark maps with its scenario queries, each comparing octile A*,
// Theta*, Lazy Theta* and any-angle Block A*; on the benchmark maps also tile and octile
// Block A* against A* of the same rule. The pieces:
//   suite_workloads.cpp  random maps' connected pairs, the scenario files and their maps
//   suite_runner.cpp     running and timing the searches, checking every path
//   suite_report.cpp     the Markdown tables and splicing them into a document
//   suite_chart.cpp      the SVG bar chart
//   suite_run.cpp        run_suite: the whole run, from the options to the outputs
#pragma once

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli_search.hpp"
#include "lddb/scenario.hpp"

namespace lddb::cli {

inline constexpr const char* kBeginMarker = "<!-- suite:begin -->";
inline constexpr const char* kEndMarker = "<!-- suite:end -->";
inline constexpr int kBlockSide = 4;  // the shipped databases' block size
inline constexpr const char* kSuiteCommand = "lddb-bench suite paper";

struct suite_args {
  static constexpr std::uint64_t kDefaultLimit = 2000;  // queries per scenario file
  std::string suite;                                  // "paper"
  std::optional<std::string> maps;                    // default: <source tree>/../shared/maps
  std::optional<std::string> doc, svg;                // none: the tables on stdout, no chart
  std::optional<std::uint64_t> limit;                 // per scenario file, evenly spaced; 0 = all
  std::uint64_t seed = 2011;
  int random_side = 500, empty_side = 1000, maps_per_density = 5;
  std::uint64_t pairs = 100, empty_pairs = 100;  // per random map; on the empty map (0 skips a table)
  std::string densities = "0,10,20,30,40,50";
  std::string astar_heuristic = "euclidean";  // A* in the any-angle comparison (the paper's)
  // Any-angle Block A*'s database; its rule is every any-angle search's (default: the
  // shipped any-angle-4.lddb, the default rule).
  std::optional<std::string> any_angle_lddb;
  std::size_t chunk = 64;  // queries each algorithm runs in turn (1: every query by every algorithm in turn)
};
int run_suite(const suite_args& args);

// Progress on stderr: "suite: ..." and a newline.
void progress(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// ----------------------------------------------------------------------------- statistics

struct stats {
  std::uint64_t queries = 0, found = 0, invalid = 0;
  double length = 0, expanded = 0, ns = 0;
  void add(const query_run& r) {
    ++queries;
    expanded += static_cast<double>(r.result.stats.expanded);
    ns += static_cast<double>(r.search_ns);
    if (r.result.found()) {
      ++found;
      if (r.check.valid)
        length += r.length;
      else
        ++invalid;
    }
  }
  void merge(const stats& o) {
    queries += o.queries;
    found += o.found;
    invalid += o.invalid;
    length += o.length;
    expanded += o.expanded;
    ns += o.ns;
  }
  std::uint64_t valid() const { return found - invalid; }
  double mean_length() const { return valid() ? length / static_cast<double>(valid()) : NAN; }
  double mean_expanded() const { return queries ? expanded / static_cast<double>(queries) : NAN; }
  double mean_ms() const { return queries ? ns / static_cast<double>(queries) / 1e6 : NAN; }
};

// The any-angle comparison: octile A*, Theta*, Lazy Theta*, any-angle Block A*.
enum { kAstar, kTheta, kLazy, kBlock, kAnyCount };
inline const char* const kAnyNames[kAnyCount] = {"A* (octile)", "Theta*", "Lazy Theta*", "Block A*"};

struct any_group {
  std::string name;
  std::uint64_t file_queries = 0;  // scenario maps: queries in the files, before --limit
  stats s[kAnyCount];
  stats smoothed;                                                     // Block A*'s paths after smooth_path (untimed)
  std::uint64_t block_longer = 0, theta_longer = 0, lazy_longer = 0;  // than octile A*'s path
  void merge(const any_group& o) {
    file_queries += o.file_queries;
    for (int k = 0; k < kAnyCount; ++k) s[k].merge(o.s[k]);
    smoothed.merge(o.smoothed);
    block_longer += o.block_longer;
    theta_longer += o.theta_longer;
    lazy_longer += o.lazy_longer;
  }
  // How many times faster Block A* is than algorithm k; Block A*'s length against Theta*'s.
  double speedup(int k) const { return s[k].mean_ms() / s[kBlock].mean_ms(); }
  double vs_theta(const stats& x) const { return x.mean_length() / s[kTheta].mean_length() - 1; }
};

// Tile and octile: A* and Block A* of the same rule.
enum { kTileA, kTileB, kOctA, kOctB, kCellCount };
struct cell_group {
  std::string name;
  stats s[kCellCount];
  std::uint64_t tile_mismatch = 0, octile_mismatch = 0;
  void merge(const cell_group& o) {
    for (int k = 0; k < kCellCount; ++k) s[k].merge(o.s[k]);
    tile_mismatch += o.tile_mismatch;
    octile_mismatch += o.octile_mismatch;
  }
};

// One query of a comparison, with where it comes from for messages.
struct query_spec {
  point start, goal;
  std::string where;
};

// ----------------------------------------------------------------------------- workloads

// Start/goal pairs of a generated map as queries, named for messages.
std::vector<query_spec> pair_queries(const std::vector<std::pair<point, point>>& pairs, const std::string& what);

// A seed for one thing (a map, its queries) derived from the run's seed and its indices.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0);

// `count` pairs of distinct free cells, drawn uniformly and kept only when connected: uniform
// over the connected pairs. Throws failure naming `what` when too few cells are connected.
std::vector<std::pair<point, point>> connected_pairs(const grid_map& map, std::uint64_t seed, std::uint64_t count,
                                                     const std::string& what);

// One scenario file: its queries to run and its map, loaded once per map file.
struct scen_job {
  std::string folder, file, map_path, map_name;
  std::shared_ptr<const grid_map> map;
  std::vector<scenario_query> queries;  // the ones to run
  std::uint64_t file_queries = 0;
};

// Every *.scen below `root`, grouped by the first folder under it (files directly in
// `root` form a group named after it), each checked and its map loaded before any search.
// At most `limit` queries of each file, evenly spaced (0: all).
std::vector<scen_job> plan_scenarios(const std::filesystem::path& root, std::uint64_t limit);

// "0,10,20" -> {0, 10, 20}; throws usage_error naming --densities.
std::vector<int> parse_densities(const std::string& text);

// ----------------------------------------------------------------------------- the runs

// Runs the comparisons on one thread with one search_context, in chunks: each algorithm runs
// a chunk's queries in turn (timed), then every path of the chunk is checked.
class runner {
 public:
  explicit runner(std::size_t chunk) : chunk_(chunk > 1 ? chunk : 1) {}
  std::uint64_t problem_count = 0;
  std::vector<std::string> problems;  // the first few, for the document and stderr
  search_context ctx;

  // The any-angle comparison on `queries`: A* from cell s to cell g, the any-angle searches
  // between their top-left corners (the same coordinates).
  void any_angle(const search_setup* const setups[kAnyCount], const grid_map& map, const std::vector<query_spec>& queries,
                 any_group& into);
  // Tile and octile Block A* against A* on `queries`: the lengths must be equal.
  void cells(const search_setup* const setups[kCellCount], const grid_map& map, const std::vector<query_spec>& queries,
             cell_group& into);

 private:
  void warm_up(const search_setup* const* setups, int count, const grid_map& map, point s, point g);
  void problem(const std::string& what);
  template <typename Judge>
  void in_chunks(const search_setup* const* setups, int count, const grid_map& map, const std::vector<query_spec>& queries,
                 Judge judge);
  void judge_any_angle(const search_setup* const setups[kAnyCount], const grid_map& map, const query_spec& q,
                       query_run* r, any_group& into);
  void judge_cells(const query_spec& q, query_run* r, cell_group& into);

  const grid_map* warm_map_ = nullptr;
  int warm_width_ = 0, warm_height_ = 0;
  std::vector<const search_setup* const*> warmed_;  // the groups warmed up on warm_map_
  std::size_t chunk_;
  std::vector<query_run> runs_;  // a chunk's runs, query-major; reused, so their vectors keep their capacity
};

// ----------------------------------------------------------------------------- the report

struct report {
  std::vector<int> densities;
  std::vector<any_group> table1;
  std::optional<any_group> table2;
  std::string maps_dir;
  std::string maps_note;  // why the scenario maps were skipped; empty when they ran
  std::vector<any_group> folder_any, map_any;
  std::vector<cell_group> folder_cell, map_cell;
  std::vector<std::string> map_folder;  // the folder of each map row
  std::uint64_t limit = 0;
};

struct run_facts {
  std::string command, date, machine, load, build, databases, seed, duration;
};

// The document's region: the tables between kBeginMarker and kEndMarker (both included);
// `svg_link` (empty: none) is the chart as the document links it. With a.doc set, the
// summary tables only (what the document keeps); without, the full tables as well (every
// algorithm's figures per density, the empty map, each folder and each map), for stdout.
std::string build_region(const report& rep, const run_facts& info, const suite_args& a, const std::string& svg_link,
                         const runner& run);

// The document's text; empty when it does not exist yet.
std::string read_doc(const std::string& doc);
// `text` with the region between the marker lines replaced by `region` (which carries
// the markers), or with the region appended when the file has none; throws failure
// naming --doc `doc` when the markers are out of order.
std::string splice_region(const std::string& text, const std::string& region, const std::string& doc);

// A time in milliseconds with about three significant digits; "-" for none.
std::string format_ms(double ms);
// "9.5 s", "3 min 12 s".
std::string format_seconds(double s);

// ----------------------------------------------------------------------------- the chart

struct chart_group {
  std::string label, sublabel;
  std::vector<double> ms;    // one per series; NaN: none
  bool new_section = false;  // a faint line before it: Table 1 | Table 2 | the maps
  bool shared_sublabel = false;  // one sublabel for the run of such groups (Table 1's densities)
};
struct chart_panel {
  std::string title;
  std::vector<std::string> series;
  std::vector<chart_group> groups;
};

// Grouped bars of the mean time per query, one panel under the other, log-scale axes.
std::string chart_svg(const std::string& title, const std::vector<chart_panel>& panels, const std::string& note);

}  // namespace lddb::cli
