// Private: where Block A*'s nodes meet: ring positions of neighbouring blocks, the links
// from a block's boundary points into its neighbours (Algorithm 1, line 6), which of them
// a given block may use, and the blocks that hold a point.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "lddb/block_shape.hpp"
#include "lddb/grid.hpp"
#include "lddb/moves.hpp"
#include "lddb/rule.hpp"
#include "lddb/segments.hpp"
#include "search/block_astar/slots.hpp"

namespace lddb::block_astar_impl {

constexpr int kMaxStarts = 4;  // a corner vertex lies in four blocks

// The ring position of the block at offset (ox, oy) from the top-left block of a node
// `blocks` blocks a side (1 for a plain block): column-major over the ring and the node.
constexpr int ring_position(int ox, int oy, int blocks) { return (ox + 1) * (blocks + 2) + (oy + 1); }

// Along one axis: which of a node's `blocks` blocks (b cells each) holds its boundary vertex
// at coordinate c (node coordinates). A vertex between two blocks counts as the first's.
// Always 0 for a plain block.
inline int holding_block(int c, int blocks, int b) { return std::min(std::max(c - 1, 0) / b, blocks - 1); }

// Where a boundary point leads outside its node: one move (cells) or the very same vertex
// (corners) in a neighbouring block. A block has at most 56 of them (b = 5 cells), so one
// 64-bit mask says which are legal.
struct link {
  std::uint8_t source;  // boundary index in this node
  std::uint8_t target;  // boundary index in the neighbour
  std::uint8_t around;  // the neighbour's ring position
  std::int8_t ox, oy;   // neighbour block offset
  std::int8_t dx, dy;   // the move (cells); 0, 0 for a shared vertex
  std::uint8_t legal_word, legal_bit;  // cells: where prepare_block's masks say if the link is legal
  std::uint8_t back;  // from a square into a plain block: target's index there is `target`, and
                      // the block finds the square at its ring position `back`
  std::uint8_t hx, hy;  // cells: the block of the node that holds the source (0, 0 in a plain block)
  std::uint64_t target_ring;  // vertices: the target's cells in the neighbour, as ring bits;
                              // from a square, as pattern bits of the neighbouring block
  cost_t cost;
};
constexpr int kMaxLinks = 64;

// A plain block's links, for one rule and block size, in order of source point, and what
// the min-plus product knows before it reads a cost.
struct block_links {
  // Builds everything below; unit is one stored cost unit (0 for exact cell costs).
  void build(const rule& r, const block_shape& shape, cost_t unit);

