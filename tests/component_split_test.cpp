// The component labels kept exact through changes without a rebuild (component_labels.hpp):
// ids joined when cells are freed, and searches round blocked cells that give a part that
// split off a new id, cell by cell (set_blocked) and a rectangle at a time
// (set_blocked_rect, fill_blocked_rect), checked after each change and after rounds of them.
//
// The oracle is a flood fill written here over the cells under each connectivity. After
// every change the labels' partition of the free cells must equal the oracle's: every cell
// with its component's first cell, and the first cells of two components apart. The labels
// must also have stayed current (no rebuild) through most changes, and splits must have
// been found by the searches, so that the path tested is the local one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "lddb/grid.hpp"
#include "lddb/prepare.hpp"
#include "lddb/rule.hpp"
#include "lddb/search.hpp"
#include "lddb/unit.hpp"
#include "test_rng.hpp"

namespace {

using lddb::connectivity;
using lddb::grid_map;
using lddb_test::rng;

constexpr connectivity kBoth[] = {connectivity::four, connectivity::eight};

// Component of every cell under c (-1 blocked), numbered in row-major order of first cells.
std::vector<int> flood(const grid_map& m, connectivity c, std::vector<int>& firsts) {
  const int w = m.width(), h = m.height();
  std::vector<int> id(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), -1);
  firsts.clear();
  std::deque<int> queue;
  for (int start = 0; start < w * h; ++start) {
    if (m.blocked(start % w, start / w) || id[static_cast<std::size_t>(start)] >= 0) continue;
    const int n = static_cast<int>(firsts.size());
    firsts.push_back(start);
    id[static_cast<std::size_t>(start)] = n;
    queue.push_back(start);
    while (!queue.empty()) {
      const int u = queue.front(), ux = u % w, uy = u / w;
      queue.pop_front();
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if ((dx == 0 && dy == 0) || (c == connectivity::four && dx != 0 && dy != 0)) continue;
          const int vx = ux + dx, vy = uy + dy;
          if (vx < 0 || vy < 0 || vx >= w || vy >= h || m.blocked(vx, vy)) continue;
          int& v = id[static_cast<std::size_t>(vy * w + vx)];
          if (v < 0) {
            v = n;
            queue.push_back(vy * w + vx);
          }
        }
    }
  }
  return id;
}

// "" when the labels of c partition the free cells as the flood fill does.
std::string partition_difference(const grid_map& m, connectivity c, rng& g) {
  std::vector<int> firsts;
  const std::vector<int> id = flood(m, c, firsts);
  const int w = m.width();
  for (std::size_t i = 0; i < id.size(); ++i) {
    if (id[i] < 0) continue;
    const int f = firsts[static_cast<std::size_t>(id[i])];
    if (!m.same_component(c, static_cast<int>(i) % w, static_cast<int>(i) / w, f % w, f / w))
      return "cell " + std::to_string(i) + " apart from its component's first cell " + std::to_string(f);
  }
  const std::size_t k = firsts.size();
  const auto apart = [&](std::size_t a, std::size_t b) {
    const int fa = firsts[a], fb = firsts[b];
    return !m.same_component(c, fa % w, fa / w, fb % w, fb / w);
  };
  if (k <= 80) {
    for (std::size_t a = 0; a < k; ++a)
      for (std::size_t b = a + 1; b < k; ++b)
        if (!apart(a, b)) return "components " + std::to_string(a) + " and " + std::to_string(b) + " joined";
  } else {
    for (int t = 0; t < 4000; ++t) {
      const std::size_t a = static_cast<std::size_t>(g.below(static_cast<int>(k))),
                        b = static_cast<std::size_t>(g.below(static_cast<int>(k)));
      if (a != b && !apart(a, b)) return "components " + std::to_string(a) + " and " + std::to_string(b) + " joined";
    }
  }
  return "";
}

