// tools/cmd_suite.cpp: `lddb bench --suite paper`: the paper's benchmark in one command.
//
// Yap et al. (AAAI 2011) compare Block A* with A* and Theta* in two tables: Table 1 on
// random 500x500 maps with 0% to 50% obstacles and on game maps, Table 2 on an empty
// 1000x1000 map with the zero heuristic. This command runs the same comparisons (adding
// Lazy Theta*), then every folder of the benchmark maps with its scenario queries, where it
// also sets tile and octile Block A* against A* of the same rule. It writes the tables into
// a Markdown document (between the lines `<!-- suite:begin -->` and `<!-- suite:end -->`,
// so hand-written text around them survives) and a bar chart as SVG.
//
// Everything runs in this process on one thread with one search_context. The queries go in
// chunks (--chunk, 64): each algorithm runs the chunk's queries in turn, so the algorithms
// share any drift in the machine's load, while each runs warm, one query after another, as
// a game's pathfinder does. Only the search call is timed (run_search in cli_search.cpp, as
// `lddb bench` does); the independent checker sees every path after the chunk's searches.
// Random maps and queries come from our own integer PRNG, so a seed gives the same maps and
// queries on every platform.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <thread>

#include "cli_search.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/scenario.hpp"
#include "lddb/splitmix.hpp"

namespace lddb::cli {

namespace {

namespace fs = std::filesystem;
using steady = std::chrono::steady_clock;

constexpr const char* kBeginMarker = "<!-- suite:begin -->";
constexpr const char* kEndMarker = "<!-- suite:end -->";
constexpr int kBlockSide = 4;  // the shipped databases' block size

// ----------------------------------------------------------------------------- small helpers

// A seed for one thing (a map, its queries) derived from the run's seed and its indices.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0) {
  std::uint64_t s = seed;
  for (std::uint64_t v : {a, b, c}) {
    s ^= v + 0x632BE59BD9B4E019ull;
    splitmix64(s);
  }
  return splitmix64(s);
}

// Uniform in [0, n) without modulo bias.
std::uint64_t uniform(std::uint64_t& state, std::uint64_t n) {
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  for (;;) {
    const std::uint64_t v = splitmix64(state);
    if (v < limit) return v % n;
  }
}

// A time in milliseconds with about three significant digits.
std::string format_ms(double ms) {
  if (!std::isfinite(ms)) return "-";
  if (ms >= 100) return format_fixed(ms, 0);
  if (ms >= 10) return format_fixed(ms, 1);
  if (ms >= 1) return format_fixed(ms, 2);
  return format_fixed(ms, 3);
}

std::string format_ratio(double r) { return std::isfinite(r) ? format_fixed(r, 2) + "\u00d7" : "-"; }

std::string format_percent(double fraction) {
  if (!std::isfinite(fraction)) return "-";
  std::string v = format_fixed(fraction * 100, 2);
  if (v == "-0.00") v = "0.00";
  return (v[0] == '-' ? "" : "+") + v + "%";
}

std::string format_seconds(double s) {
  if (s < 60) return format_fixed(s, 1) + " s";
  const long total = std::lround(s);
  return std::to_string(total / 60) + " min " + std::to_string(total % 60) + " s";
}

std::string svg_num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  std::string s = buf;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

std::string md_row(const std::vector<std::string>& cells) {
  std::string s = "|";
  for (const std::string& c : cells) s += " " + c + " |";
  return s + "\n";
}

std::string md_heading(const std::vector<std::string>& cells) {
  std::string s = md_row(cells) + "|";
  for (std::size_t k = 0; k < cells.size(); ++k) s += "---|";
  return s + "\n";
}

// The source tree: the parent of the shipped databases' folder.
fs::path source_dir() {
  const fs::path data(built_in_data_dir());
  return data.has_parent_path() ? data.parent_path() : fs::path(".");
}

// This process's command line, shell-quoted where needed, for the document.
std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string out;
  std::size_t start = 0;
  while (start < raw.size()) {
    std::size_t end = raw.find('\0', start);
    if (end == std::string::npos) end = raw.size();
    const std::string arg = raw.substr(start, end - start);
    const bool plain = !arg.empty() && arg.find_first_not_of(
                                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                           "0123456789-_./,:=+%@") == std::string::npos;
    std::string quoted = "'";
    for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += (out.empty() ? "" : " ") + (plain ? arg : quoted + "'");
    start = end + 1;
  }
  return out.empty() ? "lddb bench --suite paper" : out;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos) {
        std::string v = line.substr(colon + 1);
        while (!v.empty() && v.front() == ' ') v.erase(v.begin());
        return v;
      }
    }
  return "unknown CPU";
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one;
  in >> one;
  return one.empty() ? "unknown" : one;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
  return buf;
}