  std::vector<link> links;
  std::array<std::uint64_t, kMaxBoundary> point_links;  // bit k: links[k] starts here
  std::uint64_t all_links;      // a bit for each link
  std::uint32_t linked_points;  // a bit for each boundary point with a link
  // Vertices: each boundary vertex's cells inside the block and outside it, as ring bits;
  // for the default rule's double corners, the ring bits of the boundary vertices'
  // north-west cells, and the boundary point whose north-west cell each ring bit is.
  std::array<std::uint64_t, kMaxBoundary> own_ring, other_ring;
  std::uint64_t corner_nw_bits;
  std::array<std::int8_t, 64> point_at_nw_bit;
  // A lower bound on the database cost between two boundary points in any block: the
  // rule's distance in open space (its default heuristic), less one stored unit for the
  // rounding of any-angle lengths. A min-plus step whose bound cannot beat the point's
  // g-value skips the table lookup.
  std::array<std::array<cost_t, kMaxBoundary>, kMaxBoundary> floor_cost;
};

// Blocks holding point p (cells: one; vertices: up to four), with p's local point.
int containing_blocks(const rule& r, const grid_map& map, point p, std::array<std::pair<point, point>, kMaxStarts>& out);

// Which links are legal moves out of plain block `slot` and which of its points can hand a
// g-value on (block_slot::link_ok, free_ring, exitable). Inlined: its call cost showed.
[[gnu::always_inline]] inline void prepare_block(block_slot& slot, const block_links& bl, const grid_map& map,
                                                 const rule& r, int b, int n) {
  std::array<std::uint32_t, 9> codes;  // by link::around
  for (int k = 0; k < 9; ++k) codes[static_cast<std::size_t>(k)] = map.block_code(slot.bx + k / 3 - 1, slot.by + k % 3 - 1);
  // The block and the ring of cells around it as one mask, bit (y + 1) * (b + 2) + (x + 1)
  // set when cell (x, y) (block coordinates, -1 to b) is free; 7 x 7 <= 64 bits.
  const int stride = b + 2;
  const std::uint32_t row_mask = (1u << b) - 1;
  auto cell = [&](int k, int x, int y) { return std::uint64_t{(codes[static_cast<std::size_t>(k)] >> (y * b + x)) & 1u}; };
  auto ring_row = [&](int west, int mid, int east, int y) {  // blocked bits of one ring row
    return cell(west, b - 1, y) | std::uint64_t{(codes[static_cast<std::size_t>(mid)] >> (y * b)) & row_mask} << 1 |
           cell(east, 0, y) << (b + 1);
  };
  std::uint64_t blocked = ring_row(0, 3, 6, b - 1);  // the row above: NW, N, NE
  for (int y = 0; y < b; ++y) blocked |= ring_row(1, 4, 7, y) << ((y + 1) * stride);
  blocked |= ring_row(2, 5, 8, 0) << ((b + 1) * stride);  // the row below: SW, S, SE
  const std::uint64_t free = ~blocked & ((std::uint64_t{1} << (stride * stride)) - 1);
  if (blocked == 0) {  // open ground, the common case on game maps: every link is legal
    slot.free_ring = free;
    slot.link_ok = bl.all_links;
    slot.exitable = bl.linked_points;
    return;
  }
  std::uint32_t exitable = 0;
  if (r.on_vertices()) {
    // A boundary vertex hands on when it is usable here and in a block that shares it.
    slot.free_ring = free;
    slot.link_ok = bl.all_links;  // each checked against free_ring when handed on
    for (int i = 0; i < n; ++i)
      exitable |= static_cast<std::uint32_t>((free & bl.own_ring[static_cast<std::size_t>(i)]) != 0 &&
                                             (free & bl.other_ring[static_cast<std::size_t>(i)]) != 0)
                  << i;
    // Default rule: at a double corner the block's free cell and the other free cell are
    // the two sides, in different blocks, so a g-value there is handed on to no one
    // (docs/rules.md: a boundary vertex is a port of each block's own side).
    if (r.squeeze == squeezing::forbidden)
      for (std::uint64_t m = double_corner_mask(free, stride) & bl.corner_nw_bits; m; m &= m - 1)
        exitable &= ~(1u << bl.point_at_nw_bit[static_cast<std::size_t>(__builtin_ctzll(m))]);
    slot.exitable = exitable;
    return;
  }
  // Cells: the rule's moves for all the block's cells at once, one mask per direction,
  // each direction known at compile time so that the shifts in step_legal_mask need no
  // branches.
  std::array<std::uint64_t, 8> legal_by{};
  auto direction = [&](auto m) {
    if (static_cast<int>(m) >= step_count(r)) return;
    legal_by[m] = free & step_legal_mask(r, free, stride, kSteps[m][0], kSteps[m][1]);
  };
  [&]<std::size_t... M>(std::index_sequence<M...>) { (direction(std::integral_constant<std::size_t, M>{}), ...); }
  (std::make_index_sequence<8>{});
  std::uint64_t ok = 0;
  for (std::size_t k = 0; k < bl.links.size(); ++k) {
    const link& l = bl.links[k];
    ok |= ((legal_by[l.legal_word] >> l.legal_bit) & 1u) << k;
  }
  slot.link_ok = ok;
  // A point can hand a g-value on when one of its links is legal.
  for (int i = 0; i < n; ++i) exitable |= static_cast<std::uint32_t>((ok & bl.point_links[static_cast<std::size_t>(i)]) != 0) << i;
  slot.exitable = exitable;
}

}  // namespace lddb::block_astar_impl
