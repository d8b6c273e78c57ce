// jump_search_test: jump point search (runtime/src/search/jumps/jump_search.cpp) and the line bits it
// scans (grid_map::row_bits, column_bits).
//
//   LineBits       row_bits and column_bits against blocked(), on and off the map, after changes
//   Oracle         cost = the oracle's least cost (Dijkstra written apart) and legal paths,
//                  octile d = sqrt 2 and 1.5, and tile, on 300 small generated maps changed
//                  between queries
//   AStar          cost = A*'s, on 60 larger maps (rooms, corridors, scattered cells) with
//                  blocks and frees between queries, widths across the 64-cell words
//   WeightedOracle weight 1.5 and 3 on 200 generated maps: legal paths, within weight times
//                  the oracle's least cost, found exactly when the oracle finds one
//   Options        budget, weight, smoothing, landmarks, record_expanded, no path
//   TurningPoints  smoothed, the path is the turning points of the path that lists every cell
//                  (smooth_path of it), with its cost and expansions: 200 generated maps, 3
//                  rules, with and without a budget
//   Refused        the rules it does not search, bad endpoints, start == goal
//   Scenario       the scenario files' optimal lengths on the benchmark maps
//   Choice         corner_share against a count cell by cell; prepare chooses jumps on rooms,
//                  for every rule, not on scattered cells; Block A* then answers with the same
//                  costs, and search_diagnostics::search overrides find_path's choice
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "lddb/grid.hpp"
#include "lddb/landmarks.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/prepare.hpp"
#include "lddb/map_file.hpp"
#include "lddb/rule.hpp"
#include "lddb/scenario.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "oracle.hpp"
#include "test_db.hpp"
#include "test_map.hpp"
#include "test_scenarios.hpp"
#include "jump_test_maps.hpp"

namespace {

using lddb::grid_map;
using lddb::point;
using lddb::rule;
using lddb::search_context;
using lddb::search_options;
using lddb::search_result;
using lddb::search_status;

const auto pt = lddb::checker::point_text;  // "(x,y)" in messages

const rule kOctile = rule::octile();
const rule kOctile15 = rule::octile(lddb::corner_cutting::forbidden, *lddb::parse_diagonal_cost("1.5"));
const rule kTile = rule::tile();

using jump_test::change_some;
using jump_test::generated;
using jump_test::random_free;

TEST(JumpSearch, LineBits) {
  std::mt19937_64 rng(11);
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {63, 5}, {64, 64}, {65, 3}, {130, 70}, {7, 129}}) {
    lddb_test::test_map t = generated(rng, w, h);
    for (int round = 0; round < 3; ++round) {
      change_some(rng, t, w * h / 4 + 1);
      for (int y = -1; y <= h; ++y)
        for (int x = -128; x <= w + 63; x += 1 + (x >= 0 && x < w ? 0 : 7)) {
          const std::uint64_t bits = t.map.row_bits(x, y);
          for (int i = 0; i < 64; ++i)
            ASSERT_EQ(((bits >> i) & 1u) != 0, t.grid.blocked(x + i, y))
                << "row_bits(" << x << ", " << y << ") bit " << i << " on " << w << "x" << h;
        }
      for (int x = -1; x <= w; ++x)
        for (int y = -128; y <= h + 63; y += 1 + (y >= 0 && y < h ? 0 : 7)) {
          const std::uint64_t bits = t.map.column_bits(x, y);
          for (int i = 0; i < 64; ++i)
            ASSERT_EQ(((bits >> i) & 1u) != 0, t.grid.blocked(x, y + i))
                << "column_bits(" << x << ", " << y << ") bit " << i << " on " << w << "x" << h;
        }
    }
  }
}

