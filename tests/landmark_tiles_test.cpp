// landmark_tiles_test: landmark bounds per tile (landmark_width::tile_bounds,
// lddb/landmarks.hpp) and the preparation that builds them (prepare_options::tile_bounds).
//
//   TileBounds.RangesHoldEveryPoint   a tile's range is the least and the greatest of its
//                                     points' distances, read from a 16-bit set built from
//                                     the same points at the same unit (its own Dijkstra),
//                                     over the points every landmark reaches
//   TileBounds.APocketOutOfReach      a pocket the landmarks do not reach, between tiles
//                                     whose ranges lie far apart: no bound across it
//   TileBounds.BoundAgainstOracle     no bound exceeds the oracle's least cost; the bound
//                                     beats the rule's own heuristic, and is not consistent
//                                     (it falls by more than a move between some neighbours)
//   TileBounds.SearchesStayOptimal    Block A*, A* and jump point search given tile bounds
//                                     (not consistent: they reopen) return the oracle's
//                                     optimum; weighted, within the weight
//   TileBounds.Repair                 a restored cell costs nothing; a wall opened lowers the
//                                     ranges; a pocket joined, or too many cells, asks for
//                                     a rebuild
//   TileBounds.LoweredThroughFreedCells
//                                     walls opened between repairs: every range still holds
//                                     its points' distances, from a fresh build
//   TileBounds.PreparedThroughChanges prepare with tile bounds, cells blocked and freed
//                                     between queries (ranges lowered, rebuilds): costs
//                                     equal A*'s without landmarks
//   TileBounds.SizedByMemory          16 landmarks, 4 bytes a tile each: an eighth of a
//                                     16-bit table's bytes a landmark; refused under any-angle
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lddb/grid.hpp"
#include "lddb/landmarks.hpp"
#include "lddb/mapgen.hpp"
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

using lddb_test::generated_map;
using lddb_test::has_free;

const std::vector<rule>& cell_rules() {
  static const std::vector<rule> rules{rule::tile(), rule::octile()};
  return rules;
}

landmark_set tile_set(const rule& r, const grid_map& map, int count, std::uint64_t seed) {
  return landmark_set::build(r, map, count, lddb::landmark_placement::farthest, seed, landmark_width::tile_bounds);
}

// The map of APocketOutOfReach: two walls down from the top, a pocket of two cells in them.
grid_map pocket_map() {
  grid_map map(40, 40);
  for (int y = 0; y < 39; ++y) {
    map.set_blocked(11, y, true);
    map.set_blocked(12, y, true);
  }
  for (const point c : {point{11, 20}, point{12, 20}}) map.set_blocked(c.x, c.y, false);
  for (const point c : {point{10, 20}, point{13, 20}}) map.set_blocked(c.x, c.y, true);
  return map;
}

