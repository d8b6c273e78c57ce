// lddb/block_shape.hpp: the geometry of one block of b x b cells: its points, its boundary
// points (boundary_index), its obstacle patterns (pattern_code) and the eight symmetries
// of the square.
#pragma once

#include <array>
#include <cstdint>
#include <utility>

#include "lddb/point.hpp"

namespace lddb {

// The geometry of one block of b x b cells: its points (the b x b cells for tile and
// octile, the (b+1) x (b+1) corners for any-angle), its boundary points and the eight
// symmetries of the square.
//
// pattern_code: bit (y * b + x) is set when cell (x, y) of the block is blocked.
// point index: y * side + x, side = b (cells) or b + 1 (vertices).
// boundary_index: the boundary points clockwise from the top-left point: the top row
//   left to right, the right column top to bottom, the bottom row right to left, the left
//   column bottom to top; 4 * (side - 1) of them.
// transform t in 0..7: reflect x (x -> side-1-x) when t >= 4, then rotate (t % 4) quarter
//   turns clockwise ((x, y) -> (side-1-y, x)). Cells and vertices transform consistently.
class block_shape {
 public:
  static constexpr int kMinBlock = 2, kMaxBlock = 5;
  static constexpr int kTransforms = 8;

  block_shape(int b, bool vertices);

  int block() const { return b_; }
  bool vertices() const { return vertices_; }
  int side() const { return side_; }
  int point_count() const { return side_ * side_; }
  int boundary_count() const { return 4 * (side_ - 1); }
  int pair_count() const { return boundary_count() * (boundary_count() - 1) / 2; }
  std::uint64_t pattern_count() const { return std::uint64_t{1} << (b_ * b_); }

  point boundary_point(int i) const { return boundary_[static_cast<std::size_t>(i)]; }
  // -1 for an interior point.
  int boundary_index(point p) const { return boundary_of_[static_cast<std::size_t>(point_index(p))]; }
  int point_index(point p) const { return p.y * side_ + p.x; }
  point point_at(int index) const { return point{index % side_, index / side_}; }

  // Index of the unordered pair {i, j}, i != j, in the order (0,1), (0,2), ..., (1,2), ...
  int pair_index(int i, int j) const {
    if (i > j) std::swap(i, j);
    const int n = boundary_count();
    return i * n - i * (i + 1) / 2 + (j - i - 1);
  }

  point transform_point(int t, point p) const;
  int transform_boundary(int t, int i) const { return boundary_perm_[t][static_cast<std::size_t>(i)]; }
  std::uint32_t transform_pattern(int t, std::uint32_t code) const;
  static int inverse(int t) { return t >= 4 ? t : (4 - t) % 4; }

  // The least code among the patterns reachable from `code` by the transforms in `mask`,
  // and a transform t in the mask with transform_pattern(t, code) == canonical.
  struct canonical_form {
    std::uint32_t code;
    int transform;
  };
  canonical_form canonical(std::uint32_t code, std::uint8_t mask) const;

  // Is the point usable in this pattern? A cell: free. A vertex: one of its cells inside
  // the block is free (outside the block counts as blocked here).
  bool point_usable(std::uint32_t code, point p) const;

 private:
  int b_, side_;
  bool vertices_;
  std::array<point, 4 * (kMaxBlock + 1 - 1)> boundary_{};
  std::array<int, (kMaxBlock + 1) * (kMaxBlock + 1)> boundary_of_{};
  std::array<std::array<int, 4 * kMaxBlock>, kTransforms> boundary_perm_{};
  // transform_pattern in byte-wide chunks: chunk k of the code maps through table [t][k].
  std::array<std::array<std::array<std::uint32_t, 256>, 4>, kTransforms> pattern_chunks_{};
};

// The cells of one block pattern as a grid: everything outside the block is blocked.
struct pattern_grid {
  std::uint32_t code;
  int b;
  bool blocked(int x, int y) const {
    if (x < 0 || y < 0 || x >= b || y >= b) return true;
    return (code >> (y * b + x)) & 1u;
  }
};

}  // namespace lddb
