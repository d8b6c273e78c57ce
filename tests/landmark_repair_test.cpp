// landmark_repair_test: the map's journal of freed cells (grid_map::freed_cell) and
// landmark_set::repair (lddb/landmarks.hpp).
//
//   Journal.KeepsTheLastFreedCells  every freed cell in order, nothing for blocks or
//                                   no-op changes, the last kFreedJournal kept, older ones
//                                   refused, a copy keeps it
//   Repair.FreesEqualFreshBuild     220 generated maps x every rule: cells freed (single
//                                   cells and doors) after the build; after repair (whole
//                                   or in slices, with more cells freed between slices)
//                                   every entry equals a fresh build's from the same points
//                                   (at the same unit: 32-bit, 16-bit, 16-bit saturated)
//   Repair.MixedNeverOverestimates  blocks and frees in random order: after each repair the
//                                   set is current, no entry exceeds a fresh build's from
//                                   the same points (the exact distance), no bound exceeds
//                                   the oracle's least cost (any-angle: the exact
//                                   any-angle distance), A* and Block A* stay optimal
//   Repair.BuilderCatchesUp         cells freed while a builder runs on its copy: one
//                                   repair of the taken set makes it current and exact
//   Repair.PastTheJournal           more frees than the journal keeps (before or during a
//                                   sliced repair): the map compared with the reference, and
//                                   every entry equals a fresh build's from the same points
//   Repair.RestoredCellsCostNothing cells shut after the build and opened again: repair with
//                                   no work says current; all opened again, the tables equal
//                                   a fresh build's (true frees between included)
//   Repair.RebuildNeeded            another map object, an empty set: rebuild_needed
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "lddb/grid.hpp"
#include "lddb/landmarks.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "oracle.hpp"
#include "test_db.hpp"
#include "test_landmarks.hpp"
#include "test_map.hpp"
#include "test_rng.hpp"

