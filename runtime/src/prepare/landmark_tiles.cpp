// Tile bounds after cells are freed (landmark_set::repair; lddb/landmarks.hpp, "Tile bounds").
//
// A range keeps no point's own distance, so a freed cell cannot be settled again as the
// per-point tables are. Its ranges are lowered instead, by the triangle inequality. A new
// path to a point p runs through the freed cells; take the last one, c, on it:
// d'(L, p) >= d'(L, c) + the octile count of moves from c to p. And d'(L, c) >= base(c):
// the least, over the moves into c from a point n that is not freed, of n's tile's least
// plus the move (the way to the first freed cell on the path runs through old cells only),
// and over the freed cells c' of base(c') plus the octile count from c' to c. So each tile's
// least falls to at most base(c) + the count from c to its nearest point, and the freed
// cell's own tile's greatest rises to at least top(c), the same over the tiles' greatest
// along legal moves, which is at least d'(L, c). Both bounds hold by the moves' stored units
// (each rounded down, lddb/landmarks.hpp), and the cap keeps them in 16 bits.
//
// A freed cell next to a point out of reach joins a pocket to the landmarks' points: the
// pocket's points would need ranges of their own, so that asks for a rebuild, as do more
// than kMaxTileFrees cells in one pass (each costs a pass over the tiles a landmark).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "lddb/landmarks.hpp"
#include "lddb/moves.hpp"
#include "map/move_tables.hpp"