std::size_t components_of(const grid_map& m, connectivity c) {
  std::vector<int> firsts;
  flood(m, c, firsts);
  return firsts.size();
}

// Rooms: walls every `room` cells with doors, and scattered blocked cells.
grid_map rooms_map(rng& g, int w, int h, int room, int scatter_percent) {
  grid_map m(w, h, 4);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if ((x % room == 0 && g.below(room) != 0) || (y % room == 0 && g.below(room) != 0) || g.below(100) < scatter_percent)
        m.set_blocked(x, y, true);
  return m;
}

// One random change: a door shut or opened, a cell blocked beside others, or a rectangle
// written or filled. Returns what it did.
std::string random_change(rng& g, grid_map& m) {
  const int w = m.width(), h = m.height(), kind = g.below(6);
  if (kind < 3) {
    const int x = g.below(w), y = g.below(h);
    m.set_blocked(x, y, kind == 2 ? false : !m.blocked(x, y));
    return "cell (" + std::to_string(x) + "," + std::to_string(y) + ")";
  }
  const int rw = 1 + g.below(std::min(w, 12)), rh = 1 + g.below(std::min(h, 12));
  const int x = g.below(w - rw + 1), y = g.below(h - rh + 1);
  if (kind == 5) {
    m.fill_blocked_rect(x, y, rw, rh, g.below(3) != 0);
  } else {
    std::vector<std::uint8_t> bits((static_cast<std::size_t>(rw) * static_cast<std::size_t>(rh) + 7) / 8);
    for (auto& b : bits) b = static_cast<std::uint8_t>(g.next() & g.next());  // a quarter blocked
    m.set_blocked_rect(x, y, rw, rh, bits);
  }
  return std::to_string(rw) + "x" + std::to_string(rh) + " at (" + std::to_string(x) + "," + std::to_string(y) + ")";
}

TEST(ComponentSplit, LabelsStayExactThroughCellsAndRectangles) {
  rng g{20261128};
  int changes = 0, kept = 0, splits_found = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int w = 8 + g.below(70), h = 8 + g.below(70);
    grid_map m = rooms_map(g, w, h, 5 + g.below(8), 5 + g.below(30));
    for (const connectivity c : kBoth) (void)m.same_component(c, 0, 0, 0, 0);  // built: kept from here on
    for (int step = 0; step < 40; ++step, ++changes) {
      std::size_t before[2] = {components_of(m, connectivity::four), components_of(m, connectivity::eight)};
      const std::string what = "trial " + std::to_string(trial) + " step " + std::to_string(step) + ": " + random_change(g, m);
      bool current = true;
      for (const connectivity c : kBoth) current = current && m.components_current(c);
      kept += current ? 1 : 0;
      for (int k = 0; k < 2; ++k) {
        const std::size_t after = components_of(m, kBoth[k]);
        if (current && after > before[k]) ++splits_found;
        ASSERT_EQ(partition_difference(m, kBoth[k], g), "") << what << (k == 0 ? ", four" : ", eight");
      }
    }
  }
  EXPECT_GE(changes, 2400);
  EXPECT_GT(kept, changes * 9 / 10) << "labels rebuilt after too many changes: the local path is not what was tested";
  EXPECT_GT(splits_found, 200) << "too few splits found without a rebuild";
}