TEST(TileBounds, RangesHoldEveryPoint) {
  int tiles = 0;
  for (int i = 0; i < 24; ++i) {
    for (const rule& r : cell_rules()) {
      const grid_map map = generated_map(i, 21 + i % 7, 18 + i % 5);
      if (!has_free(map, 2)) continue;
      const landmark_set set = tile_set(r, map, 1 + i % 5, 3 + static_cast<std::uint64_t>(i));
      ASSERT_TRUE(set.tile_bounds());
      ASSERT_EQ(set.complete(), set.size());
      const landmark_set per_point = landmark_set::build(r, map, set.points(), landmark_width::bits16, set.unit_cost());
      for (int y = 0; y < map.height(); ++y)
        for (int x = 0; x < map.width(); ++x) {
          bool every = true;
          for (int l = 0; l < set.size(); ++l) every = every && per_point.distance({x, y}, l) != landmark_set::kUnreached;
          ASSERT_EQ(set.in_reach({x, y}), every) << r.name() << " map " << i << " at " << x << "," << y;
        }
      for (int l = 0; l < set.size(); ++l)
        for (int ty = 0; ty * 4 < map.height(); ++ty)
          for (int tx = 0; tx * 4 < map.width(); ++tx) {
            std::uint32_t lo = landmark_set::kUnreached, hi = 0;
            for (int y = ty * 4; y < std::min(ty * 4 + 4, map.height()); ++y)
              for (int x = tx * 4; x < std::min(tx * 4 + 4, map.width()); ++x) {
                const std::uint32_t d = per_point.distance({x, y}, l);
                if (!set.in_reach({x, y})) continue;
                lo = std::min(lo, d);
                hi = std::max(hi, d);
              }
            const landmark_set::range got = set.tile_range({tx * 4 + 3 < map.width() ? tx * 4 + 3 : tx * 4, ty * 4}, l);
            ASSERT_EQ(got.lo, lo) << r.name() << " map " << i << " tile " << tx << "," << ty << " landmark " << l;
            if (lo != landmark_set::kUnreached) {
              ASSERT_EQ(got.hi, hi) << r.name() << " map " << i;
            }
            ++tiles;
          }
      // The same map, rule, count and seed give the same set.
      const landmark_set again = tile_set(r, map, 1 + i % 5, 3 + static_cast<std::uint64_t>(i));
      ASSERT_EQ(again.points(), set.points());
      for (int y = 0; y < map.height(); y += 4)
        for (int x = 0; x < map.width(); x += 4)
          for (int l = 0; l < set.size(); ++l) ASSERT_EQ(again.tile_range({x, y}, l).hi, set.tile_range({x, y}, l).hi);
    }
  }
  EXPECT_GT(tiles, 3000);
}

TEST(TileBounds, APocketOutOfReach) {
  // Two walls at x = 11 and 12 from the top down to y = 38: the left and right halves join
  // only below them. Cells (11,20) and (12,20), in tiles 2 and 3 of row 5, form a pocket
  // walled off from both halves; the landmarks' distances to the tiles' other cells differ
  // by the way round the walls.
  const grid_map map = pocket_map();
  for (const rule& r : cell_rules()) {
    const landmark_set set = tile_set(r, map, 8, 1);
    EXPECT_FALSE(set.in_reach({11, 20}));
    EXPECT_FALSE(set.in_reach({12, 20}));
    EXPECT_TRUE(set.in_reach({0, 0}));
    EXPECT_EQ(set.lower_bound({11, 20}, {12, 20}), 0) << r.name();
    // What the bound across it would be from the ranges alone, to show the case is real.
    std::uint32_t ranges = 0;
    for (int l = 0; l < set.size(); ++l) {
      const landmark_set::range a = set.tile_range({11, 20}, l), b = set.tile_range({12, 20}, l);
      ranges = std::max({ranges, a.lo > b.hi ? a.lo - b.hi : 0u, b.lo > a.hi ? b.lo - a.hi : 0u});
    }
    EXPECT_GT(static_cast<cost_t>(ranges) * set.unit_cost(), 10 * lddb::kCostOne) << r.name();
    lddb::search_options with(lddb::default_heuristic(r));
    with.landmarks = &set;
    lddb::search_context ctx;
    const lddb::search_result a = lddb::astar(r, map, {11, 20}, {12, 20}, with, ctx);
    ASSERT_TRUE(a.found());
    EXPECT_EQ(a.cost, lddb::kCostOne);
  }
}

