// grid_map::set_blocked_rect and fill_blocked_rect against a loop of set_blocked over the
// same cells, row by row, on a map made by the same calls: everything the map keeps must
// end the same (cells, both scan copies with their margins, block codes, open groups,
// double corners, counters, the journal in its order, terrain, labels built before the
// call, and the unit views built before it), on generated maps of many sizes and block
// sizes, with rectangles of every kind; and a refused rectangle changes nothing.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lddb/grid.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/unit.hpp"
#include "test_rng.hpp"

namespace {

using lddb::bit_meaning;
using lddb::connectivity;
using lddb::grid_map;

constexpr connectivity kBoth[] = {connectivity::four, connectivity::eight};

// The views the tests build: footprints 2 and 3, ground and amphibious (water open).
struct view_kind {
  int footprint;
  lddb::movement_class movement;
};
const view_kind kViews[] = {{2, lddb::movement_class::ground()}, {3, lddb::movement_class::of(".GSW")}};

// Double corners counted from their definition: a vertex whose two diagonally opposite
// cells are blocked and the other two free.
std::uint64_t double_corners_by_scan(const grid_map& m) {
  std::uint64_t n = 0;
  for (int y = 0; y <= m.height(); ++y)
    for (int x = 0; x <= m.width(); ++x) {
      const bool nw = m.blocked(x - 1, y - 1), ne = m.blocked(x, y - 1), sw = m.blocked(x - 1, y), se = m.blocked(x, y);
      if ((nw && se && !ne && !sw) || (ne && sw && !nw && !se)) ++n;
    }
  return n;
}

// The first thing in which a and b differ, or "" when none. Reads no labels, so it
// changes nothing; `pairs` then asks same_component of random cells, which rebuilds stale
// labels. (Whether labels stay current may differ: a rectangle searches round all the cells
// it blocked at once, the loop round each, and either may run past its budget.)
std::string difference(const grid_map& a, const grid_map& b, lddb_test::rng* pairs = nullptr) {
  std::ostringstream out;
  if (a.width() != b.width() || a.height() != b.height() || a.block() != b.block()) return "size or block";
  const int w = a.width(), h = a.height();
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (a.blocked(x, y) != b.blocked(x, y)) return (out << "cell (" << x << "," << y << ")", out.str());
      if (a.terrain_at(x, y) != b.terrain_at(x, y)) return (out << "terrain of (" << x << "," << y << ")", out.str());
    }
  const int margin = static_cast<int>(grid_map::kMargin);
  const int row_words = (w + 63) / 64, column_words = (h + 63) / 64;
  for (int y = -1; y <= h; ++y)
    for (int i = -margin; i < row_words + margin; ++i)
      if (a.row_line(y)[i] != b.row_line(y)[i]) return (out << "row copy " << y << " word " << i, out.str());
  for (int x = -1; x <= w; ++x)
    for (int i = -margin; i < column_words + margin; ++i)
      if (a.column_line(x)[i] != b.column_line(x)[i]) return (out << "column copy " << x << " word " << i, out.str());
  for (int by = 0; by < a.blocks_y(); ++by)
    for (int bx = 0; bx < a.blocks_x(); ++bx) {
      if (a.block_code(bx, by) != b.block_code(bx, by)) return (out << "code of block (" << bx << "," << by << ")", out.str());
      for (int level = 0; level <= a.open_group_levels() + 1; ++level)
        if (a.open_group_level(bx, by, level) != b.open_group_level(bx, by, level))
          return (out << "open group of block (" << bx << "," << by << ") to level " << level, out.str());
    }
  if (a.double_corner_count() != b.double_corner_count()) return "double corner count";
  if (a.double_corner_count() != double_corners_by_scan(a)) return "double corner count against a scan";
  if (a.cells_freed() != b.cells_freed() || a.cells_blocked() != b.cells_blocked()) return "counters";
  const std::uint64_t freed = a.cells_freed();
  for (std::uint64_t n = freed > grid_map::kFreedJournal ? freed - grid_map::kFreedJournal : 0; n < freed; ++n) {
    const grid_map::cell ca = a.freed_cell(n), cb = b.freed_cell(n);
    if (ca.x != cb.x || ca.y != cb.y) return (out << "freed cell " << n, out.str());
  }
  if (a.has_terrain() != b.has_terrain()) return "has_terrain";
  if (a.view_count() != b.view_count()) return "view count";
  for (const view_kind& v : kViews)
    if (a.view_count() > 0) {
      const std::string d = difference(a.view(v.footprint, v.movement), b.view(v.footprint, v.movement), pairs);
      if (!d.empty()) return "view of footprint " + std::to_string(v.footprint) + ": " + d;
    }
  if (pairs)
    for (int i = 0; i < 300; ++i) {
      const int ax = pairs->below(w), ay = pairs->below(h), bx = pairs->below(w), by = pairs->below(h);
      for (const connectivity c : kBoth)
        if (a.same_component(c, ax, ay, bx, by) != b.same_component(c, ax, ay, bx, by))
          return (out << "same_component (" << ax << "," << ay << ") (" << bx << "," << by << ")", out.str());
    }
  return "";
}

