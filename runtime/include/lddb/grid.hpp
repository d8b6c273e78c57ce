// lddb/grid.hpp: grid maps and Moving AI map and scenario files.
//
// A grid_map holds one bit per cell and, for Block A*, one pattern_code per block of
// b x b cells (bit y*b+x set when that cell is blocked). set_blocked updates both in O(1),
// so a map can change between queries with no other preprocessing. Cells beyond the map's
// width and height (the padding of the last row and column of blocks) are blocked, as is
// everything outside the map.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lddb/point.hpp"

namespace lddb {

class grid_map {
 public:
  static constexpr int kMaxSide = 1 << 14;  // 16384 cells a side

  // An all-free map. Throws std::invalid_argument for sizes outside 1..kMaxSide or a
  // block size outside 2..5.
  grid_map(int width, int height, int block = 4);

  int width() const { return width_; }
  int height() const { return height_; }
  int block() const { return block_; }
  int blocks_x() const { return blocks_x_; }
  int blocks_y() const { return blocks_y_; }

  bool in_bounds(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }
  bool blocked(int x, int y) const {
    if (!in_bounds(x, y)) return true;
    return (row_bits_[static_cast<std::size_t>(y) * words_ + static_cast<std::size_t>(x >> 6)] >> (x & 63)) & 1u;
  }
  // O(1): one bit of the cell row and one bit of its block's pattern_code.
  void set_blocked(int x, int y, bool is_blocked);

  // The pattern_code of block (bx, by); blocks outside the map are fully blocked.
  std::uint32_t block_code(int bx, int by) const {
    if (bx < 0 || by < 0 || bx >= blocks_x_ || by >= blocks_y_) return full_code_;
    return codes_[static_cast<std::size_t>(by) * static_cast<std::size_t>(blocks_x_) + static_cast<std::size_t>(bx)];
  }

  // Rebuilds the block codes for another block size (a database with another b).
  void set_block_size(int block);

  // Number of blocked cells (for reports).
  std::uint64_t blocked_count() const;

  friend bool operator==(const grid_map& a, const grid_map& b) {
    return a.width_ == b.width_ && a.height_ == b.height_ && a.block_ == b.block_ && a.row_bits_ == b.row_bits_ &&
           a.codes_ == b.codes_;
  }

 private:
  void rebuild_codes();
  int width_, height_, block_;
  int blocks_x_ = 0, blocks_y_ = 0;
  std::size_t words_;  // 64-bit words per row
  std::uint32_t full_code_ = 0;
  std::vector<std::uint64_t> row_bits_;
  std::vector<std::uint32_t> codes_;
};

// ----------------------------------------------------------------------------- files

// Moving AI .map text (docs/rules.md): '.', 'G' and 'S' are free, anything else blocked.
// Accepts CRLF, trailing spaces and a missing final newline. On failure returns nullopt
// and sets *error to a message naming the file (or `name`) and the line.
std::optional<grid_map> load_map(const std::string& path, std::string* error, int block = 4);
std::optional<grid_map> parse_map(std::string_view text, const std::string& name, std::string* error, int block = 4);

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

// ----------------------------------------------------------------------------- generated maps

// Deterministic map generators (the same seed gives the same map on every platform: they
// use their own integer PRNG, not <random>'s distributions).
// Each cell blocked with probability `percent` / 100.
grid_map make_random_map(int width, int height, int percent, std::uint64_t seed, int block = 4);
// Square rooms of `room` cells separated by 1-cell walls, with doors; like Moving AI rooms.
grid_map make_rooms_map(int width, int height, int room, std::uint64_t seed, int block = 4);
// A perfect maze with corridors `corridor` cells wide and walls 1 cell thick.
grid_map make_maze_map(int width, int height, int corridor, std::uint64_t seed, int block = 4);

}  // namespace lddb