TEST(JumpSearch, Oracle) {
  std::mt19937_64 rng(2024);
  search_context ctx;
  int found = 0, none = 0;
  for (int m = 0; m < 300; ++m) {
    const rule& r = m % 4 == 2 ? kOctile15 : m % 4 == 3 ? kTile : kOctile;
    const int w = std::uniform_int_distribution<int>(1, 40)(rng), h = std::uniform_int_distribution<int>(1, 30)(rng);
    lddb_test::test_map t = generated(rng, w, h);
    for (int q = 0; q < 6; ++q) {
      if (q > 0) change_some(rng, t, 1 + q);
      const point s = random_free(rng, t.map), g = random_free(rng, t.map);
      if (s.x < 0 || g.x < 0) continue;
      const search_result res = lddb::jump_point_search(r, t.map, s, g, search_options(), ctx);
      const double best = oracle::least_cost(r, t.grid, s, g);
      if (std::isinf(best)) {
        ASSERT_EQ(res.status, search_status::no_path) << t.describe() << pt(s) << "->" << pt(g);
        ++none;
        continue;
      }
      ASSERT_EQ(res.status, search_status::found) << res.message << "\n" << t.describe();
      EXPECT_NEAR(lddb::cost_to_double(res.cost), best, 1e-6)
          << r.name() << " " << pt(s) << "->" << pt(g) << "\n" << t.describe();
      const oracle::path_report rep = oracle::check_path(r, t.grid, std::span<const point>(res.path));
      ASSERT_TRUE(rep.ok) << rep.why << "\n" << t.describe();
      ASSERT_EQ(res.path.front(), s);
      ASSERT_EQ(res.path.back(), g);
      ++found;
    }
  }
  EXPECT_GT(found, 1000);
  EXPECT_GT(none, 20);
}

// Weighted (search_options::weight): a legal path found exactly when the oracle finds one,
// never shorter than the oracle's least cost and at most weight times it.
TEST(JumpSearch, WeightedOracle) {
  std::mt19937_64 rng(4242);
  search_context ctx;
  int found = 0, longer = 0;
  for (int m = 0; m < 200; ++m) {
    const rule& r = m % 3 == 1 ? kOctile15 : m % 3 == 2 ? kTile : kOctile;
    const int w = std::uniform_int_distribution<int>(2, 48)(rng), h = std::uniform_int_distribution<int>(2, 36)(rng);
    lddb_test::test_map t = generated(rng, w, h);
    search_options o;
    o.weight = m % 2 == 0 ? 1.5 : 3.0;
    for (int q = 0; q < 5; ++q) {
      if (q > 0) change_some(rng, t, q);
      const point s = random_free(rng, t.map), g = random_free(rng, t.map);
      if (s.x < 0 || g.x < 0) continue;
      const search_result res = lddb::jump_point_search(r, t.map, s, g, o, ctx);
      const double best = oracle::least_cost(r, t.grid, s, g);
      if (std::isinf(best)) {
        ASSERT_EQ(res.status, search_status::no_path) << t.describe() << pt(s) << "->" << pt(g);
        continue;
      }
      ASSERT_EQ(res.status, search_status::found) << res.message << "\n" << t.describe();
      const double cost = lddb::cost_to_double(res.cost);
      EXPECT_GE(cost, best - 1e-6) << r.name() << " " << pt(s) << "->" << pt(g);
      EXPECT_LE(cost, o.weight * best + 1e-6) << r.name() << " weight " << o.weight << " " << pt(s) << "->" << pt(g)
                                                << "\n" << t.describe();
      const oracle::path_report rep = oracle::check_path(r, t.grid, std::span<const point>(res.path));
      ASSERT_TRUE(rep.ok) << rep.why << "\n" << t.describe();
      ASSERT_EQ(res.path.front(), s);
      ASSERT_EQ(res.path.back(), g);
      ++found;
      longer += cost > best + 1e-6;
    }
  }
  EXPECT_GT(found, 600);
  EXPECT_GT(longer, 0) << "no weighted path was longer than the optimum: the weight did nothing here";
}