TEST(TileBounds, BoundAgainstOracle) {
  int checked = 0, above_heuristic = 0, inconsistent = 0;
  for (int i = 0; i < 30; ++i) {
    for (const rule& r : cell_rules()) {
      const grid_map map = generated_map(i, 30 + i % 5, 24 + i % 7);
      if (!has_free(map, 2)) continue;
      const oracle::grid og = lddb_test::to_oracle(map);
      const landmark_set set = tile_set(r, map, 2 + i % 8, 5 + static_cast<std::uint64_t>(i));
      lddb_test::rng g{static_cast<std::uint64_t>(i) * 13 + 1};
      for (int q = 0; q < 12; ++q) {
        const point a = lddb_test::random_free_cell(g, map), b = lddb_test::random_free_cell(g, map);
        const double exact = oracle::least_cost(r, og, a, b);
        if (!std::isfinite(exact)) continue;
        const double bound = lddb::cost_to_double(set.lower_bound(a, b));
        EXPECT_LE(bound, exact + 1e-6) << r.name() << " map " << i;
        const double dx = std::abs(a.x - b.x), dy = std::abs(a.y - b.y);
        const double own = r.kind == lddb::rule_kind::tile ? dx + dy : std::max(dx, dy) + (std::sqrt(2.0) - 1) * std::min(dx, dy);
        above_heuristic += bound > own + 1e-6;
        ++checked;
      }
      const point goal = lddb_test::random_free_cell(g, map);
      for (int y = 0; y < map.height(); ++y)
        for (int x = 0; x + 1 < map.width(); ++x)
          if (!map.blocked(x, y) && !map.blocked(x + 1, y)) {
            const cost_t here = set.lower_bound({x, y}, goal), there = set.lower_bound({x + 1, y}, goal);
            inconsistent += std::max(here, there) - std::min(here, there) > lddb::kCostOne;
          }
    }
  }
  EXPECT_GT(checked, 500);
  EXPECT_GT(above_heuristic, 50) << "tile bounds should beat the rule's own heuristic on mazes and rooms";
  EXPECT_GT(inconsistent, 0) << "neighbouring tiles' ranges should differ by more than a move somewhere";
}

TEST(TileBounds, SearchesStayOptimal) {
  int searched = 0;
  for (int i = 0; i < 12; ++i) {
    for (const rule& r : cell_rules()) {
      grid_map map = generated_map(i, 48 + i, 40 + i % 5);
      if (!has_free(map, 2)) continue;
      const lddb::database& db = lddb_test::db_for(r);
      map.set_block_size(db.info().block);
      const oracle::grid og = lddb_test::to_oracle(map);
      lddb_test::rng g{static_cast<std::uint64_t>(i) * 17 + 5};
      lddb::search_context ctx;
      const landmark_set set = tile_set(r, map, 8, 3);
      lddb::search_options with(lddb::default_heuristic(r));
      with.landmarks = &set;
      for (int q = 0; q < 6; ++q) {
        const point s = lddb_test::random_free_cell(g, map), t = lddb_test::random_free_cell(g, map);
        const std::string where = r.name() + " map " + std::to_string(i);
        const double optimum = oracle::least_cost(r, og, s, t);
        const lddb::search_result block = lddb::block_astar(db, map, s, t, with, ctx);
        const lddb::search_result a = lddb::astar(r, map, s, t, with, ctx);
        const lddb::search_result j = lddb::jump_point_search(r, map, s, t, with, ctx);
        ASSERT_EQ(block.found(), std::isfinite(optimum)) << where << ": " << block.message;
        ASSERT_EQ(a.found(), std::isfinite(optimum)) << where;
        ASSERT_EQ(j.found(), std::isfinite(optimum)) << where;
        if (!std::isfinite(optimum)) continue;
        EXPECT_NEAR(lddb::cost_to_double(block.cost), optimum, 1e-6) << where << " block-astar";
        EXPECT_NEAR(lddb::cost_to_double(a.cost), optimum, 1e-6) << where << " astar";
        EXPECT_NEAR(lddb::cost_to_double(j.cost), optimum, 1e-6) << where << " jumps";
        lddb::search_options weighted = with;
        weighted.weight = 1.5;
        const lddb::search_result w = lddb::astar(r, map, s, t, weighted, ctx);
        EXPECT_LE(lddb::cost_to_double(w.cost), 1.5 * optimum + 1e-6) << where << " weighted";
        ++searched;
      }
    }
  }
  EXPECT_GT(searched, 100);
}

