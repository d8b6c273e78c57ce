// Unit views of a grid_map (lddb/unit.hpp, lddb/grid.hpp): the map as a unit of a size and
// movement class sees it, kept current cell by cell.
//
// Why a one-cell unit (a point, for any-angle) on the view moves exactly as the unit does.
// Write S(a) for the cells a unit anchored at cell a fills, and V for the view: cell a of
// V is blocked when S(a) holds a cell closed to the unit's class or off the map.
//
// Tile and octile, size k: S(a) = [ax, ax + k) x [ay, ay + k).
//  - Standing at a: legal iff S(a) is open iff a is free in V.
//  - A straight step a -> a + (1, 0) sweeps S(a) and S(a + (1, 0)) and nothing else: legal
//    iff both anchors are free in V, the one-cell rule.
//  - A diagonal step a -> a + (1, 1) (the others by symmetry) needs S(a) and S(a + (1, 1)),
//    and its sweep crosses, besides those, only the corner cells c1 = (ax + k, ay) and
//    c2 = (ax, ay + k) of the (k+1) x (k+1) box, each through the triangle beside the
//    diagonal, just as a one-cell unit's sweep crosses its two side cells. Given both
//    endpoints free, the side anchor a + (1, 0) is free in V iff c1 is open, because
//    S(a + (1, 0)) lies in S(a), S(a + (1, 1)) and c1 (its cells of x <= ax + k - 1 are
//    in S(a), those of x = ax + k and y >= ay + 1 in S(a + (1, 1))); likewise a + (0, 1)
//    and c2. So each corner rule's condition on the side cells (both free; one free;
//    none) reads on V as the same condition on the two cells the unit's diagonal clips.
//  - The moves and their costs are the one-cell unit's, so costs and optimal paths are.
//
// Any-angle, size k >= 0: the unit is the square Q(p) = [px, px + k] x [py, py + k].
//  - Q(p) overlaps the interior of cell c iff p lies in the open rectangle
//    (cx - k, cx + 1) x (cy - k, cy + 1) (c's interior grown by -Q), which is the interior
//    of the union of the cells (x, y) with cx - k <= x <= cx and cy - k <= y <= cy: the
//    cells of V whose (k+1) x (k+1) square holds c. So a square moving along a segment
//    overlaps no closed cell iff the segment crosses no blocked cell's interior in V:
//    the point's rule, which lets it touch blocked cells along an edge or at a corner.
//  - The any-angle rules (lddb/segments.hpp) also keep the point off a line between two
//    blocked cells and, under squeeze=forbidden, off a vertex between two diagonally
//    opposite blocked cells: gaps of width 0. On V such a line or vertex is where the
//    square touches obstacles on two opposite sides, or at two opposite corners, at once.
//    The square's rule is therefore the point's: it may touch obstacles, but may not pass
//    through a gap exactly its own width, straight, or diagonally between two obstacles at
//    its opposite corners unless squeeze=allowed. That is stricter than the free sweep in
//    those passages of no clearance only (tests/unit_test.cpp checks every path against
//    the sweep of the square). A vertex whose four cells of V are all blocked is no
//    endpoint: the square would be pinched on every side, as the point is there.
//
// Keeping V current: closed[a] counts the cells of S(a) that are closed to the class (off
// the map included). A cell changing type changes at most footprint^2 counts, and a count
// crossing zero sets one cell of V (grid_map::set_blocked: its codes, groups and labels).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "map/component_labels.hpp"
#include "map/derived.hpp"
#include "lddb/grid.hpp"
#include "lddb/unit.hpp"

namespace lddb {

struct grid_map::unit_views final : detail::derived_structure {
  struct view {
    int footprint;
    movement_class movement;
    std::vector<std::uint8_t> closed;  // per anchor: cells of its square closed to the class or off the map
    grid_map map;
  };
  std::mutex lock;  // views are built from a const map, by any thread
  std::vector<std::unique_ptr<view>> list;