TEST(JumpSearch, AStar) {
  std::mt19937_64 rng(77);
  search_context jctx, actx;
  int queries = 0;
  for (int m = 0; m < 60; ++m) {
    const rule& r = m % 4 == 3 ? kOctile15 : m % 4 == 2 ? kTile : kOctile;
    const int w = std::uniform_int_distribution<int>(60, 200)(rng), h = std::uniform_int_distribution<int>(60, 140)(rng);
    lddb_test::test_map t = generated(rng, w, h);
    for (int q = 0; q < 12; ++q) {
      if (q % 3 == 2) change_some(rng, t, 30);
      const point s = random_free(rng, t.map), g = random_free(rng, t.map);
      if (s.x < 0 || g.x < 0) continue;
      const search_result a = lddb::astar(r, t.map, s, g, search_options(), actx);
      const search_result j = lddb::jump_point_search(r, t.map, s, g, search_options(), jctx);
      ASSERT_EQ(j.status, a.status) << j.message;
      if (!a.found()) continue;
      ASSERT_EQ(j.cost, a.cost) << r.name() << " " << pt(s) << "->" << pt(g) << " on " << w << "x" << h;
      const oracle::path_report rep = oracle::check_path(r, t.grid, std::span<const point>(j.path));
      ASSERT_TRUE(rep.ok) << rep.why;
      EXPECT_LE(j.stats.expanded, a.stats.expanded);
      ++queries;
    }
  }
  EXPECT_GT(queries, 500);
}

TEST(JumpSearch, Options) {
  std::mt19937_64 rng(5);
  search_context ctx;
  lddb_test::test_map t = lddb_test::empty_map(120, 90);
  for (int y = 10; y < 80; ++y) t.set_blocked(60, y, true);  // a wall with a way round at each end
  const point s{10, 45}, g{110, 45};
  const search_result full = lddb::jump_point_search(kOctile, t.map, s, g, search_options(), ctx);
  ASSERT_TRUE(full.found());
  EXPECT_NEAR(lddb::cost_to_double(full.cost), oracle::least_cost(kOctile, t.grid, s, g), 1e-6);

  // Every cell of the path is listed: each point one legal move from the one before.
  for (std::size_t i = 1; i < full.path.size(); ++i)
    ASSERT_LE(std::max(std::abs(full.path[i].x - full.path[i - 1].x), std::abs(full.path[i].y - full.path[i - 1].y)), 1);

  search_options budget;
  budget.max_expansions = 1;
  const search_result cut = lddb::jump_point_search(kOctile, t.map, s, g, budget, ctx);
  ASSERT_EQ(cut.status, search_status::budget_exhausted);
  EXPECT_EQ(cut.path.front(), s);
  EXPECT_TRUE(oracle::check_path(kOctile, t.grid, std::span<const point>(cut.path)).ok);
  EXPECT_LE(cut.lower_bound, full.cost);

  search_options weighted;
  weighted.weight = 2;
  const search_result w2 = lddb::jump_point_search(kOctile, t.map, s, g, weighted, ctx);
  ASSERT_TRUE(w2.found());
  EXPECT_LE(w2.cost, 2 * full.cost);

  search_options smooth;
  smooth.smooth = true;
  const search_result sm = lddb::jump_point_search(kOctile, t.map, s, g, smooth, ctx);
  ASSERT_TRUE(sm.found());
  EXPECT_EQ(sm.cost, full.cost);
  EXPECT_LT(sm.path.size(), full.path.size());
  EXPECT_TRUE(oracle::check_path(kOctile, t.grid, std::span<const point>(sm.path)).ok);

  const lddb::landmark_set marks = lddb::landmark_set::build(kOctile, t.map, 4);
  search_options with_marks;
  with_marks.landmarks = &marks;
  with_marks.diagnostics.record_expanded = true;
  const search_result lm = lddb::jump_point_search(kOctile, t.map, s, g, with_marks, ctx);
  ASSERT_TRUE(lm.found());
  EXPECT_EQ(lm.cost, full.cost);
  EXPECT_EQ(lm.expanded.size(), lm.stats.expanded);

  for (int y = 0; y < 90; ++y) t.set_blocked(60, y, true);  // now the wall is whole
  const search_result cut_off = lddb::jump_point_search(kOctile, t.map, s, g, search_options(), ctx);
  EXPECT_EQ(cut_off.status, search_status::no_path);
  search_options no_labels;
  no_labels.diagnostics.component_check = false;  // the search itself runs out of jump points
  EXPECT_EQ(lddb::jump_point_search(kOctile, t.map, s, g, no_labels, ctx).status, search_status::no_path);
  (void)rng;
}