namespace {

using lddb::grid_map;
using lddb::landmark_repair;
using lddb::landmark_set;
using lddb::point;
using lddb::rule;

using lddb_test::generated_map;
using lddb_test::has_free;

// Frees a random blocked cell, or a door: up to 3 blocked cells in a row or column.
void free_some(lddb_test::rng& g, grid_map& map) {
  point c{g.below(map.width()), g.below(map.height())};
  for (int tries = 0; tries < 50 && !map.blocked(c.x, c.y); ++tries) c = {g.below(map.width()), g.below(map.height())};
  const int len = 1 + g.below(3), vertical = g.below(2);
  for (int k = 0; k < len; ++k) {
    const int x = c.x + (vertical ? 0 : k), y = c.y + (vertical ? k : 0);
    if (map.in_bounds(x, y) && map.blocked(x, y)) map.set_blocked(x, y, false);
  }
}

void block_some(lddb_test::rng& g, grid_map& map) {
  map.set_blocked(g.below(map.width()), g.below(map.height()), true);
}

// Runs repair to the end, in slices of `slice` when not 0, freeing a cell between slices
// while `frees_between` lasts. Returns the last answer.
landmark_repair repair_all(landmark_set& set, grid_map& map, std::uint64_t slice, lddb_test::rng& g, int frees_between) {
  if (slice == 0) return set.repair(map);
  for (int calls = 0; calls < 1000000; ++calls) {
    const landmark_repair r = set.repair(map, slice);
    if (r != landmark_repair::unfinished) return r;
    EXPECT_FALSE(set.current_for(map)) << "current before the repair is over";
    if (frees_between-- > 0) free_some(g, map);
  }
  return landmark_repair::unfinished;
}

// Every table entry of `a` compared with `b`'s: equal, or (at_most) no greater.
void compare_tables(const landmark_set& a, const landmark_set& b, const grid_map& map, bool at_most,
                    const std::string& where) {
  ASSERT_EQ(a.size(), b.size());
  const int v = a.rule_of().on_vertices() ? 1 : 0;
  for (int y = 0; y < map.height() + v; ++y)
    for (int x = 0; x < map.width() + v; ++x)
      for (int l = 0; l < a.size(); ++l) {
        const std::uint32_t da = a.distance({x, y}, l), db = b.distance({x, y}, l);
        if (at_most) {
          ASSERT_LE(da, db) << where << " landmark " << l << " at " << x << "," << y;
        } else {
          ASSERT_EQ(da, db) << where << " landmark " << l << " at " << x << "," << y;
        }
      }
}

TEST(Journal, KeepsTheLastFreedCells) {
  grid_map map(40, 40);
  constexpr std::uint64_t kKept = grid_map::kFreedJournal;
  EXPECT_TRUE(map.freed_kept_since(0));
  EXPECT_FALSE(map.freed_kept_since(1)) << "a count ahead of the map";
  std::vector<point> freed;
  for (int i = 0; i < 1500; ++i) {
    const point c{(i * 7) % 40, (i * 13 / 40) % 40};
    map.set_blocked(c.x, c.y, true);
    map.set_blocked(c.x, c.y, true);  // no change: not a free either
    map.set_blocked(c.x, c.y, false);
    map.set_blocked(c.x, c.y, false);
    freed.push_back(c);
    ASSERT_EQ(map.cells_freed(), freed.size());
  }
  const std::uint64_t n = map.cells_freed();
  EXPECT_TRUE(map.freed_kept_since(n));
  EXPECT_TRUE(map.freed_kept_since(n - kKept));
  EXPECT_FALSE(map.freed_kept_since(n - kKept - 1));
  for (std::uint64_t i = n - kKept; i < n; ++i) {
    const grid_map::cell c = map.freed_cell(i);
    ASSERT_EQ(c.x, freed[i].x) << i;
    ASSERT_EQ(c.y, freed[i].y) << i;
  }
  EXPECT_THROW((void)map.freed_cell(n - kKept - 1), std::out_of_range);
  EXPECT_THROW((void)map.freed_cell(n), std::out_of_range);
  const grid_map copy = map;
  EXPECT_EQ(copy.freed_cell(n - 1).x, freed.back().x);
  EXPECT_NE(copy.identity(), map.identity());
}

TEST(Repair, FreesEqualFreshBuild) {
  int repaired = 0;
  for (int i = 0; i < 220; ++i) {
    for (const rule& r : lddb_test::search_rules()) {
      grid_map map = generated_map(i, 14 + i % 9, 11 + i % 7);
      if (!has_free(map, 2)) continue;
      lddb_test::rng g{static_cast<std::uint64_t>(i) * 31 + 7};
      // 32-bit tables, 16-bit ones, and 16-bit ones that saturate (lddb/landmarks.hpp).
      const int width_case = (i / 3) % 3;
      landmark_set set = landmark_set::build(r, map, 1 + i % 4, lddb::landmark_placement::farthest, 3 + i,
                                             width_case ? lddb::landmark_width::bits16 : lddb::landmark_width::bits32);
      if (width_case == 2) set = lddb_test::saturated_copy(r, map, set);
      const int frees = 1 + g.below(i % 4 == 3 ? 40 : 6);
      for (int k = 0; k < frees; ++k) free_some(g, map);
      const std::uint64_t slice = i % 3 == 0 ? 0 : 1 + static_cast<std::uint64_t>(g.below(i % 3 == 1 ? 5 : 60));
      const std::string where = r.name() + " map " + std::to_string(i) + " slice " + std::to_string(slice) + " width case " +
                                std::to_string(width_case);
      if (map.cells_freed() > 0) {
        EXPECT_FALSE(set.current_for(map)) << where;
      }
      ASSERT_EQ(repair_all(set, map, slice, g, 3), landmark_repair::current) << where;
      ASSERT_TRUE(set.current_for(map)) << where;
      compare_tables(set, landmark_set::build(r, map, set.points(), set.width(), set.unit_cost()), map, false, where);
      ASSERT_EQ(set.repair(map, 1), landmark_repair::current) << "nothing left to do";
      ++repaired;
    }
  }
  EXPECT_GT(repaired, 1400);
}

// A* and Block A* (fixed blocks and open squares) with the set: the oracle's optimum for
// cell rules, the same cost as without the set for any-angle.
void check_searches(const rule& r, const grid_map& map, const landmark_set& set, point s, point t, const std::string& where) {
  const lddb::database& db = lddb_test::db_for(r);
  lddb::search_context ctx;
  lddb::search_options plain(lddb::default_heuristic(r)), with = plain;
  with.landmarks = &set;
  const double optimum = oracle::least_cost(r, lddb_test::to_oracle(map), s, t);
  const lddb::search_result base = lddb::find_path(db, map, s, t, plain, ctx);
  for (bool squares : {false, true}) {
    with.diagnostics.open_squares = squares && !r.on_vertices();
    const lddb::search_result got = lddb::find_path(db, map, s, t, with, ctx);
    ASSERT_EQ(got.status, base.status) << where << ": " << got.message;
    if (!got.found()) continue;
    if (r.on_vertices()) {
      EXPECT_EQ(got.cost, base.cost) << where;
    } else {
      EXPECT_NEAR(lddb::cost_to_double(got.cost), optimum, 1e-6) << where << " block-astar";
    }
  }
  if (r.on_vertices()) return;
  with.diagnostics.open_squares = false;
  const lddb::search_result a = lddb::astar(r, map, s, t, with, ctx);
  ASSERT_EQ(a.found(), std::isfinite(optimum)) << where;
  if (a.found()) {
    EXPECT_NEAR(lddb::cost_to_double(a.cost), optimum, 1e-6) << where << " astar";
  }
}

TEST(Repair, MixedNeverOverestimates) {
  int bounds = 0;
  for (int i = 0; i < 210; ++i) {
    const rule r = lddb_test::search_rules()[static_cast<std::size_t>(i) % lddb_test::search_rules().size()];
    const bool small = r.on_vertices();  // the any-angle oracle is O(V^2) segment checks
    grid_map map = generated_map(i, small ? 9 + i % 4 : 18 + i % 7, small ? 8 + i % 3 : 14 + i % 5);
    map.set_block_size(lddb_test::db_for(r).info().block);
    if (!has_free(map, 2)) continue;
    lddb_test::rng g{static_cast<std::uint64_t>(i) * 17 + 1};
    landmark_set set = landmark_set::build(r, map, 2 + i % 3, lddb::landmark_placement::random, 5 + i);
    for (int round = 0; round < 4; ++round) {
      const int changes = 1 + g.below(12);
      for (int k = 0; k < changes; ++k) g.below(3) ? free_some(g, map) : block_some(g, map);
      const std::string where = r.name() + " map " + std::to_string(i) + " round " + std::to_string(round);
      ASSERT_EQ(repair_all(set, map, i % 2 ? 0 : 7, g, 0), landmark_repair::current) << where;
      ASSERT_TRUE(set.current_for(map));
      if (!has_free(map, 2)) break;
      bool points_free = true;
      for (const point& p : set.points()) points_free = points_free && !map.blocked(p.x, p.y);
      if (points_free)  // a fresh build's entries are then the exact distances
        compare_tables(set, landmark_set::build(r, map, set.points()), map, true, where);
      const oracle::grid og = lddb_test::to_oracle(map);
      for (int q = 0; q < 3; ++q) {
        const point a = lddb_test::random_free_cell(g, map), b = lddb_test::random_free_cell(g, map);
        const double exact = oracle::least_cost(r, og, a, b);
        if (std::isfinite(exact)) {
          ASSERT_LE(lddb::cost_to_double(set.lower_bound(a, b)), exact + 1e-6) << where;
          ++bounds;
        }
        check_searches(r, map, set, a, b, where);
      }
    }
  }
  EXPECT_GT(bounds, 800);
}

TEST(Repair, BuilderCatchesUp) {
  for (const rule& r : {rule::octile(), rule::any_angle()}) {
    grid_map map = lddb::make_rooms_map(60, 45, 8, 21);
    lddb_test::rng g{5};
    lddb::landmark_builder b(r, map, 4);
    while (!b.step(500)) free_some(g, map);  // the game goes on freeing while it builds
    landmark_set set = b.take();
    ASSERT_GT(map.cells_freed(), 20u);
    EXPECT_FALSE(set.current_for(map));
    ASSERT_EQ(set.repair(map), landmark_repair::current) << r.name();
    compare_tables(set, landmark_set::build(r, map, set.points()), map, false, r.name());
  }
}

TEST(Repair, PastTheJournal) {
  const rule r = rule::octile();
  grid_map map = lddb::make_random_map(100, 100, 40, 9);
  std::vector<point> blocked;
  for (int y = 0; y < 100; ++y)
    for (int x = 0; x < 100; ++x)
      if (map.blocked(x, y)) blocked.push_back({x, y});
  ASSERT_GT(blocked.size(), 2 * grid_map::kFreedJournal + 10);
  landmark_set set = landmark_set::build(r, map, 3);
  // More frees before the repair than the journal keeps: the map against the reference.
  for (std::size_t k = 0; k <= grid_map::kFreedJournal; ++k) map.set_blocked(blocked[k].x, blocked[k].y, false);
  ASSERT_FALSE(map.freed_kept_since(0));
  EXPECT_EQ(set.repair(map), landmark_repair::current);
  EXPECT_TRUE(set.current_for(map));
  compare_tables(set, landmark_set::build(r, map, set.points()), map, false, "past the journal");
  // More frees during a sliced repair.
  set = landmark_set::build(r, map, 3);
  const point w = blocked.back();  // a wall opened: the first slice cannot finish its repair
  map.set_blocked(w.x, w.y, false);
  ASSERT_EQ(set.repair(map, 1), landmark_repair::unfinished);
  for (std::size_t k = grid_map::kFreedJournal + 1; k < blocked.size(); ++k) map.set_blocked(blocked[k].x, blocked[k].y, false);
  landmark_repair last = landmark_repair::unfinished;
  for (int calls = 0; calls < 100000 && last == landmark_repair::unfinished; ++calls) {
    last = set.repair(map, 50);
    if (last == landmark_repair::unfinished) {
      ASSERT_FALSE(set.current_for(map));
    }
  }
  EXPECT_EQ(last, landmark_repair::current);
  compare_tables(set, landmark_set::build(r, map, set.points()), map, false, "past the journal, in slices");
}

// Cells shut after the build and opened again restore what the tables bound: a repair
// with no work left says current, and once every shut cell is open again the tables equal
// a fresh build's from the same points, the cells freed beyond the build included (their
// repair ran on the map the tables describe, where the shut cells are open).
TEST(Repair, RestoredCellsCostNothing) {
  for (const rule& r : {rule::octile(), rule::tile(), rule::any_angle()}) {
    grid_map map = lddb::make_rooms_map(60, 45, 8, 21);
    lddb_test::rng g{11};
    landmark_set set = landmark_set::build(r, map, 4);
    std::vector<point> shut;
    for (int k = 0; k < 300; ++k) {
      const point c{g.below(map.width()), g.below(map.height())};
      if (map.blocked(c.x, c.y)) continue;
      map.set_blocked(c.x, c.y, true);
      shut.push_back(c);
    }
    for (int round = 0; round < 6; ++round) {
      const std::string where = r.name() + " round " + std::to_string(round);
      free_some(g, map);  // beyond the build (or a shut cell again): a repair, on the tables' map
      ASSERT_EQ(set.repair(map), landmark_repair::current) << where;
      for (int k = 0; k < 40 && !shut.empty(); ++k) {  // opened again: nothing to do
        map.set_blocked(shut.back().x, shut.back().y, false);
        shut.pop_back();
      }
      EXPECT_FALSE(set.current_for(map)) << where;
      ASSERT_EQ(set.repair(map, 0), landmark_repair::current) << where << ": a restore took work";
      EXPECT_LE(set.cells_blocked_since(map), shut.size()) << where;
    }
    while (!shut.empty()) {
      map.set_blocked(shut.back().x, shut.back().y, false);
      shut.pop_back();
    }
    ASSERT_EQ(set.repair(map, 0), landmark_repair::current) << r.name();
    EXPECT_EQ(set.cells_blocked_since(map), 0u) << r.name();
    compare_tables(set, landmark_set::build(r, map, set.points()), map, false, r.name() + " all open again");
  }
}

TEST(Repair, RebuildNeeded) {
  const rule r = rule::octile();
  grid_map map = lddb::make_random_map(100, 100, 40, 9);
  // Another map object, even an equal copy; an empty set.
  landmark_set set = landmark_set::build(r, map, 3);
  grid_map copy = map;
  EXPECT_EQ(set.repair(copy), landmark_repair::rebuild_needed);
  EXPECT_EQ(set.repair(map), landmark_repair::current);
  landmark_set none;
  EXPECT_EQ(none.repair(map), landmark_repair::rebuild_needed);
  EXPECT_THROW(landmark_set::build(r, map, std::vector<point>{{100, 0}}), std::invalid_argument);
  EXPECT_THROW(landmark_set::build(r, map, std::vector<point>{}), std::invalid_argument);
}

}  // namespace