  // As a derived structure of the map (map/derived.hpp): the views read the cells' types,
  // each through its movement class, so they follow terrain changes (reads_terrain once a
  // view is built), not bits.
  unit_views() : detail::derived_structure(false) {}
  void terrain_changed(grid_map& map, int x, int y, terrain from, terrain to) override;
};

void grid_map::unit_views_deleter::operator()(unit_views* v) const { delete v; }
grid_map::unit_views_handle::unit_views_handle() : p(new unit_views) { derived_ = p.get(); }
grid_map::unit_views_handle& grid_map::unit_views_handle::operator=(const unit_views_handle&) {
  p.reset(new unit_views);
  derived_ = p.get();
  return *this;
}

// Read only while the map changes, which no query may overlap (lddb/grid.hpp).
bool grid_map::views_built() const { return views_.p && !views_.p->list.empty(); }

void grid_map::settle_view_labels() const {
  if (!views_built()) return;
  for (const auto& v : views_.p->list) detail::component_access::settle(v->map);
}

void grid_map::views_follow_block_size() {
  if (!views_built()) return;
  for (auto& v : views_.p->list) v->map.set_block_size(block_);
}

const grid_map& grid_map::view(int footprint, const movement_class& movement) const {
  if (footprint < 1 || footprint > kMaxFootprint)
    throw std::invalid_argument("a unit's footprint of " + std::to_string(footprint) + " cells is outside 1.." +
                                std::to_string(kMaxFootprint));
  if (footprint == 1 && movement == movement_class::ground()) return *this;
  unit_views* views = views_.p.get();
  if (!views) throw std::logic_error("grid_map::view on a moved-from map");
  const std::lock_guard<std::mutex> guard(views->lock);
  for (const auto& v : views->list)
    if (v->footprint == footprint && v->movement == movement) return v->map;

  auto v = std::make_unique<unit_views::view>(unit_views::view{footprint, movement, {}, grid_map(width_, height_, block_)});
  const int w = width_, h = height_, f = footprint;
  const auto at = [w](int x, int y) { return static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x); };
  // Closed cells in each row's window [x, x + f), then the windows of f rows summed.
  std::vector<std::uint8_t> across(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
  for (int y = 0; y < h; ++y) {
    int run = 0;  // closed cells of [x, x + f) on the map
    for (int x = w - 1; x >= 0; --x) {
      run += movement.contains(terrain_at(x, y)) ? 0 : 1;
      if (x + f < w) run -= movement.contains(terrain_at(x + f, y)) ? 0 : 1;
      across[at(x, y)] = static_cast<std::uint8_t>(run + std::max(0, x + f - w));  // and those past the edge
    }
  }
  v->closed.assign(across.size(), 0);
  for (int x = 0; x < w; ++x) {
    int run = 0;
    for (int y = h - 1; y >= 0; --y) {
      run += across[at(x, y)];
      if (y + f < h) run -= across[at(x, y + f)];
      const int off = std::max(0, y + f - h) * f;  // rows below the map, all closed
      v->closed[at(x, y)] = static_cast<std::uint8_t>(run + off);
      if (run + off > 0) v->map.set_blocked(x, y, true);
    }
  }
  views->list.push_back(std::move(v));
  views->reads_terrain = true;
  return views->list.back()->map;
}

// A cell's type changed: each view whose class it enters or leaves counts it in or out of
// the squares that hold it.
void grid_map::unit_views::terrain_changed(grid_map& map, int x, int y, terrain from, terrain to) {
  const int w = map.width_;
  for (auto& v : list) {
    const bool was = v->movement.contains(from), is = v->movement.contains(to);
    if (was == is) continue;
    const int f = v->footprint;
    for (int ay = std::max(0, y - f + 1); ay <= y; ++ay)
      for (int ax = std::max(0, x - f + 1); ax <= x; ++ax) {
        std::uint8_t& c = v->closed[static_cast<std::size_t>(ay) * static_cast<std::size_t>(w) + static_cast<std::size_t>(ax)];
        if (is) {
          if (--c == 0) v->map.set_blocked(ax, ay, false);
        } else if (c++ == 0) {
          v->map.set_blocked(ax, ay, true);
        }
      }
  }
}

std::size_t grid_map::view_count() const {
  unit_views* views = views_.p.get();
  if (!views) return 0;
  const std::lock_guard<std::mutex> guard(views->lock);
  return views->list.size();
}

std::size_t grid_map::view_bytes() const {
  unit_views* views = views_.p.get();
  if (!views) return 0;
  const std::lock_guard<std::mutex> guard(views->lock);
  std::size_t n = 0;
  for (const auto& v : views->list) {
    const grid_map& m = v->map;
    n += sizeof(*v) + v->closed.capacity() + m.component_bytes() +
         (m.row_bits_.capacity() + m.scan_rows_.capacity() + m.scan_columns_.capacity()) * sizeof(std::uint64_t) +
         m.codes_.capacity() * sizeof(std::uint32_t) + m.freed_journal_.capacity() * sizeof(std::uint32_t);
    for (const auto& g : m.group_counts_) n += g.capacity() * sizeof(std::uint32_t);
  }
  return n;
}

const grid_map& unit_view(const rule& r, const grid_map& map, const unit& u) {
  const int f = unit_footprint(r, u);
  if (f == 0)
    throw std::invalid_argument("unit size " + std::to_string(u.size) + " is outside 0.." + std::to_string(unit::kMaxSize));
  return map.view(f, u.movement);
}

std::string movement_class::name() const {
  std::string s;
  for (int t = 0; t < 256; ++t) {
    if (!contains(static_cast<terrain>(t))) continue;
    if (t > 0x20 && t < 0x7F) {
      s += static_cast<char>(t);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", t);
      s += buf;
    }
  }
  return s;
}

}  // namespace lddb