TEST(TileBounds, Repair) {
  for (const rule& r : cell_rules()) {
    grid_map map = pocket_map();
    landmark_set set = tile_set(r, map, 4, 1);
    map.set_blocked(5, 5, true);  // a door shut: still a lower bound
    EXPECT_TRUE(set.current_for(map));
    map.set_blocked(5, 5, false);  // and opened again: the tables' map had it free
    EXPECT_FALSE(set.current_for(map));
    EXPECT_EQ(set.repair(map), lddb::landmark_repair::current) << r.name();
    EXPECT_EQ(set.cells_blocked_since(map), 0u);
    map.set_blocked(11, 2, false);  // a wall opened between the landmarks' points: lowered
    EXPECT_EQ(set.repair(map), lddb::landmark_repair::current) << r.name();
    EXPECT_TRUE(set.current_for(map));
    EXPECT_TRUE(set.in_reach({11, 2}));
    EXPECT_EQ(set.cells_blocked_since(map), 1u) << "a lowered range counts as loosened";
    map.set_blocked(10, 20, false);  // the pocket joins: its cells have no ranges
    EXPECT_EQ(set.repair(map), lddb::landmark_repair::rebuild_needed) << r.name();
    EXPECT_FALSE(set.current_for(map));
    EXPECT_EQ(set.repair(map), lddb::landmark_repair::rebuild_needed) << r.name() << ": asked again";
  }
  // More cells in one pass than kMaxTileFrees: a rebuild.
  grid_map map = lddb::make_rooms_map(64, 48, 4, 9);
  landmark_set set = tile_set(rule::octile(), map, 4, 1);
  int opened = 0;
  for (int y = 0; y < map.height() && opened < 65; ++y)
    for (int x = 0; x < map.width() && opened < 65; ++x)
      if (map.blocked(x, y)) map.set_blocked(x, y, false), ++opened;
  EXPECT_EQ(set.repair(map), lddb::landmark_repair::rebuild_needed);
}

TEST(TileBounds, LoweredThroughFreedCells) {
  // Walls opened a few at a time, a repair after each batch: every tile's range still holds
  // its points' distances on the map as it is now (a 16-bit set built afresh from the same
  // points, at the same unit), and what is in reach is reached.
  int checked = 0, lowered = 0, rebuilt = 0;
  for (int i = 0; i < 12; ++i) {
    for (const rule& r : cell_rules()) {
      grid_map map = generated_map(i + 1, 36 + i % 5, 30 + i % 4);
      if (!has_free(map, 2)) continue;
      landmark_set set = tile_set(r, map, 1 + i % 6, 7 + static_cast<std::uint64_t>(i));
      lddb_test::rng g{static_cast<std::uint64_t>(i) * 31 + 3};
      for (int round = 0; round < 8; ++round) {
        const int batch = 1 + g.below(4);
        for (int b = 0; b < batch; ++b) {
          const int x = g.below(map.width()), y = g.below(map.height());
          if (map.blocked(x, y)) map.set_blocked(x, y, false);
        }
        const lddb::landmark_repair rep = set.repair(map);
        if (rep == lddb::landmark_repair::rebuild_needed) {
          set = landmark_set::build(r, map, set.points(), landmark_width::tile_bounds, set.unit_cost());
          ++rebuilt;
          continue;
        }
        ASSERT_EQ(rep, lddb::landmark_repair::current);
        ++lowered;
        const landmark_set fresh = landmark_set::build(r, map, set.points(), landmark_width::bits16, set.unit_cost());
        for (int y = 0; y < map.height(); ++y)
          for (int x = 0; x < map.width(); ++x) {
            if (!set.in_reach({x, y})) continue;
            for (int l = 0; l < set.size(); ++l) {
              const std::uint32_t d = fresh.distance({x, y}, l);
              ASSERT_NE(d, landmark_set::kUnreached) << r.name() << " map " << i << " at " << x << "," << y;
              const landmark_set::range got = set.tile_range({x, y}, l);
              ASSERT_LE(got.lo, d) << r.name() << " map " << i << " round " << round << " at " << x << "," << y;
              ASSERT_GE(got.hi, d) << r.name() << " map " << i << " round " << round << " at " << x << "," << y;
              ++checked;
            }
          }
      }
    }
  }
  EXPECT_GT(checked, 20000);
  EXPECT_GT(lowered, 100);
  EXPECT_GT(rebuilt, 0) << "some opened wall should join a pocket";
}

