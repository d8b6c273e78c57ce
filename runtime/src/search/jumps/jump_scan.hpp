// Private: the line scans of jump_point_search (jump_search.cpp), 64 cells a step.
//
// A scan walks a row (or a column) from a cell, in one direction, and stops at the first
// cell that is a jump point: one with a forced neighbour, or the goal. It reads the
// blocked bits of three lines at once (the line walked and its two neighbours) from
// grid_map::row_line / column_line, whose margins count every cell off the map as blocked,
// so a scan always ends at the map's edge.
//
// Forced neighbour, under octile with corners=forbidden: walking east along row y, cell
// (x, y) is a jump point when the cell above-behind it, (x-1, y-1), is blocked and the
// cell above it, (x, y-1), is free (or the same below). (x, y-1) can then be reached from
// (x-1, y) only through (x, y) at cost 2: the diagonal that would cost less cuts the
// blocked corner. When (x-1, y-1) is free, every cell above the row is reached at least as
// cheaply by a path that leaves the row earlier, diagonal first (jump_search.cpp has the
// whole argument).
#pragma once

#include <bit>
#include <cstdint>

#include "lddb/grid.hpp"

namespace lddb::jump {

// No jump point: the scan ran into a blocked cell, returned as kNone, or with Walls as
// wall(p), p its position: under any-angle with squeeze=allowed the cell before it may
// still be a jump point (a cell beside a double corner, jump_search.cpp). Positions run
// from -1 (the margin) to below 2^29, so both read below kWallBelow and a jump point never.
inline constexpr int kNone = -(1 << 30), kWallBelow = -(1 << 29);
constexpr int wall(int p) { return kNone + 1 + p; }
constexpr bool is_wall(int at) { return at < kWallBelow; }
constexpr int wall_position(int at) { return at - kNone - 1; }

// Scans line `line` from position `pos` (exclusive) forwards (Forward) or backwards. The
// goal counts when goal_pos is on this line (on_line). Returns the position of the first
// jump point, or kNone (with Walls: wall(position of the first blocked cell)).
//
// It reads the lines' aligned words (grid_map::row_line, column_line) one at a time: the
// first word masked to the cells ahead of `pos`, then whole words, keeping the word of each
// neighbouring line it read last for the one cell behind the next word's first.
template <bool Rows, bool Forward, bool Walls = false>
inline int scan(const grid_map& m, int line, int pos, bool on_line, int goal_pos) {
  const std::uint64_t* here = Rows ? m.row_line(line) : m.column_line(line);
  const std::uint64_t* before = Rows ? m.row_line(line - 1) : m.column_line(line - 1);
  const std::uint64_t* after = Rows ? m.row_line(line + 1) : m.column_line(line + 1);
  const int first = Forward ? pos + 1 : pos - 1;
  std::ptrdiff_t i = first >> 6;  // floor, also for a negative position
  const int goal_word = on_line ? goal_pos >> 6 : -(1 << 30);  // a word no scan reaches when off the line
  // Forward: bits at and above the first cell; backward: at and below it.
  std::uint64_t mask = Forward ? ~std::uint64_t{0} << (first & 63) : ~std::uint64_t{0} >> (63 - (first & 63));
  // The neighbouring lines' word behind word i (Forward: i - 1, its top bit is the cell
  // behind bit 0; backward: i + 1, its bit 0 is the cell behind bit 63).
  std::uint64_t b_prev = before[Forward ? i - 1 : i + 1], a_prev = after[Forward ? i - 1 : i + 1];
  for (;; i += Forward ? 1 : -1) {
    const std::uint64_t cells = here[i], b = before[i], a = after[i];
    // A free neighbour whose cell behind is blocked: a forced neighbour (see above).
    std::uint64_t behind_b, behind_a;
    if constexpr (Forward) {
      behind_b = (b << 1) | (b_prev >> 63);
      behind_a = (a << 1) | (a_prev >> 63);
    } else {
      behind_b = (b >> 1) | (b_prev << 63);
      behind_a = (a >> 1) | (a_prev << 63);
    }
    std::uint64_t stop = cells | (behind_b & ~b) | (behind_a & ~a);
    if (i == goal_word) stop |= std::uint64_t{1} << (goal_pos & 63);
    stop &= mask;
    if (stop != 0) {
      const int j = Forward ? std::countr_zero(stop) : 63 - std::countl_zero(stop);
      if (((cells >> j) & 1u) == 0) return static_cast<int>(i * 64 + j);
      if constexpr (Walls) return wall(static_cast<int>(i * 64 + j));
      return kNone;
    }
    mask = ~std::uint64_t{0};
    b_prev = b;
    a_prev = a;
  }
}

}  // namespace lddb::jump
