// Private: the legal unit moves around a point, from the cells next to it, as tables
// filled by the rule functions themselves. Shared by the reference searches
// (node_search.hpp) and the landmark Dijkstras (landmark_dial.hpp), which need nothing else
// of a search.
#pragma once

#include <array>
#include <cstdint>

#include "lddb/grid.hpp"
#include "lddb/moves.hpp"
#include "lddb/rule.hpp"
#include "lddb/segments.hpp"

namespace lddb {

// The cells around one point as a tiny grid: bit ly * n + lx is cell (lx, ly) of an
// n x n square (n = 3 around a cell, 2 around a vertex); everything else is blocked.
struct small_pattern {
  std::uint32_t bits;
  int n;
  bool blocked(int x, int y) const {
    if (static_cast<unsigned>(x) >= static_cast<unsigned>(n) || static_cast<unsigned>(y) >= static_cast<unsigned>(n)) return true;
    return (bits >> (y * n + x)) & 1u;
  }
};

// The n x n cells whose top-left cell is (ox, oy), as small_pattern bits, read by
// blocked(x, y): a map's cells, or another record of them (a landmark set's reference).
template <class Blocked>
inline std::uint32_t gather_cells_by(Blocked&& blocked, int ox, int oy, int n) {
  std::uint32_t bits = 0;
  for (int ly = 0; ly < n; ++ly)
    for (int lx = 0; lx < n; ++lx)
      if (blocked(ox + lx, oy + ly)) bits |= 1u << (ly * n + lx);
  return bits;
}
inline std::uint32_t gather_cells(const grid_map& map, int ox, int oy, int n) {
  return gather_cells_by([&map](int x, int y) { return map.blocked(x, y); }, ox, oy, n);
}

// Which of the eight kSteps moves are legal from a point, by the pattern of the cells
// around it. The tables are filled by the rule functions themselves (step_legal for a
// cell, segment_legal for the unit segments from a vertex) on every small pattern, so
// they say exactly what those functions say: a unit move from cell (x, y) looks only at
// the 3 x 3 cells around it, a unit segment from vertex (x, y) only at its 4 cells
// (x-1..x, y-1..y). Each table is rebuilt when a query's rule differs from the last.
struct move_tables {
  std::array<std::uint8_t, 512> cell{};   // [3x3 pattern] -> bit k set: step k legal from the centre
  std::array<std::uint8_t, 16> vertex{};  // [2x2 pattern] -> bit k set: unit segment k legal from the centre vertex
  // [2x2 pattern][side] -> bit k set: unit segment k leaves the centre vertex on that side
  // (segment_side); at a vertex that is not a double corner every segment is on side 0.
  std::array<std::array<std::uint8_t, 2>, 16> vertex_side{};
  int cell_key = -1, vertex_key = -1;

  const std::array<std::uint8_t, 512>& cells_for(const rule& r) {
    const int key = (static_cast<int>(r.kind) << 8) | static_cast<int>(r.corners);
    if (key != cell_key) {
      for (std::uint32_t p = 0; p < 512; ++p) {
        const small_pattern g{p, 3};
        std::uint8_t mask = 0;
        for (int k = 0; k < 8; ++k)
          if (step_legal(r, g, 1, 1, kSteps[k][0], kSteps[k][1])) mask |= static_cast<std::uint8_t>(1u << k);
        cell[p] = mask;
      }
      cell_key = key;
    }
    return cell;
  }
  const std::array<std::uint8_t, 16>& vertices_for(const rule& r) {
    const int key = (static_cast<int>(r.kind) << 8) | static_cast<int>(r.squeeze);
    if (key != vertex_key) {
      for (std::uint32_t p = 0; p < 16; ++p) {
        const small_pattern g{p, 2};
        std::uint8_t mask = 0;
        for (int k = 0; k < 8; ++k)
          if (segment_legal(r, g, 1, 1, 1 + kSteps[k][0], 1 + kSteps[k][1])) mask |= static_cast<std::uint8_t>(1u << k);
        vertex[p] = mask;
        vertex_side[p] = {0, 0};
        for (int k = 0; k < 8; ++k)
          vertex_side[p][static_cast<std::size_t>(segment_side(g, 1, 1, 1 + kSteps[k][0], 1 + kSteps[k][1]))] |=
              static_cast<std::uint8_t>(1u << k);
      }
      vertex_key = key;
    }
    return vertex;
  }
};

}  // namespace lddb