// A smoothed cell path comes from the jump points and the bends between them, never filled;
// smooth_path of the path that lists every cell is the oracle.
TEST(JumpSearch, TurningPoints) {
  std::mt19937_64 rng(77);
  search_context ctx;
  int compared = 0, cut = 0;
  for (int m = 0; m < 200; ++m) {
    const rule& r = m % 3 == 1 ? kOctile15 : m % 3 == 2 ? kTile : kOctile;
    const int w = std::uniform_int_distribution<int>(2, 90)(rng), h = std::uniform_int_distribution<int>(2, 70)(rng);
    lddb_test::test_map t = generated(rng, w, h);
    for (int q = 0; q < 6; ++q) {
      const point s = random_free(rng, t.map), g = random_free(rng, t.map);
      if (s.x < 0 || g.x < 0) continue;
      for (const std::uint64_t budget : {std::uint64_t{0}, std::uint64_t{3}}) {
        search_options cells, turns;
        cells.smooth = false;
        turns.smooth = true;
        cells.max_expansions = turns.max_expansions = budget;
        const search_result a = lddb::jump_point_search(r, t.map, s, g, cells, ctx);
        const search_result b = lddb::jump_point_search(r, t.map, s, g, turns, ctx);
        const std::string at = r.name() + " " + pt(s) + "->" + pt(g) + " budget " + std::to_string(budget);
        ASSERT_EQ(a.status, b.status) << at;
        if (a.path.empty()) continue;
        EXPECT_EQ(b.path, lddb::smooth_path(r, t.map, a.path)) << at << "\n" << t.describe();
        EXPECT_EQ(b.cost, a.cost) << at;
        EXPECT_EQ(b.stats.expanded, a.stats.expanded) << at;
        EXPECT_NEAR(b.length, a.length, 1e-9 * (1 + a.length)) << at;
        ++compared;
        cut += b.status == search_status::budget_exhausted;
      }
    }
  }
  EXPECT_GT(compared, 800);
  EXPECT_GT(cut, 50);
}

TEST(JumpSearch, Refused) {
  search_context ctx;
  const grid_map m(20, 20);
  for (const rule& r : {rule::octile(lddb::corner_cutting::allowed),
                        rule::octile(lddb::corner_cutting::one_side_free), rule::octile(lddb::corner_cutting::forbidden, lddb::kCostOne),
                        rule::octile(lddb::corner_cutting::forbidden, 2 * lddb::kCostOne)}) {
    EXPECT_FALSE(lddb::jump_point_search_supports(r)) << r.name();
    const search_result res = lddb::jump_point_search(r, m, {1, 1}, {5, 5}, search_options(), ctx);
    EXPECT_EQ(res.status, search_status::rule_mismatch) << r.name();
    EXPECT_NE(res.message.find(r.name()), std::string::npos) << res.message;
  }
  EXPECT_TRUE(lddb::jump_point_search_supports(kOctile));
  EXPECT_TRUE(lddb::jump_point_search_supports(kOctile15));
  EXPECT_TRUE(lddb::jump_point_search_supports(kTile));
  EXPECT_TRUE(lddb::jump_point_search_supports(rule::any_angle()));
  EXPECT_TRUE(lddb::jump_point_search_supports(rule::any_angle(lddb::squeezing::allowed)));
  EXPECT_EQ(lddb::jump_point_search(kOctile, m, {-1, 1}, {5, 5}, search_options(), ctx).status, search_status::invalid_start);
  EXPECT_EQ(lddb::jump_point_search(kOctile, m, {1, 1}, {5, 20}, search_options(), ctx).status, search_status::invalid_goal);
  const search_result same = lddb::jump_point_search(kOctile, m, {3, 4}, {3, 4}, search_options(), ctx);
  ASSERT_TRUE(same.found());
  EXPECT_EQ(same.cost, 0u);
  EXPECT_EQ(same.path.size(), 1u);
}

