// landmark_width_test: landmark tables of 16 bits (landmark_width::bits16,
// lddb/landmarks.hpp) and the preparation that sizes the tables by memory
// (lddb/prepare.hpp, kLandmarkBytes). Consistency along moves, slices and repair are checked
// for both widths in landmarks_test and landmark_repair_test.
//
//   Narrow.BoundAgainstOracle       every rule, generated maps, 16-bit sets with their own
//                                   unit and at a unit so fine that distances past a few
//                                   moves saturate: no bound exceeds the oracle's least cost
//   Narrow.SearchesStayOptimal      A* and Block A* given a 16-bit set (saturated too): the
//                                   oracle's optimum, a path the checker accepts
//   Narrow.CloseToTheWideBound      on rooms and random maps, a 16-bit set's bound is within 1.5%
//                                   of a 32-bit set's from the same points, in half the memory
//   Narrow.BadUnit                  a unit coarser than a straight move, or too fine for 16
//                                   bits to hold one, is refused
//   Narrow.TinyMaps                 one free cell, a single row: a unit that holds a move
//   Narrow.APartialSetReadsItsCompleteLandmarksOnly
//                                   between slices of a build, the bound is the one of the
//                                   landmarks complete so far (the next column fills in place)
//   Narrow.OneColumn                a map one cell wide: every point reached
//   Plan.LandmarksSizedByMemory     8 landmarks of 32 bits up to 1024 x 1024, then 16 bits
//                                   and fewer (octile: 16 as tile bounds once fewer than 8
//                                   fit): the tables within kLandmarkBytes; prepare builds
//                                   what the plan says
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "lddb/checker.hpp"
#include "lddb/grid.hpp"
#include "lddb/landmarks.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/moves.hpp"
#include "lddb/prepare.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "oracle.hpp"
#include "test_db.hpp"
#include "test_landmarks.hpp"
#include "test_map.hpp"
#include "test_rng.hpp"

