// Private: jump point search's straight jumps, kept per cell (after Rabin's JPS+, Game AI
// Pro 2, 2015, here for the straight directions only) and repaired where a cell changes.
//
// For every cell and each of the four straight directions, the table holds where the line
// scan of jump_scan.hpp from that cell stops: the distance to the first cell ahead that is
// blocked or a jump point (a cell with a forced neighbour; the map's edge counts as
// blocked), and which of the two it is, in one byte: a stop more than kFar cells ahead
// reads 0, "read on from the entry kFar cells ahead". A query then reads one entry where it
// would scan, more in open ground (jump_search.cpp), the goal checked apart. Four bytes a
// cell keep a 512 x 512 map's tables at 1 MiB, in the second-level cache's reach.
//
// Why a change stays local. Whether cell i of row r stops an east scan reads cells
// (i, r), (i - 1, r +- 1) and (i, r +- 1), so a changed cell (x, y) changes the stops of
// rows y - 1 to y + 1 at columns x - 1 to x + 1 only, and of the columns x - 1 to x + 1 at
// rows y - 1 to y + 1. An entry changes only if the stop ahead of it is one of those and at
// most kFar cells ahead: the entries from the last stop before them up to them, at most
// kFar of them. The repair rewrites those, on the three rows and three columns: at most
// 6 x 2 x (kFar + 3) entries, a few among walls.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "map/derived.hpp"

namespace lddb::detail {

class jump_tables final : public derived_structure {
 public:
  // The directions, in the order of an entry's fields.
  enum direction : int { east = 0, west = 1, south = 2, north = 3 };
  // One cell: per direction, +d when the scan stops d cells ahead at a jump point, -d when
  // at a blocked cell (or the edge), 0 when the stop is more than kFar cells ahead.
  using entry = std::array<std::int8_t, 4>;
  static constexpr int kFar = 127;
  // The most cells a map gets tables for: 4 MiB at 1024 x 1024. At 2048 x 2048 (16 MiB)
  // they missed the caches: queries gained nothing measurable and a changed cell's column
  // repair cost 10-15 us, a cache line an entry (docs/benchmarks.md, "Maps that change"),
  // so a larger map's searches scan instead.
  static constexpr std::uint64_t kMaxCells = std::uint64_t{1} << 20;

  explicit jump_tables(const grid_map& m);

  const entry& at(int x, int y) const {
    return cells_[static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(x)];
  }
  int width() const { return width_; }  // entries a row: the step between rows
  std::size_t memory_bytes() const { return cells_.capacity() * sizeof(entry); }

  bool follows_cells() const override { return true; }
  void cell_changed(grid_map& m, const cell_change& c) override;
  void batch_done(grid_map& m) override;

 private:
  // Rewrites the entries of line `line` (a row, or a column) whose stop ahead may lie in
  // [lo, hi]: both directions along it.
  void repair_row(const grid_map& m, int y, int lo, int hi);
  void repair_column(const grid_map& m, int x, int lo, int hi);
  void repair_around(const grid_map& m, int x, int y);
  void rebuild(const grid_map& m);
  void rebuild_columns(const grid_map& m);

  // The span of a line whose stops a rectangle changed; empty while lo > hi.
  struct span {
    int lo = 1 << 30, hi = -(1 << 30);
  };
  static void note(std::vector<span>& spans, std::vector<int>& dirty, int line, int at);
  void widen(std::vector<span>& spans, std::vector<int>& dirty, int count);
  void note_span(int line, span s);

  int width_, height_;
  std::vector<entry> cells_;
  // A rectangle's changed lines, repaired once its bits are written (batch_done).
  std::vector<span> rows_, columns_;
  std::vector<int> dirty_rows_, dirty_columns_;
  std::vector<span> wide_;       // batch_done's lines to repair, with their spans
  std::vector<int> wide_lines_;
  std::size_t pending_cells_ = 0;
};

// The searches' and the preparation's reading of a map's tables.
struct jump_table_access {
  static const jump_tables* of(const grid_map& m);
  // Makes them for the map (nothing for more than kMaxCells); a map that has them keeps
  // them.
  static void make(grid_map& m);
  static void drop(grid_map& m);
};

}  // namespace lddb::detail