std::string compiler() {
#if defined(__clang__)
  return std::string("clang++ ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("g++ ") + __VERSION__;
#else
  return "unknown compiler";
#endif
}

void progress(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void progress(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::fputs("suite: ", stderr);
  std::vfprintf(stderr, fmt, ap);
  std::fputc('\n', stderr);
  va_end(ap);
}

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
const char* const kAnyNames[kAnyCount] = {"A* (octile)", "Theta*", "Lazy Theta*", "Block A*"};

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

// The paper's figures (Table 1 and Table 2): distance, expanded, seconds per query.
struct paper_row {
  double astar[3], theta[3], block[3];
};
std::optional<paper_row> paper_random(int percent) {
  switch (percent) {
    case 0:
      return paper_row{{274.7, 14957, 0.00481}, {260.8, 918, 0.00650}, {261.8, 638, 0.00103}};
    case 10:
      return paper_row{{275.3, 15039, 0.00489}, {261.6, 4439, 0.00417}, {262.5, 845, 0.00140}};
    case 20:
      return paper_row{{276.4, 15351, 0.00499}, {263.3, 6229, 0.00494}, {264.3, 1159, 0.00185}};
    case 30:
      return paper_row{{277.5, 15889, 0.00518}, {265.4, 8536, 0.00632}, {266.6, 1617, 0.00240}};
    case 40:
      return paper_row{{282.7, 18025, 0.00584}, {271.5, 12603, 0.00904}, {273.0, 2407, 0.00315}};
    case 50:
      return paper_row{{296.9, 26146, 0.00825}, {286.2, 22721, 0.01484}, {287.8, 4476, 0.00468}};
    default:
      return std::nullopt;
  }
}
const paper_row kPaperTable2{{518.3, 478457, 0.38}, {491.3, 478096, 22.57}, {493.1, 30032, 0.04}};
const paper_row kPaperBG2{{248.7, 10796, 0.00334}, {237.2, 7043, 0.01796}, {238.0, 1034, 0.00147}};
const paper_row kPaperDAO{{409.0, 15465, 0.00478}, {392.3, 14478, 0.02697}, {393.9, 1709, 0.00226}};

// ----------------------------------------------------------------------------- the runs

// One query of a comparison, with where it comes from for messages.
struct query_spec {
  point start, goal;
  std::string where;
};

// Start/goal pairs of a generated map as queries, named for messages.
std::vector<query_spec> pair_queries(const std::vector<std::pair<point, point>>& pairs, const std::string& what) {
  std::vector<query_spec> out;
  for (std::size_t q = 0; q < pairs.size(); ++q)
    out.push_back({pairs[q].first, pairs[q].second,
                   what + " pair " + std::to_string(q) + " " + point_text(pairs[q].first) + "-" + point_text(pairs[q].second)});
  return out;
}

class runner {
 public:
  explicit runner(std::size_t chunk) : chunk_(std::max<std::size_t>(chunk, 1)) {}
  std::uint64_t problem_count = 0;
  std::vector<std::string> problems;  // the first few, for the document and stderr
  search_context ctx;

  // One untimed run of every search of a group (`setups`: the any-angle or the cell
  // searches) on the first query it gets on each map, so that no timed query pays for the
  // context growing to a new map's size (A*'s per-cell arrays).
  void warm_up(const search_setup* const* setups, int count, const grid_map& map, point s, point g) {
    if (&map != warm_map_ || map.width() != warm_width_ || map.height() != warm_height_) {
      warm_map_ = &map;
      warm_width_ = map.width();
      warm_height_ = map.height();
      warmed_.clear();
    }
    if (std::find(warmed_.begin(), warmed_.end(), setups) != warmed_.end()) return;
    for (int k = 0; k < count; ++k) (void)run_query(*setups[k], map, s, g, ctx);
    warmed_.push_back(setups);
  }

  void problem(const std::string& what) {
    ++problem_count;
    if (problems.size() < 12) problems.push_back(what);
  }

  // The any-angle comparison on `queries`: A* from cell s to cell g, the any-angle searches
  // between their top-left corners (the same coordinates).
  void any_angle(const search_setup* const setups[kAnyCount], const grid_map& map, const std::vector<query_spec>& queries,
                 any_group& into) {
    in_chunks(setups, kAnyCount, map, queries, [&](const query_spec& q, query_run* r) { any_angle(setups, map, q, r, into); });
  }

  // Tile and octile Block A* against A* on `queries`: the lengths must be equal.
  void cells(const search_setup* const setups[kCellCount], const grid_map& map, const std::vector<query_spec>& queries,
             cell_group& into) {
    in_chunks(setups, kCellCount, map, queries, [&](const query_spec& q, query_run* r) { cells(q, r, into); });
  }

 private:
  // Runs `count` searches on the queries, a chunk at a time: every search runs the chunk's
  // queries in turn (timed), then `judge` gets each query's runs, checked.
  template <typename Judge>
  void in_chunks(const search_setup* const* setups, int count, const grid_map& map, const std::vector<query_spec>& queries,
                 Judge judge) {
    if (queries.empty()) return;
    warm_up(setups, count, map, queries.front().start, queries.front().goal);
    runs_.resize(chunk_ * static_cast<std::size_t>(count));
    for (std::size_t first = 0; first < queries.size(); first += chunk_) {
      const std::size_t n = std::min(chunk_, queries.size() - first);
      for (int k = 0; k < count; ++k)
        for (std::size_t i = 0; i < n; ++i) {
          const query_spec& q = queries[first + i];
          run_search(*setups[k], map, q.start, q.goal, ctx, runs_[i * static_cast<std::size_t>(count) + static_cast<std::size_t>(k)]);
        }
      for (std::size_t i = 0; i < n; ++i) {
        const query_spec& q = queries[first + i];
        query_run* r = &runs_[i * static_cast<std::size_t>(count)];
        for (int k = 0; k < count; ++k) finish_query(*setups[k], map, q.start, q.goal, r[k]);
        judge(q, r);
      }
    }
  }

  void any_angle(const search_setup* const setups[kAnyCount], const grid_map& map, const query_spec& q, query_run* r,
                 any_group& into) {
    const point s = q.start, g = q.goal;
    const std::string& where = q.where;
    for (int k = 0; k < kAnyCount; ++k) {
      into.s[k].add(r[k]);
      if (!r[k].result.found())
        problem(where + ": " + kAnyNames[k] + " found no path (" + search_status_name(r[k].result.status) + ")");
      else if (!r[k].check.valid)
        problem(where + ": " + kAnyNames[k] + " returned an invalid path: " + r[k].check.error);
    }
    auto longer = [&](int k) {
      if (!r[k].check.valid || !r[kAstar].check.valid) return false;
      return r[k].length > r[kAstar].length * (1 + 1e-12) + 1e-6;
    };
    // Any-angle paths include every octile path (shifted to the corners), so Block A*, exact
    // over its database, is never longer than octile A*. Theta* carries no such guarantee:
    // counted and reported, not a failure.
    if (longer(kBlock)) {
      ++into.block_longer;
      problem(where + ": any-angle Block A* length " + format_length(r[kBlock].length) + " exceeds octile A*'s " +
              format_length(r[kAstar].length));
    }
    if (longer(kTheta)) ++into.theta_longer;
    if (longer(kLazy)) ++into.lazy_longer;
    if (r[kBlock].check.valid) {
      query_run sm;
      sm.result.status = search_status::found;
      sm.result.stats = r[kBlock].result.stats;
      const std::vector<point> path = smooth_path(setups[kBlock]->movement, map, r[kBlock].path);
      sm.check = check_path(setups[kBlock]->movement, map, s, g, path);
      sm.length = sm.check.length;
      into.smoothed.add(sm);
      if (!sm.check.valid) problem(where + ": the smoothed Block A* path is invalid: " + sm.check.error);
    }
  }

  void cells(const query_spec& q, query_run* r, cell_group& into) {
    const std::string& where = q.where;
    static const char* const names[kCellCount] = {"tile A*", "tile Block A*", "octile A*", "octile Block A*"};
    for (int k = 0; k < kCellCount; ++k) {
      into.s[k].add(r[k]);
      if (!r[k].result.found())
        problem(where + ": " + names[k] + " found no path (" + search_status_name(r[k].result.status) + ")");
      else if (!r[k].check.valid)
        problem(where + ": " + names[k] + " returned an invalid path: " + r[k].check.error);
    }
    auto differ = [&](int a, int b) {
      if (!r[a].check.valid || !r[b].check.valid) return false;
      return std::abs(r[a].length - r[b].length) > 1e-6 * std::max(1.0, r[a].length);
    };
    if (differ(kTileA, kTileB)) {
      ++into.tile_mismatch;
      problem(where + ": tile Block A* length " + format_length(r[kTileB].length) + " but A* " +
              format_length(r[kTileA].length));
    }
    if (differ(kOctA, kOctB)) {
      ++into.octile_mismatch;
      problem(where + ": octile Block A* length " + format_length(r[kOctB].length) + " but A* " +
              format_length(r[kOctA].length));
    }
  }

  const grid_map* warm_map_ = nullptr;
  int warm_width_ = 0, warm_height_ = 0;
  std::vector<const search_setup* const*> warmed_;  // the groups warmed up on warm_map_
  std::size_t chunk_;
  std::vector<query_run> runs_;  // a chunk's runs, query-major; reused, so their vectors keep their capacity
};

// 4-connected components of the free cells: under the default rules (no corner cutting, no
// squeezing between diagonal obstacles) two free cells are joined by a path, tile, octile or
// any-angle (between their corners), exactly when they are in the same component.
std::vector<std::uint32_t> components(const grid_map& map) {
  const int w = map.width(), h = map.height();
  std::vector<std::uint32_t> label(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
  std::vector<std::uint32_t> stack;
  std::uint32_t next = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x);
      if (map.blocked(x, y) || label[i]) continue;
      label[i] = ++next;
      stack.push_back(static_cast<std::uint32_t>(i));
      while (!stack.empty()) {
        const std::uint32_t c = stack.back();
        stack.pop_back();
        const int cx = static_cast<int>(c % static_cast<std::uint32_t>(w)),
                  cy = static_cast<int>(c / static_cast<std::uint32_t>(w));
        const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
        for (int d = 0; d < 4; ++d) {
          const int nx = cx + dx[d], ny = cy + dy[d];
          if (map.blocked(nx, ny)) continue;  // also off the map
          const std::size_t j =
              static_cast<std::size_t>(ny) * static_cast<std::size_t>(w) + static_cast<std::size_t>(nx);
          if (label[j]) continue;
          label[j] = next;
          stack.push_back(static_cast<std::uint32_t>(j));
        }
      }
    }
  return label;
}

// `count` pairs of distinct free cells, drawn uniformly and kept only when connected: uniform
// over the connected pairs.
std::vector<std::pair<point, point>> connected_pairs(const grid_map& map, std::uint64_t seed, std::uint64_t count,
                                                     const std::string& what) {
  const std::vector<std::uint32_t> label = components(map);
  std::vector<std::uint32_t> free_cells;
  std::vector<double> size(1, 0);
  for (std::size_t i = 0; i < label.size(); ++i)
    if (label[i]) {
      free_cells.push_back(static_cast<std::uint32_t>(i));
      if (label[i] >= size.size()) size.resize(label[i] + 1, 0);
      size[label[i]] += 1;
    }
  // The chance that a random pair is connected; refuse when rejection would take forever.
  const double n = static_cast<double>(free_cells.size());
  double connected = 0;
  for (double c : size) connected += c * (c - 1);
  if (n < 2 || connected / (n * (n - 1)) < 1e-5)
    throw failure(what + ": too few of its free cells are connected to draw random start/goal pairs; use a lower "
                  "obstacle density or a larger map");
  std::vector<std::pair<point, point>> pairs;
  const auto w = static_cast<std::uint32_t>(map.width());
  std::uint64_t state = seed;
  while (pairs.size() < count) {
    const std::uint32_t a = free_cells[uniform(state, free_cells.size())];
    const std::uint32_t b = free_cells[uniform(state, free_cells.size())];
    if (a == b || label[a] != label[b]) continue;
    pairs.push_back({point{static_cast<int>(a % w), static_cast<int>(a / w)},
                     point{static_cast<int>(b % w), static_cast<int>(b / w)}});
  }
  return pairs;
}

// ----------------------------------------------------------------------------- scenario maps

struct scen_job {
  std::string folder, file, map_path, map_name;
  std::shared_ptr<const grid_map> map;
  std::vector<scenario_query> queries;  // the ones to run
  std::uint64_t file_queries = 0;
};

// The queries to run from a file of n: all (limit 0 or >= n), else `limit` evenly spaced
// ones, the middle of each of `limit` equal slices, so every length bucket is represented.
std::vector<std::size_t> spread(std::size_t n, std::uint64_t limit) {
  std::vector<std::size_t> picks;
  if (limit == 0 || limit >= n) {
    for (std::size_t i = 0; i < n; ++i) picks.push_back(i);
    return picks;
  }
  for (std::uint64_t i = 0; i < limit; ++i) picks.push_back(static_cast<std::size_t>((2 * i + 1) * n / (2 * limit)));
  return picks;
}

// "maps" for "maps", "maps/" and "/x/maps/."
std::string folder_name(const fs::path& root) {
  fs::path p = fs::absolute(root).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  return p.filename().empty() ? p.string() : p.filename().string();
}

// Every *.scen below `root`, grouped by the first folder under it (files directly in
// `root` form a group named after it), each checked and its map loaded before any search.
std::vector<scen_job> plan_scenarios(const fs::path& root, std::uint64_t limit) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".scen" && it->is_regular_file(ec)) files.push_back(it->path().string());
  if (ec) throw failure("--maps: " + root.string() + ": cannot list: " + ec.message());
  std::sort(files.begin(), files.end());
  std::vector<scen_job> jobs;
  std::map<std::string, std::shared_ptr<const grid_map>> maps;
  for (const std::string& file : files) {
    std::string error;
    std::optional<scenario> sc = load_scenario(file, &error);
    if (!sc) throw failure(error);
    scen_job job;
    const fs::path rel = fs::path(file).lexically_relative(root);
    job.folder = std::distance(rel.begin(), rel.end()) > 1 ? rel.begin()->string() : folder_name(root);
    job.file = file;
    job.file_queries = sc->queries.size();
    if (sc->queries.empty()) continue;
    for (std::size_t i : spread(sc->queries.size(), limit)) job.queries.push_back(sc->queries[i]);
    job.map_path = sc->resolve_map(sc->queries.front());
    for (const scenario_query& q : job.queries) {
      const std::string where = file + ":" + std::to_string(q.line);
      if (sc->resolve_map(q) != job.map_path)
        throw failure(where + ": the suite expects one map per scenario file, but this line names " + q.map);
    }
    if (!fs::exists(job.map_path, ec))
      throw failure(file + ":" + std::to_string(job.queries.front().line) + ": map " + job.queries.front().map +
                    " not found (looked for " + job.map_path + ")");
    auto& m = maps[job.map_path];
    if (!m) m = std::make_shared<const grid_map>(load_map_or_fail(job.map_path, kBlockSide));
    job.map = m;
    job.map_name = fs::path(job.map_path).filename().string();
    if (job.map_name.size() > 4 && job.map_name.compare(job.map_name.size() - 4, 4, ".map") == 0)
      job.map_name.resize(job.map_name.size() - 4);
    for (const scenario_query& q : job.queries) {
      const std::string where = file + ":" + std::to_string(q.line);
      if (m->width() != q.map_width || m->height() != q.map_height)
        throw failure(where + ": the scenario says the map is " + std::to_string(q.map_width) + "x" +
                      std::to_string(q.map_height) + ", but " + job.map_path + " is " + std::to_string(m->width()) +
                      "x" + std::to_string(m->height()));
      for (point p : {q.start, q.goal})
        if (std::string why = endpoint_problem(rule::octile(), *m, p); !why.empty()) throw failure(where + ": " + why);
    }
    jobs.push_back(std::move(job));
  }
  return jobs;
}

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

