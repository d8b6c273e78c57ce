// Deterministic map generators: random obstacles, rooms, mazes. See lddb/mapgen.hpp.
//
// Every generator draws from its own splitmix64 stream (lddb/splitmix.hpp) with unbiased
// bounded draws by rejection, so a seed gives the same map on every platform, compiler and
// standard library. <random>'s distributions are not used: their output is
// implementation-defined.
//
// Layouts (x east, y south; walls are blocked cells, everything else is free):
//  random  each cell independently blocked with probability percent / 100.
//  rooms   rooms of `room` x `room` free cells; columns x with x % (room+1) == room and rows
//          y with y % (room+1) == room are walls, except a wall line on the map's last
//          column or row (nothing lies beyond it, so those cells join the last rooms).
//          Every wall segment between two neighbouring rooms gets 1 to 3 one-cell doors at
//          distinct random positions, so every free cell is reachable from every other
//          (with 4-way moves, hence under every rule). Wall crossings stay blocked.
//  maze    a lattice of cells `corridor` x `corridor` wide separated by 1-cell walls (same
//          line positions as rooms; cells in the last column or row are trimmed by the map
//          edge, and a wall line on the last column or row stays a solid border). A perfect
//          maze (a spanning tree of the lattice, by randomised depth-first search from cell
//          (0,0)) opens the whole shared side between two joined cells; wall crossings stay
//          blocked. Every free cell is reachable and the lattice has no cycles.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "lddb/mapgen.hpp"
#include "lddb/grid.hpp"
#include "lddb/splitmix.hpp"

namespace lddb {
namespace {

// A splitmix64 stream with unbiased bounded draws.
class map_rng {
 public:
  explicit map_rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() { return splitmix64(state_); }
  // Uniform in [0, n), n >= 1, without modulo bias.
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t threshold = (0 - n) % n;  // 2^64 mod n
    for (;;) {
      const std::uint64_t r = next();
      if (r >= threshold) return r % n;
    }
  }

 private:
  std::uint64_t state_;
};

// Distinct streams for the three generators, so the same seed does not correlate them.
map_rng make_rng(std::uint64_t seed, std::uint64_t salt) {
  std::uint64_t mix = seed ^ salt;
  return map_rng(splitmix64(mix));
}

void check_size(const char* what, int width, int height) {
  if (width < 1 || height < 1 || width > grid_map::kMaxSide || height > grid_map::kMaxSide)
    throw std::invalid_argument(std::string(what) + ": map size " + std::to_string(width) + "x" +
                                std::to_string(height) + " is outside 1.." + std::to_string(grid_map::kMaxSide));
}

// Cells [first, last) of lattice cell i along an axis of `extent` cells with period
// cell+1 (the last cell is trimmed by the edge).
struct span {
  int first, last;
};
span lattice_span(int i, int cell, int extent) {
  const int first = i * (cell + 1);
  const int last = first + cell < extent ? first + cell : extent;
  return {first, last};
}
// Number of lattice cells that start inside the extent.
int lattice_count(int cell, int extent) { return (extent + cell) / (cell + 1); }

}  // namespace

grid_map make_random_map(int width, int height, int percent, std::uint64_t seed, int block) {
  check_size("make_random_map", width, height);
  if (percent < 0 || percent > 100)
    throw std::invalid_argument("make_random_map: percent must be 0..100, not " + std::to_string(percent));
  grid_map map(width, height, block);
  map_rng rng = make_rng(seed, 0x72616E646F6D0001ull);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      if (rng.below(100) < static_cast<std::uint64_t>(percent)) map.set_blocked(x, y, true);
  return map;
}

