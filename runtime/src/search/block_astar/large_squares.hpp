// Private: large open squares, the levels above kSquareLevels (8 x 8 and 16 x 16 blocks).
// Their rings hold up to 256 boundary points, past the 64-bit point sets of blocks and
// small squares, so they keep their points in vectors of their own and are expanded apart
// (large_expansion.cpp): the g-values cross the square by rows from the few points that
// improved, or by carry_ring, in time about linear in its perimeter, where a side-by-side
// product over all points would cost its square. search_diagnostics::square_levels says how
// large a query's squares may be.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "search/block_astar/carry.hpp"
#include "search/block_astar/geometry.hpp"
#include "lddb/block_shape.hpp"
#include "lddb/grid.hpp"
#include "lddb/rule.hpp"
#include "search/block_astar/regions.hpp"

namespace lddb::block_astar_impl {

constexpr int kMaxSquareLevel = 4;  // 16 x 16 blocks
// A large square's boundary index must fit parent_ref's 8 bits in the blocks and small
// squares it hands on to.
constexpr int kLargePoints = 256;

// A move (cells) or a shared vertex from a large square's boundary point into a block
// around it, as geometry.hpp's link with room for a larger ring.
struct large_link {
  std::uint16_t source;  // boundary index in the square
  std::uint16_t around;  // the block's ring position around the square
  std::int16_t ox, oy;   // the block's offset from the square's top-left block
  std::int8_t dx, dy;    // cells: the move
  std::uint8_t target;   // when that block is plain: the target's boundary index in it,
  std::uint8_t back;     // and where it finds the square (its ring position)
  std::uint8_t hx, hy;   // the square's block that holds the source
  std::uint64_t target_ring;  // vertices: the target's cells in that block, as pattern bits
  cost_t cost;                // cells: the move's
};

struct large_shape {
  int blocks = 0;  // blocks a side; 0: the rule has no square of this level
  int side = 0, last = 0, count = 0, stride = 0;  // cells a side; points 0..last a side; 4 last points
  std::vector<point> points;        // boundary index -> point (square coordinates)
  std::vector<int> index;           // point (y * stride + x) -> boundary index, -1 inside
  std::vector<large_link> links;    // in order of source
  std::vector<std::uint32_t> first_link;  // links of point i: [first_link[i], first_link[i + 1])
  struct ring_test {                // cells: as node_shape::ring_test, on a longer ring
    std::array<std::uint16_t, 3> cell;
    std::uint8_t legal;
  };
  std::vector<ring_test> ring_tests;
  carry_metric metric;  // the cost between two boundary points
  std::vector<cost_t> distance;  // metric.cost(dx, dy) at dx * (last + 1) + dy, dx, dy in 0..last
  // An expansion whose ingress has at most this many points relaxes their rows one by one
  // (ingress x count steps), as a small square does; more take carry_ring.
  int sparse_rows = 0;
};
using large_shapes = std::array<large_shape, kMaxSquareLevel + 1>;  // by level (the low ones unused)

// A parent with room for a large square's boundary index and ring position.
struct wide_parent {
  via kind;
  std::uint16_t index;
  std::uint16_t around;
};

// One large square's points during a query.
struct large_nodes {
  std::vector<cost_t> g;
  std::vector<wide_parent> parent;
  std::vector<int> neighbour;  // slots by ring position, -1: not known yet
  std::vector<std::uint64_t> link_ok, exitable, ingress;  // bit sets over links and points
  void reset(const large_shape& q);  // a fresh node: nothing reached
  void room_for(const large_shape& q);  // capacity for a node of shape q, values kept
};

// Builds the large levels that the rule and block size allow, one after another, when
// `top` (the highest small level) is kSquareLevels; returns the highest level built (top
// when none).
int build_large_shapes(large_shapes& shapes, const rule& r, const block_shape& shape, int scale_log2, int top);

// Which links of the large square with top-left block (bx, by) are legal and which of its
// points can hand a g-value on. `ring` is scratch.
void prepare_large(large_nodes& nodes, const large_shape& q, int bx, int by, const grid_map& map, const rule& r,
                   std::vector<std::uint8_t>& ring);

}  // namespace lddb::block_astar_impl