const char* const kChartColours[] = {"#4e79a7", "#e15759", "#f28e2b", "#59a14f", "#76b7b2", "#b07aa1"};

// Grouped bars of the mean time per query, one panel under the other, log-scale axes.
std::string chart_svg(const std::string& title, const std::vector<chart_panel>& panels, const std::string& note) {
  const double left = 78, right = 24, bar = 13, gap = 22, plot_h = 250, top_pad = 58, bottom_pad = 56;
  double width = 640;
  for (const chart_panel& p : panels)
    width =
        std::max(width, left + right +
                            static_cast<double>(p.groups.size()) * (static_cast<double>(p.series.size()) * bar + gap));
  const double panel_h = top_pad + plot_h + bottom_pad;
  const double height = 44 + panel_h * static_cast<double>(std::max<std::size_t>(panels.size(), 1)) + 30;
  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + svg_num(width) + "\" height=\"" + svg_num(height) +
       "\" viewBox=\"0 0 " + svg_num(width) + " " + svg_num(height) +
       "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s += "<title>" + xml_escape(title) + "</title>\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  s += "<text x=\"" + svg_num(width / 2) + "\" y=\"26\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">" +
       xml_escape(title) + "</text>\n";
  double y0 = 44;
  if (panels.empty())
    s += "<text x=\"" + svg_num(width / 2) +
         "\" y=\"80\" text-anchor=\"middle\">Nothing was measured (every part of the "
         "suite was skipped).</text>\n";
  for (const chart_panel& p : panels) {
    double lo = INFINITY, hi = -INFINITY;
    for (const chart_group& g : p.groups)
      for (double v : g.ms)
        if (std::isfinite(v) && v > 0) {
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
    if (!std::isfinite(lo)) lo = hi = 1;
    const int dlo = static_cast<int>(std::floor(std::log10(lo))), dhi = static_cast<int>(std::ceil(std::log10(hi * 4)));
    const double plot_top = y0 + top_pad, plot_bottom = plot_top + plot_h;
    auto ypos = [&](double v) { return plot_bottom - (std::log10(v) - dlo) / (dhi - dlo) * plot_h; };
    s += "<g>\n<text x=\"" + svg_num(left) + "\" y=\"" + svg_num(y0 + 18) +
         "\" font-size=\"14\" font-weight=\"bold\">" + xml_escape(p.title) + "</text>\n";
    double lx = left;
    for (std::size_t k = 0; k < p.series.size(); ++k) {
      s += "<rect x=\"" + svg_num(lx) + "\" y=\"" + svg_num(y0 + 28) + "\" width=\"12\" height=\"12\" fill=\"" +
           kChartColours[k % 6] + "\"/>";
      s += "<text x=\"" + svg_num(lx + 16) + "\" y=\"" + svg_num(y0 + 38) + "\">" + xml_escape(p.series[k]) +
           "</text>\n";
      lx += 16 + 7.0 * static_cast<double>(p.series[k].size()) + 22;
    }
    // decades
    for (int d = dlo; d <= dhi; ++d) {
      const double y = ypos(std::pow(10.0, d));
      s += "<line x1=\"" + svg_num(left) + "\" x2=\"" + svg_num(width - right) + "\" y1=\"" + svg_num(y) + "\" y2=\"" +
           svg_num(y) + "\" stroke=\"#d0d0d0\"/>";
      const std::string label = d >= 0 ? format_fixed(std::pow(10.0, d), 0) : format_fixed(std::pow(10.0, d), -d);
      s += "<text x=\"" + svg_num(left - 6) + "\" y=\"" + svg_num(y + 4) + "\" text-anchor=\"end\">" + label +
           "</text>\n";
    }
    s += "<text transform=\"translate(" + svg_num(18) + " " + svg_num((plot_top + plot_bottom) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">ms per query (log scale)</text>\n";
    s += "<line x1=\"" + svg_num(left) + "\" x2=\"" + svg_num(left) + "\" y1=\"" + svg_num(plot_top) + "\" y2=\"" +
         svg_num(plot_bottom) + "\" stroke=\"#333333\"/>";
    s += "<line x1=\"" + svg_num(left) + "\" x2=\"" + svg_num(width - right) + "\" y1=\"" + svg_num(plot_bottom) +
         "\" y2=\"" + svg_num(plot_bottom) + "\" stroke=\"#333333\"/>\n";
    // A shared sublabel ("random 500²" under each density of Table 1) is written once,
    // centred under its run of groups; the others in a smaller font, so that neighbouring
    // ones ("10418 queries") do not run into each other.
    const double group_w = static_cast<double>(p.series.size()) * bar + gap;
    std::vector<std::size_t> run(p.groups.size(), 1);  // groups sharing the sublabel from here on
    for (std::size_t i = p.groups.size(); i-- > 1;)
      if (p.groups[i].shared_sublabel && p.groups[i - 1].shared_sublabel && !p.groups[i].new_section &&
          p.groups[i].sublabel == p.groups[i - 1].sublabel)
        run[i - 1] = run[i] + 1;
    double gx = left + gap / 2;
    for (std::size_t gi = 0; gi < p.groups.size(); ++gi) {
      const chart_group& g = p.groups[gi];
      const bool run_start = gi == 0 || run[gi - 1] == 1;
      if (g.new_section && &g != &p.groups.front())
        s += "<line x1=\"" + svg_num(gx - gap / 2) + "\" x2=\"" + svg_num(gx - gap / 2) + "\" y1=\"" +
             svg_num(plot_top) + "\" y2=\"" + svg_num(plot_bottom + 34) +
             "\" stroke=\"#999999\" stroke-dasharray=\"4 3\"/>\n";
      for (std::size_t k = 0; k < p.series.size(); ++k) {
        const double v = k < g.ms.size() ? g.ms[k] : NAN;
        const double x = gx + static_cast<double>(k) * bar;
        if (!(std::isfinite(v) && v > 0)) continue;
        const double y = std::min(ypos(v), plot_bottom - 1);
        s += "<rect x=\"" + svg_num(x) + "\" y=\"" + svg_num(y) + "\" width=\"" + svg_num(bar - 1) + "\" height=\"" +
             svg_num(plot_bottom - y) + "\" fill=\"" + kChartColours[k % 6] + "\"><title>" +
             xml_escape(g.label + (g.sublabel.empty() ? "" : " " + g.sublabel) + ", " + p.series[k] + ": " +
                        format_ms(v) + " ms") +
             "</title></rect>";
        s += "<text font-size=\"9\" transform=\"translate(" + svg_num(x + bar / 2 + 3) + " " + svg_num(y - 3) +
             ") rotate(-90)\">" + format_ms(v) + "</text>\n";
      }
      const double cx = gx + static_cast<double>(p.series.size()) * bar / 2;
      s += "<text x=\"" + svg_num(cx) + "\" y=\"" + svg_num(plot_bottom + 16) + "\" text-anchor=\"middle\">" +
           xml_escape(g.label) + "</text>";
      if (!g.sublabel.empty() && run_start) {
        const double span_cx = cx + static_cast<double>(run[gi] - 1) * group_w / 2;
        s += "<text x=\"" + svg_num(span_cx) + "\" y=\"" + svg_num(plot_bottom + 30) +
             "\" text-anchor=\"middle\" fill=\"#555555\" font-size=\"" + (run[gi] > 1 ? "11" : "9") + "\">" +
             xml_escape(g.sublabel) + "</text>";
      }
      s += "\n";
      gx += group_w;
    }
    s += "</g>\n";
    y0 += panel_h;
  }
  s += "<text x=\"8\" y=\"" + svg_num(height - 10) + "\" fill=\"#555555\" font-size=\"11\">" + xml_escape(note) +
       "</text>\n";
  s += "</svg>\n";
  return s;
}

// ----------------------------------------------------------------------------- the document

// The document's text; empty when it does not exist yet.
std::string read_doc(const std::string& doc) {
  std::string text;
  std::error_code ec;
  if (!fs::exists(doc, ec)) return text;
  std::ifstream in(doc, std::ios::binary);
  if (!in) throw failure("--doc " + doc + ": cannot read: " + std::strerror(errno));
  text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) throw failure("--doc " + doc + ": cannot read");
  return text;
}

// `text` with the region between the marker lines replaced by `region` (which carries
// the markers), or with the region appended when the file has none.
std::string splice_region(const std::string& text, const std::string& region, const std::string& doc) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  auto trimmed = [](std::string l) {
    while (!l.empty() && (l.back() == '\r' || l.back() == ' ' || l.back() == '\t')) l.pop_back();
    while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.erase(l.begin());
    return l;
  };
  std::optional<std::size_t> begin, end;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string l = trimmed(lines[i]);
    if (l == kBeginMarker && !begin)
      begin = i;
    else if (l == kEndMarker && begin && !end)
      end = i;
    else if (l == kEndMarker && !begin)
      throw failure("--doc " + doc + ":" + std::to_string(i + 1) + ": " + kEndMarker + " comes before any " +
                    kBeginMarker + "; fix the markers by hand");
  }
  if (begin && !end)
    throw failure("--doc " + doc + ":" + std::to_string(*begin + 1) + ": " + kBeginMarker + " has no " + kEndMarker +
                  " after it; fix the markers by hand");
  std::string out;
  if (!begin) {
    out = text;
    if (!out.empty() && out.back() != '\n') out += '\n';
    if (!out.empty()) out += '\n';
    return out + region;
  }
  for (std::size_t i = 0; i < *begin; ++i) out += lines[i] + "\n";
  out += region;
  for (std::size_t i = *end + 1; i < lines.size(); ++i) out += lines[i] + "\n";
  if (!text.empty() && text.back() != '\n' && *end + 1 < lines.size()) out.pop_back();
  return out;
}

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

