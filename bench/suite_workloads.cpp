// bench/suite_workloads.cpp: the suite's queries: connected random pairs on generated maps,
// and the scenario files below the maps folder with their maps, checked before any search.
// Random pairs come from an integer PRNG, so a seed gives the same queries on every platform.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <map>

#include "lddb/scenario.hpp"
#include "lddb/splitmix.hpp"
#include "suite.hpp"

namespace lddb::cli {

namespace fs = std::filesystem;

namespace {


// Uniform in [0, n) without modulo bias.
std::uint64_t uniform(std::uint64_t& state, std::uint64_t n) {
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  for (;;) {
    const std::uint64_t v = splitmix64(state);
    if (v < limit) return v % n;
  }
}

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


}  // namespace

// A seed for one thing (a map, its queries) derived from the run's seed and its indices.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  std::uint64_t s = seed;
  for (std::uint64_t v : {a, b, c}) {
    s ^= v + 0x632BE59BD9B4E019ull;
    splitmix64(s);
  }
  return splitmix64(s);
}


// Start/goal pairs of a generated map as queries, named for messages.
std::vector<query_spec> pair_queries(const std::vector<std::pair<point, point>>& pairs, const std::string& what) {
  std::vector<query_spec> out;
  for (std::size_t q = 0; q < pairs.size(); ++q)
    out.push_back({pairs[q].first, pairs[q].second,
                   what + " pair " + std::to_string(q) + " " + point_text(pairs[q].first) + "-" + point_text(pairs[q].second)});
  return out;
}

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

}  // namespace lddb::cli