TEST(JumpSearch, Scenario) {
  const std::filesystem::path dir = lddb_test::benchmark_maps_dir();
  const std::vector<std::string> maps = {"dao/den520d", "rooms/16room_001", "mazes/maze512-8-1", "bg512/AR0012SR",
                                         "random/random512-25-1"};
  search_context ctx;
  int checked = 0;
  for (const std::string& name : maps) {
    const std::filesystem::path map_path = dir / (name + ".map"), scen_path = dir / (name + ".map.scen");
    if (!std::filesystem::exists(scen_path)) continue;
    std::string error;
    const std::optional<grid_map> m = lddb::load_map(map_path.string(), &error);
    ASSERT_TRUE(m) << error;
    const std::optional<lddb::scenario> sc = lddb::load_scenario(scen_path.string(), &error);
    ASSERT_TRUE(sc) << error;
    std::size_t i = 0;
    for (const lddb::scenario_query& q : sc->queries) {
      if (i++ % 7 != 0) continue;  // a seventh of each file, every length bucket
      const search_result res = lddb::jump_point_search(kOctile, *m, q.start, q.goal, search_options(), ctx);
      ASSERT_TRUE(res.found()) << name << " query " << i << ": " << res.message;
      EXPECT_NEAR(lddb::cost_to_double(res.cost), q.optimal, q.optimal_tolerance) << name << " line " << q.line;
      ++checked;
    }
  }
  if (checked == 0) LDDB_MAPS_MISSING("no benchmark maps at " << dir << " (the scenario check did not run)");
  EXPECT_GT(checked, 2000);
}