std::vector<std::string> any_rows(const any_group& g, const std::string& label) {
  std::vector<std::string> rows;
  for (int k = 0; k < kAnyCount; ++k) {
    const stats& x = g.s[k];
    rows.push_back(
        md_row({k == 0 ? label : "", kAnyNames[k], format_fixed(x.mean_length(), 1), format_fixed(x.mean_expanded(), 0),
                format_ms(x.mean_ms()), k == kBlock ? "" : format_ratio(g.speedup(k)), format_percent(g.vs_theta(x)),
                std::to_string(x.valid()) + "/" + std::to_string(x.queries)}));
  }
  return rows;
}

const std::vector<std::string> kAnyHeading{"data set",     "algorithm",          "distance",         "expanded",
                                           "ms per query", "Block A* faster by", "length vs Theta*", "valid paths"};

std::string summary_row(const any_group& g, const std::string& label, const std::optional<paper_row>& paper) {
  std::vector<std::string> row{label,
                               std::to_string(g.s[kBlock].queries),
                               format_ratio(g.speedup(kAstar)),
                               format_ratio(g.speedup(kTheta)),
                               format_ratio(g.speedup(kLazy)),
                               format_percent(g.vs_theta(g.s[kBlock])),
                               format_percent(g.vs_theta(g.smoothed))};
  if (paper) {
    row.push_back(format_ratio(paper->astar[2] / paper->block[2]));
    row.push_back(format_ratio(paper->theta[2] / paper->block[2]));
    row.push_back(format_percent(paper->block[0] / paper->theta[0] - 1));
  } else {
    row.insert(row.end(), {"", "", ""});
  }
  return md_row(row);
}

