// gppc_entry_test: lddb's entry for the GPPC dynamic track (gppc/entry.cpp), called as the
// start kit's runner calls it, on generated maps changed by patches: every path is a legal
// chain of straight and 45-degree runs (checked here, cell by cell, under the track's rule:
// octile, no corner cutting) whose length is the least cost by a Dijkstra over the cells;
// and the bad input a harness can send gets a message and a safe answer.
//
//   GppcEntry.PathsFollowPatches  random patches (buildings, doors, cells lifted), then
//                                 queries: every answer legal and optimal, no path where
//                                 the oracle finds none
//   GppcEntry.BadInput            an empty patch, one running off the map, a start or goal
//                                 on a blocked cell, an entry whose init failed
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "Entry.h"
#include "cell_dijkstra.hpp"
#include "lddb/rule.hpp"
#include "test_rng.hpp"

namespace {

// A map as the track packs it: bit y * w + x set when the cell is free.
struct packed {
  int w, h;
  std::vector<std::uint8_t> bits;
  packed(int width, int height) : w(width), h(height), bits((static_cast<std::size_t>(width * height) + 7) / 8, 0) {}
  bool free(int x, int y) const {
    if (x < 0 || y < 0 || x >= w || y >= h) return false;
    const int i = y * w + x;
    return (bits[static_cast<std::size_t>(i >> 3)] >> (i & 7)) & 1;
  }
  void set(int x, int y, bool is_free) {
    const int i = y * w + x;
    auto& b = bits[static_cast<std::size_t>(i >> 3)];
    b = static_cast<std::uint8_t>(is_free ? (b | (1u << (i & 7))) : (b & ~(1u << (i & 7))));
  }
  gppc_patch patch(int x, int y) const {
    return gppc_patch{bits.data(), static_cast<std::uint16_t>(w), static_cast<std::uint16_t>(h),
                      {static_cast<std::uint16_t>(x), static_cast<std::uint16_t>(y)}};
  }
};

// The track's move: one step to a neighbour, free, and a diagonal with both side cells free.
bool step_ok(const packed& m, int x, int y, int dx, int dy) {
  if (!m.free(x + dx, y + dy)) return false;
  return dx == 0 || dy == 0 || (m.free(x + dx, y) && m.free(x, y + dy));
}

double oracle(const packed& m, gppc_point s, gppc_point g) {
  const lddb::rule octile = lddb::rule::octile();
  const lddb::cost_t c = lddb_test::least_cell_cost(octile, m.w, m.h, {s.x, s.y}, {g.x, g.y},
                                                     [&](lddb::point p, int dx, int dy) { return step_ok(m, p.x, p.y, dx, dy); });
  return c == lddb::kUnreachable ? -1.0 : lddb::cost_to_double(c);
}

// The answer's length when it is a legal path from s to g, else -2 (and a failure).
double checked_length(const packed& m, gppc_path p, gppc_point s, gppc_point g) {
  EXPECT_EQ(p.incomplete, 0);
  if (p.length == 0) return -1.0;
  EXPECT_TRUE(p.path[0].x == s.x && p.path[0].y == s.y);
  EXPECT_TRUE(p.path[p.length - 1].x == g.x && p.path[p.length - 1].y == g.y);
  double length = 0;
  for (std::uint32_t i = 1; i < p.length; ++i) {
    const int dx = p.path[i].x - p.path[i - 1].x, dy = p.path[i].y - p.path[i - 1].y;
    if (!((dx == 0) != (dy == 0) || std::abs(dx) == std::abs(dy)) || (dx == 0 && dy == 0)) {
      ADD_FAILURE() << "segment " << i << " is neither straight nor 45 degrees";
      return -2.0;
    }
    const int n = std::max(std::abs(dx), std::abs(dy)), sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
    for (int k = 0; k < n; ++k)
      if (!step_ok(m, p.path[i - 1].x + k * sx, p.path[i - 1].y + k * sy, sx, sy)) {
        ADD_FAILURE() << "segment " << i << " crosses a blocked cell or cuts a corner";
        return -2.0;
      }
    length += n * ((sx != 0 && sy != 0) ? std::sqrt(2.0) : 1.0);
  }
  return length;
}

gppc_point free_cell(const packed& m, lddb_test::rng& g) {
  for (;;) {
    const int x = static_cast<int>(g.below(static_cast<std::uint64_t>(m.w)));
    const int y = static_cast<int>(g.below(static_cast<std::uint64_t>(m.h)));
    if (m.free(x, y)) return {static_cast<std::uint16_t>(x), static_cast<std::uint16_t>(y)};
  }
}

TEST(GppcEntry, PathsFollowPatches) {
  for (int map_no = 0; map_no < 6; ++map_no) {
    lddb_test::rng g(100 + static_cast<std::uint64_t>(map_no));
    const int w = 40 + static_cast<int>(g.below(90)), h = 30 + static_cast<int>(g.below(90));
    packed m(w, h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) m.set(x, y, g.below(100) >= 22);
    void* data = gppc_search_init(m.patch(0, 0), "");
    ASSERT_NE(data, nullptr);
    for (int round = 0; round < 12; ++round) {
      if (round > 0) {  // a few patches: a building, a wall, cells lifted
        std::vector<packed> patches;
        std::vector<gppc_patch> changes;
        for (int k = 0; k < 3; ++k) {
          const int pw = 1 + static_cast<int>(g.below(8)), ph = 1 + static_cast<int>(g.below(8));
          const int px = static_cast<int>(g.below(static_cast<std::uint64_t>(w - pw + 1)));
          const int py = static_cast<int>(g.below(static_cast<std::uint64_t>(h - ph + 1)));
          packed p(pw, ph);
          const int kind = static_cast<int>(g.below(3));
          for (int y = 0; y < ph; ++y)
            for (int x = 0; x < pw; ++x) p.set(x, y, kind == 0 ? false : kind == 1 ? true : g.below(2) == 0);
          for (int y = 0; y < ph; ++y)
            for (int x = 0; x < pw; ++x) m.set(px + x, py + y, p.free(x, y));  // the harness applies it first
          patches.push_back(std::move(p));
          changes.push_back(patches.back().patch(px, py));
        }
        for (std::size_t k = 0; k < changes.size(); ++k) changes[k].bitarray = patches[k].bits.data();
        gppc_map_change(data, changes.data(), static_cast<std::uint32_t>(changes.size()));
      }
      for (int q = 0; q < 15; ++q) {
        const gppc_point s = free_cell(m, g), t = free_cell(m, g);
        const double want = oracle(m, s, t);
        const double got = checked_length(m, gppc_get_path(data, s, t), s, t);
        if (want < 0) EXPECT_EQ(got, -1.0) << "map " << map_no << " round " << round;
        else EXPECT_NEAR(got, want, 1e-9) << "map " << map_no << " round " << round << " (" << s.x << "," << s.y << ") to ("
                                          << t.x << "," << t.y << ")";
      }
    }
    gppc_free_data(data);
  }
}

TEST(GppcEntry, BadInput) {
  packed m(50, 40);
  for (int y = 0; y < 40; ++y)
    for (int x = 0; x < 50; ++x) m.set(x, y, !(x == 20 && y > 3));
  void* data = gppc_search_init(m.patch(0, 0), "");
  ASSERT_NE(data, nullptr);
  EXPECT_STREQ(gppc_get_name(), "lddb");

  // An empty patch: nothing changes, and it is said.
  testing::internal::CaptureStderr();
  gppc_patch empty{m.bits.data(), 0, 3, {1, 1}};
  gppc_map_change(data, &empty, 1);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("empty"), std::string::npos);
  EXPECT_NEAR(checked_length(m, gppc_get_path(data, {2, 2}, {40, 2}), {2, 2}, {40, 2}), 38.0, 1e-9);

