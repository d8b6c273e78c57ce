// Private: the shapes of Block A*'s nodes. A node has a level: level 0 is the paper's
// block of b x b cells; level L (any-angle, b <= 4, search_options::open_squares) is an
// open square, an aligned group of 2^L x 2^L blocks whose cells are all free, searched as
// one node. A square's boundary costs are straight-line lengths, rounded as the database
// rounds them, since any segment inside a free square is legal: open ground then takes
// fewer, larger expansions, and paths across it bend less. A group that holds the start or
// the goal is not a square, so that their blocks' local searches stay the database's.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "geometry.hpp"
#include "lddb/block_shape.hpp"
#include "lddb/grid.hpp"
#include "lddb/rule.hpp"
#include "slots.hpp"

namespace lddb::block_astar_impl {

// Squares come in two sizes (levels): 2 x 2 and 4 x 4 blocks. The larger one's 16b
// boundary vertices must fit a 64-bit point_set, so squares need b <= 4.
constexpr int kMaxSquareBlock = 4;
constexpr int kSquareLevels = 2;                     // level L: 2^L x 2^L blocks
constexpr int kNodePoints = 16 * kMaxSquareBlock;    // the most boundary points of a node
constexpr int kSquareRing = (4 + 2) * (4 + 2);       // ring positions around a 4 x 4 square
constexpr int kSquareIdShift = 30;                   // a square's id: its top-left block's, level << 30
static_assert(kMaxBoundary <= kNodePoints, "a plain block's points fit a node's arrays");

// The geometry of the nodes of one level: their boundary points and, for squares, the
// straight-line costs between them and the links from them to the blocks around. A plain
// block's costs are the database's and its links block_links.
struct node_shape {
  int blocks = 0;  // blocks a side; 0: the rule has no node of this level
  int side = 0;    // cells a side
  int count = 0;   // boundary points
  std::array<point, kNodePoints> points;  // boundary index -> point (node coordinates)
  // Squares only:
  std::vector<int> index;    // vertex (y * (side + 1) + x) -> boundary index, -1 inside
  std::vector<cost_t> cost;  // count x count
  std::vector<link> links;   // in order of source
  std::array<std::uint16_t, kNodePoints + 1> first_link;  // links of point i: [first_link[i], first_link[i + 1])
};
using node_shapes = std::array<node_shape, kSquareLevels + 1>;  // by level

// Builds the shapes of every level for the rule and block size; scale_log2 is the
// database's, so that squares round lengths as it does.
void build_node_shapes(node_shapes& shapes, const rule& r, const block_shape& shape, int scale_log2);

// A square's points and neighbours, kept apart so that a block slot, the common case and
// the only one for cell rules, stays small.
struct square_nodes {
  std::array<cost_t, kNodePoints> g;
  std::array<parent_ref, kNodePoints> parent;
  std::array<int, kSquareRing> neighbour;  // by ring position
  std::array<std::uint64_t, 2> link_ok;    // bit k: node_shape::links[k] is legal (a 4 x 4 square has up to 84)
};

// The level of the square that block (bx, by) belongs to, 0 for none.
inline int square_level(const grid_map& map, point start, point goal, int bx, int by) {
  if (map.block_code(bx, by) != 0) return 0;  // on cluttered maps, most blocks stop here
  // The group of k x k blocks (aligned) around (bx, by) is a square when its blocks are all
  // open (the map's group counts say so in O(levels)) and it does not hold the start or
  // goal, on its border included: those keep their blocks and their local searches. A
  // 4 x 4 group holds a 2 x 2 one, so that goes first.
  const int b = map.block(), open = map.open_group_level(bx, by, kSquareLevels);
  for (int l = 1; l <= open; ++l) {
    const int k = 1 << l, x0 = (bx & ~(k - 1)) * b, y0 = (by & ~(k - 1)) * b, x1 = x0 + k * b, y1 = y0 + k * b;
    auto inside = [&](point p) { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; };
    if (inside(start) || inside(goal)) return l - 1;
  }
  return open;
}

// Which of a square's links are legal and which of its points can hand a g-value on.
void prepare_square(block_slot& slot, square_nodes& nodes, const node_shape& shape, const grid_map& map, const rule& r);

}  // namespace lddb::block_astar_impl
