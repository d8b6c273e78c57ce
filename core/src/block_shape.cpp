// Block geometry tables. See lddb/block_shape.hpp.
#include "lddb/block_shape.hpp"

#include <stdexcept>

#include "lddb/segments.hpp"

namespace lddb {

block_shape::block_shape(int b, bool vertices) : b_(b), side_(vertices ? b + 1 : b), vertices_(vertices) {
  if (b < kMinBlock || b > kMaxBlock) throw std::invalid_argument("block size must be 2..5");
  const int n = side_;
  int i = 0;
  for (int x = 0; x < n; ++x) boundary_[i++] = {x, 0};
  for (int y = 1; y < n; ++y) boundary_[i++] = {n - 1, y};
  for (int x = n - 2; x >= 0; --x) boundary_[i++] = {x, n - 1};
  for (int y = n - 2; y >= 1; --y) boundary_[i++] = {0, y};
  boundary_of_.fill(-1);
  for (int k = 0; k < boundary_count(); ++k) boundary_of_[static_cast<std::size_t>(point_index(boundary_[k]))] = k;
  for (int t = 0; t < kTransforms; ++t) {
    for (int k = 0; k < boundary_count(); ++k)
      boundary_perm_[t][k] = boundary_index(transform_point(t, boundary_[k]));
    // Pattern chunks work on cells, whatever the points are.
    for (int chunk = 0; chunk < 4; ++chunk) {
      for (std::uint32_t byte = 0; byte < 256; ++byte) {
        std::uint32_t out = 0;
        for (int bit = 0; bit < 8; ++bit) {
          const int cell = chunk * 8 + bit;
          if (!((byte >> bit) & 1u) || cell >= b * b) continue;
          point c{cell % b, cell / b};
          if (t >= 4) c.x = b - 1 - c.x;
          for (int r = 0; r < t % 4; ++r) c = point{b - 1 - c.y, c.x};
          out |= 1u << (c.y * b + c.x);
        }
        pattern_chunks_[t][chunk][byte] = out;
      }
    }
  }
}

point block_shape::transform_point(int t, point p) const {
  if (t >= 4) p.x = side_ - 1 - p.x;
  for (int r = 0; r < t % 4; ++r) p = point{side_ - 1 - p.y, p.x};
  return p;
}

std::uint32_t block_shape::transform_pattern(int t, std::uint32_t code) const {
  const auto& tab = pattern_chunks_[t];
  return tab[0][code & 0xFF] | tab[1][(code >> 8) & 0xFF] | tab[2][(code >> 16) & 0xFF] | tab[3][code >> 24];
}

block_shape::canonical_form block_shape::canonical(std::uint32_t code, std::uint8_t mask) const {
  canonical_form best{code, 0};
  for (int t = 1; t < kTransforms; ++t) {
    if (!((mask >> t) & 1u)) continue;
    const std::uint32_t c = transform_pattern(t, code);
    if (c < best.code) best = {c, t};
  }
  return best;
}

bool block_shape::point_usable(std::uint32_t code, point p) const {
  const pattern_grid g{code, b_};
  return vertices_ ? vertex_usable(g, p.x, p.y) : !g.blocked(p.x, p.y);
}

}  // namespace lddb
