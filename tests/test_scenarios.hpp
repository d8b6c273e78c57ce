// tests/test_scenarios.hpp: samples of the benchmark maps' scenario files
// (../shared/maps), for the tests that check searches against the files' optimal lengths.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lddb/grid.hpp"
#include "lddb/map_file.hpp"
#include "lddb/scenario.hpp"

namespace lddb_test {

// The one place the tests look for the benchmark maps: $LDDB_MAPS_DIR when set (a worktree
// whose parent has no shared/), else ../shared/maps beside the source. The Warcraft III map
// (maps-wc3) lies beside that folder.
inline std::filesystem::path benchmark_maps_dir() {
  if (const char* dir = std::getenv("LDDB_MAPS_DIR"); dir && *dir) return dir;
  return std::filesystem::path(LDDB_SOURCE_DIR) / ".." / "shared" / "maps";
}

// Is this a CI run ($CI set, and not "false" or "0")? There a test whose maps are missing
// fails: a check skipped would pass without checking anything.
inline bool under_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && *ci != '\0' && std::string(ci) != "false" && std::string(ci) != "0";
}

}  // namespace lddb_test

// For a test body whose benchmark maps are missing: skips, saying `what`, on a developer's
// machine; fails under CI (lddb_test::under_ci).
#define LDDB_MAPS_MISSING(what)                                                          \
  do {                                                                                   \
    if (lddb_test::under_ci()) GTEST_FAIL() << what << " (CI is set: the maps must be there)"; \
    GTEST_SKIP() << what;                                                                \
  } while (false)

namespace lddb_test {

// Every *.scen below benchmark_maps_dir(), sorted; nullopt when the folder is missing (the
// caller skips, saying so).
inline std::optional<std::vector<std::filesystem::path>> scenario_files() {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(benchmark_maps_dir(), ec)) return std::nullopt;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(benchmark_maps_dir(), ec))
    if (e.is_regular_file() && e.path().extension() == ".scen") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// f(file, query, map) for every per_file-th part of each file's queries (evenly spaced, so
// every length is represented), each map loaded once with block size `block`; queries
// whose start or goal cell is blocked are left out. False, with `error`, when a file or a
// map does not load.
template <class F>
bool for_each_sampled_query(const std::vector<std::filesystem::path>& files, std::size_t per_file, int block,
                            std::string& error, F&& f) {
  for (const std::filesystem::path& file : files) {
    const auto scen = lddb::load_scenario(file.string(), &error);
    if (!scen) {
      error = file.string() + ": " + error;
      return false;
    }
    const std::size_t stride = std::max<std::size_t>(1, scen->queries.size() / per_file);
    std::map<std::string, lddb::grid_map> loaded;
    for (std::size_t i = 0; i < scen->queries.size(); i += stride) {
      const lddb::scenario_query& q = scen->queries[i];
      const std::string path = scen->resolve_map(q);
      auto it = loaded.find(path);
      if (it == loaded.end()) {
        auto m = lddb::load_map(path, &error, block);
        if (!m) {
          error = path + ": " + error;
          return false;
        }
        it = loaded.emplace(path, std::move(*m)).first;
      }
      const lddb::grid_map& map = it->second;
      if (map.blocked(q.start.x, q.start.y) || map.blocked(q.goal.x, q.goal.y)) continue;
      f(file, q, map);
    }
  }
  return true;
}

}  // namespace lddb_test
