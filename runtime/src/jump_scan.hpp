// Private: the line scans of jump_point_search (jump_search.cpp), 64 cells a step.
//
// A scan walks a row (or a column) from a cell, in one direction, and stops at the first
// cell that is a jump point: one with a forced neighbour, or the goal. It reads the
// blocked bits of three lines at once (the line walked and its two neighbours) from
// grid_map::row_bits / column_bits, which count every cell off the map as blocked, so a
// scan always ends at the map's edge.
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

// The blocked bits of cells pos..pos+63 (first) and pos+1..pos+64 (second) of a line:
// along rows, line = y and pos = x; along columns, line = x and pos = y. The second comes
// from the same two words as the first.
struct line_pair {
  std::uint64_t first, second;
};
template <bool Rows>
inline line_pair line_bits(const grid_map& m, int line, int pos) {
  const std::uint64_t* l = Rows ? m.row_line(line) : m.column_line(line);
  const std::ptrdiff_t i = pos >> 6;
  const int s = pos & 63;
  const std::uint64_t lo = l[i], hi = l[i + 1];
  const std::uint64_t first = (lo >> s) | (hi << 1 << (63 - s));
  return {first, (first >> 1) | ((hi >> s) << 63)};
}

inline constexpr int kNone = -1 << 30;  // no jump point: the scan ran into a blocked cell

// Scans line `line` from position `pos` (exclusive) forwards (Forward) or backwards. The
// goal counts when goal_pos is on this line (on_line). Returns the position of the first
// jump point, or kNone.
template <bool Rows, bool Forward>
inline int scan(const grid_map& m, int line, int pos, bool on_line, int goal_pos) {
  for (int p = pos;; p += Forward ? 64 : -64) {
    // Forward: bit i is cell p + 1 + i, the cell behind it p + i. Backward: bit i is cell
    // p - 64 + i, the cell behind it p - 63 + i.
    const int from = Forward ? p : p - 64;
    const line_pair here = line_bits<Rows>(m, line, from);
    const line_pair before = line_bits<Rows>(m, line - 1, from), after = line_bits<Rows>(m, line + 1, from);
    const std::uint64_t cells = Forward ? here.second : here.first;
    std::uint64_t stop = cells;
    if constexpr (Forward) stop |= (before.first & ~before.second) | (after.first & ~after.second);
    else stop |= (before.second & ~before.first) | (after.second & ~after.first);
    const int first_cell = Forward ? p + 1 : p - 64;
    if (on_line && static_cast<unsigned>(goal_pos - first_cell) < 64u)
      stop |= std::uint64_t{1} << (goal_pos - first_cell);
    if (stop != 0) {
      const int i = Forward ? std::countr_zero(stop) : 63 - std::countl_zero(stop);
      return ((cells >> i) & 1u) != 0 ? kNone : first_cell + i;
    }
  }
}

}  // namespace lddb::jump
