// Block A*'s open squares under the cell rules (search_diagnostics::open_squares = true with
// tile and octile): a free square of 2 x 2 or 4 x 4 blocks is one node priced by
// Manhattan or octile distance, so the search must stay exactly optimal. Checked against
// A* (the library's, on cells) for the fixed-point cost, against the independent path
// checker (lddb/checker.hpp) for every path, against the search with the paper's fixed
// blocks for status and cost, and, when ../shared/maps is present, against the Moving AI
// scenario files' optimal lengths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "lddb/checker.hpp"
#include "lddb/format.hpp"
#include "lddb/generator.hpp"
#include "lddb/grid.hpp"
#include "lddb/map_file.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/rule.hpp"
#include "lddb/scenario.hpp"
#include "lddb/search.hpp"
#include "test_rng.hpp"
#include "test_scenarios.hpp"

namespace {

using lddb::grid_map;
using lddb::point;
using lddb::rule;
using lddb::search_result;
namespace fs = std::filesystem;

// One database per (rule, b) per process, generated in memory on first use.
const lddb::database& db_for(const rule& r, int b) {
  static std::map<std::string, std::shared_ptr<const lddb::database>> cache;
  const std::string key = r.name() + " b=" + std::to_string(b);
  if (auto it = cache.find(key); it != cache.end()) return *it->second;
  lddb::recipe rc;
  rc.movement = r;
  rc.block = b;
  rc.zstd_level = 3;
  auto opened = lddb::database::open_bytes(lddb::encode_database(lddb::generate(rc, {})), "generated " + key);
  if (!opened) throw std::runtime_error("cannot open the generated database " + key + ": " + opened.message);
  return *cache.emplace(key, opened.db).first->second;
}

std::string text(point p) { return lddb::checker::point_text(p); }

std::string result_text(const search_result& r) {
  return "status " + std::to_string(static_cast<int>(r.status)) + " cost " + std::to_string(r.cost) + " length " +
         std::to_string(r.length) + " expanded " + std::to_string(r.stats.expanded);
}

struct map_case {
  std::string name;  // how to rebuild it
  std::function<grid_map(int)> make;
  bool open;  // big free areas: squares must cut the expansions
};

std::vector<map_case> maps() {
  return {
      {"empty 61x47", [](int b) { return grid_map(61, 47, b); }, true},
      {"make_rooms_map(70,54,16,3)", [](int b) { return lddb::make_rooms_map(70, 54, 16, 3, b); }, true},
      {"make_rooms_map(97,81,30,5)", [](int b) { return lddb::make_rooms_map(97, 81, 30, 5, b); }, true},
      {"make_random_map(53,41,6,8)", [](int b) { return lddb::make_random_map(53, 41, 6, 8, b); }, false},
      {"make_random_map(53,41,25,9)", [](int b) { return lddb::make_random_map(53, 41, 25, 9, b); }, false},
      {"make_maze_map(45,45,5,2)", [](int b) { return lddb::make_maze_map(45, 45, 5, 2, b); }, false},
  };
}

// Every corner rule, a diagonal other than sqrt 2, and every block size that has squares
// and generates in seconds (b = 5 takes minutes: its 2 x 2 squares are left to the code
// they share with these).
std::vector<std::pair<rule, int>> rules() {
  return {{rule::tile(), 4},
          {rule::tile(), 3},
          {rule::tile(), 2},
          {rule::octile(), 4},
          {rule::octile(), 3},
          {rule::octile(), 2},
          {rule::octile(lddb::corner_cutting::one_side_free), 3},
          {rule::octile(lddb::corner_cutting::allowed), 3},
          {rule::octile(lddb::corner_cutting::forbidden, 3 * lddb::kCostOne / 2), 3}};
}

lddb::search_options options(const rule& r, bool squares) {
  lddb::search_options o(lddb::default_heuristic(r));
  o.diagnostics.open_squares = squares;
  return o;
}

// One query with squares on and off against A*: the same status and fixed-point cost,
// and a path the checker accepts whose length is its cost. Adds the expansions.
void check_query(const lddb::database& db, const grid_map& map, point s, point t, const std::string& where,
                 lddb::search_context& ctx, std::uint64_t& with_squares, std::uint64_t& without) {
  const rule& r = db.movement();
  const search_result want = lddb::astar(r, map, s, t, options(r, false), ctx);
  const search_result fixed = lddb::block_astar(db, map, s, t, options(r, false), ctx);
  const search_result got = lddb::block_astar(db, map, s, t, options(r, true), ctx);
  const std::string at = where + " rule " + r.name() + " b=" + std::to_string(db.shape().block()) + " query " +
                         text(s) + " -> " + text(t) + "\n  squares: " + result_text(got) +
                         "\n  fixed blocks: " + result_text(fixed) + "\n  A*: " + result_text(want);
  ASSERT_EQ(got.status, want.status) << at;
  ASSERT_EQ(fixed.status, want.status) << at;
  with_squares += got.stats.expanded;
  without += fixed.stats.expanded;
  if (!want.found()) return;
  EXPECT_EQ(got.cost, want.cost) << at;
  EXPECT_EQ(fixed.cost, want.cost) << at;
  const lddb::check_result check = lddb::check_path(r, map, s, t, got.path);
  EXPECT_TRUE(check.valid) << at << "\n  checker: " << check.error;
  if (check.valid) {
    EXPECT_NEAR(check.length, lddb::cost_to_double(got.cost), 1e-6) << at;
  }
}

TEST(CellSquares, SameOptimalCostsAsAStarAndFewerExpansionsOnOpenGround) {
  for (const auto& [movement, b] : rules()) {
    const lddb::database& db = db_for(movement, b);
    lddb::search_context ctx;
    for (const map_case& mc : maps()) {
      const grid_map map = mc.make(b);
      lddb_test::rng rng{static_cast<std::uint64_t>(b) * 977 + mc.name.size()};
      std::uint64_t with_squares = 0, without = 0;
      for (int q = 0; q < 40; ++q) {
        const point s = lddb_test::random_free_cell(rng, map), t = lddb_test::random_free_cell(rng, map);
        check_query(db, map, s, t, mc.name, ctx, with_squares, without);
      }
      // Squares occur: open ground takes fewer expansions.
      if (mc.open) {
        EXPECT_LT(with_squares, without) << mc.name << " rule " << movement.name() << " b=" << b;
      }
    }
  }
}

// Squares come and go as cells change between queries (the map's open-group counts follow
// set_blocked), and every answer stays A*'s.
TEST(CellSquares, MapsChangedBetweenQueries) {
  for (const auto& [movement, b] : rules()) {
    const lddb::database& db = db_for(movement, b);
    lddb::search_context ctx;
    for (const map_case& mc : maps()) {
      if (!mc.open) continue;
      grid_map map = mc.make(b);
      lddb_test::rng rng{static_cast<std::uint64_t>(b) * 131 + mc.name.size() + 7};
      std::uint64_t with_squares = 0, without = 0;
      for (int q = 0; q < 30; ++q) {
        for (int k = 0; k < 12; ++k) {  // block a few cells, free a few
          const int x = rng.below(map.width()), y = rng.below(map.height());
          map.set_blocked(x, y, rng.below(3) != 0);
        }
        const point s = lddb_test::random_free_cell(rng, map), t = lddb_test::random_free_cell(rng, map);
        check_query(db, map, s, t, mc.name + " after " + std::to_string(12 * (q + 1)) + " changes", ctx,
                    with_squares, without);
      }
    }
  }
}

// A weighted search with squares keeps its bound; a sliced one, and one on the portable
// min-plus rows, give the one-call answer.
TEST(CellSquares, WeightedSlicedAndPortableQueries) {
  for (const rule& movement : {rule::tile(), rule::octile()}) {
    const lddb::database& db = db_for(movement, 4);
    const grid_map map = lddb::make_rooms_map(97, 81, 30, 5, 4);
    lddb::search_context ctx;
    lddb_test::rng rng{11};
    for (int q = 0; q < 30; ++q) {
      const point s = lddb_test::random_free_cell(rng, map), t = lddb_test::random_free_cell(rng, map);
      const search_result best = lddb::astar(movement, map, s, t, options(movement, false), ctx);
      lddb::search_options weighted = options(movement, true);
      weighted.weight = 1.5;
      const search_result w = lddb::block_astar(db, map, s, t, weighted, ctx);
      const std::string at = movement.name() + " " + text(s) + " -> " + text(t);
      ASSERT_EQ(w.status, best.status) << at;
      if (!best.found()) continue;
      EXPECT_LE(static_cast<double>(w.cost), 1.5 * static_cast<double>(best.cost)) << at;
      EXPECT_TRUE(lddb::check_path(movement, map, s, t, w.path).valid) << at;
      const search_result whole = lddb::block_astar(db, map, s, t, options(movement, true), ctx);
      search_result sliced = lddb::block_astar_begin(db, map, s, t, options(movement, true), ctx);
      while (sliced.status == lddb::search_status::in_progress) sliced = lddb::block_astar_continue(ctx, 2);
      EXPECT_EQ(sliced.cost, whole.cost) << at;
      EXPECT_EQ(sliced.path, whole.path) << at;
      EXPECT_EQ(sliced.stats.expanded, whole.stats.expanded) << at;
      lddb::search_options budget = options(movement, true);  // stopped: a legal path part way
      budget.max_expansions = 3;
      const search_result part = lddb::block_astar(db, map, s, t, budget, ctx);
      if (part.status == lddb::search_status::budget_exhausted && !part.path.empty()) {
        const lddb::check_result c = lddb::check_path(movement, map, s, part.path.back(), part.path);
        EXPECT_TRUE(c.valid) << at << ": " << c.error;
        EXPECT_NEAR(c.length, lddb::cost_to_double(part.cost), 1e-6) << at;
      }
      lddb::search_options portable = options(movement, true);
      portable.diagnostics.vector_kernels = false;
      const search_result scalar = lddb::block_astar(db, map, s, t, portable, ctx);
      EXPECT_EQ(scalar.path, whole.path) << at;
      EXPECT_EQ(scalar.stats.expanded, whole.stats.expanded) << at;
      EXPECT_EQ(scalar.stats.generated, whole.stats.generated) << at;
    }
  }
}

// The benchmark maps, a sample of each scenario file: squares on, the file's optimum
// (octile) and A*'s cost (both rules).
TEST(CellSquares, ScenarioFiles) {
  const auto files = lddb_test::scenario_files();
  if (!files) LDDB_MAPS_MISSING("missing the benchmark maps folder " << lddb_test::benchmark_maps_dir().string());
  for (const rule& movement : {rule::octile(), rule::tile()}) {
    const lddb::database& db = db_for(movement, 4);
    lddb::search_context ctx;
    std::string error;
    const bool read = lddb_test::for_each_sampled_query(
        *files, 40, 4, error, [&](const fs::path& file, const lddb::scenario_query& q, const grid_map& map) {
          std::uint64_t with_squares = 0, without = 0;
          check_query(db, map, q.start, q.goal, file.filename().string() + " line " + std::to_string(q.line), ctx,
                      with_squares, without);
          if (movement.kind != lddb::rule_kind::octile) return;
          const search_result got = lddb::block_astar(db, map, q.start, q.goal, options(movement, true), ctx);
          EXPECT_NEAR(got.length, q.optimal, q.optimal_tolerance + 1e-9) << file << " line " << q.line;
        });
    ASSERT_TRUE(read) << error;
  }
}

}  // namespace