bool bit_of(const std::vector<std::uint8_t>& bits, std::size_t k) { return (bits[k >> 3] >> (k & 7)) & 1u; }

// What set_blocked_rect does, a cell at a time in its order.
void loop_rect(grid_map& m, int x, int y, int w, int h, const std::vector<std::uint8_t>& bits, bit_meaning meaning) {
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i)
      m.set_blocked(x + i, y + j, bit_of(bits, static_cast<std::size_t>(j) * static_cast<std::size_t>(w) + static_cast<std::size_t>(i)) ==
                                      (meaning == bit_meaning::blocked));
}

// A random map: random obstacles, rooms or a maze.
grid_map random_map(lddb_test::rng& g, int w, int h, int block) {
  const std::uint64_t seed = g.next();
  switch (g.below(3)) {
    case 0: return lddb::make_random_map(w, h, g.below(45), seed, block);
    case 1: return lddb::make_rooms_map(w, h, 3 + g.below(8), seed, block);
    default: return lddb::make_maze_map(w, h, 1 + g.below(3), seed, block);
  }
}

struct rect {
  int x, y, w, h;
};

// A rectangle of one of the kinds that stress the word-wise paths.
rect random_rect(lddb_test::rng& g, int W, int H) {
  const auto span = [&g](int side, int* at, int* len) {
    switch (g.below(6)) {
      case 0: *at = 0, *len = side; break;                         // the whole side
      case 1: *at = g.below(side), *len = 1; break;                // one cell
      case 2: *len = 1 + g.below(side), *at = side - *len; break;  // along the far edge
      case 3: *len = 1 + g.below(side), *at = 0; break;            // along the near edge
      case 4: {  // across a word boundary (64 cells) where the side has one
        const int edge = side > 64 ? 64 * (1 + g.below((side - 1) / 64)) : side / 2;
        *at = std::max(0, edge - 1 - g.below(12));
        *len = std::min(side - *at, edge - *at + 1 + g.below(80));
        break;
      }
      default: *at = g.below(side), *len = 1 + g.below(side - *at);
    }
  };
  rect r{};
  span(W, &r.x, &r.w);
  span(H, &r.y, &r.h);
  if (g.below(8) == 0) r = {0, 0, W, H};  // the whole map, more often than by chance
  return r;
}

// Bits for the rectangle: random at a random density, or the map's own cells with a few
// turned (so that the labels may stay exact through it).
std::vector<std::uint8_t> random_bits(lddb_test::rng& g, const grid_map& m, rect r, bit_meaning meaning) {
  const std::size_t n = static_cast<std::size_t>(r.w) * static_cast<std::size_t>(r.h);
  std::vector<std::uint8_t> bits((n + 7) / 8 + static_cast<std::size_t>(g.below(3)), 0);  // sometimes longer
  const bool near = g.below(2) == 0;
  const int density = g.below(101);
  for (std::size_t k = 0; k < n; ++k) {
    const int x = r.x + static_cast<int>(k % static_cast<std::size_t>(r.w)), y = r.y + static_cast<int>(k / static_cast<std::size_t>(r.w));
    bool blocked = near ? (m.blocked(x, y) != (g.below(100) < 3)) : g.below(100) < density;
    if ((meaning == bit_meaning::blocked) == blocked) bits[k >> 3] |= static_cast<std::uint8_t>(1u << (k & 7));
  }
  for (std::size_t k = n; k < bits.size() * 8; ++k)  // bits past the rectangle must be ignored
    if (g.below(2)) bits[k >> 3] |= static_cast<std::uint8_t>(1u << (k & 7));
  return bits;
}

