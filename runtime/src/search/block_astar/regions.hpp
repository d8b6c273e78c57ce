// Private: the shapes of Block A*'s nodes. A node has a level: level 0 is the paper's
// block of b x b cells; level L >= 1 (search_diagnostics::open_squares) is an open square, an
// aligned group of 2^L x 2^L blocks whose cells are all free, searched as one node. Every
// move inside a free square is legal under every rule, so its boundary costs are closed
// form: straight-line lengths between its boundary vertices for any-angle (rounded as the
// database rounds them), Manhattan or octile distance between its boundary cells for tile
// and octile (exact, so those searches stay optimal). Open ground then takes fewer, larger
// expansions (and any-angle paths across it bend less). A group that holds the start or the
// goal is not a square, so that their blocks' local searches stay the database's.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "search/block_astar/geometry.hpp"
#include "lddb/block_shape.hpp"
#include "lddb/grid.hpp"
#include "lddb/rule.hpp"
#include "search/block_astar/slots.hpp"

namespace lddb::block_astar_impl {

// The small squares come in two sizes (levels): 2 x 2 and 4 x 4 blocks (larger ones:
// large_squares.hpp). A node's boundary points must fit a 64-bit point_set: a square of side s cells has 4s vertices (any-angle: b <= 4
// for both levels) or 4s - 4 cells (tile, octile: both levels for b <= 4, 2 x 2 for b = 5).
constexpr int kSquareLevels = 2;                  // level L: 2^L x 2^L blocks
constexpr int kNodePoints = 64;                   // the most boundary points of a node
constexpr int kSquareRing = (4 + 2) * (4 + 2);    // ring positions around a 4 x 4 square
constexpr int kSquareIdShift = 29;                // a square's id: its top-left block's, level << 29
constexpr int kMaxSquareLinks = 256;              // octile, 16 cells a side: 12 * 16 - 4 = 188
static_assert(kMaxBoundary <= kNodePoints, "a plain block's points fit a node's arrays");

// The geometry of the nodes of one level: their boundary points and, for squares, the
// closed-form costs between them and the links from them to the blocks around. A plain
// block's costs are the database's and its links block_links.
struct node_shape {
  int blocks = 0;  // blocks a side; 0: the rule has no node of this level
  int side = 0;    // cells a side
  int count = 0;   // boundary points
  std::array<point, kNodePoints> points;  // boundary index -> point (node coordinates)
  // Squares only:
  int stride = 0;            // side + 1 (vertices) or side (cells)
  std::vector<int> index;    // point (y * stride + x) -> boundary index, -1 inside
  std::vector<cost_t> cost;  // count x count
  std::vector<link> links;   // in order of source
  // Cells: for each link, the ring cells step_legal reads for it (ring_id; the last id is
  // a cell inside, always free) and, bit w, whether the move is legal when they are
  // blocked as the bits of w say: prepare_square's legality without asking the rule again.
  struct ring_test {
    std::array<std::uint8_t, 3> cell;
    std::uint8_t legal;
  };
  std::vector<ring_test> ring_tests;
  std::array<std::uint16_t, kNodePoints + 1> first_link;  // links of point i: [first_link[i], first_link[i + 1])
};
using node_shapes = std::array<node_shape, kSquareLevels + 1>;  // by level

// Builds level 0, the plain block, for the block size.
void build_block_shape(node_shapes& shapes, const block_shape& shape);
// Builds the squares' levels for the rule and block size; scale_log2 is the database's, so
// that squares round lengths as it does. Returns the highest square level (0: none).
int build_square_shapes(node_shapes& shapes, const rule& r, const block_shape& shape, int scale_log2);

// A square's points and neighbours, kept apart so that a block slot, the common case and
// the only one for cell rules, stays small.
struct square_nodes {
  std::array<cost_t, kNodePoints> g;
  std::array<parent_ref, kNodePoints> parent;
  std::array<int, kSquareRing> neighbour;  // by ring position
  std::array<std::uint64_t, kMaxSquareLinks / 64> link_ok;  // bit k: node_shape::links[k] is legal
};

// The level of the square that block (bx, by) belongs to, 0 for none; max_level is the
// highest the rule has (build_square_shapes), cells whether its points are cells.
inline int square_level(const grid_map& map, point start, point goal, int bx, int by, int max_level, bool cells) {
  if (map.block_code(bx, by) != 0) return 0;  // on cluttered maps, most blocks stop here
  // The group of k x k blocks (aligned) around (bx, by) is a square when its blocks are all
  // open (the map's group counts say so in O(levels)) and it does not hold the start or
  // goal (a vertex on its border included): those keep their blocks and their local
  // searches. A 4 x 4 group holds a 2 x 2 one, so that goes first.
  const int b = map.block(), open = map.open_group_level(bx, by, max_level), border = cells ? 0 : 1;
  for (int l = 1; l <= open; ++l) {
    const int k = 1 << l, x0 = (bx & ~(k - 1)) * b, y0 = (by & ~(k - 1)) * b, x1 = x0 + k * b, y1 = y0 + k * b;
    auto inside = [&](point p) { return p.x >= x0 && p.x < x1 + border && p.y >= y0 && p.y < y1 + border; };
    if (inside(start) || inside(goal)) return l - 1;
  }
  return open;
}

// Cell (x, y) of the ring around a square of side cells (square coordinates), numbered
// top row, bottom row, left column, right column; 4 side + 4 for a cell inside.
int ring_id(point c, int side);

// A free square whose ring cells `read` are blocked as the bits of `way` say, as
// step_legal reads a grid.
struct ring_way {
  const std::array<point, 3>& read;
  unsigned way;
  int side;
  bool blocked(int x, int y) const;
};

// A way out of a square of k x k blocks from its boundary point `source`, into the block at
// offset (ox, oy) from its top-left one: a move (cells) or the very same vertex. When that
// block is plain, `target` is the point's boundary index there and `back` where that block
// finds the square's block (hx, hy) that holds the source.
struct square_exit {
  int source, ox, oy, dx, dy, target, back, hx, hy;
  std::uint64_t cells;  // vertices: the vertex's cells in the block, as its pattern bits
  cost_t cost;          // cells: the move's
  std::array<int, 3> ring;  // cells: the ring_ids step_legal reads for the move,
  std::uint8_t legal;       // and bit w: legal when they are blocked as the bits of w say
};
// Every way out of a square whose boundary points are points[0..count), in order of source:
// the one enumeration behind both sizes of square (regions.cpp, large_squares.cpp).
void square_exits(const point* points, int count, int k, const rule& r, const block_shape& shape,
                  const std::function<void(const square_exit&)>& f);

// The cells around a square of side cells with top-left cell (x0, y0), into ring[ring_id]
// (1: blocked; off the map counts as blocked), and 0 at 4 side + 4, a cell inside.
void read_ring(const grid_map& map, int x0, int y0, int side, std::uint8_t* ring);

// Which of a square's links are legal and which of its points can hand a g-value on.
void prepare_square(block_slot& slot, square_nodes& nodes, const node_shape& shape, const grid_map& map, const rule& r);

}  // namespace lddb::block_astar_impl