// Rounds of changes between queries, as a game's frame or the dynamic track's rounds bring
// them: every part split off by any change of the round is found, whatever was freed or
// blocked after it, among passages one cell wide too.
TEST(ComponentSplit, LabelsStayExactThroughRoundsOfChanges) {
  rng g{20261129};
  int rounds = 0, kept = 0;
  for (int trial = 0; trial < 120; ++trial) {
    // Rooms, and scattered cells dense enough for passages one cell wide, where one change
    // can take away what joined the part another change of the round split off.
    const int w = 8 + g.below(40), h = 8 + g.below(40);
    grid_map m = trial % 2 ? rooms_map(g, w, h, 5 + g.below(8), 5 + g.below(30)) : rooms_map(g, w, h, 1000, 30 + g.below(15));
    for (const connectivity c : kBoth) (void)m.same_component(c, 0, 0, 0, 0);
    for (int round = 0; round < 12; ++round, ++rounds) {
      std::string what = "trial " + std::to_string(trial) + " round " + std::to_string(round) + ":";
      for (int k = 1 + g.below(12); k > 0; --k) what += " " + random_change(g, m);
      bool current = true;
      for (const connectivity c : kBoth) current = current && m.components_current(c);
      kept += current ? 1 : 0;
      for (int k = 0; k < 2; ++k) ASSERT_EQ(partition_difference(m, kBoth[k], g), "") << what << (k == 0 ? ", four" : ", eight");
    }
  }
  EXPECT_GE(rounds, 1440);
  EXPECT_GT(kept, rounds * 3 / 4) << "labels rebuilt after too many rounds: the searches are not what was tested";
}

// A split whose smaller side is larger than the searches' budget leaves the labels to a
// rebuild, which still answers right; a small room shut off is found by the search.
TEST(ComponentSplit, PastTheBudgetTheNextQueryRebuilds) {
  constexpr int n = 600;  // 360,000 cells in 600 runs: a budget of 1,024 cells
  grid_map m(n, n, 4);
  EXPECT_TRUE(m.same_component(connectivity::four, 0, 0, n - 1, 0));
  for (int y = 0; y + 1 < n; ++y) m.set_blocked(n / 2, y, true);  // a wall down the middle, open at the bottom
  EXPECT_TRUE(m.components_current(connectivity::four));          // nothing split yet
  EXPECT_TRUE(m.same_component(connectivity::four, 0, 0, n - 1, 0));
  m.set_blocked(n / 2, n - 1, true);  // two halves of 179,700 cells
  EXPECT_FALSE(m.components_current(connectivity::four));
  EXPECT_FALSE(m.same_component(connectivity::four, 0, 0, n - 1, 0));
  EXPECT_TRUE(m.same_component(connectivity::four, 0, 0, 0, n - 1));
  m.set_blocked(n / 2, n - 1, false);
  EXPECT_TRUE(m.components_current(connectivity::four));
  EXPECT_TRUE(m.same_component(connectivity::four, 0, 0, n - 1, 0));

  // The same wall as one rectangle.
  grid_map r(n, n, 4);
  EXPECT_TRUE(r.same_component(connectivity::four, 0, 0, n - 1, 0));
  r.fill_blocked_rect(n / 2, 0, 1, n, true);
  EXPECT_FALSE(r.components_current(connectivity::four));
  EXPECT_FALSE(r.same_component(connectivity::four, 0, 0, n - 1, 0));
  // A rectangle that blocks more cells than a search would follow (a 256th of the map):
  // stale at once (the two sides stay joined above it).
  r.fill_blocked_rect(n / 2, 0, 1, n, false);
  EXPECT_TRUE(r.same_component(connectivity::four, 0, 0, n - 1, 0));
  r.fill_blocked_rect(100, 100, 200, n - 100, true);
  EXPECT_FALSE(r.components_current(connectivity::four));
  EXPECT_TRUE(r.same_component(connectivity::four, 0, n - 1, n - 1, n - 1));
  r.fill_blocked_rect(0, n - 5, 100, 1, true);  // closes the 100 x 4 cells below it, left of the rectangle
  EXPECT_TRUE(r.components_current(connectivity::four));
  EXPECT_FALSE(r.same_component(connectivity::four, 0, 0, 0, n - 1));
  EXPECT_TRUE(r.same_component(connectivity::four, 0, n - 1, 99, n - 4));
  EXPECT_TRUE(r.same_component(connectivity::four, 0, 0, n - 1, n - 1));

  // A 5 x 5 room in the corner of a large map, its door shut and opened again.
  grid_map room(n, n, 4);
  for (int i = 0; i < 7; ++i) {
    room.set_blocked(i, 6, true);
    room.set_blocked(6, i, true);
  }
  room.set_blocked(6, 3, false);  // the door
  EXPECT_TRUE(room.same_component(connectivity::four, 0, 0, n - 1, n - 1));
  room.set_blocked(6, 3, true);
  EXPECT_TRUE(room.components_current(connectivity::four));
  EXPECT_FALSE(room.same_component(connectivity::four, 0, 0, n - 1, n - 1));
  EXPECT_TRUE(room.same_component(connectivity::four, 0, 0, 5, 5));
  EXPECT_TRUE(room.same_component(connectivity::four, 7, 7, n - 1, n - 1));
  room.set_blocked(6, 3, false);
  EXPECT_TRUE(room.components_current(connectivity::four));
  EXPECT_TRUE(room.same_component(connectivity::four, 0, 0, n - 1, n - 1));
}