struct run_facts {
  std::string command, date, machine, load, build, databases, seed, duration;
};

std::string build_region(const report& rep, const run_facts& info, const suite_args& a, const std::string& svg_link,
                         const runner& run) {
  std::string s;
  s += std::string(kBeginMarker) + "\n";
  s += "## The paper's benchmark: `lddb bench --suite paper`\n\n";
  s += "Written by `lddb bench --suite paper`. The next run replaces everything between the "
       "`suite:begin` and `suite:end` markers, and nothing else in this file.\n\n";
  s += md_heading({"", ""});
  s += md_row({"machine", info.machine + "; load average " + info.load + " at the start"});
  s += md_row({"date", info.date + "; the run took " + info.duration});
  s += md_row({"command", "`" + info.command + "`"});
  s += md_row({"seed", info.seed});
  s += md_row({"build", info.build});
  s += md_row({"databases", info.databases});
  s += "\n";
  s += "**How it was run.** One thread and one `search_context` for every search, warmed by one untimed run of "
       "every search on the first query of each map. The queries go in chunks of " + std::to_string(a.chunk) +
       " (`--chunk`): each algorithm runs the chunk's queries one after another, then the next algorithm the same "
       "queries, so that all share any drift in the machine's load while each runs warm, as a game's one "
       "pathfinder does (with `--chunk 1` every query is run by every algorithm in turn, and each search starts "
       "in caches the others have filled). Only the search call is timed (`steady_clock`), as `lddb bench` does; "
       "after a chunk's searches every path is checked by the independent checker (`lddb/checker.hpp`). A\\* runs from the start cell to the goal cell "
       "on octile moves; Theta\\*, Lazy Theta\\* and Block A\\* (the shipped `any-angle-4.lddb`, 4×4-cell blocks) "
       "run between the cells' top-left corners. *Distance* is the mean path length, *expanded* the mean number of "
       "cells (A\\*), vertices (Theta\\*, Lazy Theta\\*) or nodes (Block A\\*: blocks and open squares) expanded, *ms per query* the mean "
       "time of the search call. *Block A\\* faster by* is that algorithm's time over Block A\\*'s, and *length vs "
       "Theta\\** the mean length against Theta\\*'s.\n\n";
  s += "**Heuristics, as in the paper.** The paper uses the Euclidean heuristic for its Table 1 (its text blames "
       "the Euclidean heuristic for Theta\\*'s expansions as obstacles increase, and on the StarCraft maps). It "
       "does not name its A\\*'s heuristic, but its counts fit the Euclidean one: 14,957 cells expanded on the "
       "empty maps, about what our A\\* expands with it (the 0% row), and far more than with the octile "
       "heuristic. So every search in the any-angle comparisons here uses the Euclidean heuristic" +
       std::string(a.astar_heuristic == "euclidean"
                       ? ""
                       : " except A\\*, which uses the " + a.astar_heuristic + " heuristic (`--astar-heuristic`)") +
       ". Table 2 uses the zero heuristic for every algorithm, as the paper's does. The tile and octile comparison "
       "(which the paper describes, 2–3× faster than A\\*, but does not tabulate) uses each rule's own heuristic: "
       "Manhattan and octile distance.\n\n";
  s += "**Rules.** The default rules throughout: octile moves do not cut corners and any-angle paths do not "
       "squeeze between two diagonally touching obstacles, so free cells connect only through shared edges. "
       "Random start/goal pairs are drawn uniformly among the free cells and kept only when both cells are in the "
       "same 4-connected component (every algorithm then has a path). Two consequences at high densities, where "
       "our figures part from the paper's (whose rule evidently let paths through such corners): a staircase of "
       "free cells costs 2 per diagonal step to octile moves but √2 to an any-angle path, so octile A\\*'s paths "
       "are far longer than the any-angle ones at 30–40% obstacles; and at 50% the free cells no longer percolate "
       "(the threshold is about 59.3% free), so connected pairs lie close together and the paths are short.\n\n";

  if (!rep.table1.empty()) {
    s += "### Table 1: random maps\n\n";
    s += std::to_string(a.random_side) + "×" + std::to_string(a.random_side) + " maps (`make_random_map`), each " +
         "cell blocked with the given probability; " + std::to_string(a.maps_per_density) + " map" +
         (a.maps_per_density == 1 ? "" : "s") + " per density × " + std::to_string(a.pairs) +
         " connected random start/goal pairs each. The paper averaged 500 maps × 100 pairs per density.\n\n";
    s += md_heading(kAnyHeading);
    for (std::size_t i = 0; i < rep.table1.size(); ++i)
      for (const std::string& r : any_rows(rep.table1[i], "random " + std::to_string(rep.densities[i]) + "%")) s += r;
    s += "\n";
  }
  if (rep.table2) {
    s += "### Table 2: a large empty map, zero heuristic\n\n";
    s += std::to_string(a.empty_side) + "×" + std::to_string(a.empty_side) + " without obstacles, " +
         std::to_string(a.empty_pairs) + " random start/goal pairs, the zero heuristic for every algorithm.\n\n";
    s += md_heading(kAnyHeading);
    for (const std::string& r :
         any_rows(*rep.table2, std::to_string(a.empty_side) + "×" + std::to_string(a.empty_side)))
      s += r;
    s += "\n";
  }

  // Summary against the paper.
  s += "### Block A\\* against the others, and the paper's ratios\n\n";
  s += "How many times faster any-angle Block A\\* is than each search, and its mean length against Theta\\*'s, "
       "raw and after `smooth_path` (the paper: at most 0.5% longer, 0.1% after smoothing). The last three columns "
       "are the same ratios computed from the paper's tables (Core 2 at 2.8 GHz; Baldur's Gate II and Dragon Age: "
       "Origins from its game-map rows).\n\n";
  s += md_heading({"data set", "queries", "vs A\\*", "vs Theta\\*", "vs Lazy Theta\\*", "length vs Theta\\*",
                   "smoothed vs Theta\\*", "paper: vs A\\*", "paper: vs Theta\\*", "paper: length vs Theta\\*"});
  for (std::size_t i = 0; i < rep.table1.size(); ++i)
    s += summary_row(rep.table1[i], "random " + std::to_string(rep.densities[i]) + "%", paper_random(rep.densities[i]));
  if (rep.table2)
    s += summary_row(*rep.table2, std::to_string(a.empty_side) + "×" + std::to_string(a.empty_side) + ", zero h",
                     a.empty_side == 1000 ? std::optional<paper_row>(kPaperTable2) : std::nullopt);
  for (const any_group& g : rep.folder_any) {
    std::optional<paper_row> paper;
    if (g.name == "bg512") paper = kPaperBG2;
    if (g.name == "dao") paper = kPaperDAO;
    s += summary_row(g, g.name, paper);
  }
  s += "\n";

  s += "### Benchmark maps\n\n";
  if (!rep.maps_note.empty()) {
    s += rep.maps_note + "\n\n";
  } else {
    s += "Every `*.scen` below `" + rep.maps_dir + "`, grouped by folder. " +
         (rep.limit ? "At most " + std::to_string(rep.limit) +
                          " queries per scenario file (`--limit`), evenly spaced over the file (the middle of each "
                          "of that many equal slices), so every length bucket is represented; `--limit 0` runs them "
                          "all."
                    : std::string("Every query of every file (`--limit 0`).")) +
         " The cells of a query are A\\*'s start and goal; their top-left corners are the any-angle searches'.\n\n";
    s += "#### Any-angle, per folder\n\n";
    s += md_heading(kAnyHeading);
    for (const any_group& g : rep.folder_any)
      for (const std::string& r : any_rows(g, g.name + " (" + std::to_string(g.s[kBlock].queries) + ")")) s += r;
    s += "\n#### Any-angle, per map\n\n";
    s += md_heading({"folder", "map", "queries", "A\\* ms", "Theta\\* ms", "Lazy Theta\\* ms", "Block A\\* ms",
                     "vs A\\*", "vs Theta\\*", "vs Lazy Theta\\*", "Theta\\* length", "Block A\\* length",
                     "vs Theta\\*", "invalid"});
    for (std::size_t i = 0; i < rep.map_any.size(); ++i) {
      const any_group& g = rep.map_any[i];
      std::uint64_t invalid = 0;
      for (int k = 0; k < kAnyCount; ++k) invalid += g.s[k].queries - g.s[k].valid();
      s += md_row({rep.map_folder[i], g.name,
                   std::to_string(g.s[kBlock].queries) + " of " + std::to_string(g.file_queries),
                   format_ms(g.s[kAstar].mean_ms()), format_ms(g.s[kTheta].mean_ms()), format_ms(g.s[kLazy].mean_ms()),
                   format_ms(g.s[kBlock].mean_ms()), format_ratio(g.speedup(kAstar)), format_ratio(g.speedup(kTheta)),
                   format_ratio(g.speedup(kLazy)), format_fixed(g.s[kTheta].mean_length(), 3),
                   format_fixed(g.s[kBlock].mean_length(), 3), format_percent(g.vs_theta(g.s[kBlock])),
                   std::to_string(invalid)});
    }
    s += "\n#### Tile and octile Block A\\* against A\\*\n\n";
    s += "Same queries, cells to cells, each rule's own heuristic. Block A\\* must return A\\*'s optimal lengths: "
         "*mismatches* counts the queries where it does not.\n\n";
    const std::vector<std::string> cell_heading{"folder",
                                                "map",
                                                "rule",
                                                "queries",
                                                "A\\* ms",
                                                "Block A\\* ms",
                                                "Block A\\* faster by",
                                                "A\\* expanded",
                                                "Block A\\* expanded",
                                                "mismatches",
                                                "invalid"};
    s += md_heading(cell_heading);
    auto cell_rows = [&](const cell_group& g, const std::string& folder, const std::string& map) {
      for (int r = 0; r < 2; ++r) {
        const stats& A = g.s[r == 0 ? kTileA : kOctA];
        const stats& B = g.s[r == 0 ? kTileB : kOctB];
        s +=
            md_row({folder, map, r == 0 ? "tile" : "octile", std::to_string(A.queries), format_ms(A.mean_ms()),
                    format_ms(B.mean_ms()), format_ratio(A.mean_ms() / B.mean_ms()), format_fixed(A.mean_expanded(), 0),
                    format_fixed(B.mean_expanded(), 0), std::to_string(r == 0 ? g.tile_mismatch : g.octile_mismatch),
                    std::to_string((A.queries - A.valid()) + (B.queries - B.valid()))});
      }
    };
    for (const cell_group& g : rep.folder_cell) cell_rows(g, g.name, "**all**");
    for (std::size_t i = 0; i < rep.map_cell.size(); ++i)
      cell_rows(rep.map_cell[i], rep.map_folder[i], rep.map_cell[i].name);
    s += "\n";
  }

  // Checks.
  std::uint64_t block_longer = 0, theta_longer = 0, lazy_longer = 0, any_queries = 0, invalid = 0, missing = 0;
  std::uint64_t tile_mm = 0, oct_mm = 0, cell_queries = 0;
  auto count_any = [&](const any_group& g) {
    block_longer += g.block_longer;
    theta_longer += g.theta_longer;
    lazy_longer += g.lazy_longer;
    any_queries += g.s[kBlock].queries;
    for (int k = 0; k < kAnyCount; ++k) {
      missing += g.s[k].queries - g.s[k].found;
      invalid += g.s[k].invalid;
    }
    invalid += g.smoothed.invalid;
  };
  for (const any_group& g : rep.table1) count_any(g);
  if (rep.table2) count_any(*rep.table2);
  for (const any_group& g : rep.folder_any) count_any(g);
  for (const cell_group& g : rep.folder_cell) {
    tile_mm += g.tile_mismatch;
    oct_mm += g.octile_mismatch;
    cell_queries += g.s[kTileA].queries;
    for (int k = 0; k < kCellCount; ++k) {
      missing += g.s[k].queries - g.s[k].found;
      invalid += g.s[k].invalid;
    }
  }
  s += "### Checks\n\n";
  s +=
      "- paths missing: " + std::to_string(missing) + "; paths the checker rejected: " + std::to_string(invalid) + "\n";
  s += "- any-angle Block A\\* longer than octile A\\*: " + std::to_string(block_longer) + " of " +
       std::to_string(any_queries) + " queries (must be 0: every octile path is an any-angle path)\n";
  s += "- Theta\\* longer than octile A\\*: " + std::to_string(theta_longer) + " of " + std::to_string(any_queries) +
       "; Lazy Theta\\*: " + std::to_string(lazy_longer) + " (neither is guaranteed never to be)\n";
  if (cell_queries)
    s += "- tile Block A\\* length different from A\\*'s: " + std::to_string(tile_mm) + " of " +
         std::to_string(cell_queries) + "; octile: " + std::to_string(oct_mm) + " of " + std::to_string(cell_queries) +
         "\n";
  if (!run.problems.empty()) {
    s += "- problems (" + std::to_string(run.problem_count) + ", the first " + std::to_string(run.problems.size()) +
         " listed):\n";
    for (const std::string& p : run.problems) s += "  - " + p + "\n";
  }
  s += "\n";
  if (!svg_link.empty()) s += "![Mean time per query, log scale](" + svg_link + ")\n\n";
  s += std::string(kEndMarker) + "\n";
  return s;
}

