// reference_search_test: A*, Theta*, Lazy Theta*, smoothing and path length
// (runtime/src/search/cells/astar.cpp, theta.cpp, smooth.cpp, search_common.cpp), checked against the
// independent oracle (tests/oracle.hpp) on random small maps. Theta*, Lazy Theta* and
// any-angle smoothing against their optima, under both any-angle rules, are in
// theta_sides_test.cpp.
//
//   AStarOracle      A* cost = the oracle's least cost, legal paths, every admissible heuristic
//   ThetaOracle      Theta* / Lazy Theta* on a hand-worked map
//   Smooth*          cell paths keep their moves; short inputs; path length
//   Heuristics       every heuristic, admissible or not, gives a legal path whose cost is its own
//   Edge             invalid start/goal, unreachable goal, start == goal, rule mismatch, names
//   Determinism      same query twice gives the same path and stats
//   WarmContext      a warm context does not grow, and forgets a map that changed
//   Scenario         den520d: octile A* against the scenario file's optimal lengths
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "lddb/grid.hpp"
#include "lddb/map_file.hpp"
#include "lddb/scenario.hpp"
#include "lddb/cost.hpp"
#include "lddb/rule.hpp"
#include "lddb/segments.hpp"
#include "lddb/point.hpp"
#include "lddb/search.hpp"
#include "oracle.hpp"
#include "test_map.hpp"
#include "test_scenarios.hpp"

