// unit_any_angle_test: any-angle units against the exact optimum.
//
// A square unit of size k moves its top-left corner between vertices. docs/rules.md (and the
// proof in runtime/src/map/unit_views.cpp) reduces it to the point on a grid V whose cell
// (x, y) is blocked when any of the (k+1) x (k+1) cells from (x, y) is closed or off the
// map. This test builds V itself, from the cells it set, and asks oracle::least_cost (a
// visibility graph over every usable vertex, written apart from the library) for the
// optimum on it. For both squeeze rules and sizes 0-3 on small random maps changed between
// queries:
//  - start and goal: refused exactly where the oracle's point may not stand on V;
//  - no path exactly where the oracle finds none, for find_path, Theta* and Lazy Theta*;
//  - every path legal on V (oracle::check_path), from start to goal, and never shorter than
//    the optimum; find_path's (Block A*, smoothed) within 1% of it on average.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "lddb/find_path.hpp"
#include "lddb/grid.hpp"
#include "lddb/search.hpp"
#include "lddb/unit.hpp"
#include "oracle.hpp"
#include "test_db.hpp"
#include "test_rng.hpp"

namespace {

using lddb::grid_map;
using lddb::point;
using lddb::rule;
using lddb::search_result;
using lddb::search_status;

// The unit's grid V, from the closed cells alone.
oracle::grid view_of(const std::vector<char>& closed, int w, int h, int k) {
  auto is_closed = [&](int x, int y) {
    return x < 0 || y < 0 || x >= w || y >= h || closed[static_cast<std::size_t>(y * w + x)];
  };
  oracle::grid v(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      bool blocked = false;
      for (int dy = 0; dy <= k && !blocked; ++dy)
        for (int dx = 0; dx <= k && !blocked; ++dx) blocked = is_closed(x + dx, y + dy);
      if (blocked) v.set_blocked(x, y, true);
    }
  return v;
}

std::string text(const std::vector<char>& closed, int w, int h) {
  std::string s;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) s += closed[static_cast<std::size_t>(y * w + x)] ? '@' : '.';
    s += '\n';
  }
  return s;
}

TEST(UnitAnyAngle, ExactOptimumOnTheUnitsGrid) {
  const rule rules[] = {rule::any_angle(), rule::any_angle(lddb::squeezing::allowed)};
  lddb_test::rng g{77};
  lddb::search_context ctx;
  int found = 0, none = 0, refused = 0;
  double sum_found = 0, sum_best = 0;
  for (int round = 0; round < 480; ++round) {
    const rule& r = rules[round % 2];
    const int k = (round / 2) % 4;
    const lddb::database& db = lddb_test::db_for(r);
    const int w = 4 + g.below(13), h = 4 + g.below(9);
    grid_map map(w, h, db.shape().block());
    std::vector<char> closed(static_cast<std::size_t>(w * h), 0);
    const int percent = 10 + g.below(20);
    auto set = [&](int x, int y, bool b) {
      closed[static_cast<std::size_t>(y * w + x)] = b ? 1 : 0;
      map.set_blocked(x, y, b);
    };
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) set(x, y, g.below(100) < percent);
    lddb::search_options o;
    o.unit.size = k;
    for (int q = 0; q < 4; ++q) {
      if (q > 0)  // a few cells changed between queries: the views are kept current
        for (int c = 0; c < 3; ++c) set(g.below(w), g.below(h), g.below(100) < percent);
      const oracle::grid v = view_of(closed, w, h, k);
      // Mostly vertices where the unit may stand, now and then any vertex.
      std::vector<point> usable;
      for (int y = 0; y <= h; ++y)
        for (int x = 0; x <= w; ++x)
          if (oracle::vertex_ok(v, point{x, y}) && oracle::endpoint_ok(r, v, point{x, y})) usable.push_back({x, y});
      auto pick = [&] {
        if (usable.empty() || g.below(8) == 0) return point{g.below(w + 1), g.below(h + 1)};
        return usable[static_cast<std::size_t>(g.below(static_cast<int>(usable.size())))];
      };
      const point s = pick(), t = pick();
      const double best = oracle::least_cost(r, v, s, t);
      const std::string where = r.name() + " size " + std::to_string(k) + " (" + std::to_string(s.x) + "," +
                                std::to_string(s.y) + ")->(" + std::to_string(t.x) + "," + std::to_string(t.y) +
                                ", round " + std::to_string(round) + ")\n" + text(closed, w, h);
      const bool start_ok = oracle::vertex_ok(v, s) && oracle::endpoint_ok(r, v, s);
      const bool goal_ok = oracle::vertex_ok(v, t) && oracle::endpoint_ok(r, v, t);
      const search_result answers[] = {lddb::find_path(db, map, s, t, o, ctx),
                                       lddb::theta_star(r, map, s, t, o, ctx),
                                       lddb::lazy_theta_star(r, map, s, t, o, ctx)};
      for (const search_result& a : answers) {
        const std::string who = std::string(lddb::search_kind_name(a.searched)) + ", " + where;
        if (!start_ok) {
          EXPECT_EQ(a.status, search_status::invalid_start) << who << a.message;
          continue;
        }
        if (!goal_ok) {
          EXPECT_EQ(a.status, search_status::invalid_goal) << who << a.message;
          continue;
        }
        if (best == oracle::kInf) {
          EXPECT_EQ(a.status, search_status::no_path) << who << a.message;
          continue;
        }
        ASSERT_EQ(a.status, search_status::found) << who << a.message << "\noptimum " << best;
        ASSERT_FALSE(a.path.empty()) << who;
        EXPECT_EQ(a.path.front(), s) << who;
        EXPECT_EQ(a.path.back(), t) << who;
        const oracle::path_report rep = oracle::check_path(r, v, std::span<const point>(a.path));
        EXPECT_TRUE(rep.ok) << who << rep.why;
        EXPECT_GE(a.length, best - 1e-9) << who << "shorter than the optimum " << best;
      }
      if (!start_ok || !goal_ok) ++refused;
      else if (best == oracle::kInf) ++none;
      else if (answers[0].found()) {
        ++found;
        sum_found += answers[0].length;
        sum_best += best;
      }
    }
  }
  std::printf("[ info     ] %d paths, %d without, %d refused; find_path %.4f%% above the optimum on average\n", found,
              none, refused, sum_best > 0 ? 100 * (sum_found / sum_best - 1) : 0.0);
  EXPECT_GT(found, 800);
  EXPECT_GT(none, 100);
  EXPECT_GT(refused, 100);
  EXPECT_LE(sum_found, 1.01 * sum_best);
}

}  // namespace
