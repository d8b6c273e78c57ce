// Block A*'s large open squares (search_diagnostics::square_levels 3 and 4: free squares of
// 8 x 8 and 16 x 16 blocks as one node, their g-values carried across by carry_ring).
// Tile and octile must stay exactly optimal: checked against A* (the library's, on cells)
// and, when ../shared/maps is present, the scenario files' optima. Any-angle paths must
// pass the independent checker and be no longer than with the small squares alone (a
// large square only adds straight segments across ground the small ones cover). Every
// path's checked length is its cost.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "lddb/checker.hpp"
#include "lddb/grid.hpp"
#include "lddb/map_file.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/scenario.hpp"
#include "lddb/search.hpp"
#include "test_db.hpp"
#include "test_rng.hpp"
#include "test_scenarios.hpp"

namespace {

using lddb::grid_map;
using lddb::point;
using lddb::rule;
using lddb::search_result;
namespace fs = std::filesystem;

std::string text(point p) { return lddb::checker::point_text(p); }

std::string result_text(const search_result& r) {
  return "status " + std::to_string(static_cast<int>(r.status)) + " cost " + std::to_string(r.cost) + " length " +
         std::to_string(r.length) + " expanded " + std::to_string(r.stats.expanded);
}

struct map_case {
  std::string name;
  std::function<grid_map(int)> make;
  bool open;  // has aligned free squares of 8 x 8 blocks: large squares must cut the expansions
};

std::vector<map_case> maps() {
  return {
      {"empty 150x133", [](int b) { return grid_map(150, 133, b); }, true},
      {"make_rooms_map(210,170,70,3)", [](int b) { return lddb::make_rooms_map(210, 170, 70, 3, b); }, true},
      {"make_random_map(140,120,2,5)", [](int b) { return lddb::make_random_map(140, 120, 2, 5, b); }, false},
      {"make_maze_map(161,161,30,2)", [](int b) { return lddb::make_maze_map(161, 161, 30, 2, b); }, false},
  };
}

lddb::search_options options(const rule& r, int levels) {
  lddb::search_options o(lddb::default_heuristic(r));
  o.diagnostics.open_squares = true;
  o.diagnostics.square_levels = levels;
  o.smooth = false;  // the searches' own paths: smoothing would blur what the squares change
  return o;
}

struct totals {
  std::uint64_t expanded_large = 0, expanded_small = 0;
  double length_large = 0, length_small = 0;
};

// One query with large squares (levels 4) and small ones (levels 2). Cells: the same status
// and fixed-point cost as A*. Vertices: the same status as the small squares, and a path no
// longer than theirs (up to the rounding of stored lengths). Every path checked.
void check_query(const lddb::database& db, const grid_map& map, point s, point t, const std::string& where,
                 lddb::search_context& ctx, totals& sum) {
  const rule& r = db.movement();
  const search_result large = lddb::block_astar(db, map, s, t, options(r, 4), ctx);
  const search_result small = lddb::block_astar(db, map, s, t, options(r, 2), ctx);
  std::string at = where + " rule " + r.name() + " b=" + std::to_string(db.shape().block()) + " query " + text(s) +
                   " -> " + text(t) + "\n  large squares: " + result_text(large) + "\n  small squares: " + result_text(small);
  ASSERT_EQ(large.status, small.status) << at;
  if (!r.on_vertices()) {
    const search_result want = lddb::astar(r, map, s, t, lddb::search_options(lddb::default_heuristic(r)), ctx);
    at += "\n  A*: " + result_text(want);
    ASSERT_EQ(large.status, want.status) << at;
    if (want.found()) {
      EXPECT_EQ(large.cost, want.cost) << at;
    }
  }
  if (!large.found()) return;
  const lddb::check_result check = lddb::check_path(r, map, s, t, large.path);
  EXPECT_TRUE(check.valid) << at << "\n  checker: " << check.error;
  // Cells: exact. Vertices: each segment's stored length is rounded.
  const double tolerance = r.on_vertices() ? 1e-3 * static_cast<double>(large.path.size() + 2) : 1e-6;
  if (check.valid) {
    EXPECT_NEAR(check.length, lddb::cost_to_double(large.cost), tolerance) << at;
  }
  if (r.on_vertices()) {
    EXPECT_LE(large.length, small.length + 1e-3 * static_cast<double>(small.path.size() + 2)) << at;
  }
  sum.expanded_large += large.stats.expanded;
  sum.expanded_small += small.stats.expanded;
  sum.length_large += large.length;
  sum.length_small += small.length;
}

TEST(LargeSquares, EveryRuleAgainstAStarAndTheSmallSquares) {
  for (const rule& movement : lddb_test::search_rules()) {
    const lddb::database& db = lddb_test::db_for(movement);
    lddb::search_context ctx;
    for (const map_case& mc : maps()) {
      const grid_map map = mc.make(db.shape().block());
      lddb_test::rng rng{mc.name.size() * 31 + 7};
      totals sum;
      for (int q = 0; q < 24; ++q) {
        const point s = lddb_test::random_free_cell(rng, map), t = lddb_test::random_free_cell(rng, map);
        check_query(db, map, s, t, mc.name, ctx, sum);
      }
      const std::string label = mc.name + " " + movement.name();
      EXPECT_LE(sum.length_large, sum.length_small + 1e-3 * 24) << label;
      if (mc.open) {
        EXPECT_LT(sum.expanded_large, sum.expanded_small) << label;
      }
    }
  }
}

// Large squares come and go as cells change between queries (the map's open-group counts
// follow set_blocked): every answer stays A*'s (cells) or legal (vertices).
TEST(LargeSquares, MapsChangedBetweenQueries) {
  for (const rule& movement : lddb_test::search_rules()) {
    const lddb::database& db = lddb_test::db_for(movement);
    lddb::search_context ctx;
    grid_map map = lddb::make_rooms_map(210, 170, 70, 3, db.shape().block());
    lddb_test::rng rng{movement.name().size() + 11};
    totals sum;
    for (int q = 0; q < 30; ++q) {
      for (int k = 0; k < 6; ++k) {  // block a few cells, free a few
        const int x = rng.below(map.width()), y = rng.below(map.height());
        map.set_blocked(x, y, rng.below(3) != 0);
      }
      const point s = lddb_test::random_free_cell(rng, map), t = lddb_test::random_free_cell(rng, map);
      check_query(db, map, s, t, "rooms after " + std::to_string(6 * (q + 1)) + " changes", ctx, sum);
    }
  }
}

// 200+ generated maps, open enough to hold large squares (rooms of 40 to 90 cells, sparse
// obstacles), cells changed between queries: tile and octile with large squares cost what A*
// costs, any-angle paths stay legal, and large squares occur.
TEST(LargeSquares, GeneratedMapsChangedBetweenQueries) {
  std::uint64_t large_fewer = 0, maps = 0;
  for (const rule& movement : lddb_test::search_rules()) {
    const lddb::database& db = lddb_test::db_for(movement);
    const int b = db.shape().block();
    lddb::search_context ctx;
    lddb_test::rng rng{movement.name().size() * 7919 + 3};
    for (int k = 0; k < 30; ++k, ++maps) {
      const int w = 64 + rng.below(60), h = 64 + rng.below(60);
      const std::uint64_t seed = rng.next() % 100000;
      grid_map map = k % 2 ? lddb::make_rooms_map(w, h, 40 + rng.below(50), seed, b)
                           : lddb::make_random_map(w, h, rng.below(4), seed, b);
      const std::string name = (k % 2 ? "rooms " : "random ") + std::to_string(w) + "x" + std::to_string(h) +
                               " seed " + std::to_string(seed);
      totals sum;
      for (int q = 0; q < 3; ++q) {
        for (int c = 0; c < 4; ++c) {  // block a few cells, free a few
          const int x = rng.below(map.width()), y = rng.below(map.height());
          map.set_blocked(x, y, rng.below(2) != 0);
        }
        const point s = lddb_test::random_free_cell(rng, map), t = lddb_test::random_free_cell(rng, map);
        check_query(db, map, s, t, name + " query " + std::to_string(q), ctx, sum);
      }
      if (sum.expanded_large < sum.expanded_small) ++large_fewer;
    }
  }
  EXPECT_GE(maps, 200u);
  EXPECT_GT(large_fewer, maps / 4) << "large squares took fewer expansions on too few maps";
}

// A weighted search through large squares keeps its bound; a sliced one, and one on the
// portable min-plus rows, give the one-call answer; one stopped by its budget returns a
// legal path as far as it got.
TEST(LargeSquares, WeightedSlicedBudgetAndPortableQueries) {
  for (const rule& movement : {rule::tile(), rule::octile(), rule::any_angle()}) {
    const lddb::database& db = lddb_test::db_for(movement);
    const grid_map map = lddb::make_rooms_map(210, 170, 70, 3, db.shape().block());
    lddb::search_context ctx;
    lddb_test::rng rng{23};
    for (int q = 0; q < 20; ++q) {
      const point s = lddb_test::random_free_cell(rng, map), t = lddb_test::random_free_cell(rng, map);
      const std::string at = movement.name() + " " + text(s) + " -> " + text(t);
      const search_result whole = lddb::block_astar(db, map, s, t, options(movement, 4), ctx);
      lddb::search_options weighted = options(movement, 4);
      weighted.weight = 1.5;
      const search_result w = lddb::block_astar(db, map, s, t, weighted, ctx);
      ASSERT_EQ(w.status, whole.status) << at;
      if (!whole.found()) continue;
      EXPECT_LE(static_cast<double>(w.cost), 1.5 * static_cast<double>(whole.cost) * (1 + 1e-9)) << at;
      EXPECT_TRUE(lddb::check_path(movement, map, s, t, w.path).valid) << at;
      search_result sliced = lddb::block_astar_begin(db, map, s, t, options(movement, 4), ctx);
      while (sliced.status == lddb::search_status::in_progress) sliced = lddb::block_astar_continue(ctx, 2);
      EXPECT_EQ(sliced.cost, whole.cost) << at;
      EXPECT_EQ(sliced.path, whole.path) << at;
      EXPECT_EQ(sliced.stats.expanded, whole.stats.expanded) << at;
      lddb::search_options portable = options(movement, 4);
      portable.diagnostics.vector_kernels = false;
      const search_result scalar = lddb::block_astar(db, map, s, t, portable, ctx);
      EXPECT_EQ(scalar.path, whole.path) << at;
      EXPECT_EQ(scalar.stats.expanded, whole.stats.expanded) << at;
      for (std::uint64_t budget : {3u, 9u}) {
        lddb::search_options stop = options(movement, 4);
        stop.max_expansions = budget;
        const search_result part = lddb::block_astar(db, map, s, t, stop, ctx);
        if (part.status != lddb::search_status::budget_exhausted || part.path.empty()) continue;
        const lddb::check_result c = lddb::check_path(movement, map, s, part.path.back(), part.path);
        EXPECT_TRUE(c.valid) << at << " budget " << budget << ": " << c.error;
        EXPECT_NEAR(c.length, lddb::cost_to_double(part.cost), 1e-3 * static_cast<double>(part.path.size() + 2))
            << at << " budget " << budget;
      }
    }
  }
}

TEST(LargeSquares, LevelsOutOfRangeAreRefused) {
  const lddb::database& db = lddb_test::db_for(rule::octile());
  const grid_map map(40, 40, 4);
  lddb::search_context ctx;
  for (int levels : {0, -1, lddb::search_diagnostics::kMaxSquareLevels + 1}) {
    const search_result r = lddb::block_astar(db, map, {1, 1}, {30, 30}, options(rule::octile(), levels), ctx);
    EXPECT_EQ(r.status, lddb::search_status::invalid_option) << levels;
    EXPECT_NE(r.message.find("square_levels"), std::string::npos) << r.message;
  }
}

// The benchmark maps with rooms and open ground: a sample of queries with large squares
// under octile against the file's optimum, and under tile against A*.
TEST(LargeSquares, ScenarioFiles) {
  const auto files = lddb_test::scenario_files();
  if (!files) LDDB_MAPS_MISSING("missing the benchmark maps folder " << lddb_test::benchmark_maps_dir().string());
  ASSERT_FALSE(files->empty()) << lddb_test::benchmark_maps_dir();
  for (const rule& movement : {rule::octile(), rule::tile()}) {
    const lddb::database& db = lddb_test::db_for(movement);
    lddb::search_context ctx;
    std::string error;
    const bool read = lddb_test::for_each_sampled_query(
        *files, 25, db.shape().block(), error,
        [&](const fs::path& file, const lddb::scenario_query& q, const grid_map& map) {
          const std::string at = file.filename().string() + " line " + std::to_string(q.line) + " " + movement.name();
          const search_result got = lddb::block_astar(db, map, q.start, q.goal, options(movement, 4), ctx);
          ASSERT_TRUE(got.found()) << at << ": " << got.message;
          EXPECT_TRUE(lddb::check_path(movement, map, q.start, q.goal, got.path).valid) << at;
          if (movement.kind == lddb::rule_kind::octile) {
            EXPECT_NEAR(got.length, q.optimal, q.optimal_tolerance + 1e-9) << at;
          } else {
            const search_result want = lddb::astar(movement, map, q.start, q.goal,
                                                    lddb::search_options(lddb::default_heuristic(movement)), ctx);
            EXPECT_EQ(got.cost, want.cost) << at;
          }
        });
    ASSERT_TRUE(read) << error;
  }
}

}  // namespace
