// grid_map: cell bits by row and one pattern_code per block. See lddb/grid.hpp.
#include <algorithm>
#include <atomic>
#include <bit>
#include <stdexcept>
#include <string>

#include "lddb/grid.hpp"
#include "lddb/block_shape.hpp"
#include "lddb/segments.hpp"
#include "map/derived.hpp"

namespace lddb {

namespace {
std::atomic<std::uint64_t> next_identity{1};
}

grid_map::identity_token::identity_token() : value(next_identity.fetch_add(1, std::memory_order_relaxed)) {}

grid_map::grid_map(int width, int height, int block) : width_(width), height_(height), block_(block) {
  if (width < 1 || height < 1 || width > kMaxSide || height > kMaxSide)
    throw std::invalid_argument("map size " + std::to_string(width) + "x" + std::to_string(height) +
                                " is outside 1.." + std::to_string(kMaxSide));
  words_ = (static_cast<std::size_t>(width) + 63) / 64;
  const std::size_t column_words = (static_cast<std::size_t>(height) + 63) / 64;
  row_stride_ = words_ + 2 * kMargin;
  column_stride_ = column_words + 2 * kMargin;
  row_bits_.assign(words_ * static_cast<std::size_t>(height), 0);
  scan_rows_ = blank_lines(static_cast<std::size_t>(height), words_, width);
  scan_columns_ = blank_lines(static_cast<std::size_t>(width), column_words, height);
  freed_journal_.assign(kFreedJournal, 0);
  set_block_size(block);
}

std::vector<std::uint64_t> grid_map::blank_lines(std::size_t lines, std::size_t words, int length) {
  const std::size_t stride = words + 2 * kMargin;
  std::vector<std::uint64_t> bits((lines + 2) * stride, ~std::uint64_t{0});
  for (std::size_t l = 1; l <= lines; ++l) {
    std::uint64_t* line = bits.data() + l * stride + kMargin;
    std::fill(line, line + words, 0);
    if ((length & 63) != 0) line[words - 1] = ~std::uint64_t{0} << (length & 63);
  }
  return bits;
}

void grid_map::set_block_size(int block) {
  if (block < block_shape::kMinBlock || block > block_shape::kMaxBlock)
    throw std::invalid_argument("block size must be 2..5, not " + std::to_string(block));
  block_ = block;
  blocks_x_ = (width_ + block - 1) / block;
  blocks_y_ = (height_ + block - 1) / block;
  full_code_ = static_cast<std::uint32_t>((std::uint64_t{1} << (block * block)) - 1);
  rebuild_codes();
  views_follow_block_size();
}

void grid_map::rebuild_codes() {
  codes_.assign(static_cast<std::size_t>(blocks_x_) * static_cast<std::size_t>(blocks_y_), 0);
  const int b = block_;
  for (int by = 0; by < blocks_y_; ++by)
    for (int bx = 0; bx < blocks_x_; ++bx) {
      std::uint32_t code = 0;
      for (int y = 0; y < b; ++y)
        for (int x = 0; x < b; ++x)
          if (blocked(bx * b + x, by * b + y)) code |= 1u << (y * b + x);
      codes_[static_cast<std::size_t>(by) * static_cast<std::size_t>(blocks_x_) + static_cast<std::size_t>(bx)] = code;
    }
  rebuild_group_counts();
}

void grid_map::rebuild_group_counts() {
  group_counts_.clear();
  for (int l = 1; (blocks_x_ >> l) > 0 && (blocks_y_ >> l) > 0; ++l) {
    const int gx = blocks_x_ >> l, gy = blocks_y_ >> l;
    std::vector<std::uint32_t> counts(static_cast<std::size_t>(gx) * static_cast<std::size_t>(gy), 0);
    for (int by = 0; by < (gy << l); ++by)
      for (int bx = 0; bx < (gx << l); ++bx)
        if (block_code(bx, by) != 0) ++counts[static_cast<std::size_t>(by >> l) * static_cast<std::size_t>(gx) + static_cast<std::size_t>(bx >> l)];
    group_counts_.push_back(std::move(counts));
  }
}

void grid_map::count_open_change(int bx, int by, int delta) {
  for (std::size_t i = 0; i < group_counts_.size(); ++i) {
    const int l = static_cast<int>(i) + 1, gx = blocks_x_ >> l, gy = blocks_y_ >> l;
    if ((bx >> l) >= gx || (by >> l) >= gy) continue;  // in no whole group of this level (nor of higher ones)
    group_counts_[i][static_cast<std::size_t>(by >> l) * static_cast<std::size_t>(gx) + static_cast<std::size_t>(bx >> l)] +=
        static_cast<std::uint32_t>(delta);
  }
}

int grid_map::open_group_level(int bx, int by, int max_level) const {
  if (bx < 0 || by < 0 || bx >= blocks_x_ || by >= blocks_y_) return 0;
  const int top = max_level < open_group_levels() ? max_level : open_group_levels();
  int level = 0;
  for (int l = 1; l <= top; ++l) {  // a group that is not open holds no open group above it
    const int gx = blocks_x_ >> l, gy = blocks_y_ >> l;
    if ((bx >> l) >= gx || (by >> l) >= gy) break;
    if (group_counts_[static_cast<std::size_t>(l - 1)][static_cast<std::size_t>(by >> l) * static_cast<std::size_t>(gx) +
                                                      static_cast<std::size_t>(bx >> l)] != 0)
      break;
    level = l;
  }
  return level;
}

namespace {
void require_on_map(const grid_map& m, int x, int y) {
  if (!m.in_bounds(x, y))
    throw std::out_of_range("cell (" + std::to_string(x) + "," + std::to_string(y) + ") is off the " +
                            std::to_string(m.width()) + "x" + std::to_string(m.height()) + " map");
}
}  // namespace

void grid_map::set_blocked(int x, int y, bool is_blocked) {
  require_on_map(*this, x, y);
  if (terrain_.empty() && !follows_terrain()) return set_cell_bits(x, y, is_blocked);
  if (blocked(x, y) != is_blocked) set_terrain(x, y, is_blocked ? kBlockedTerrain : kFreeTerrain);
}

void grid_map::set_terrain(int x, int y, terrain type) {
  require_on_map(*this, x, y);
  const terrain from = terrain_at(x, y);
  if (from == type) return;
  const bool now_blocked = !movement_class::ground().contains(type);
  const std::size_t w = static_cast<std::size_t>(width_);
  if (terrain_.empty() && type != (now_blocked ? kBlockedTerrain : kFreeTerrain)) {
    terrain_.resize(w * static_cast<std::size_t>(height_));
    for (int cy = 0; cy < height_; ++cy)
      for (int cx = 0; cx < width_; ++cx)
        terrain_[static_cast<std::size_t>(cy) * w + static_cast<std::size_t>(cx)] = blocked(cx, cy) ? kBlockedTerrain : kFreeTerrain;
  }
  if (!terrain_.empty()) terrain_[static_cast<std::size_t>(y) * w + static_cast<std::size_t>(x)] = type;
  set_cell_bits(x, y, now_blocked);
  terrain_changed(x, y, from, type);
}

terrain grid_map::terrain_at(int x, int y) const {
  if (!in_bounds(x, y)) return kBlockedTerrain;
  if (terrain_.empty()) return blocked(x, y) ? kBlockedTerrain : kFreeTerrain;
  return terrain_[static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(x)];
}

bool grid_map::same_terrain(const grid_map& a, const grid_map& b) {
  if (a.terrain_.empty() && b.terrain_.empty()) return true;  // both follow their (equal) bits
  for (int y = 0; y < a.height_; ++y)
    for (int x = 0; x < a.width_; ++x)
      if (a.terrain_at(x, y) != b.terrain_at(x, y)) return false;
  return true;
}

namespace {
// Double corners among the four vertices of the centre cell of a 3 x 3 neighbourhood
// (`blocked`: bit 3 * row + column), by the any-angle rule's own test: bits 0, 1, 3 and 4
// are the north-west cells of those vertices.
int double_corners_around(std::uint32_t blocked) {
  return std::popcount(double_corner_mask(~blocked & 0x1FFu, 3) & 0x1Bu);
}
}  // namespace

void grid_map::set_cell_bits(int x, int y, bool is_blocked) {
  std::uint64_t& word = row_bits_[static_cast<std::size_t>(y) * words_ + static_cast<std::size_t>(x >> 6)];
  const std::uint64_t bit = std::uint64_t{1} << (x & 63);
  if (((word & bit) != 0) == is_blocked) return;  // no change: the labels stay as they are
  // The cell's 3 x 3 neighbourhood decides the double corners at its four vertices, and
  // what the change does to the labels.
  const std::uint32_t around = static_cast<std::uint32_t>((row_bits(x - 1, y - 1) & 7) | (row_bits(x - 1, y) & 7) << 3 |
                                                          (row_bits(x - 1, y + 1) & 7) << 6);
  double_corners_ += static_cast<std::uint64_t>(double_corners_around(around ^ 16u));
  double_corners_ -= static_cast<std::uint64_t>(double_corners_around(around));
  word = is_blocked ? (word | bit) : (word & ~bit);
  std::uint64_t& row = scan_rows_[static_cast<std::size_t>(y + 1) * row_stride_ + kMargin + static_cast<std::size_t>(x >> 6)];
  row = is_blocked ? (row | bit) : (row & ~bit);
  std::uint64_t& column =
      scan_columns_[static_cast<std::size_t>(x + 1) * column_stride_ + kMargin + static_cast<std::size_t>(y >> 6)];
  const std::uint64_t column_bit = std::uint64_t{1} << (y & 63);
  column = is_blocked ? (column | column_bit) : (column & ~column_bit);
  const int b = block_;
  std::uint32_t& code =
      codes_[static_cast<std::size_t>(y / b) * static_cast<std::size_t>(blocks_x_) + static_cast<std::size_t>(x / b)];
  const std::uint32_t cbit = 1u << ((y % b) * b + (x % b));
  const bool was_open = code == 0;
  code = is_blocked ? (code | cbit) : (code & ~cbit);
  if (was_open != (code == 0)) count_open_change(x / b, y / b, was_open ? 1 : -1);
  if (!is_blocked)
    freed_journal_[cells_freed_ % kFreedJournal] = static_cast<std::uint32_t>(y) << 16 | static_cast<std::uint32_t>(x);
  ++(is_blocked ? cells_blocked_ : cells_freed_);
  cell_changed({x, y, is_blocked, around, false});
}

grid_map::cell grid_map::freed_cell(std::uint64_t n) const {
  if (n >= cells_freed_ || cells_freed_ - n > kFreedJournal)
    throw std::out_of_range("freed cell " + std::to_string(n) + " is not in the journal (" + std::to_string(cells_freed_) +
                            " freed, the last " + std::to_string(kFreedJournal) + " kept)");
  const std::uint32_t e = freed_journal_[n % kFreedJournal];
  return {static_cast<int>(e & 0xFFFFu), static_cast<int>(e >> 16)};
}

std::uint64_t grid_map::blocked_count() const {
  std::uint64_t n = 0;
  for (std::uint64_t w : row_bits_) n += static_cast<std::uint64_t>(std::popcount(w));
  return n;
}

}  // namespace lddb