  // A wall running off the map's right edge: its cells on the map are taken.
  packed wall(8, 1);  // all blocked
  testing::internal::CaptureStderr();
  gppc_patch off = wall.patch(45, 10);
  gppc_map_change(data, &off, 1);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("runs off"), std::string::npos);
  for (int x = 45; x < 50; ++x) m.set(x, 10, false);
  const gppc_point s{40, 20}, t{40, 5};
  EXPECT_NEAR(checked_length(m, gppc_get_path(data, s, t), s, t), oracle(m, s, t), 1e-9);

  // A start or a goal on a blocked cell: no path, and a message.
  testing::internal::CaptureStderr();
  const gppc_path blocked_start = gppc_get_path(data, {20, 10}, {2, 2});
  const gppc_path blocked_goal = gppc_get_path(data, {2, 2}, {47, 10});
  EXPECT_NE(testing::internal::GetCapturedStderr().find("invalid_start"), std::string::npos);
  EXPECT_EQ(blocked_start.length, 0u);
  EXPECT_EQ(blocked_start.incomplete, 0);
  EXPECT_EQ(blocked_goal.length, 0u);
  gppc_free_data(data);

  // An entry whose init failed (no database there) answers every call safely.
  setenv("LDDB_GPPC_DATABASE", "/nonexistent/octile-4.lddb", 1);
  testing::internal::CaptureStderr();
  void* broken = gppc_search_init(m.patch(0, 0), "");
  EXPECT_NE(testing::internal::GetCapturedStderr().find("/nonexistent/octile-4.lddb"), std::string::npos);
  unsetenv("LDDB_GPPC_DATABASE");
  EXPECT_EQ(broken, nullptr);
  gppc_map_change(broken, &off, 1);
  EXPECT_EQ(gppc_get_path(broken, {2, 2}, {40, 2}).length, 0u);
  gppc_free_data(broken);
}

}  // namespace
