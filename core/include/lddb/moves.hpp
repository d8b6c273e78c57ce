// lddb/moves.hpp: the tile and octile rules: which unit moves between cells are legal and
// what they cost.
//
// This is the one implementation of the cell rules. The generator, Block A*'s start/goal
// initialisation and the reference searches all call it, so they cannot disagree. (The
// path checker is written apart on purpose, so that it can catch them when they are
// wrong.) Coordinates follow docs/rules.md: x is the column (east), y the row (south),
// (0,0) is top-left. Every grid given to these functions answers blocked(x, y) for any
// integer x, y, and counts everything outside itself as blocked.
#pragma once

#include <array>
#include <cstdint>

#include "lddb/cost.hpp"
#include "lddb/rule.hpp"

namespace lddb {

// Cost of a single move by (dx, dy), each in {-1, 0, 1}, not both zero.
inline cost_t step_cost(const rule& r, int dx, int dy) {
  return (dx != 0 && dy != 0) ? r.diagonal : kCostOne;
}

// May a unit move go from free cell (x, y) to (x+dx, y+dy)? dx, dy in {-1,0,1}.
// Tile allows only the four straight moves.
template <class Grid>
bool step_legal(const rule& r, const Grid& g, int x, int y, int dx, int dy) {
  if (g.blocked(x + dx, y + dy)) return false;
  if (dx == 0 || dy == 0) return (dx != 0 || dy != 0);
  if (r.kind != rule_kind::octile) return false;
  if (r.corners == corner_cutting::allowed) return true;
  const bool side_a = g.blocked(x + dx, y);
  const bool side_b = g.blocked(x, y + dy);
  return r.corners == corner_cutting::forbidden ? !(side_a || side_b) : !(side_a && side_b);
}

// step_legal for many cells at once, for Block A*'s hand-on between blocks: `free` holds
// one bit per cell of a small grid, bit y * stride + x set when cell (x, y) is free. Bit
// y * stride + x of the result is set when the move (dx, dy) from (x, y) is legal by
// step_legal, for every cell whose move stays inside the mask's grid (the caller keeps
// one ring of cells around the cells it asks about). It does not test the source cell.
// tests/rules_test.cpp checks it against step_legal on every 3 x 3 neighbourhood.
inline std::uint64_t step_legal_mask(const rule& r, std::uint64_t free, int stride, int dx, int dy) {
  auto at = [free](int offset) { return offset >= 0 ? free >> offset : free << -offset; };
  const std::uint64_t target = at(dy * stride + dx);
  if (dx == 0 || dy == 0) return (dx != 0 || dy != 0) ? target : 0;
  if (r.kind != rule_kind::octile) return 0;
  if (r.corners == corner_cutting::allowed) return target;
  const std::uint64_t side_a = at(dx), side_b = at(dy * stride);
  return target & (r.corners == corner_cutting::forbidden ? (side_a & side_b) : (side_a | side_b));
}

// The eight unit moves, in the fixed order every search uses to break ties:
// N, E, S, W, NE, SE, SW, NW. Tile uses the first four.
inline constexpr std::array<std::array<int, 2>, 8> kSteps{{
    {0, -1}, {1, 0}, {0, 1}, {-1, 0}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}}};
inline int step_count(const rule& r) { return r.kind == rule_kind::octile ? 8 : 4; }

}  // namespace lddb
