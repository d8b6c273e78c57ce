// grid_map::set_blocked_rect and fill_blocked_rect (lddb/grid.hpp): a rectangle of cells
// changed a word of cells at a time, ending exactly where a loop of set_blocked over its
// cells, row by row, ends.
//
// Row by row, the rectangle's part of each row word is read and the new cells merged in;
// the XOR of the two says which cells change, and a word with none costs nothing more. For
// the changed cells of a row, in the loop's order:
//  - the labels, before the row's words are written: at that point of the loop the rows
//    above hold their new cells, this row and the rows below their old ones, except the
//    cell to the west when it changed; so the 3 x 3 cells read from the scan copy, with that
//    one cell turned, are what set_blocked would have shown the labels;
//  - the row words and their scan copy a word at a time; the copy by columns, the journal,
//    the terrain and the views a cell at a time;
//  - the block codes gather each row's changed bits a block at a time, and when a row of
//    blocks is done each changed block's code is written once; a block that turned open or
//    not counts once into its group, and each group's count is written once, when the
//    rectangle's part of its row of groups is done (the loop's changes in between cancel);
//  - the double corners of the vertices between two rows are counted a word of 64 vertices
//    at a time, where a changed cell touches them, after the change and before it (the old
//    cells are the new ones XOR the changes): the difference is what the loop's cell by
//    cell counts add up to.
#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lddb/grid.hpp"
#include "map/derived.hpp"

namespace lddb {

namespace {

std::uint64_t low_ones(int n) { return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1; }

// Bits `at` onwards of `bits` (least significant bit of each byte first) in bits 0..63 of
// the result: 64 of them, or all that `bits` holds from `at`.
std::uint64_t bits_from(std::span<const std::uint8_t> bits, std::size_t at) {
  const std::size_t first = at >> 3;
  const int s = static_cast<int>(at & 7);
  if (std::endian::native == std::endian::little && first + 9 <= bits.size()) {
    std::uint64_t low = 0;
    std::memcpy(&low, bits.data() + first, 8);
    return (low >> s) | (std::uint64_t{bits[first + 8]} << 1 << (63 - s));  // s = 0 takes nothing of byte 8
  }
  if (std::endian::native == std::endian::little && bits.size() >= 8) {  // the last 8 bytes, shifted down
    std::uint64_t last = 0;
    std::memcpy(&last, bits.data() + bits.size() - 8, 8);
    return last >> (8 * (first + 8 - bits.size()) + static_cast<std::size_t>(s));
  }
  std::uint64_t v = 0;  // byte by byte: a short patch, or a big-endian machine
  for (std::size_t i = 0; i < 8 && first + i < bits.size(); ++i) v |= std::uint64_t{bits[first + i]} << (8 * i);
  v >>= s;
  if (s > 0 && first + 8 < bits.size()) v |= std::uint64_t{bits[first + 8]} << (64 - s);
  return v;
}

std::string rect_text(int x, int y, int w, int h) {
  return std::to_string(w) + "x" + std::to_string(h) + " cells at (" + std::to_string(x) + "," + std::to_string(y) + ")";
}

void require_rect_on_map(const grid_map& m, int x, int y, int w, int h) {
  if (w < 1 || h < 1) throw std::invalid_argument("a rectangle of " + rect_text(x, y, w, h) + " holds no cell");
  if (x < 0 || y < 0 || std::int64_t{x} + w > m.width() || std::int64_t{y} + h > m.height())
    throw std::out_of_range("the rectangle of " + rect_text(x, y, w, h) + " is not wholly on the " +
                            std::to_string(m.width()) + "x" + std::to_string(m.height()) + " map");
}

// The double corners (lddb/segments.hpp, double_corner_mask's test) among the 64 vertices
// whose north-west cells are the cells of `up` (blocked cells of a row, with `up_next` the
// 64 after them) and south-west cells those of `down` (the row below, and `down_next`):
// bit i set when vertex i is one.
std::uint64_t double_corners_in(std::uint64_t up, std::uint64_t up_next, std::uint64_t down, std::uint64_t down_next) {
  const std::uint64_t nw = up, ne = up >> 1 | up_next << 63, sw = down, se = down >> 1 | down_next << 63;
  return (nw & se & ~ne & ~sw) | (ne & sw & ~nw & ~se);
}

// Set bits of a word that holds few: one step each beats std::popcount, a library call on
// baseline x86-64.
int few_bits(std::uint64_t m) {
  int n = 0;
  for (; m != 0; m &= m - 1) ++n;
  return n;
}

// Zeroed words for change_rect (about a word a block across): on the stack, or on the heap
// for a rectangle too wide for it.
class rect_scratch {
 public:
  explicit rect_scratch(std::size_t words) {
    if (words > kLocal) {
      heap_.assign(words, 0);
      data_ = heap_.data();
    } else {
      std::fill(local_, local_ + words, 0);
      data_ = local_;
    }
  }
  rect_scratch(const rect_scratch&) = delete;
  rect_scratch& operator=(const rect_scratch&) = delete;
  std::uint64_t* take(std::size_t n) {
    std::uint64_t* const p = data_ + used_;
    used_ += n;
    return p;
  }