grid_map make_rooms_map(int width, int height, int room, std::uint64_t seed, int block) {
  check_size("make_rooms_map", width, height);
  if (room < 1 || room > grid_map::kMaxSide)
    throw std::invalid_argument("make_rooms_map: room size must be 1.." + std::to_string(grid_map::kMaxSide) +
                                ", not " + std::to_string(room));
  grid_map map(width, height, block);
  map_rng rng = make_rng(seed, 0x726F6F6D73000002ull);
  const int period = room + 1;
  auto wall_x = [&](int x) { return x % period == room && x < width - 1; };
  auto wall_y = [&](int y) { return y % period == room && y < height - 1; };
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      if (wall_x(x) || wall_y(y)) map.set_blocked(x, y, true);

  const int nx = lattice_count(room, width), ny = lattice_count(room, height);
  // The free extent of room i along an axis: up to the next wall line or the edge.
  auto room_span = [&](int i, int extent) {
    span s = lattice_span(i, room, extent);
    if (s.last == extent - 1 && s.last % period == room) s.last = extent;  // no wall on the last line
    return s;
  };
  // Opens 1..3 distinct doors in the wall line at `fixed` (a column when vertical), over
  // the cells [s.first, s.last) along the wall.
  std::vector<int> cells;
  auto open_doors = [&](span s, int fixed, bool vertical) {
    const int len = s.last - s.first;
    if (len <= 0) return;
    const int want = 1 + static_cast<int>(rng.below(3));
    const int doors = want < len ? want : len;
    cells.clear();
    for (int k = 0; k < len; ++k) cells.push_back(s.first + k);
    for (int d = 0; d < doors; ++d) {  // partial Fisher-Yates: distinct positions
      const int pick = d + static_cast<int>(rng.below(static_cast<std::uint64_t>(len - d)));
      std::swap(cells[static_cast<std::size_t>(d)], cells[static_cast<std::size_t>(pick)]);
      const int c = cells[static_cast<std::size_t>(d)];
      if (vertical)
        map.set_blocked(fixed, c, false);
      else
        map.set_blocked(c, fixed, false);
    }
  };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const span sx = room_span(i, width), sy = room_span(j, height);
      if (i + 1 < nx) open_doors(sy, sx.last, true);    // the wall east of room (i, j)
      if (j + 1 < ny) open_doors(sx, sy.last, false);   // the wall south of room (i, j)
    }
  return map;
}

grid_map make_maze_map(int width, int height, int corridor, std::uint64_t seed, int block) {
  check_size("make_maze_map", width, height);
  if (corridor < 1 || corridor > grid_map::kMaxSide)
    throw std::invalid_argument("make_maze_map: corridor width must be 1.." + std::to_string(grid_map::kMaxSide) +
                                ", not " + std::to_string(corridor));
  grid_map map(width, height, block);
  map_rng rng = make_rng(seed, 0x6D617A6500000003ull);
  const int period = corridor + 1;
  // Everything starts as wall except the lattice cells' interiors.
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      if (x % period == corridor || y % period == corridor) map.set_blocked(x, y, true);

  const int nx = lattice_count(corridor, width), ny = lattice_count(corridor, height);
  const std::size_t n = static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
  std::vector<std::uint8_t> visited(n, 0);
  std::vector<std::uint32_t> stack;
  stack.reserve(1024);
  auto id = [&](int i, int j) { return static_cast<std::uint32_t>(static_cast<std::size_t>(j) * nx + i); };
  // Opens the wall between lattice cell a and its neighbour east (or else south) of it.
  auto carve = [&](int ai, int aj, bool east) {
    if (east) {  // east: the wall column right of a, over a's rows
      const int x = lattice_span(ai, corridor, width).last;
      const span sy = lattice_span(aj, corridor, height);
      for (int y = sy.first; y < sy.last; ++y) map.set_blocked(x, y, false);
    } else {  // south: the wall row below a, over a's columns
      const int y = lattice_span(aj, corridor, height).last;
      const span sx = lattice_span(ai, corridor, width);
      for (int x = sx.first; x < sx.last; ++x) map.set_blocked(x, y, false);
    }
  };
  static constexpr int kDir[4][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
  visited[0] = 1;
  stack.push_back(0);
  while (!stack.empty()) {
    const std::uint32_t cur = stack.back();
    const int ci = static_cast<int>(cur % static_cast<std::uint32_t>(nx)), cj = static_cast<int>(cur / static_cast<std::uint32_t>(nx));
    int options[4], count = 0;
    for (int d = 0; d < 4; ++d) {
      const int ni = ci + kDir[d][0], nj = cj + kDir[d][1];
      if (ni < 0 || nj < 0 || ni >= nx || nj >= ny || visited[id(ni, nj)]) continue;
      options[count++] = d;
    }
    if (count == 0) {
      stack.pop_back();
      continue;
    }
    const int d = options[rng.below(static_cast<std::uint64_t>(count))];
    const int ni = ci + kDir[d][0], nj = cj + kDir[d][1];
    if (d == 1 || d == 2)
      carve(ci, cj, d == 1);
    else
      carve(ni, nj, d == 3);
    visited[id(ni, nj)] = 1;
    stack.push_back(id(ni, nj));
  }
  return map;
}

}  // namespace lddb