std::vector<int> parse_densities(const std::string& text) {
  std::vector<int> out;
  std::size_t start = 0;
  for (;;) {
    std::size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    while (!item.empty() && item.front() == ' ') item.erase(item.begin());
    while (!item.empty() && item.back() == ' ') item.pop_back();
    const bool digits = !item.empty() && item.size() <= 3 && item.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || std::stoi(item) > 90)
      throw usage_error("--densities: '" + text + "' is not a list of obstacle percentages from 0 to 90, e.g. 0,10,20");
    out.push_back(std::stoi(item));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

int run_suite(const suite_args& a) {
  const auto t_start = steady::now();
  if (a.suite != "paper") throw usage_error("--suite: unknown suite '" + a.suite + "' (expected paper)");
  if (!a.foreign.empty()) {
    std::string names;
    for (std::size_t k = 0; k < a.foreign.size(); ++k)
      names += (k ? (k + 1 == a.foreign.size() ? " and " : ", ") : "") + a.foreign[k];
    throw usage_error("--suite runs its own queries and algorithms; " + names +
                      (a.foreign.size() == 1 ? " does" : " do") + " not apply to it");
  }
  if (a.random_side < 8 || a.random_side > 4096) throw usage_error("--random-side must be 8..4096");
  if (a.empty_side < 8 || a.empty_side > 4096) throw usage_error("--empty-side must be 8..4096");
  if (a.maps_per_density < 1) throw usage_error("--maps-per-density must be at least 1");
  const std::vector<int> densities = parse_densities(a.densities);
  if (a.astar_heuristic != "euclidean" && a.astar_heuristic != "octile")
    throw usage_error("--astar-heuristic: '" + a.astar_heuristic + "' (expected euclidean, as the paper, or octile)");

  const fs::path src = source_dir();
  const std::string doc = a.doc ? *a.doc : (src / "docs" / "benchmarks.md").lexically_normal().string();
  const std::string svg = a.svg ? *a.svg : (src / "docs" / "suite.svg").lexically_normal().string();
  // Before minutes of searching: the outputs can be written and the document's markers
  // are sound.
  check_output_path("--doc", doc);
  check_output_path("--svg", svg);
  splice_region(read_doc(doc), std::string(kBeginMarker) + "\n" + kEndMarker + "\n", doc);

  // The searches: the shipped databases (or $LDDB_DATA_DIR's), checked now.
  auto setup = [](algorithm algo, const char* rule_text, const std::string& heuristic) {
    return make_setup(algo, setup_options{std::string(rule_text), std::nullopt, heuristic, false});
  };
  const search_setup astar_any = setup(algorithm::astar, "octile", a.astar_heuristic);
  const search_setup theta = setup(algorithm::theta, "any-angle", "euclidean");
  const search_setup lazy = setup(algorithm::lazy_theta, "any-angle", "euclidean");
  const search_setup block_any = setup(algorithm::block_astar, "any-angle", "euclidean");
  const search_setup* const any_setups[kAnyCount] = {&astar_any, &theta, &lazy, &block_any};
  search_setup zero[kAnyCount] = {astar_any, theta, lazy, block_any};
  for (search_setup& z : zero) z.heuristic = heuristic_kind::zero;
  const search_setup* const zero_setups[kAnyCount] = {&zero[0], &zero[1], &zero[2], &zero[3]};
  const search_setup astar_tile = setup(algorithm::astar, "tile", "manhattan");
  const search_setup block_tile = setup(algorithm::block_astar, "tile", "manhattan");
  const search_setup astar_oct = setup(algorithm::astar, "octile", "octile");
  const search_setup block_oct = setup(algorithm::block_astar, "octile", "octile");
  const search_setup* const cell_setups[kCellCount] = {&astar_tile, &block_tile, &astar_oct, &block_oct};
  for (const search_setup* s : {&block_any, &block_tile, &block_oct})
    if (block_size_for(*s) != kBlockSide)
      throw failure(s->db_path + ": the suite needs " + std::to_string(kBlockSide) + "x" + std::to_string(kBlockSide) +
                    "-cell blocks, this database has " + std::to_string(block_size_for(*s)));

  // The scenario maps: found, read and checked before any search.
  report rep;
  rep.densities = densities;
  rep.limit = a.limit ? *a.limit : suite_args::kDefaultLimit;
  const fs::path maps_root = a.maps ? fs::path(*a.maps) : (src / ".." / "shared" / "maps").lexically_normal();
  rep.maps_dir = maps_root.string();
  std::vector<scen_job> jobs;
  {
    std::error_code ec;
    if (!fs::is_directory(maps_root, ec)) {
      rep.maps_note = "Skipped: the maps folder `" + rep.maps_dir + "` " +
                      (fs::exists(maps_root, ec) ? "is not a folder" : "does not exist") +
                      " (give another with `--maps DIR`).";
      progress("maps folder %s not found; the benchmark maps are skipped", rep.maps_dir.c_str());
    } else {
      jobs = plan_scenarios(maps_root, rep.limit);
      if (jobs.empty()) {
        rep.maps_note = "Skipped: no `*.scen` file with queries below `" + rep.maps_dir + "`.";
        progress("no scenario file below %s; the benchmark maps are skipped", rep.maps_dir.c_str());
      }
    }
  }
  std::uint64_t scen_queries = 0;
  for (const scen_job& j : jobs) scen_queries += j.queries.size();
  progress(
      "Table 1: %zu densities x %d maps x %llu pairs on %dx%d; Table 2: %llu pairs on %dx%d; maps: %zu files, "
      "%llu queries",
      densities.size(), a.maps_per_density, static_cast<unsigned long long>(a.pairs), a.random_side, a.random_side,
      static_cast<unsigned long long>(a.empty_pairs), a.empty_side, a.empty_side, jobs.size(),
      static_cast<unsigned long long>(scen_queries));

  const std::size_t chunk = a.chunk;
  runner run(chunk);
  auto seconds_since = [](steady::time_point t) { return std::chrono::duration<double>(steady::now() - t).count(); };

  // Table 1.
  if (a.pairs > 0) {
    for (int d : densities) {
      any_group g;
      g.name = "random " + std::to_string(d) + "%";
      for (int m = 0; m < a.maps_per_density; ++m) {
        const auto t0 = steady::now();
        const std::uint64_t map_seed =
            derive_seed(a.seed, 1, static_cast<std::uint64_t>(d), static_cast<std::uint64_t>(m));
        const grid_map map = make_random_map(a.random_side, a.random_side, d, map_seed, kBlockSide);
        const std::string what = "random map " + std::to_string(d) + "% #" + std::to_string(m);
        const auto pairs = connected_pairs(map, derive_seed(map_seed, 2), a.pairs, what);
        run.any_angle(any_setups, map, pair_queries(pairs, what), g);
        progress("Table 1: %d%% obstacles, map %d/%d: %zu pairs in %.1f s", d, m + 1, a.maps_per_density, pairs.size(),
                 seconds_since(t0));
      }
      rep.table1.push_back(std::move(g));
    }
  }

  // Table 2.
  if (a.empty_pairs > 0) {
    const auto t0 = steady::now();
    const grid_map map(a.empty_side, a.empty_side, kBlockSide);
    const auto pairs = connected_pairs(map, derive_seed(a.seed, 3), a.empty_pairs, "empty map");
    any_group g;
    g.name = "empty";
    const std::vector<query_spec> queries = pair_queries(pairs, "empty map");
    // A chunk at a time, so that its long queries report their progress.
    std::vector<query_spec> part;
    for (std::size_t i = 0; i < queries.size(); i += chunk) {
      part.assign(queries.begin() + static_cast<std::ptrdiff_t>(i),
                  queries.begin() + static_cast<std::ptrdiff_t>(std::min(queries.size(), i + chunk)));
      run.any_angle(zero_setups, map, part, g);
      progress("Table 2: %zu of %zu pairs, %.0f s so far", i + part.size(), queries.size(), seconds_since(t0));
    }
    rep.table2 = std::move(g);
  }

  // The benchmark maps.
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const scen_job& job = jobs[j];
    const auto t0 = steady::now();
    if (rep.folder_any.empty() || rep.folder_any.back().name != job.folder) {
      rep.folder_any.push_back(any_group{});
      rep.folder_any.back().name = job.folder;
      rep.folder_cell.push_back(cell_group{});
      rep.folder_cell.back().name = job.folder;
    }
    any_group ga;
    ga.name = job.map_name;
    ga.file_queries = job.file_queries;
    cell_group gc;
    gc.name = job.map_name;
    auto last_note = t0;
    // A few chunks at a time, so that a long map still reports its progress.
    const std::size_t slice = 4 * chunk;
    std::vector<query_spec> part;
    for (std::size_t i = 0; i < job.queries.size(); i += slice) {
      if (seconds_since(last_note) >= 30) {
        last_note = steady::now();
        progress("maps [%zu/%zu] %s/%s: %zu of %zu queries, %.0f s so far", j + 1, jobs.size(), job.folder.c_str(),
                 job.map_name.c_str(), i, job.queries.size(), seconds_since(t0));
      }
      part.clear();
      for (std::size_t k = i; k < std::min(job.queries.size(), i + slice); ++k) {
        const scenario_query& q = job.queries[k];
        part.push_back({q.start, q.goal, job.file + ":" + std::to_string(q.line)});
      }
      run.any_angle(any_setups, *job.map, part, ga);
      run.cells(cell_setups, *job.map, part, gc);
    }
    rep.folder_any.back().merge(ga);
    rep.folder_cell.back().merge(gc);
    rep.map_any.push_back(std::move(ga));
    rep.map_cell.push_back(std::move(gc));
    rep.map_folder.push_back(job.folder);
    progress("maps [%zu/%zu] %s/%s: %zu of %llu queries in %.1f s", j + 1, jobs.size(), job.folder.c_str(),
             job.map_name.c_str(), job.queries.size(), static_cast<unsigned long long>(job.file_queries),
             seconds_since(t0));
  }

  // The outputs: the chart, then the document.
  const double total_s = seconds_since(t_start);
  std::vector<chart_panel> panels;
  {
    chart_panel p;
    p.title = "Any-angle: A* (octile moves), Theta*, Lazy Theta*, Block A*";
    p.series = {"A* (octile)", "Theta*", "Lazy Theta*", "Block A*"};
    auto add = [&](const any_group& g, const std::string& label, const std::string& sub, bool section,
                   bool shared = false) {
      chart_group c{label, sub, {}, section, shared};
      for (int k = 0; k < kAnyCount; ++k) c.ms.push_back(g.s[k].mean_ms());
      p.groups.push_back(c);
    };
    for (std::size_t i = 0; i < rep.table1.size(); ++i)
      add(rep.table1[i], std::to_string(rep.densities[i]) + "%", "random " + std::to_string(a.random_side) + "\u00b2",
          i == 0, true);
    if (rep.table2) add(*rep.table2, "empty", std::to_string(a.empty_side) + "\u00b2, h=0", true);
    for (std::size_t i = 0; i < rep.folder_any.size(); ++i)
      add(rep.folder_any[i], rep.folder_any[i].name, std::to_string(rep.folder_any[i].s[kBlock].queries) + " queries",
          i == 0);
    if (!p.groups.empty()) panels.push_back(p);
  }
  if (!rep.folder_cell.empty()) {
    chart_panel p;
    p.title = "Tile and octile: A* and Block A* of the same rule (benchmark maps)";
    p.series = {"tile A*", "tile Block A*", "octile A*", "octile Block A*"};
    for (const cell_group& g : rep.folder_cell) {
      chart_group c{g.name, std::to_string(g.s[kTileA].queries) + " queries", {}, false};
      for (int k = 0; k < kCellCount; ++k) c.ms.push_back(g.s[k].mean_ms());
      p.groups.push_back(c);
    }
    panels.push_back(p);
  }
  const std::string svg_text =
      chart_svg("lddb bench --suite paper: mean time per query", panels,
                "One thread, search call only; " + cpu_model() + "; " + utc_now() + "; seed " + std::to_string(a.seed));
  write_file_atomically(svg, svg_text);

  run_facts info;
  info.command = command_line();
  info.date = utc_now();
  info.machine = cpu_model() + ", " + std::to_string(std::thread::hardware_concurrency()) + " logical cores";
  info.load = load_average();
  info.build = compiler() +
#ifdef __OPTIMIZE__
               ", optimised build";
#else
               ", UNOPTIMISED build (-O0): the times are not representative";
#endif
  info.databases = block_any.db_path + ", " + block_oct.db_path + ", " + block_tile.db_path;
  info.seed = std::to_string(a.seed) + " (`--seed`)";
  info.duration = format_seconds(total_s);
  std::string link;
  {
    const fs::path doc_dir = fs::absolute(doc).parent_path(), svg_abs = fs::absolute(svg);
    link = svg_abs.lexically_relative(doc_dir).string();
    if (link.empty()) link = svg_abs.string();
  }
  const std::string region = build_region(rep, info, a, link, run);
  // Read again now: the rest of the document may have been edited during the run.
  const std::string old_doc = read_doc(doc);
  atomic_output out("--doc", doc);
  out.write(splice_region(old_doc, region, doc));
  out.commit();

  std::printf("lddb bench --suite paper: %s in %s\nwrote %s\nwrote %s\n",
              run.problem_count ? "finished with problems" : "done", format_seconds(total_s).c_str(), doc.c_str(),
              svg.c_str());
  std::fflush(stdout);
  if (run.problem_count) {
    std::fprintf(stderr, "lddb bench --suite paper: %llu problem%s; first: %s\n",
                 static_cast<unsigned long long>(run.problem_count), run.problem_count == 1 ? "" : "s",
                 run.problems.front().c_str());
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace lddb::cli