// Makes a and b alike: terrain, views and labels, each by the same calls on both.
void same_calls(lddb_test::rng& g, grid_map& a, grid_map& b) {
  if (g.below(3) == 0) {
    const lddb::terrain types[] = {'W', 'S', 'T', 'G', '.', '@'};
    for (int i = 0; i < a.width() * a.height() / 8; ++i) {
      const int x = g.below(a.width()), y = g.below(a.height());
      const lddb::terrain t = types[g.below(6)];
      a.set_terrain(x, y, t);
      b.set_terrain(x, y, t);
    }
  }
  if (g.below(2) == 0)
    for (const view_kind& v : kViews) {
      a.view(v.footprint, v.movement);
      b.view(v.footprint, v.movement);
    }
  for (const connectivity c : kBoth)
    if (g.below(3) != 0) {
      a.same_component(c, 0, 0, a.width() - 1, a.height() - 1);
      b.same_component(c, 0, 0, b.width() - 1, b.height() - 1);
      for (const view_kind& v : kViews)
        if (a.view_count() > 0) {
          a.view(v.footprint, v.movement).same_component(c, 0, 0, 1, 1);
          b.view(v.footprint, v.movement).same_component(c, 0, 0, 1, 1);
        }
    }
}

TEST(GridRect, EndsWhereTheLoopOfSetBlockedEnds) {
  lddb_test::rng g{20260301};
  const int special[] = {1, 2, 63, 64, 65, 127, 128, 130, 191, 200};
  int exact_labels = 0;  // changes after which the labels stayed current without a rebuild
  for (int trial = 0; trial < 90; ++trial) {
    const int block = trial % 3 == 0 ? 4 : trial % 3 == 1 ? 5 : 2 + g.below(4);
    const int w = g.below(3) == 0 ? special[g.below(10)] : 1 + g.below(150);
    const int h = g.below(3) == 0 ? special[g.below(10)] : 1 + g.below(150);
    lddb_test::rng maps{g.next()};
    lddb_test::rng maps_again = maps;
    grid_map a = random_map(maps, w, h, block), b = random_map(maps_again, w, h, block);
    same_calls(g, a, b);
    for (int step = 0; step < 5; ++step) {
      const rect r = random_rect(g, w, h);
      const int kind = g.below(4);  // bits meaning blocked, bits meaning free, fill blocked, fill free
      std::ostringstream what;
      what << "trial " << trial << " step " << step << ": " << w << "x" << h << " map, b=" << block << ", rectangle "
           << r.w << "x" << r.h << " at (" << r.x << "," << r.y << "), kind " << kind;
      if (kind < 2) {
        const bit_meaning meaning = kind == 0 ? bit_meaning::blocked : bit_meaning::free;
        const std::vector<std::uint8_t> bits = random_bits(g, a, r, meaning);
        if (meaning == bit_meaning::blocked && g.below(2) == 0) a.set_blocked_rect(r.x, r.y, r.w, r.h, bits);
        else a.set_blocked_rect(r.x, r.y, r.w, r.h, bits, meaning);
        loop_rect(b, r.x, r.y, r.w, r.h, bits, meaning);
      } else {
        a.fill_blocked_rect(r.x, r.y, r.w, r.h, kind == 2);
        for (int y = r.y; y < r.y + r.h; ++y)
          for (int x = r.x; x < r.x + r.w; ++x) b.set_blocked(x, y, kind == 2);
      }
      bool current = false;
      for (const connectivity c : kBoth) current = current || a.components_current(c);
      exact_labels += current ? 1 : 0;
      ASSERT_EQ(difference(a, b), "") << what.str();
      if (g.below(2) == 0) {
        ASSERT_EQ(difference(a, b, &g), "") << what.str() << ", after same_component";
      }
    }
  }
  EXPECT_GT(exact_labels, 40) << "too few changes kept the labels current to test that path";
}

// The widest maps: block numbers and words near the largest column.
TEST(GridRect, WidestMaps) {
  lddb_test::rng g{31};
  for (const int block : {2, 3, 5}) {
    grid_map a(grid_map::kMaxSide, 6, block), b(grid_map::kMaxSide, 6, block);
    for (int step = 0; step < 6; ++step) {
      const int w = 1 + g.below(700), x = grid_map::kMaxSide - w - (step % 2 == 0 ? 0 : g.below(200));
      const rect r{x, g.below(3), w, 1 + g.below(3)};
      const std::vector<std::uint8_t> bits = random_bits(g, a, r, bit_meaning::blocked);
      a.set_blocked_rect(r.x, r.y, r.w, r.h, bits);
      loop_rect(b, r.x, r.y, r.w, r.h, bits, bit_meaning::blocked);
      ASSERT_EQ(difference(a, b), "") << "b=" << block << ", rectangle " << r.w << "x" << r.h << " at (" << r.x << "," << r.y << ")";
    }
  }
}

