// grid_map's caches of its own cells: the open-group counts against a scan of the block
// codes after every change, and the identity and change counters that caches kept outside
// the map (landmarks) rely on.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lddb/grid.hpp"
#include "lddb/splitmix.hpp"

namespace {

// The largest level L <= max_level whose aligned group of 2^L x 2^L blocks around (bx, by)
// fits the map and has every block open, found by reading every block of it.
int open_level_by_scan(const lddb::grid_map& m, int bx, int by, int max_level) {
  if (bx < 0 || by < 0 || bx >= m.blocks_x() || by >= m.blocks_y()) return 0;
  int level = 0;
  for (int l = 1; l <= max_level; ++l) {
    const int k = 1 << l, sx = bx & ~(k - 1), sy = by & ~(k - 1);
    if (sx + k > m.blocks_x() || sy + k > m.blocks_y()) break;
    bool open = true;
    for (int y = sy; y < sy + k && open; ++y)
      for (int x = sx; x < sx + k && open; ++x) open = m.block_code(x, y) == 0;
    if (!open) break;
    level = l;
  }
  return level;
}

void expect_levels_match(const lddb::grid_map& m, int max_level) {
  for (int by = -1; by <= m.blocks_y(); ++by)
    for (int bx = -1; bx <= m.blocks_x(); ++bx)
      ASSERT_EQ(m.open_group_level(bx, by, max_level), open_level_by_scan(m, bx, by, max_level))
          << "block (" << bx << "," << by << ") of a " << m.width() << "x" << m.height() << " map, b=" << m.block();
}

TEST(GridOpenGroups, CountsFollowEveryChange) {
  std::uint64_t state = 20261125;
  auto next = [&state] { return lddb::splitmix64(state); };
  for (int trial = 0; trial < 24; ++trial) {
    const int w = 8 + static_cast<int>(next() % 120), h = 8 + static_cast<int>(next() % 120);
    const int b = 2 + static_cast<int>(next() % 4);
    lddb::grid_map m(w, h, b);
    expect_levels_match(m, 20);
    const int density = 1 + static_cast<int>(next() % 6);  // a few obstacles, so groups stay open
    for (int i = 0; i < w * h * density / 100; ++i)
      m.set_blocked(static_cast<int>(next() % static_cast<unsigned>(w)), static_cast<int>(next() % static_cast<unsigned>(h)), true);
    expect_levels_match(m, 20);
    for (int round = 0; round < 6; ++round) {
      for (int i = 0; i < 40; ++i) {
        const int x = static_cast<int>(next() % static_cast<unsigned>(w)), y = static_cast<int>(next() % static_cast<unsigned>(h));
        m.set_blocked(x, y, !m.blocked(x, y));
      }
      expect_levels_match(m, 20);
      expect_levels_match(m, 1 + round % 3);
    }
    m.set_block_size(b == 5 ? 2 : b + 1);  // new blocks: the counts are rebuilt
    expect_levels_match(m, 20);
  }
}

TEST(GridOpenGroups, LevelsThatFitTheMap) {
  lddb::grid_map m(64, 40, 4);  // 16 x 10 blocks: groups of 2, 4 and 8 blocks fit
  EXPECT_EQ(m.open_group_levels(), 3);
  EXPECT_EQ(m.open_group_level(0, 0, 10), 3);
  EXPECT_EQ(m.open_group_level(0, 8, 10), 1);  // rows 8..9 of blocks: only 2 x 2 groups fit
  m.set_blocked(63, 39, true);
  EXPECT_EQ(m.open_group_level(15, 9, 10), 0);
  EXPECT_EQ(m.open_group_level(14, 8, 10), 0);  // its 2 x 2 group holds block (15, 9)
  EXPECT_EQ(m.open_group_level(12, 8, 10), 1);
  EXPECT_EQ(m.open_group_level(8, 0, 10), 3);  // rows 0..7 of blocks: untouched
  lddb::grid_map small(4, 4, 4);
  EXPECT_EQ(small.open_group_levels(), 0);
  EXPECT_EQ(small.open_group_level(0, 0, 5), 0);
}

// set_blocked refuses a cell off the map with an exception that names it, and leaves the
// map as it was (its change counters included).
TEST(GridChanges, OffTheMapThrowsAndChangesNothing) {
  lddb::grid_map map(10, 7, 4);
  map.set_blocked(3, 3, true);
  const auto blocked_before = map.cells_blocked();
  for (const auto& [x, y] : std::vector<std::pair<int, int>>{{-1, 0}, {0, -1}, {10, 0}, {0, 7}, {10, 7}}) {
    try {
      map.set_blocked(x, y, true);
      ADD_FAILURE() << "set_blocked(" << x << "," << y << ") did not throw";
    } catch (const std::out_of_range& e) {
      const std::string cell = "(" + std::to_string(x) + "," + std::to_string(y) + ")";
      EXPECT_NE(std::string(e.what()).find(cell), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("10x7"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(map.cells_blocked(), blocked_before);
  EXPECT_TRUE(map.blocked(3, 3));
}

TEST(GridChanges, CountersAndIdentity) {
  lddb::grid_map m(10, 10, 2);
  EXPECT_EQ(m.cells_freed(), 0u);
  m.set_blocked(3, 3, true);
  m.set_blocked(3, 3, true);  // no change, not counted
  m.set_blocked(4, 3, true);
  m.set_blocked(3, 3, false);
  EXPECT_EQ(m.cells_blocked(), 2u);
  EXPECT_EQ(m.cells_freed(), 1u);

  const std::uint64_t id = m.identity();
  lddb::grid_map copy = m;
  EXPECT_NE(copy.identity(), id);  // another map, however alike
  EXPECT_TRUE(copy == m);
  lddb::grid_map moved = std::move(m);
  EXPECT_EQ(moved.identity(), id);  // the same map, moved
  EXPECT_NE(m.identity(), id);      // NOLINT(bugprone-use-after-move): the husk is another
  std::vector<lddb::grid_map> maps;
  maps.push_back(std::move(moved));
  for (int i = 0; i < 20; ++i) maps.emplace_back(4, 4, 2);  // reallocations move the first
  EXPECT_EQ(maps.front().identity(), id);
  copy = maps.front();
  EXPECT_NE(copy.identity(), id);
}

}  // namespace