namespace {

using lddb::cost_t;
using lddb::grid_map;
using lddb::landmark_set;
using lddb::landmark_width;
using lddb::point;
using lddb::rule;

constexpr double kEps = 1e-6;

using lddb_test::generated_map;
using lddb_test::has_free;

TEST(Narrow, BoundAgainstOracle) {
  int checked = 0, saturated_pairs = 0;
  for (int i = 0; i < 30; ++i) {
    for (const rule& r : lddb_test::search_rules()) {
      const bool small = r.on_vertices();  // the any-angle oracle is O(V^2) segment checks
      const grid_map map = generated_map(i, small ? 9 + i % 4 : 17 + i % 5, small ? 8 + i % 3 : 13 + i % 7);
      if (!has_free(map, 2)) continue;
      const oracle::grid og = lddb_test::to_oracle(map);
      lddb_test::rng g{static_cast<std::uint64_t>(i) * 13 + 1};
      for (const landmark_set& set : lddb_test::narrow_sets(r, map, 1 + i % 4, 5 + static_cast<std::uint64_t>(i))) {
        ASSERT_EQ(set.width(), landmark_width::bits16);
        ASSERT_TRUE(set.current_for(map));
        for (int q = 0; q < 8; ++q) {
          const point a = lddb_test::random_free_cell(g, map), b = lddb_test::random_free_cell(g, map);
          const double exact = oracle::least_cost(r, og, a, b);
          if (!std::isfinite(exact)) continue;
          EXPECT_LE(lddb::cost_to_double(set.lower_bound(a, b)), exact + kEps) << r.name() << " map " << i;
          ++checked;
        }
        for (int l = 0; l < set.size(); ++l)
          for (int y = 0; y < map.height(); ++y)
            for (int x = 0; x < map.width(); ++x) saturated_pairs += set.distance({x, y}, l) == 65534;
      }
    }
  }
  EXPECT_GT(checked, 1500);
  EXPECT_GT(saturated_pairs, 1000) << "the fine unit should saturate far points";
}

TEST(Narrow, SearchesStayOptimal) {
  int searched = 0;
  for (int i = 0; i < 12; ++i) {
    for (const rule& r : lddb_test::search_rules()) {
      const bool small = r.on_vertices();
      grid_map map = generated_map(i, small ? 12 + i % 4 : 48 + i, small ? 10 + i % 3 : 40 + i % 5);
      if (!has_free(map, 2)) continue;
      const lddb::database& db = lddb_test::db_for(r);
      map.set_block_size(db.info().block);
      const oracle::grid og = lddb_test::to_oracle(map);
      lddb_test::rng g{static_cast<std::uint64_t>(i) * 17 + 5};
      lddb::search_context ctx;
      lddb::search_options plain(lddb::default_heuristic(r));
      for (const landmark_set& set : lddb_test::narrow_sets(r, map, 4, 3)) {
        lddb::search_options with = plain;
        with.landmarks = &set;
        for (int q = 0; q < 4; ++q) {
          const point s = lddb_test::random_free_cell(g, map), t = lddb_test::random_free_cell(g, map);
          const std::string where = r.name() + " map " + std::to_string(i);
          const lddb::search_result base = lddb::find_path(db, map, s, t, plain, ctx);
          const lddb::search_result got = lddb::find_path(db, map, s, t, with, ctx);
          ASSERT_EQ(got.status, base.status) << where << ": " << got.message;
          if (!got.found()) continue;
          const lddb::check_result rep = lddb::check_path(r, map, s, t, got.path);
          EXPECT_TRUE(rep.valid) << where << ": " << rep.error;
          if (r.on_vertices()) {
            EXPECT_EQ(got.cost, base.cost) << where;  // Block A*'s own least cost
            continue;
          }
          const double optimum = oracle::least_cost(r, og, s, t);
          EXPECT_NEAR(lddb::cost_to_double(got.cost), optimum, 1e-6) << where << " block-astar";
          const lddb::search_result a = lddb::astar(r, map, s, t, with, ctx);
          EXPECT_NEAR(lddb::cost_to_double(a.cost), optimum, 1e-6) << where << " astar";
          ++searched;
        }
      }
    }
  }
  EXPECT_GT(searched, 300);
}

TEST(Narrow, CloseToTheWideBound) {
  for (int i = 0; i < 4; ++i) {
    const grid_map map = i % 2 ? lddb::make_rooms_map(300, 260, 12, 40 + static_cast<std::uint64_t>(i))
                               : lddb::make_random_map(300, 260, 20, 40 + static_cast<std::uint64_t>(i));
    for (const rule& r : {rule::tile(), rule::octile(), rule::any_angle()}) {
      const landmark_set wide = landmark_set::build(r, map, 4);
      const landmark_set narrow = landmark_set::build(r, map, wide.points(), landmark_width::bits16);
      const std::size_t reference = (300 + 63) / 64 * 8 * 260;  // the map the tables describe, a bit a cell
      EXPECT_EQ((narrow.memory_bytes() - reference) * 2, wide.memory_bytes() - reference);
      lddb_test::rng g{static_cast<std::uint64_t>(i) + 3};
      for (int q = 0; q < 300; ++q) {
        const point a = lddb_test::random_free_cell(g, map), b = lddb_test::random_free_cell(g, map);
        const cost_t w = wide.lower_bound(a, b), n = narrow.lower_bound(a, b);
        // A 16-bit entry rounds each move down to a coarser unit: at most 1% a diagonal,
        // plus a unit or two either end.
        EXPECT_GE(lddb::cost_to_double(n), 0.985 * lddb::cost_to_double(w) - 2.0 * lddb::cost_to_double(narrow.unit_cost()))
            << r.name() << " map " << i;
        EXPECT_LE(lddb::cost_to_double(n), lddb::cost_to_double(w) * 1.015 + 2.0 * lddb::cost_to_double(narrow.unit_cost()))
            << r.name() << " map " << i;
      }
    }
  }
}

TEST(Narrow, BadUnit) {
  const grid_map map(20, 20, 4);
  const std::vector<point> points{{3, 3}};
  EXPECT_THROW(landmark_set::build(rule::octile(), map, points, landmark_width::bits16, lddb::kCostOne + 1),
               std::invalid_argument);
  EXPECT_THROW(landmark_set::build(rule::octile(), map, points, landmark_width::bits16, lddb::kCostOne / 70000),
               std::invalid_argument);
  EXPECT_NO_THROW(landmark_set::build(rule::octile(), map, points, landmark_width::bits16, lddb::kCostOne / 60000));
}

// Maps with no distance to speak of: one free cell, two, a single row. The unit still
// holds a move, and the bound is exact between the two ends of a row.
TEST(Narrow, TinyMaps) {
  for (const rule& r : lddb_test::search_rules()) {
    grid_map one(3, 3, 4);
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 3; ++x) one.set_blocked(x, y, !(x == 1 && y == 1));
    const landmark_set a = landmark_set::build(r, one, 2, lddb::landmark_placement::farthest, 1, landmark_width::bits16);
    EXPECT_EQ(a.size(), 2);
    EXPECT_EQ(a.lower_bound({1, 1}, {1, 1}), 0u) << r.name();
    const grid_map row(40, 1, 4);
    const landmark_set b = landmark_set::build(r, row, 1, lddb::landmark_placement::farthest, 1, landmark_width::bits16);
    if (r.on_vertices()) continue;  // vertices: the scaled bound of lddb/landmarks.hpp
    EXPECT_NEAR(lddb::cost_to_double(b.lower_bound({0, 0}, {39, 0})), 39.0, 0.01) << r.name();
  }
}