// A split past the budget leaves the labels coarse, and the searches read them as they are:
// a query that finds its path rebuilds nothing, one whose ends the labels prove apart is
// answered with no expansion, and one that runs out of cells (the labels still joined its
// ends) has the next prepare_step rebuild them, so that the query after that is answered
// at once; until then the same query does the same work. Every answer is the flood fill's.
TEST(ComponentSplit, SearchesReadCoarseLabels) {
  constexpr int n = 600;  // a budget of 1,024 cells: the two halves are far past it
  const lddb::rule octile = lddb::rule::octile();  // no corner cutting: four-connected
  using search_fn = lddb::search_result (*)(const lddb::rule&, const grid_map&, lddb::point, lddb::point,
                                             const lddb::search_options&, lddb::search_context&);
  const std::pair<const char*, search_fn> searches[] = {{"astar", &lddb::astar}, {"jump_point_search", &lddb::jump_point_search}};
  for (const auto& [name, search] : searches) {
    SCOPED_TRACE(name);
    grid_map m(n, n, 4);
    for (int i = 0; i < 7; ++i) {  // a closed 6 x 6 room in the corner
      m.set_blocked(i, 6, true);
      m.set_blocked(6, i, true);
    }
    lddb::search_context ctx;
    const lddb::search_options o;
    const lddb::point left{10, 10}, room{2, 2}, right{n - 1, 0};
    EXPECT_FALSE(m.same_component(connectivity::four, left.x, left.y, room.x, room.y));
    for (int y = 0; y + 1 < n; ++y) m.set_blocked(n / 2, y, true);  // a wall, open at the bottom
    m.set_blocked(n / 2, n - 1, true);                              // now closed
    ASSERT_FALSE(m.components_current(connectivity::four));

    lddb::search_result r = search(octile, m, left, {n / 2 - 1, n - 1}, o, ctx);
    EXPECT_EQ(r.status, lddb::search_status::found);
    EXPECT_FALSE(m.components_current(connectivity::four)) << "a query that found its path rebuilt the labels";

    r = search(octile, m, left, room, o, ctx);
    EXPECT_EQ(r.status, lddb::search_status::no_path);
    EXPECT_EQ(r.stats.expanded, 0u) << "coarse labels still prove the room apart";

    lddb::search_options unchecked;
    unchecked.diagnostics.component_check = false;
    r = search(octile, m, left, right, unchecked, ctx);
    EXPECT_EQ(r.status, lddb::search_status::no_path);
    lddb::prepare_step(m);
    EXPECT_FALSE(m.components_current(connectivity::four)) << "a search without the check had the labels rebuilt";

    r = search(octile, m, left, right, o, ctx);
    EXPECT_EQ(r.status, lddb::search_status::no_path);
    const std::uint64_t walked = r.stats.expanded;
    EXPECT_GT(walked, 0u);
    EXPECT_FALSE(m.components_current(connectivity::four)) << "a query rebuilt the labels";
    r = search(octile, m, left, right, o, ctx);
    EXPECT_EQ(r.stats.expanded, walked) << "the same query did other work after the first";
    lddb::prepare_step(m);
    EXPECT_TRUE(m.components_current(connectivity::four)) << "a search ran out of cells on coarse labels";
    r = search(octile, m, left, right, o, ctx);
    EXPECT_EQ(r.status, lddb::search_status::no_path);
    EXPECT_EQ(r.stats.expanded, 0u);

    std::vector<int> firsts;
    const std::vector<int> id = flood(m, connectivity::four, firsts);
    EXPECT_NE(id[static_cast<std::size_t>(left.y * n + left.x)], id[static_cast<std::size_t>(right.y * n + right.x)]);
  }
}