 private:
  static constexpr std::size_t kLocal = 1024;  // 8 KiB: a rectangle up to about 1000 cells wide
  std::uint64_t local_[kLocal];
  std::vector<std::uint64_t> heap_;
  std::uint64_t* data_;
  std::size_t used_ = 0;
};

}  // namespace

// The rectangle's new cells: a patch of bits, or one state for all.
struct grid_map::rect_source {
  std::span<const std::uint8_t> bits;  // row-major, `width` a row, no padding; empty: `fill_blocked`
  int width = 0;
  bool set_means_free = false;
  bool fill_blocked = false;
  // Cells [from, from + n) of row `row` of the rectangle, 1 <= n <= 64: bit i set when
  // cell from + i is to be blocked.
  std::uint64_t blocked(int row, int from, int n) const {
    if (bits.empty()) return fill_blocked ? low_ones(n) : 0;
    const std::uint64_t cells =
        bits_from(bits, static_cast<std::size_t>(row) * static_cast<std::size_t>(width) + static_cast<std::size_t>(from));
    return (set_means_free ? ~cells : cells) & low_ones(n);
  }
};

void grid_map::set_blocked_rect(int x, int y, int w, int h, std::span<const std::uint8_t> bits, bit_meaning meaning) {
  require_rect_on_map(*this, x, y, w, h);
  const std::size_t need = (static_cast<std::size_t>(w) * static_cast<std::size_t>(h) + 7) / 8;
  if (bits.size() < need)
    throw std::invalid_argument("the bits of a rectangle of " + rect_text(x, y, w, h) + " are " +
                                std::to_string(bits.size()) + " bytes, not " + std::to_string(need));
  change_rect(x, y, w, h, rect_source{bits.first(need), w, meaning == bit_meaning::free, false});
}

void grid_map::fill_blocked_rect(int x, int y, int w, int h, bool is_blocked) {
  require_rect_on_map(*this, x, y, w, h);
  change_rect(x, y, w, h, rect_source{{}, w, false, is_blocked});
}

void grid_map::change_rect(int x0, int y0, int w, int h, const rect_source& source) {
  const int x_end = x0 + w;
  const int wx0 = x0 >> 6, words = ((x_end - 1) >> 6) - wx0 + 1;  // row words the rectangle covers
  const int b = block_;
  // x / b as (x * by_block) >> 20, without a division a changed cell: exact for x < 2^14
  // (kMaxSide), as the error x * (by_block - 2^20 / b) / 2^20 stays below 1/64 < 1/b.
  const std::uint64_t by_block = (std::uint64_t{1} << 20) / static_cast<std::uint64_t>(b) + 1;
  const auto block_of = [by_block](int x) { return static_cast<int>((static_cast<std::uint64_t>(x) * by_block) >> 20); };
  const int bx0 = block_of(x0), blocks = block_of(x_end - 1) - bx0 + 1;  // blocks across
  const int levels = open_group_levels();
  std::size_t groups[32];  // groups across at each level
  const std::size_t touched_words = static_cast<std::size_t>(blocks + 63) / 64;
  std::size_t need = 2 * (static_cast<std::size_t>(words) + 2) + static_cast<std::size_t>(blocks) + touched_words;
  for (int l = 1; l <= levels; ++l) need += groups[l] = static_cast<std::size_t>(((bx0 + blocks - 1) >> l) - (bx0 >> l) + 1);
  rect_scratch scratch(need);
  // The changed cells of the row (`here`) and of the row above (`above`): entry j - wx0 + 1
  // holds cells 64 * j onwards, with one word of none on either side.
  std::uint64_t* here = scratch.take(static_cast<std::size_t>(words) + 2);
  std::uint64_t* above = scratch.take(static_cast<std::size_t>(words) + 2);
  // For each block across, its changed bits in the current row of blocks so far; and which
  // blocks those are, a bit each.
  std::uint64_t* const code_change = scratch.take(static_cast<std::size_t>(blocks));
  std::uint64_t* const touched = scratch.take(touched_words);
  // The open-group counts: a block that turns adds +1 (no longer open) or -1 to its group of
  // level 1, and each level's changes (modulo 2^64) reach group_counts_, and the level
  // above, once a group, when the rectangle's part of its row of groups is done.
  std::uint64_t* group_change[32];
  bool group_pending[32] = {};  // a level holds a change not yet written
  for (int l = 1; l <= levels; ++l) group_change[l - 1] = scratch.take(groups[l]);

  const auto changed_bits = [&](const std::uint64_t* d, int from, int n) {  // cells [from, from + n)
    const std::size_t i = static_cast<std::size_t>((from >> 6) - wx0 + 1);
    const int s = from & 63;
    return ((d[i] >> s) | (d[i + 1] << 1 << (63 - s))) & low_ones(n);
  };
  // The first changed cell of the row at `from` (>= x0) or after it; -1 when none.
  const auto next_changed = [&](int from) {
    if (from >= x_end) return -1;
    std::size_t i = static_cast<std::size_t>((from >> 6) - wx0 + 1);
    std::uint64_t m = here[i] & (~std::uint64_t{0} << (from & 63));
    while (m == 0) {
      if (++i > static_cast<std::size_t>(words)) return -1;
      m = here[i];
    }
    return (wx0 + static_cast<int>(i) - 1) * 64 + std::countr_zero(m);
  };
  // The change in double corners between rows y - 1 and y (both written), from the words
  // of vertices that a changed cell touches.
  const auto corners_changed = [&](int y) {
    const std::uint64_t *const up = row_line(y - 1), *const down = row_line(y);
    std::int64_t n = 0;
    for (int j = (x0 - 1) >> 6; j <= (x_end - 1) >> 6; ++j) {
      const std::size_t i = static_cast<std::size_t>(j - wx0 + 1);
      if (((above[i] | here[i]) | ((above[i + 1] | here[i + 1]) & 1u)) == 0) continue;
      const std::uint64_t now = double_corners_in(up[j], up[j + 1], down[j], down[j + 1]),
                          was = double_corners_in(up[j] ^ above[i], up[j + 1] ^ above[i + 1], down[j] ^ here[i],
                                                  down[j + 1] ^ here[i + 1]);
      n += few_bits(now & ~was) - few_bits(was & ~now);
    }
    return n;
  };
  const auto write_groups = [&](int by, bool last) {
    for (int l = 1; l <= levels; ++l) {
      if (!last && ((by + 1) & ((1 << l) - 1)) != 0) break;  // the row of groups goes on, and those above it
      if (!std::exchange(group_pending[l - 1], false)) continue;
      std::uint64_t* const change = group_change[l - 1];
      const int gx0 = bx0 >> l, groups_x = blocks_x_ >> l, gy = by >> l;
      for (std::size_t i = 0; i < groups[l]; ++i) {
        if (change[i] == 0) continue;
        const int gx = gx0 + static_cast<int>(i);
        if (gx < groups_x && gy < (blocks_y_ >> l))  // a group that fits the map's blocks
          group_counts_[static_cast<std::size_t>(l - 1)]
                       [static_cast<std::size_t>(gy) * static_cast<std::size_t>(groups_x) + static_cast<std::size_t>(gx)] +=
              static_cast<std::uint32_t>(change[i]);
        if (l < levels) {
          group_change[l][(gx >> 1) - (bx0 >> (l + 1))] += change[i];
          group_pending[l] = true;
        }
        change[i] = 0;
      }
    }
  };
  const auto write_codes = [&](int by, bool last) {
    for (std::size_t k = 0; k < touched_words; ++k)
      for (std::uint64_t m = std::exchange(touched[k], 0); m != 0; m &= m - 1) {
        const int i = static_cast<int>(k) * 64 + std::countr_zero(m), bx = bx0 + i;
        std::uint32_t& code =
            codes_[static_cast<std::size_t>(by) * static_cast<std::size_t>(blocks_x_) + static_cast<std::size_t>(bx)];
        const bool was_open = code == 0;
        code ^= static_cast<std::uint32_t>(std::exchange(code_change[i], 0));
        if (was_open != (code == 0) && levels > 0) {
          group_change[0][(bx >> 1) - (bx0 >> 1)] += was_open ? 1 : ~std::uint64_t{0};
          group_pending[0] = true;
        }
      }
    write_groups(by, last);
  };
  const bool cells_typed = !terrain_.empty() || follows_terrain();
  std::int64_t corners = 0;  // after minus before
  bool above_changed = false;

  int by = block_of(y0), in_block = y0 - by * b;  // y's row of blocks and row in it, kept without a division
  for (int y = y0; y < y0 + h; ++y) {
    std::uint64_t* const row = row_bits_.data() + static_cast<std::size_t>(y) * words_ + static_cast<std::size_t>(wx0);
    std::uint64_t any = 0;
    for (int k = 0; k < words; ++k) {
      const int from = std::max(x0, (wx0 + k) * 64), to = std::min(x_end, (wx0 + k) * 64 + 64), s = from & 63;
      const std::uint64_t d = (row[k] ^ source.blocked(y - y0, from - x0, to - from) << s) & (low_ones(to - from) << s);
      here[static_cast<std::size_t>(k) + 1] = d;
      any |= d;
    }
    if (any != 0) {
      for (int x = next_changed(x0); x >= 0 && follows_cells(); x = next_changed(x + 1)) {
        std::uint32_t around = static_cast<std::uint32_t>((row_bits(x - 1, y - 1) & 7) | (row_bits(x - 1, y) & 7) << 3 |
                                                          (row_bits(x - 1, y + 1) & 7) << 6);
        around ^= static_cast<std::uint32_t>(changed_bits(here, x - 1, 1)) << 3;  // the loop has changed the west cell already
        cell_changed({x, y, (around & 16u) == 0, around, true});
      }
      std::uint64_t* const scan_row = scan_rows_.data() + static_cast<std::size_t>(y + 1) * row_stride_ + kMargin;
      const std::uint64_t column_bit = std::uint64_t{1} << (y & 63);
      for (int k = 0; k < words; ++k) {
        const std::uint64_t d = here[static_cast<std::size_t>(k) + 1];
        if (d == 0) continue;
        const int wx = wx0 + k;
        row[k] ^= d;
        scan_row[wx] ^= d;
        const std::uint64_t now_blocked = d & row[k];
        for (std::uint64_t m = d; m != 0; m &= m - 1) {
          const int x = wx * 64 + std::countr_zero(m);
          const bool blocks = (now_blocked >> (x & 63)) & 1u;
          scan_columns_[static_cast<std::size_t>(x + 1) * column_stride_ + kMargin + static_cast<std::size_t>(y >> 6)] ^=
              column_bit;
          if (blocks) {
            ++cells_blocked_;
          } else {
            freed_journal_[cells_freed_ % kFreedJournal] = static_cast<std::uint32_t>(y) << 16 | static_cast<std::uint32_t>(x);
            ++cells_freed_;
          }
          if (!cells_typed) continue;
          const terrain to = blocks ? kBlockedTerrain : kFreeTerrain;
          terrain from = blocks ? kFreeTerrain : kBlockedTerrain;
          if (!terrain_.empty()) {
            terrain& t = terrain_[static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) + static_cast<std::size_t>(x)];
            from = t;
            t = to;
          }
          terrain_changed(x, y, from, to);
        }
      }
      const int shift = in_block * b;
      for (int x = next_changed(x0), bx = 0; x >= 0; x = next_changed((bx + 1) * b)) {
        bx = block_of(x);
        const int i = bx - bx0;
        code_change[i] ^= changed_bits(here, bx * b, b) << shift;
        touched[i >> 6] |= std::uint64_t{1} << (i & 63);
      }
    }
    if (any != 0 || above_changed) corners += corners_changed(y);
    if (++in_block == b || y == y0 + h - 1) write_codes(by, y == y0 + h - 1);
    if (in_block == b) {
      in_block = 0;
      ++by;
    }
    std::swap(above, here);
    above_changed = any != 0;
  }
  if (above_changed) {  // the vertices below the last row
    std::fill(here, here + words + 2, 0);
    corners += corners_changed(y0 + h);
  }
  double_corners_ += static_cast<std::uint64_t>(corners);  // modulo 2^64: a decrease wraps back
  batch_done();
}

}  // namespace lddb