namespace {

using lddb::grid_map;
using lddb::heuristic_kind;
using lddb::point;
using lddb::rule;
using lddb::search_context;
using lddb::search_options;
using lddb::search_result;
using lddb::search_status;

constexpr double kEps = 1e-6;  // fixed-point costs (2^-32 a unit) against double lengths

const auto pt = lddb::checker::point_text;  // "(x,y)" in messages

using lddb_test::from_rows;
using lddb_test::test_map;

test_map random_map(std::mt19937_64& rng, int min_side, int max_side) {
  std::uniform_int_distribution<int> side(min_side, max_side), density(0, 50), roll(0, 99);
  const int w = side(rng), h = side(rng), d = density(rng);
  test_map t = lddb_test::empty_map(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (roll(rng) < d) t.set_blocked(x, y, true);
  return t;
}

// A random free cell, or a random usable vertex; nullopt-like {-1,-1} if there is none.
point random_cell(std::mt19937_64& rng, const test_map& t) {
  std::vector<point> free;
  for (int y = 0; y < t.grid.height(); ++y)
    for (int x = 0; x < t.grid.width(); ++x)
      if (!t.grid.blocked(x, y)) free.push_back({x, y});
  if (free.empty()) return {-1, -1};
  return free[std::uniform_int_distribution<std::size_t>(0, free.size() - 1)(rng)];
}
point random_vertex(std::mt19937_64& rng, const test_map& t) {
  std::vector<point> usable;
  for (int y = 0; y <= t.grid.height(); ++y)
    for (int x = 0; x <= t.grid.width(); ++x)
      if (oracle::vertex_ok(t.grid, point{x, y})) usable.push_back({x, y});
  if (usable.empty()) return {-1, -1};
  return usable[std::uniform_int_distribution<std::size_t>(0, usable.size() - 1)(rng)];
}

std::vector<rule> cell_rules() {
  return {rule::tile(), rule::octile(), rule::octile(lddb::corner_cutting::one_side_free),
          rule::octile(lddb::corner_cutting::forbidden, *lddb::parse_diagonal_cost("1.5")),
          rule::octile(lddb::corner_cutting::one_side_free, *lddb::parse_diagonal_cost("1.5")),
          rule::octile(lddb::corner_cutting::allowed)};
}

// The heuristics that are admissible for a cell rule.
std::vector<heuristic_kind> admissible(const rule& r) {
  std::vector<heuristic_kind> hs{heuristic_kind::zero, heuristic_kind::octile};
  if (r.kind == lddb::rule_kind::tile) hs.push_back(heuristic_kind::manhattan);
  if (r.kind == lddb::rule_kind::tile || r.diagonal >= lddb::euclid_cost(1, 1)) hs.push_back(heuristic_kind::euclidean);
  return hs;
}

double rule_length(const rule& r, const std::vector<point>& path) {
  double len = 0;
  for (std::size_t i = 1; i < path.size(); ++i)
    len += (path[i].x != path[i - 1].x && path[i].y != path[i - 1].y) ? oracle::diagonal_length(r) : 1.0;
  return len;
}

// ----------------------------------------------------------------------------- A*

TEST(AStarOracle, RandomMapsEveryRuleAndHeuristic) {
  std::mt19937_64 rng(20240611);
  search_context ctx;
  int queries = 0, found = 0, unreachable = 0;
  for (int m = 0; m < 120; ++m) {
    const test_map t = random_map(rng, 5, 40);
    for (const rule& r : cell_rules()) {
      for (int q = 0; q < 3; ++q) {
        const point s = random_cell(rng, t), g = random_cell(rng, t);
        if (s.x < 0) continue;
        const double best = oracle::least_cost(r, t.grid, s, g);
        const std::string where = "map " + std::to_string(m) + " rule " + oracle::rule_label(r) + " " + pt(s) + "->" +
                                  pt(g) + "\n" + t.describe();
        ++queries;
        lddb::cost_t first_cost = 0;
        bool have_first = false;
        for (heuristic_kind h : admissible(r)) {
          const search_result res = lddb::astar(r, t.map, s, g, search_options(h), ctx);
          const std::string what = where + " heuristic " + lddb::heuristic_name(h);
          if (best == oracle::kInf) {
            ASSERT_EQ(res.status, search_status::no_path) << what;
            EXPECT_TRUE(res.path.empty()) << what;
            EXPECT_FALSE(res.message.empty()) << what;
            continue;
          }
          ASSERT_EQ(res.status, search_status::found) << what << res.message;
          EXPECT_NEAR(lddb::cost_to_double(res.cost), best, kEps) << what;
          ASSERT_FALSE(res.path.empty()) << what;
          EXPECT_EQ(res.path.front(), s) << what;
          EXPECT_EQ(res.path.back(), g) << what;
          // Every cell is listed: each step is one unit move.
          for (std::size_t i = 1; i < res.path.size(); ++i)
            ASSERT_LE(std::max(std::abs(res.path[i].x - res.path[i - 1].x), std::abs(res.path[i].y - res.path[i - 1].y)), 1)
                << what;
          const oracle::path_report rep = oracle::check_path(r, t.grid, std::span<const point>(res.path));
          ASSERT_TRUE(rep.ok) << what << rep.why;
          EXPECT_NEAR(rep.length, best, kEps) << what;
          // length is the Euclidean length of the points (as for every search); with the
          // default diagonal that is the rule's length too.
          EXPECT_DOUBLE_EQ(res.length, lddb::path_length(res.path)) << what;
          if (r.diagonal == lddb::kSqrt2Cost) {
            EXPECT_NEAR(res.length, rule_length(r, res.path), 1e-9) << what;
          }
          if (!(s == g)) {
            EXPECT_GT(res.stats.expanded, 0u) << what;
          }
          EXPECT_GE(res.stats.heap_ops, res.stats.expanded);
          // Every admissible heuristic gives exactly the same fixed-point cost.
          if (!have_first) {
            first_cost = res.cost;
            have_first = true;
          } else {
            EXPECT_EQ(res.cost, first_cost) << what;
          }
        }
        if (best == oracle::kInf) ++unreachable;
        else ++found;
      }
    }
  }
  // The random maps must exercise both outcomes.
  EXPECT_GT(found, 1000);
  EXPECT_GT(unreachable, 20);
  std::printf("A*: %d queries, %d found, %d unreachable\n", queries, found, unreachable);
}

// A better heuristic expands no more cells than a weaker one on an open map.
TEST(AStarOracle, HeuristicsPruneOnOpenMap) {
  grid_map map(60, 60);
  search_context ctx;
  const point s{3, 5}, g{50, 41};
  const auto zero = lddb::astar(rule::octile(), map, s, g, search_options(heuristic_kind::zero), ctx);
  const auto oct = lddb::astar(rule::octile(), map, s, g, search_options(heuristic_kind::octile), ctx);
  ASSERT_TRUE(zero.found() && oct.found());
  EXPECT_EQ(zero.cost, oct.cost);
  EXPECT_LT(oct.stats.expanded, zero.stats.expanded / 10);
  // With the default tie-breaking (larger g first) octile A* on an empty map expands
  // only the path itself.
  EXPECT_EQ(oct.stats.expanded, oct.path.size());
}

// ----------------------------------------------------------------------------- any-angle

// Theta* finds the straight line when there is one, and turns at the corner otherwise.
TEST(ThetaOracle, HandWorked) {
  const test_map t = from_rows({
      "..........",
      "..........",
      "....@@....",
      "....@@....",
      "..........",
  });
  search_context ctx;
  const rule r = rule::any_angle();
  for (bool lazy : {false, true}) {
    const auto run = [&](point s, point g) {
      return lazy ? lddb::lazy_theta_star(r, t.map, s, g, search_options(heuristic_kind::euclidean), ctx)
                  : lddb::theta_star(r, t.map, s, g, search_options(heuristic_kind::euclidean), ctx);
    };
    const auto straight = run({0, 0}, {10, 1});
    ASSERT_TRUE(straight.found());
    EXPECT_EQ(straight.path, (std::vector<point>{{0, 0}, {10, 1}}));
    // From the left of the block to its right, at its middle height: pass a corner.
    const auto around = run({2, 3}, {8, 3});
    ASSERT_TRUE(around.found());
    ASSERT_EQ(around.path.size(), 4u) << lazy;
    EXPECT_NEAR(around.length, 2 * std::sqrt(5.0) + 2, 1e-12);
  }
}

// ----------------------------------------------------------------------------- smoothing

TEST(Smooth, CellsKeepMovesReturnTurningPoints) {
  std::mt19937_64 rng(5);
  search_context ctx;
  for (int m = 0; m < 100; ++m) {
    const test_map t = random_map(rng, 5, 40);
    for (const rule& r : cell_rules()) {
      const point s = random_cell(rng, t), g = random_cell(rng, t);
      if (s.x < 0) continue;
      const auto res = lddb::astar(r, t.map, s, g, search_options(lddb::default_heuristic(r)), ctx);
      if (!res.found()) continue;
      const std::vector<point> sm = lddb::smooth_path(r, t.map, res.path);
      const oracle::path_report full = oracle::check_path(r, t.grid, std::span<const point>(res.path));
      const oracle::path_report turns = oracle::check_path(r, t.grid, std::span<const point>(sm));
      ASSERT_TRUE(turns.ok) << turns.why;
      EXPECT_NEAR(turns.length, full.length, 1e-9);  // the same moves
      EXPECT_EQ(sm.front(), s);
      EXPECT_EQ(sm.back(), g);
      // Every kept interior point is a real turn, and every turn is kept.
      std::size_t turn_count = 0;
      auto dir = [](point a, point b) { return point{(b.x > a.x) - (b.x < a.x), (b.y > a.y) - (b.y < a.y)}; };
      for (std::size_t i = 1; i + 1 < res.path.size(); ++i)
        if (!(dir(res.path[i - 1], res.path[i]) == dir(res.path[i], res.path[i + 1]))) ++turn_count;
      EXPECT_EQ(sm.size(), res.path.size() == 1 ? 1 : turn_count + 2);
      for (std::size_t i = 1; i + 1 < sm.size(); ++i) EXPECT_FALSE(dir(sm[i - 1], sm[i]) == dir(sm[i], sm[i + 1]));
      // Turning points of turning points are the same.
      EXPECT_EQ(lddb::smooth_path(r, t.map, sm), sm);
    }
  }
}

TEST(Smooth, ShortInputsAndLength) {
  const grid_map map(4, 4);
  EXPECT_TRUE(lddb::smooth_path(rule::any_angle(), map, {}).empty());
  EXPECT_EQ(lddb::smooth_path(rule::any_angle(), map, {{1, 1}}), (std::vector<point>{{1, 1}}));
  EXPECT_EQ(lddb::smooth_path(rule::octile(), map, {{1, 1}, {1, 1}, {2, 2}}), (std::vector<point>{{1, 1}, {2, 2}}));
  EXPECT_EQ(lddb::smooth_path(rule::any_angle(), map, {{0, 0}, {1, 1}, {2, 2}, {4, 3}}),
            (std::vector<point>{{0, 0}, {4, 3}}));
  EXPECT_EQ(lddb::smooth_path(rule::octile(), map, {{0, 0}, {1, 1}, {2, 2}, {3, 2}}),
            (std::vector<point>{{0, 0}, {2, 2}, {3, 2}}));
  EXPECT_DOUBLE_EQ(lddb::path_length({}), 0.0);
  EXPECT_DOUBLE_EQ(lddb::path_length({{0, 0}}), 0.0);
  EXPECT_DOUBLE_EQ(lddb::path_length({{0, 0}, {3, 4}, {3, 0}}), 9.0);
}

// ----------------------------------------------------------------------------- edge cases

TEST(Edge, InvalidStartAndGoal) {
  const test_map t = from_rows({
      "..@.",
      "..@.",
      "@@@.",
  });
  search_context ctx;
  const search_options o(heuristic_kind::octile);
  auto expect = [](const search_result& res, search_status st, const std::string& needle) {
    EXPECT_EQ(res.status, st) << res.message;
    EXPECT_NE(res.message.find(needle), std::string::npos) << res.message;
    EXPECT_TRUE(res.path.empty());
    EXPECT_FALSE(res.found());
  };
  for (const rule& r : cell_rules()) {
    expect(lddb::astar(r, t.map, {-1, 0}, {0, 0}, o, ctx), search_status::invalid_start, "(-1,0)");
    expect(lddb::astar(r, t.map, {4, 0}, {0, 0}, o, ctx), search_status::invalid_start, "(4,0)");
    expect(lddb::astar(r, t.map, {2, 0}, {0, 0}, o, ctx), search_status::invalid_start, "(2,0) is blocked");
    expect(lddb::astar(r, t.map, {0, 0}, {0, 3}, o, ctx), search_status::invalid_goal, "(0,3)");
    expect(lddb::astar(r, t.map, {0, 0}, {1, 2}, o, ctx), search_status::invalid_goal, "(1,2) is blocked");
    // Start is checked first.
    expect(lddb::astar(r, t.map, {2, 2}, {9, 9}, o, ctx), search_status::invalid_start, "(2,2)");
    // Unreachable: the right column is cut off.
    const auto nop = lddb::astar(r, t.map, {0, 0}, {3, 2}, o, ctx);
    EXPECT_EQ(nop.status, search_status::no_path);
    EXPECT_NE(nop.message.find("(3,2)"), std::string::npos) << nop.message;
    EXPECT_EQ(nop.cost, lddb::kUnreachable);
    // start == goal
    const auto same = lddb::astar(r, t.map, {1, 1}, {1, 1}, o, ctx);
    ASSERT_TRUE(same.found());
    EXPECT_EQ(same.path, (std::vector<point>{{1, 1}}));
    EXPECT_EQ(same.cost, 0u);
    EXPECT_EQ(same.length, 0.0);
    // The wrong search for the rule.
    EXPECT_EQ(lddb::theta_star(r, t.map, {0, 0}, {1, 1}, o, ctx).status, search_status::rule_mismatch);
    EXPECT_EQ(lddb::lazy_theta_star(r, t.map, {0, 0}, {1, 1}, o, ctx).status, search_status::rule_mismatch);
  }
  EXPECT_EQ(lddb::astar(rule::any_angle(), t.map, {0, 0}, {1, 1}, o, ctx).status, search_status::rule_mismatch);

  // Vertices: 0..4 x 0..3; vertex (1,3) has cells (0,2),(1,2) blocked and (0,3),(1,3)
  // off the map: unusable. Vertex (2,3) likewise. Vertex (4,3) touches free cell (3,2).
  const search_options e(heuristic_kind::euclidean);
  for (const rule& r : {rule::any_angle(), rule::any_angle(lddb::squeezing::allowed)}) {
    for (bool lazy : {false, true}) {
      auto run = [&](point s, point g) {
        return lazy ? lddb::lazy_theta_star(r, t.map, s, g, e, ctx) : lddb::theta_star(r, t.map, s, g, e, ctx);
      };
      expect(run({5, 0}, {0, 0}), search_status::invalid_start, "(5,0)");
      expect(run({0, -1}, {0, 0}), search_status::invalid_start, "(0,-1)");
      expect(run({1, 3}, {0, 0}), search_status::invalid_start, "(1,3) is unusable");
      expect(run({0, 0}, {2, 3}), search_status::invalid_goal, "(2,3) is unusable");
      expect(run({0, 0}, {0, 4}), search_status::invalid_goal, "(0,4)");
      // (4,3) is usable and reachable along the right column, but not from the left,
      // behind the wall of column 2.
      const auto ok = run({4, 0}, {4, 3});
      ASSERT_TRUE(ok.found()) << ok.message;
      EXPECT_EQ(ok.path, (std::vector<point>{{4, 0}, {4, 3}}));
      const auto cut = run({0, 0}, {4, 3});
      EXPECT_EQ(cut.status, search_status::no_path) << cut.message;
      // Vertex (0,3) sits on the bottom-left corner of blocked (0,2): unusable.
      expect(run({0, 3}, {0, 0}), search_status::invalid_start, "(0,3)");
      const auto same = run({4, 3}, {4, 3});
      ASSERT_TRUE(same.found());
      EXPECT_EQ(same.path, (std::vector<point>{{4, 3}}));
      EXPECT_EQ(same.cost, 0u);
    }
  }
  // A region of vertices cut off: an island.
  const test_map island = from_rows({
      ".....",
      ".@@@.",
      ".@.@.",
      ".@@@.",
      ".....",
  });
  for (bool lazy : {false, true}) {
    const auto res = lazy ? lddb::lazy_theta_star(rule::any_angle(), island.map, {0, 0}, {2, 2}, e, ctx)
                          : lddb::theta_star(rule::any_angle(), island.map, {0, 0}, {2, 2}, e, ctx);
    // Vertex (2,2) touches free cell (2,2) inside the ring: usable, unreachable.
    EXPECT_EQ(res.status, search_status::no_path) << res.message;
  }
}

TEST(Edge, Names) {
  EXPECT_EQ(lddb::default_heuristic(rule::tile()), heuristic_kind::manhattan);
  EXPECT_EQ(lddb::default_heuristic(rule::octile()), heuristic_kind::octile);
  EXPECT_EQ(lddb::default_heuristic(rule::any_angle()), heuristic_kind::euclidean);
  EXPECT_STREQ(lddb::heuristic_name(heuristic_kind::zero), "zero");
  EXPECT_STREQ(lddb::heuristic_name(heuristic_kind::manhattan), "manhattan");
  EXPECT_STREQ(lddb::heuristic_name(heuristic_kind::octile), "octile");
  EXPECT_STREQ(lddb::heuristic_name(heuristic_kind::euclidean), "euclidean");
  EXPECT_STREQ(lddb::search_status_name(search_status::found), "found");
  EXPECT_STREQ(lddb::search_status_name(search_status::no_path), "no_path");
  EXPECT_STREQ(lddb::search_status_name(search_status::invalid_start), "invalid_start");
  EXPECT_STREQ(lddb::search_status_name(search_status::invalid_goal), "invalid_goal");
  EXPECT_STREQ(lddb::search_status_name(search_status::rule_mismatch), "rule_mismatch");
  EXPECT_STREQ(lddb::search_status_name(search_status::budget_exhausted), "budget_exhausted");
}

TEST(Edge, OneCellWideMaps) {
  search_context ctx;
  grid_map row(30, 1), col(1, 30);
  const auto a = lddb::astar(rule::octile(), row, {0, 0}, {29, 0}, search_options(heuristic_kind::octile), ctx);
  ASSERT_TRUE(a.found());
  EXPECT_EQ(a.path.size(), 30u);
  EXPECT_EQ(a.cost, 29 * lddb::kCostOne);
  const auto b = lddb::astar(rule::tile(), col, {0, 29}, {0, 0}, search_options(heuristic_kind::manhattan), ctx);
  ASSERT_TRUE(b.found());
  EXPECT_EQ(b.cost, 29 * lddb::kCostOne);
  const auto c = lddb::theta_star(rule::any_angle(), col, {0, 0}, {1, 30}, search_options(heuristic_kind::euclidean), ctx);
  ASSERT_TRUE(c.found());
  EXPECT_EQ(c.path, (std::vector<point>{{0, 0}, {1, 30}}));
  // Along the map's edge: the outside counts as blocked but the edge has a free cell.
  const auto d = lddb::lazy_theta_star(rule::any_angle(), col, {0, 0}, {0, 30}, search_options(heuristic_kind::euclidean), ctx);
  ASSERT_TRUE(d.found());
  EXPECT_EQ(d.path, (std::vector<point>{{0, 0}, {0, 30}}));
}

TEST(Edge, RecordExpanded) {
  std::mt19937_64 rng(8);
  const test_map t = random_map(rng, 30, 30);
  search_context ctx;
  search_options o(heuristic_kind::octile);
  o.diagnostics.record_expanded = true;
  const point s = random_cell(rng, t), g = random_cell(rng, t);
  const auto a = lddb::astar(rule::octile(), t.map, s, g, o, ctx);
  EXPECT_EQ(a.expanded.size(), a.stats.expanded);
  if (a.found()) {
    EXPECT_EQ(a.expanded.front(), s);
    EXPECT_EQ(a.expanded.back(), g);
  } else {  // start and goal in different components: answered before any expansion
    EXPECT_TRUE(a.expanded.empty());
  }
  search_options e(heuristic_kind::euclidean);
  e.diagnostics.record_expanded = true;
  const point vs = random_vertex(rng, t), vg = random_vertex(rng, t);
  const auto th = lddb::theta_star(rule::any_angle(), t.map, vs, vg, e, ctx);
  EXPECT_EQ(th.expanded.size(), th.stats.expanded);
  if (th.found()) {
    EXPECT_EQ(th.expanded.front(), vs);
  } else {
    EXPECT_TRUE(th.expanded.empty());
  }
  // Not recorded unless asked.
  EXPECT_TRUE(lddb::astar(rule::octile(), t.map, s, g, search_options(heuristic_kind::octile), ctx).expanded.empty());
}

// Every admissible heuristic gives an optimal legal path; an inadmissible one is refused
// (it would give longer paths), whatever the weight.
TEST(Heuristics, AdmissibleKindsGiveOptimalPathsOthersAreRefused) {
  std::mt19937_64 rng(2718);
  search_context ctx;
  const heuristic_kind all[] = {heuristic_kind::zero, heuristic_kind::manhattan, heuristic_kind::octile,
                                heuristic_kind::euclidean};
  for (int m = 0; m < 40; ++m) {
    const test_map t = random_map(rng, 5, 25);
    const point s = random_cell(rng, t), g = random_cell(rng, t);
    if (s.x < 0) continue;
    for (const rule& r : cell_rules()) {
      const double best = oracle::least_cost(r, t.grid, s, g);
      for (heuristic_kind h : all) {
        const auto res = lddb::astar(r, t.map, s, g, search_options(h), ctx);
        const auto& hs = admissible(r);
        if (std::find(hs.begin(), hs.end(), h) == hs.end()) {
          EXPECT_EQ(res.status, lddb::search_status::invalid_option) << r.name() << " " << lddb::heuristic_name(h);
          continue;
        }
        ASSERT_EQ(res.found(), best != oracle::kInf);
        if (!res.found()) continue;
        const oracle::path_report rep = oracle::check_path(r, t.grid, std::span<const point>(res.path));
        ASSERT_TRUE(rep.ok) << rep.why;
        EXPECT_NEAR(lddb::cost_to_double(res.cost), rep.length, kEps);  // the cost is the path's own
        EXPECT_NEAR(rep.length, best, kEps);
      }
    }
  }
}

// The map may change between queries: a warm context must not remember old cells.
TEST(WarmContext, MapChangesBetweenQueries) {
  std::mt19937_64 rng(1618);
  test_map t = random_map(rng, 30, 30);
  search_context ctx;
  std::uniform_int_distribution<int> cx(0, t.grid.width() - 1), cy(0, t.grid.height() - 1);
  for (int step = 0; step < 150; ++step) {
    // Toggle a few cells.
    for (int k = 0; k < 3; ++k) {
      const int x = cx(rng), y = cy(rng);
      t.set_blocked(x, y, !t.grid.blocked(x, y));
    }
    const point s = random_cell(rng, t), g = random_cell(rng, t);
    if (s.x < 0) continue;
    const rule r = step % 2 ? rule::octile() : rule::tile();
    const auto res = lddb::astar(r, t.map, s, g, search_options(lddb::default_heuristic(r)), ctx);
    const double best = oracle::least_cost(r, t.grid, s, g);
    ASSERT_EQ(res.found(), best != oracle::kInf) << step;
    if (res.found()) {
      EXPECT_NEAR(lddb::cost_to_double(res.cost), best, kEps) << step;
    }
  }
}

// ----------------------------------------------------------------------------- determinism, memory

TEST(Determinism, SameQuerySamePath) {
  std::mt19937_64 rng(31337);
  search_context a, b;
  for (int m = 0; m < 20; ++m) {
    const test_map t = random_map(rng, 20, 60);
    for (int q = 0; q < 5; ++q) {
      const point s = random_cell(rng, t), g = random_cell(rng, t);
      if (s.x < 0) continue;
      for (const rule& r : cell_rules()) {
        const auto x = lddb::astar(r, t.map, s, g, search_options(lddb::default_heuristic(r)), a);
        const auto y = lddb::astar(r, t.map, s, g, search_options(lddb::default_heuristic(r)), a);
        const auto z = lddb::astar(r, t.map, s, g, search_options(lddb::default_heuristic(r)), b);
        EXPECT_EQ(x.path, y.path);
        EXPECT_EQ(x.path, z.path);
        EXPECT_EQ(x.cost, z.cost);
        EXPECT_EQ(x.stats.expanded, z.stats.expanded);
        EXPECT_EQ(x.stats.heap_ops, y.stats.heap_ops);
      }
      const point vs = random_vertex(rng, t), vg = random_vertex(rng, t);
      for (bool lazy : {false, true}) {
        auto run = [&](search_context& c) {
          return lazy ? lddb::lazy_theta_star(rule::any_angle(), t.map, vs, vg, search_options(heuristic_kind::euclidean), c)
                      : lddb::theta_star(rule::any_angle(), t.map, vs, vg, search_options(heuristic_kind::euclidean), c);
        };
        const auto x = run(a), y = run(a), z = run(b);
        EXPECT_EQ(x.path, y.path);
        EXPECT_EQ(x.path, z.path);
        EXPECT_EQ(x.stats.los_checks, z.stats.los_checks);
      }
    }
  }
}

TEST(WarmContext, DoesNotGrow) {
  std::mt19937_64 rng(12);
  test_map t{grid_map(128, 96), oracle::grid(128, 96)};
  std::uniform_int_distribution<int> roll(0, 99);
  for (int y = 0; y < 96; ++y)
    for (int x = 0; x < 128; ++x)
      if (roll(rng) < 25) t.map.set_blocked(x, y, true);
  search_context ctx;
  const std::size_t cold = ctx.memory_bytes();
  auto round = [&](std::uint64_t seed) {
    std::mt19937_64 q(seed);
    std::uniform_int_distribution<int> xs(0, 127), ys(0, 95);
    for (int i = 0; i < 40; ++i) {
      point s{xs(q), ys(q)}, g{xs(q), ys(q)};
      if (t.map.blocked(s.x, s.y) || t.map.blocked(g.x, g.y)) continue;
      (void)lddb::astar(rule::octile(), t.map, s, g, search_options(heuristic_kind::octile), ctx);
      (void)lddb::astar(rule::tile(), t.map, s, g, search_options(heuristic_kind::zero), ctx);
      (void)lddb::theta_star(rule::any_angle(), t.map, s, g, search_options(heuristic_kind::euclidean), ctx);
      (void)lddb::lazy_theta_star(rule::any_angle(), t.map, s, g, search_options(heuristic_kind::euclidean), ctx);
    }
  };
  for (std::uint64_t seed = 1; seed <= 3; ++seed) round(seed);
  const std::size_t warm = ctx.memory_bytes();
  EXPECT_GT(warm, cold);
  // Records for every vertex of the map, and not much more than that.
  EXPECT_LT(warm, 129u * 97u * 64u);
  for (int again = 0; again < 3; ++again)
    for (std::uint64_t seed = 1; seed <= 3; ++seed) round(seed);
  EXPECT_EQ(ctx.memory_bytes(), warm);
  // A smaller map reuses the same arrays.
  const grid_map small(20, 20);
  (void)lddb::astar(rule::octile(), small, {0, 0}, {19, 19}, search_options(heuristic_kind::zero), ctx);
  EXPECT_EQ(ctx.memory_bytes(), warm);
}

// ----------------------------------------------------------------------------- scenario file

TEST(Scenario, Den520dFirst200OctileAStar) {
  const std::string dir = (lddb_test::benchmark_maps_dir() / "dao").string() + "/";
  for (const char* name : {"den520d.map", "den520d.map.scen"})
    if (!std::filesystem::exists(dir + name)) LDDB_MAPS_MISSING("missing " << dir << name);
  std::string error;
  const auto map = lddb::load_map(dir + "den520d.map", &error);
  ASSERT_TRUE(map) << error;
  const auto scen = lddb::load_scenario(dir + "den520d.map.scen", &error);
  ASSERT_TRUE(scen) << error;
  ASSERT_GE(scen->queries.size(), 200u);
  search_context ctx;
  for (std::size_t i = 0; i < 200; ++i) {
    const auto& q = scen->queries[i];
    ASSERT_EQ(q.map_width, map->width());
    ASSERT_EQ(q.map_height, map->height());
    const auto res = lddb::astar(rule::octile(), *map, q.start, q.goal, search_options(heuristic_kind::octile), ctx);
    ASSERT_TRUE(res.found()) << "line " << q.line << ": " << res.message;
    EXPECT_NEAR(res.length, q.optimal, 1e-4) << "line " << q.line;
    EXPECT_NEAR(lddb::cost_to_double(res.cost), q.optimal, 1e-4) << "line " << q.line;
  }
}

}  // namespace
