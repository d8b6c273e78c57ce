// lddb/scenario.hpp: Moving AI .scen files, read whole or one query at a time (library
// lddb_io).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lddb/point.hpp"

namespace lddb {

struct scenario_query {
  int bucket = 0;
  std::string map;  // as written in the file
  int map_width = 0, map_height = 0;
  point start, goal;
  double optimal = 0;  // the octile optimum the file states
  // How far a correct octile length may be from `optimal`, as the file writes it: one unit
  // in the last digit it can have written (version 1.0: 2 decimals; version 1: 6
  // significant digits, so 1122.86 is +-0.01), and at least 1e-4. (The files' optima are
  // sometimes a unit off, from summing in floating point.)
  double optimal_tolerance = 1e-4;
  int line = 0;        // 1-based line in the file
};

struct scenario {
  std::string path;
  std::vector<scenario_query> queries;
  // The map file for the queries: the path as written if it exists relative to the
  // scenario, else a file of the same base name beside the scenario.
  std::string resolve_map(const scenario_query& q) const;
};

// Moving AI .scen (version 1 or 1.0). Malformed lines, an unknown version and more than
// `max_queries` lines are refused with the file and line named.
std::optional<scenario> load_scenario(const std::string& path, std::string* error, std::size_t max_queries = 10'000'000);
// The same, from text; `name` stands for the file in messages and in scenario::path.
std::optional<scenario> parse_scenario(std::string_view text, const std::string& name, std::string* error,
                                       std::size_t max_queries = 10'000'000);

// Reads a .scen file one query at a time, so memory stays one line of the file whatever
// its length (load_scenario keeps every query, about 100 bytes each): a program that runs
// queries as it reads them, as `lddb bench` does, works on a file of any size. The checks
// and messages are load_scenario's, without its query limit. Movable, not copyable.
class scenario_reader {
 public:
  // Opens the file; nullopt with *error set ("FILE: cannot open: why") when it cannot.
  static std::optional<scenario_reader> open(const std::string& path, std::string* error);
  scenario_reader(scenario_reader&&) noexcept;
  scenario_reader& operator=(scenario_reader&&) noexcept;
  ~scenario_reader();

  // The next query. False at the end of the file with *error empty, or with *error naming
  // the file and line ("FILE:LINE: what") for a malformed line, an unknown version, an
  // empty file or a read error; every later call returns false.
  bool next(scenario_query* query, std::string* error);
  std::uint64_t queries_read() const;
  const std::string& path() const { return path_; }
  // As scenario::resolve_map.
  std::string resolve_map(const scenario_query& q) const;

 private:
  struct impl;
  scenario_reader(std::unique_ptr<impl> m, std::string path);
  std::unique_ptr<impl> impl_;
  std::string path_;
};

}  // namespace lddb