TEST(TileBounds, PreparedThroughChanges) {
  int rebuilds = 0;
  for (const rule& r : cell_rules()) {
    const lddb::database& db = lddb_test::db_for(r);
    for (int m = 0; m < 3; ++m) {
      grid_map map = m == 0   ? lddb::make_maze_map(120, 100, 2, 3)
                     : m == 1 ? lddb::make_rooms_map(120, 100, 5, 4)
                              : lddb::make_random_map(120, 100, 30, 5);  // pockets, which a freed cell may join
      lddb::prepare_options o;
      o.tile_bounds = true;
      o.landmarks = lddb::kTileLandmarks;  // kept, whatever the first ones bound
      o.adapt_to_change = false;  // keep them current whatever the map does: the rebuilds are tested
      const lddb::preparation_report rep = lddb::prepare(db, map, o);
      ASSERT_TRUE(rep.plan.tile_bounds) << rep.text();
      ASSERT_EQ(rep.plan.landmarks, lddb::kTileLandmarks) << rep.text();
      lddb::search_context ctx, plain_ctx;
      lddb::search_options plain;
      plain.diagnostics.use_prepared = false;
      lddb_test::rng g{static_cast<std::uint64_t>(m) + 77};
      int read = 0;
      for (int round = 0; round < 60; ++round) {
        const int changes = round % 5 == 0 ? 0 : g.below(6);
        for (int k = 0; k < changes; ++k) {
          const int x = g.below(map.width()), y = g.below(map.height());
          map.set_blocked(x, y, !map.blocked(x, y));
        }
        const landmark_set* before = lddb::prepared_landmarks(map, r);
        for (int s = 0; s < 40 && !lddb::prepare_step(map); ++s) {
        }
        const landmark_set* after = lddb::prepared_landmarks(map, r);
        rebuilds += before != nullptr && after != nullptr && before != after;
        if (after != nullptr) {
          ASSERT_TRUE(after->tile_bounds());
          ++read;
        }
        for (int q = 0; q < 5; ++q) {
          const point a = lddb_test::random_free_cell(g, map), b = lddb_test::random_free_cell(g, map);
          const lddb::search_result got = lddb::find_path(db, map, a, b, {}, ctx);
          const lddb::search_result want = lddb::astar(r, map, a, b, plain, plain_ctx);
          ASSERT_EQ(got.status, want.status) << r.name() << " map " << m << " round " << round;
          ASSERT_EQ(got.cost, want.cost) << r.name() << " map " << m << " round " << round;
        }
      }
      EXPECT_GT(read, 20) << r.name() << " map " << m << ": the tile bounds should be read";
    }
  }
  EXPECT_GT(rebuilds, 0) << "a pocket joined should have rebuilt the tile bounds";
}

TEST(TileBounds, SizedByMemory) {
  const grid_map big(2048, 2048);
  EXPECT_EQ(lddb::landmark_table_bytes(rule::octile(), big, 16, landmark_width::tile_bounds), std::uint64_t{16} << 20);
  EXPECT_EQ(lddb::landmark_table_bytes(rule::octile(), big, 4, landmark_width::bits16) / 4 / 8,
            lddb::landmark_table_bytes(rule::octile(), big, 16, landmark_width::tile_bounds) / 16);
  const grid_map map = lddb::make_rooms_map(100, 90, 5, 2);
  const landmark_set set = tile_set(rule::octile(), map, 16, 1);
  const std::size_t bitmap = (100 + 63) / 64 * 8 * 90;  // the reference and the points in reach
  EXPECT_EQ(set.memory_bytes() - 2 * bitmap, std::size_t{25} * 23 * 16 * 4);
  EXPECT_THROW(tile_set(rule::any_angle(), map, 4, 1), std::invalid_argument);
  grid_map copy = map;
  lddb::prepare_options o;
  o.tile_bounds = true;
  EXPECT_THROW(lddb::prepare(rule::any_angle(), copy, o), std::invalid_argument);
}

}  // namespace
