// Private: whether a landmark set's tables must be repaired for the cells a map freed, read
// against the map the tables describe (lddb/landmarks.hpp, "Changing maps"). Shared by a
// set (its reference, a bit a cell) and a builder (the copy of the map it builds from).
#pragma once

#include <cstdint>

#include "lddb/grid.hpp"

namespace lddb::detail {

// Of the cells `map` freed since its cells_freed() was `since`, is one blocked on the
// reference? blocked(x, y) reads the reference; row(y) its words of row y (cells 0..63 the
// first), `words` of them. From the map's journal while it holds them (O(cells freed));
// past it, every free cell of the map against the reference, a word at a time.
template <class Blocked, class Row>
bool freed_beyond(const grid_map& map, std::uint64_t since, Blocked&& blocked, Row&& row, int words) {
  if (!map.freed_kept_since(since)) {
    for (int y = 0; y < map.height(); ++y) {
      const std::uint64_t *here = map.row_line(y), *ref = row(y);
      for (int k = 0; k < words; ++k)
        if ((~here[k] & ref[k]) != 0) return true;
    }
    return false;
  }
  for (std::uint64_t i = since; i < map.cells_freed(); ++i) {
    const grid_map::cell c = map.freed_cell(i);
    if (blocked(c.x, c.y)) return true;
  }
  return false;
}

}  // namespace lddb::detail