TEST(GridRect, BitsAreRowMajorLeastSignificantFirst) {
  grid_map m(70, 3, 4);
  // 67 x 2 cells from (2, 1): cell (2 + i, 1 + j) takes bit j * 67 + i.
  std::vector<std::uint8_t> bits(17, 0);
  const std::size_t set[] = {0, 5, 8, 63, 64, 66, 67, 100, 133};
  for (const std::size_t k : set) bits[k >> 3] |= static_cast<std::uint8_t>(1u << (k & 7));
  m.set_blocked_rect(2, 1, 67, 2, bits);
  std::uint64_t blocked = 0;
  for (const std::size_t k : set) {
    EXPECT_TRUE(m.blocked(2 + static_cast<int>(k % 67), 1 + static_cast<int>(k / 67))) << "bit " << k;
    ++blocked;
  }
  EXPECT_EQ(m.blocked_count(), blocked);
  m.set_blocked_rect(2, 1, 67, 2, bits, bit_meaning::free);  // the same bits, read the other way
  EXPECT_EQ(m.blocked_count(), 67u * 2 - blocked);
  EXPECT_FALSE(m.blocked(2, 1));
  EXPECT_TRUE(m.blocked(3, 1));
  EXPECT_FALSE(m.blocked(0, 0));  // outside the rectangle
  m.fill_blocked_rect(0, 0, 70, 3, true);
  EXPECT_EQ(m.blocked_count(), 210u);
}

TEST(GridRect, RefusedRectanglesChangeNothing) {
  lddb_test::rng g{7};
  grid_map a = lddb::make_rooms_map(90, 40, 6, 3, 5), b = lddb::make_rooms_map(90, 40, 6, 3, 5);
  for (grid_map* m : {&a, &b}) {
    m->view(2, lddb::movement_class::ground());
    m->same_component(connectivity::four, 0, 0, 1, 1);
  }
  const std::vector<std::uint8_t> bits(90 * 40 / 8, 0xFF);
  const rect off_map[] = {{-1, 0, 2, 2}, {0, -1, 2, 2}, {89, 0, 2, 1}, {0, 39, 1, 2}, {0, 0, 91, 40}, {INT_MAX, 0, 1, 1}, {1, 1, INT_MAX, 1}};
  for (const rect& r : off_map) {
    EXPECT_THROW(a.set_blocked_rect(r.x, r.y, r.w, r.h, bits), std::out_of_range);
    EXPECT_THROW(a.fill_blocked_rect(r.x, r.y, r.w, r.h, true), std::out_of_range);
  }
  try {
    a.fill_blocked_rect(80, 30, 20, 5, true);
    ADD_FAILURE() << "no exception";
  } catch (const std::out_of_range& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("20x5 cells at (80,30)"), std::string::npos) << what;
    EXPECT_NE(what.find("90x40 map"), std::string::npos) << what;
  }
  const rect empty[] = {{0, 0, 0, 1}, {0, 0, 1, 0}, {3, 3, -1, 2}, {3, 3, 2, INT_MIN}};
  for (const rect& r : empty) {
    EXPECT_THROW(a.set_blocked_rect(r.x, r.y, r.w, r.h, bits), std::invalid_argument);
    EXPECT_THROW(a.fill_blocked_rect(r.x, r.y, r.w, r.h, false), std::invalid_argument);
  }
  // 9 x 7 cells need 8 bytes; 7 are refused, empty too.
  EXPECT_THROW(a.set_blocked_rect(1, 1, 9, 7, std::span(bits).first(7)), std::invalid_argument);
  EXPECT_THROW(a.set_blocked_rect(1, 1, 9, 7, std::span<const std::uint8_t>{}, bit_meaning::free), std::invalid_argument);
  EXPECT_EQ(difference(a, b), "");
  EXPECT_EQ(difference(a, b, &g), "");
  a.set_blocked_rect(1, 1, 9, 7, std::span(bits).first(8));  // exactly enough
  EXPECT_NE(difference(a, b), "");
}

// The comparison must see what a wrong order or a wrong cell would leave.
TEST(GridRect, TheComparisonSeesADifference) {
  grid_map a = lddb::make_random_map(80, 30, 30, 11), b = lddb::make_random_map(80, 30, 30, 11);
  ASSERT_EQ(difference(a, b), "");
  for (int y = 2; y < 6; ++y)  // the same cells freed, row by row in a, column by column in b
    for (int x = 60; x < 70; ++x) a.set_blocked(x, y, false);
  for (int x = 60; x < 70; ++x)
    for (int y = 2; y < 6; ++y) b.set_blocked(x, y, false);
  EXPECT_NE(difference(a, b).find("freed cell"), std::string::npos) << difference(a, b);
  grid_map c = lddb::make_random_map(80, 30, 30, 11), d = lddb::make_random_map(80, 30, 30, 11);
  for (grid_map* m : {&c, &d}) m->view(3, lddb::movement_class::of(".GSW"));
  c.set_terrain(5, 5, 'W');
  d.set_terrain(5, 5, 'T');
  EXPECT_NE(difference(c, d), "");
}

}  // namespace