// The same for a unit's view: a 2 x 2 unit's searches read its view's labels, and
// prepare_step on the map settles them too.
TEST(ComponentSplit, UnitViewsSettleToo) {
  constexpr int n = 600;
  const lddb::rule octile = lddb::rule::octile();
  grid_map m(n, n, 4);
  lddb::search_context ctx;
  lddb::search_options o;
  o.unit.size = 2;
  const lddb::point left{10, 10}, right{n - 10, 10};
  ASSERT_EQ(lddb::astar(octile, m, left, right, o, ctx).status, lddb::search_status::found);  // builds the view
  const grid_map& view = lddb::unit_view(octile, m, o.unit);
  ASSERT_TRUE(view.components_current(connectivity::four));
  for (int y = 0; y + 2 < n; ++y) m.set_blocked(n / 2, y, true);  // a wall, a gap of 2 at the bottom
  EXPECT_TRUE(view.components_current(connectivity::four));
  m.set_blocked(n / 2, n - 2, true);  // too narrow for the unit now
  ASSERT_FALSE(view.components_current(connectivity::four));

  lddb::search_result r = lddb::astar(octile, m, left, right, o, ctx);
  EXPECT_EQ(r.status, lddb::search_status::no_path);
  EXPECT_GT(r.stats.expanded, 0u);
  EXPECT_FALSE(view.components_current(connectivity::four)) << "a query rebuilt the view's labels";
  lddb::prepare_step(m);
  EXPECT_TRUE(view.components_current(connectivity::four)) << "prepare_step left the view's labels coarse";
  r = lddb::astar(octile, m, left, right, o, ctx);
  EXPECT_EQ(r.status, lddb::search_status::no_path);
  EXPECT_EQ(r.stats.expanded, 0u);
  o.unit.size = 1;  // a cell still passes
  EXPECT_EQ(lddb::astar(octile, m, left, right, o, ctx).status, lddb::search_status::found);
}

// A door shut and opened thousands of times: each shutting splits off a room with a new id,
// and the ids stay bounded (past a limit the next query rebuilds, numbering them afresh).
TEST(ComponentSplit, IdsStayBoundedThroughManySplits) {
  grid_map m(20, 20, 4);
  for (int i = 0; i < 20; ++i) m.set_blocked(10, i, true);
  m.set_blocked(10, 5, false);  // the door
  ASSERT_TRUE(m.same_component(connectivity::four, 0, 0, 19, 19));
  std::size_t most = 0;
  for (int round = 0; round < 5000; ++round) {
    m.set_blocked(10, 5, true);
    ASSERT_FALSE(m.same_component(connectivity::four, 0, 0, 19, 19)) << round;
    ASSERT_TRUE(m.same_component(connectivity::four, 0, 0, 9, 19)) << round;
    m.set_blocked(10, 5, false);
    ASSERT_TRUE(m.same_component(connectivity::four, 0, 0, 19, 19)) << round;
    most = std::max(most, m.component_bytes());
  }
  EXPECT_LT(most, 400 * 4 + 2000 * 4 + 4096) << "ids kept growing";
}

}  // namespace