TEST(JumpSearch, Choice) {
  std::mt19937_64 rng(8);
  for (int m = 0; m < 20; ++m) {
    const lddb_test::test_map t = generated(rng, 1 + m * 7, 1 + m * 5);
    long corners = 0, free_cells = 0;
    for (int y = 0; y < t.grid.height(); ++y)
      for (int x = 0; x < t.grid.width(); ++x) {
        if (t.grid.blocked(x, y)) continue;
        ++free_cells;
        for (int dy = -1; dy <= 1; dy += 2)
          for (int dx = -1; dx <= 1; dx += 2)
            corners += t.grid.blocked(x + dx, y + dy) && !t.grid.blocked(x + dx, y) && !t.grid.blocked(x, y + dy);
      }
    EXPECT_DOUBLE_EQ(lddb::corner_share(t.map), free_cells ? static_cast<double>(corners) / free_cells : 0.0) << t.describe();
  }
  grid_map rooms = lddb::make_rooms_map(128, 128, 16, 3);
  grid_map scattered = lddb::make_random_map(128, 128, 25, 3);
  grid_map wide_scattered = lddb::make_random_map(1100, 1000, 25, 3);  // past the jump tables' kMaxCells
  EXPECT_LT(lddb::corner_share(rooms), lddb::kMaxJumpCorners);
  EXPECT_GT(lddb::corner_share(scattered), lddb::kMaxJumpCorners);
  EXPECT_GT(lddb::corner_share(wide_scattered), lddb::kMaxJumpCorners);
  const lddb::database& db = lddb_test::db_for(kOctile);
  lddb::prepare_options o, no_landmarks;
  o.mode = no_landmarks.mode = lddb::prepare_mode::complete;
  no_landmarks.landmarks = 0;
  // The cell rules jump wherever the map has jump tables, among scattered cells too; past
  // their size, and for any-angle, only where corners are few.
  EXPECT_TRUE(lddb::prepare(db, rooms, o).plan.jumps);
  EXPECT_TRUE(lddb::prepare(db, scattered, o).plan.jumps);
  EXPECT_FALSE(lddb::prepare(db, wide_scattered, no_landmarks).plan.jumps);
  EXPECT_TRUE(lddb::prepare(lddb_test::db_for(kTile), rooms, o).plan.jumps);
  EXPECT_TRUE(lddb::prepare(lddb_test::db_for(kTile), scattered, o).plan.jumps);
  EXPECT_FALSE(lddb::plan_preparation(kTile, wide_scattered).jumps);
  EXPECT_TRUE(lddb::prepare(rule::any_angle(), rooms, o).plan.jumps);
  EXPECT_FALSE(lddb::prepare(rule::any_angle(), scattered, o).plan.jumps);
  search_context ctx;
  search_options block_only;
  block_only.diagnostics.search = lddb::search_kind::block_astar;
  search_options forced;
  forced.diagnostics.search = lddb::search_kind::jump_point_search;
  // What find_path_search says is what the searches below do.
  EXPECT_TRUE(lddb::find_path_search(db, rooms, search_options()) == lddb::search_kind::jump_point_search);
  EXPECT_FALSE(lddb::find_path_search(db, rooms, block_only) == lddb::search_kind::jump_point_search);
  EXPECT_TRUE(lddb::find_path_search(db, scattered, search_options()) == lddb::search_kind::jump_point_search);
  EXPECT_FALSE(lddb::find_path_search(db, wide_scattered, search_options()) == lddb::search_kind::jump_point_search);
  EXPECT_TRUE(lddb::find_path_search(db, wide_scattered, forced) == lddb::search_kind::jump_point_search);
  search_options unprepared, other_rule;
  unprepared.diagnostics.use_prepared = false;
  other_rule.expected_rule = kTile;
  EXPECT_FALSE(lddb::find_path_search(db, rooms, unprepared) == lddb::search_kind::jump_point_search);
  EXPECT_FALSE(lddb::find_path_search(db, rooms, other_rule) == lddb::search_kind::jump_point_search);
  EXPECT_TRUE(lddb::find_path_search(lddb_test::db_for(rule::any_angle()), rooms, forced) == lddb::search_kind::jump_point_search);
  for (int q = 0; q < 40; ++q) {
    const point s = random_free(rng, rooms), g = random_free(rng, rooms);
    const search_result jumped = lddb::find_path(db, rooms, s, g, search_options(), ctx);
    const search_result blocks = lddb::find_path(db, rooms, s, g, block_only, ctx);
    const search_result direct = lddb::jump_point_search(kOctile, rooms, s, g, search_options(), ctx);
    ASSERT_EQ(jumped.status, blocks.status);
    EXPECT_EQ(jumped.cost, blocks.cost);
    EXPECT_EQ(jumped.path, direct.path) << "Block A* hands the query over unchanged";
    EXPECT_EQ(jumped.stats.expanded, direct.stats.expanded);
    // On the wide scattered map Block A* answers itself unless told to jump.
    const point a = random_free(rng, wide_scattered), b = random_free(rng, wide_scattered);
    const search_result own = lddb::find_path(db, wide_scattered, a, b, search_options(), ctx);
    const search_result told = lddb::find_path(db, wide_scattered, a, b, forced, ctx);
    ASSERT_EQ(own.status, told.status);
    EXPECT_EQ(own.searched, lddb::search_kind::block_astar);
    EXPECT_EQ(own.cost, told.cost);
    EXPECT_EQ(told.stats.expanded,
              lddb::jump_point_search(kOctile, wide_scattered, a, b, search_options(), ctx).stats.expanded);
  }
}

}  // namespace
