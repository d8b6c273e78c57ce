// Private: whether a landmark set's tables must be repaired for the cells a map freed, read
// against the map the tables describe (lddb/landmarks.hpp, "Changing maps"). Shared by a
// set (its reference, a bit a cell) and a builder (the copy of the map it builds from).
#pragma once

#include <bit>
#include <cstdint>

#include "lddb/grid.hpp"

namespace lddb::detail {

// The map against the reference, a word at a time: calls cell(x, y) for each cell free on
// the map and blocked on the reference while it returns true, and returns how many of the
// cells it passed are blocked on the map and free on the reference. row(y) gives the
// reference's words of row y (cells 0..63 the first), `words` of them, its cells past the
// map's width blocked as the map's own words have them.
template <class Row, class Cell>
std::uint64_t compare_with_reference(const grid_map& map, Row&& row, int words, Cell&& cell) {
  std::uint64_t closed_since = 0;
  for (int y = 0; y < map.height(); ++y) {
    const std::uint64_t *here = map.row_line(y), *ref = row(y);
    for (int k = 0; k < words; ++k) {
      if (const std::uint64_t closed = here[k] & ~ref[k]; closed != 0)  // few: a popcount is a call here
        closed_since += static_cast<std::uint64_t>(std::popcount(closed));
      for (std::uint64_t beyond = ~here[k] & ref[k]; beyond != 0; beyond &= beyond - 1)
        if (!cell(k * 64 + std::countr_zero(beyond), y)) return closed_since;
    }
  }
  return closed_since;
}

// Of the cells `map` freed since its cells_freed() was `since`, is one blocked on the
// reference? blocked(x, y) reads the reference, row and words as above. From the map's
// journal while it holds them (O(cells freed)); past it, the whole map against the
// reference (O(cells / 64)).
template <class Blocked, class Row>
bool freed_beyond(const grid_map& map, std::uint64_t since, Blocked&& blocked, Row&& row, int words) {
  if (!map.freed_kept_since(since)) {
    bool any = false;
    compare_with_reference(map, row, words, [&any](int, int) { return !(any = true); });
    return any;
  }
  for (std::uint64_t i = since; i < map.cells_freed(); ++i) {
    const grid_map::cell c = map.freed_cell(i);
    if (blocked(c.x, c.y)) return true;
  }
  return false;
}

}  // namespace lddb::detail