// A 16-bit set's landmark searches in its own column, so while it is built in slices that
// column holds distances not yet final. A set read between slices (landmark_builder::
// partial, what the searches read while the preparation builds) must bound exactly as the
// set of its complete landmarks would, and never above the oracle's least cost.
TEST(Narrow, APartialSetReadsItsCompleteLandmarksOnly) {
  int compared = 0, mid_column = 0;
  for (int i = 0; i < 6; ++i) {
    const rule r = i % 2 == 0 ? rule::octile() : rule::any_angle();
    const grid_map map = generated_map(i, r.on_vertices() ? 12 : 40, r.on_vertices() ? 11 : 36);
    if (!has_free(map, 2)) continue;
    const oracle::grid og = lddb_test::to_oracle(map);
    lddb::landmark_builder b(r, map, 3, lddb::landmark_placement::farthest, 7, landmark_width::bits16);
    lddb_test::rng g{static_cast<std::uint64_t>(i) + 3};
    while (!b.step(37)) {
      const landmark_set& partial = b.partial();
      ASSERT_EQ(partial.complete(), b.built());
      if (b.built() == 0) continue;
      ++mid_column;
      const landmark_set prefix = landmark_set::build(
          r, map, std::vector<point>(partial.points().begin(), partial.points().end()), landmark_width::bits16,
          partial.unit_cost());
      for (int q = 0; q < 6; ++q) {
        const point a = lddb_test::random_free_cell(g, map), c = lddb_test::random_free_cell(g, map);
        ASSERT_EQ(partial.lower_bound(a, c), prefix.lower_bound(a, c)) << r.name() << " map " << i;
        const double exact = oracle::least_cost(r, og, a, c);
        if (std::isfinite(exact)) {
          EXPECT_LE(lddb::cost_to_double(partial.lower_bound(a, c)), exact + kEps);
        }
        ++compared;
      }
    }
    EXPECT_EQ(b.take().complete(), 3);
  }
  EXPECT_GT(mid_column, 20) << "the slices should stop inside a column";
  EXPECT_GT(compared, 100);
}

// A map one cell wide: the tables' tiles hold one column of points.
TEST(Narrow, OneColumn) {
  grid_map map(1, 40, 4);
  for (const rule& r : {rule::tile(), rule::octile()}) {
    const landmark_set set = landmark_set::build(r, map, 1, lddb::landmark_placement::farthest, 1, landmark_width::bits16);
    for (int y = 0; y < 40; ++y) ASSERT_NE(set.distance({0, y}, 0), landmark_set::kUnreached) << r.name() << " row " << y;
    EXPECT_NEAR(lddb::cost_to_double(set.lower_bound({0, 0}, {0, 39})), 39.0, 0.01) << r.name();
  }
}

TEST(Plan, LandmarksSizedByMemory) {
  struct expect {
    int side, landmarks;
    bool narrow;
    int octile_tiles;  // octile: landmarks as tile bounds where fewer than 8 fit a cell (0: a cell)
  };
  for (const expect e : {expect{512, 8, false, 0}, expect{1024, 8, false, 0}, expect{1400, 8, true, 0},
                         expect{2048, 4, true, 16}, expect{4096, 1, true, 8}}) {
    const grid_map map = lddb::make_rooms_map(e.side, e.side, 32, 7);
    for (const rule& r : {rule::tile(), rule::octile()}) {
      const lddb::preparation_plan plan = lddb::plan_preparation(r, map);
      const bool tiles = r.kind == lddb::rule_kind::octile && e.octile_tiles > 0;
      EXPECT_EQ(plan.tile_bounds, tiles) << e.side << " " << r.name();
      EXPECT_EQ(plan.landmarks, tiles ? e.octile_tiles : e.landmarks) << e.side << " " << r.name();
      EXPECT_EQ(plan.narrow_landmarks, e.narrow && !tiles) << e.side << " " << r.name();
      const landmark_width w = tiles ? landmark_width::tile_bounds
                                     : plan.narrow_landmarks ? landmark_width::bits16 : landmark_width::bits32;
      EXPECT_LE(lddb::landmark_table_bytes(r, map, plan.landmarks, w), lddb::kLandmarkBytes) << e.side;
    }
  }
  // prepare builds what it planned on a 2048 x 2048 map, within the budget: octile's tile
  // bounds, or asked for a cell, 16-bit tables.
  const rule r = rule::octile();
  const std::uint64_t bitmap = 2048 / 64 * 8 * 2048;  // the map the tables describe, a bit a cell
  for (const bool tiles : {true, false}) {
    grid_map map = lddb::make_maze_map(2048, 2048, 16, 11);  // landmarks pay in mazes
    map.set_block_size(lddb_test::db_for(r).info().block);
    lddb::prepare_options po;
    po.mode = lddb::prepare_mode::complete;
    if (!tiles) po.tile_bounds = false;
    const lddb::preparation_report report = lddb::prepare(lddb_test::db_for(r), map, po);
    EXPECT_EQ(report.plan.tile_bounds, tiles) << report.plan.why;
    EXPECT_EQ(report.plan.landmarks, tiles ? lddb::kTileLandmarks : 4) << report.plan.why;
    EXPECT_EQ(report.plan.narrow_landmarks, !tiles);
    EXPECT_EQ(report.landmarks_built, report.plan.landmarks);
    // The tables within the budget (tile bounds in half of it); beside them the reference
    // map, and for tile bounds the points in reach, a bit a cell each.
    EXPECT_LE(report.bytes, (tiles ? lddb::kLandmarkBytes / 2 + 2 * bitmap : lddb::kLandmarkBytes + bitmap)) << tiles;
    EXPECT_GT(report.bytes, lddb::kLandmarkBytes / (tiles ? 4 : 2)) << tiles;
  }
}

}  // namespace