namespace lddb {

namespace {

constexpr std::size_t kMaxTileFrees = 64;

// Calls f(k, n) for each legal move k from cell c, to n, by the rule's table of moves and
// the cells `blocked` says are blocked.
template <class Blocked, class F>
void each_move(const std::vector<std::uint8_t>& moves, Blocked&& blocked, point c, F&& f) {
  for (unsigned m = moves[gather_cells_by(blocked, c.x - 1, c.y - 1, 3)]; m != 0; m &= m - 1) {
    const int k = __builtin_ctz(m);
    f(k, point{c.x + kSteps[static_cast<std::size_t>(k)][0], c.y + kSteps[static_cast<std::size_t>(k)][1]});
  }
}

// The index of cell p among `cells`, or cells.size().
std::size_t index_in(const std::vector<point>& cells, point p) {
  return static_cast<std::size_t>(std::find(cells.begin(), cells.end(), p) - cells.begin());
}

}  // namespace

bool landmark_set::take_freed_into_tiles() {
  std::sort(repair_cells_.begin(), repair_cells_.end(),
            [](point a, point b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
  repair_cells_.erase(std::unique(repair_cells_.begin(), repair_cells_.end()), repair_cells_.end());
  if (repair_cells_.size() > kMaxTileFrees) return false;
  const std::size_t k = repair_cells_.size();
  // The reference as it will be once the cells are free: the moves the pass may use.
  const auto blocked = [&](int x, int y) { return reference_blocked(x, y) && index_in(repair_cells_, {x, y}) == k; };
  repair_reached_.assign(k, 0);
  bool pocket = false;
  for (std::size_t i = 0; i < k; ++i)
    each_move(moves_, blocked, repair_cells_[i], [&](int, point n) {
      if (index_in(repair_cells_, n) < k) return;
      pocket = pocket || !in_reach(n);  // a pocket joins: it has no ranges of its own
      repair_reached_[i] = 1;
    });
  if (pocket) return false;
  // Freed cells reached through other freed cells.
  for (bool more = true; more;) {
    more = false;
    for (std::size_t i = 0; i < k; ++i) {
      if (repair_reached_[i]) continue;
      each_move(moves_, blocked, repair_cells_[i], [&](int, point n) {
        const std::size_t j = index_in(repair_cells_, n);
        if (j < k && repair_reached_[j] && !repair_reached_[i]) repair_reached_[i] = 1, more = true;
      });
    }
  }
  const std::size_t words = (static_cast<std::size_t>(stride_) + 63) >> 6;
  for (std::size_t i = 0; i < k; ++i)
    if (repair_reached_[i]) {
      const point c = repair_cells_[i];
      reach_[static_cast<std::size_t>(c.y) * words + (static_cast<std::size_t>(c.x) >> 6)] |= std::uint64_t{1} << (c.x & 63);
    }
  return true;
}

std::uint64_t landmark_set::lower_tiles(int l) {
  // Called once the reference has the pass's cells free.
  const std::size_t k = repair_cells_.size();
  const std::uint32_t straight = unit_[0], diagonal = std::min(unit_[1], 2 * unit_[0]);
  const auto count_between = [&](int dx, int dy) {  // the least stored units of dx, dy moves
    const std::uint32_t a = static_cast<std::uint32_t>(std::min(dx, dy)), b = static_cast<std::uint32_t>(std::max(dx, dy));
    return a * diagonal + (b - a) * straight;
  };
  constexpr std::uint32_t kNone = kUnreached;
  std::vector<std::uint32_t> base(k, kNone), top(k, kNone);
  const auto blocked = [this](int x, int y) { return reference_blocked(x, y); };
  for (std::size_t i = 0; i < k; ++i) {
    if (!repair_reached_[i]) continue;
    each_move(moves_, blocked, repair_cells_[i], [&](int s, point n) {
      if (index_in(repair_cells_, n) < k) return;
      const range r = tile_range(n, l);
      if (r.lo == kUnreached) return;
      const std::uint32_t step = unit_[s >= 4];
      base[i] = std::min(base[i], r.lo + step);
      top[i] = std::min(top[i], r.hi + step);
    });
  }
  // Through one another: base by any way between them, top by legal moves.
  for (bool more = true; more;) {
    more = false;
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j) {
        if (i == j || base[j] == kNone || !repair_reached_[i]) continue;
        const point a = repair_cells_[j], b = repair_cells_[i];
        const std::uint32_t via = base[j] + count_between(std::abs(a.x - b.x), std::abs(a.y - b.y));
        if (via < base[i]) base[i] = via, more = true;
      }
    for (std::size_t i = 0; i < k; ++i)
      each_move(moves_, blocked, repair_cells_[i], [&](int s, point n) {
        const std::size_t j = index_in(repair_cells_, n);
        if (j == k || top[j] == kNone) return;
        const std::uint32_t via = top[j] + unit_[s >= 4];
        if (via < top[i]) top[i] = via, more = true;
      });
  }
  // The cells whose base does not come through another's (base[i] + the count from i to j
  // <= base[j]: then i lowers every tile at least as far as j), and the box around them.
  std::vector<std::size_t> lowering;
  std::uint32_t least = kNone;
  int bx0 = stride_, by0 = rows_, bx1 = -1, by1 = -1;
  for (std::size_t j = 0; j < k; ++j) {
    if (base[j] == kNone) continue;
    bool through = false;
    for (std::size_t i = 0; i < k && !through; ++i) {
      const point a = repair_cells_[i], b = repair_cells_[j];
      through = i != j && base[i] != kNone &&
                base[i] + count_between(std::abs(a.x - b.x), std::abs(a.y - b.y)) <= base[j] && (base[i] < base[j] || i < j);
    }
    const point c = repair_cells_[j];
    if (!through) lowering.push_back(j);
    least = std::min(least, base[j]);
    bx0 = std::min(bx0, c.x), by0 = std::min(by0, c.y), bx1 = std::max(bx1, c.x), by1 = std::max(by1, c.y);
  }
  const std::size_t kk = static_cast<std::size_t>(count_);
  const int tiles_y = (rows_ + 3) >> 2;
  for (int ty = 0; ty < tiles_y; ++ty)
    for (int tx = 0; tx < tiles_x_; ++tx) {
      std::uint16_t* r = narrow_.data() + ((static_cast<std::size_t>(ty) * static_cast<std::size_t>(tiles_x_) + static_cast<std::size_t>(tx)) * kk + static_cast<std::size_t>(l)) * 2;
      const int x0 = tx * 4, y0 = ty * 4;
      const bool holds_one = bx0 <= x0 + 3 && bx1 >= x0 && by0 <= y0 + 3 && by1 >= y0;
      if (!holds_one) {  // a tile beside the cells: at most the least base plus the count from the box
        if (r[0] == kUnreached16) continue;
        const int dx = std::max({0, x0 - bx1, bx0 - (x0 + 3)}), dy = std::max({0, y0 - by1, by0 - (y0 + 3)});
        if (least + count_between(dx, dy) >= r[0]) continue;
      }
      for (const std::size_t i : lowering) {
        const point c = repair_cells_[i];
        if (r[0] == kUnreached16) break;  // no point of the tile in reach (its freed cells: below)
        const int dx = std::max({0, x0 - c.x, c.x - (x0 + 3)}), dy = std::max({0, y0 - c.y, c.y - (y0 + 3)});
        const std::uint32_t lo = std::min(base[i] + count_between(dx, dy), cap_);
        if (lo < r[0]) r[0] = static_cast<std::uint16_t>(lo);
      }
    }
  // Each freed cell in its own tile: the least at most its base, the greatest at least its top
  // (the first point in reach, where the tile had none).
  for (std::size_t i = 0; i < k; ++i) {
    if (base[i] == kNone) continue;
    const point c = repair_cells_[i];
    std::uint16_t* r = narrow_.data() + ((slot(c) >> 4) * kk + static_cast<std::size_t>(l)) * 2;
    const auto lo = static_cast<std::uint16_t>(std::min(base[i], cap_));
    const auto hi = static_cast<std::uint16_t>(std::min(top[i], cap_));
    if (r[0] == kUnreached16) {
      r[0] = lo;
      r[1] = hi;
    } else {
      r[0] = std::min(r[0], lo);
      r[1] = std::max(r[1], hi);
    }
  }
  return static_cast<std::uint64_t>(tiles_x_) * static_cast<std::uint64_t>(tiles_y) * (k + 1) / 16 + 1;
}

}  // namespace lddb
