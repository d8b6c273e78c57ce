// defaults_test: what `search_options opt;` gives, and what the searches refuse.
//
//   Admissible   heuristic_admissible against the rules' least costs in open space
//                (the oracle's own searches, on an empty map), for every rule and kind
//   Refusal      every search (Block A*, sliced, batch, A*, Theta*, Lazy Theta*) refuses
//                an inadmissible heuristic with invalid_option, also above weight 1, with a
//                message naming the heuristic, the rule and the fix
//   Default      an unset heuristic answers exactly as default_heuristic set explicitly
//   Smoothing    the default any-angle path is smoothed: legal by the independent checker,
//                never longer than the raw one, its cost the sum of its own segments; cell
//                paths keep every cell unless smoothing is asked for
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lddb/batch.hpp"
#include "lddb/checker.hpp"
#include "lddb/cost.hpp"
#include "lddb/grid.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/rule.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "oracle.hpp"
#include "test_db.hpp"
#include "test_map.hpp"
#include "test_rng.hpp"

namespace {

using lddb::grid_map;
using lddb::heuristic_kind;
using lddb::point;
using lddb::rule;
using lddb::search_context;
using lddb::search_options;
using lddb::search_result;
using lddb::search_status;

constexpr heuristic_kind kAll[] = {heuristic_kind::zero, heuristic_kind::manhattan, heuristic_kind::octile,
                                   heuristic_kind::euclidean};

// The search rules and the octile diagonals at the ends of their range.
std::vector<rule> rules_with_extremes() {
  std::vector<rule> rs = lddb_test::search_rules();
  rs.push_back(rule::octile(lddb::corner_cutting::forbidden, lddb::kMinDiagonalCost));
  rs.push_back(rule::octile(lddb::corner_cutting::forbidden, lddb::kMaxDiagonalCost));
  return rs;
}

// The heuristic's estimate, written from its definition in search.hpp, in units of length.
double estimate(heuristic_kind h, const rule& r, point a, point b) {
  const double dx = std::abs(a.x - b.x), dy = std::abs(a.y - b.y);
  const double diag = r.kind == lddb::rule_kind::octile ? lddb::cost_to_double(r.diagonal) : std::sqrt(2.0);
  switch (h) {
    case heuristic_kind::zero: return 0;
    case heuristic_kind::manhattan: return dx + dy;
    case heuristic_kind::octile: return std::min(dx, dy) * diag + std::abs(dx - dy);
    case heuristic_kind::euclidean: return std::sqrt(dx * dx + dy * dy);
  }
  return 0;
}

// Admissible exactly when no estimate exceeds the least cost between two points of an
// empty map (where every heuristic is tightest), by the oracle's own Dijkstra.
TEST(Admissible, AgreesWithOpenSpaceCosts) {
  constexpr int kSide = 7;
  const oracle::grid g(kSide, kSide);
  for (const rule& r : rules_with_extremes()) {
    const int n = r.on_vertices() ? kSide + 1 : kSide;
    bool over[4] = {false, false, false, false};
    const point from{0, 0};
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const double best = oracle::least_cost(r, g, kSide, kSide, from, point{x, y});
        ASSERT_TRUE(std::isfinite(best)) << r.name();
        for (int k = 0; k < 4; ++k) over[k] = over[k] || estimate(kAll[k], r, from, point{x, y}) > best + 1e-9;
      }
    for (int k = 0; k < 4; ++k)
      EXPECT_EQ(lddb::heuristic_admissible(kAll[k], r), !over[k]) << r.name() << " " << lddb::heuristic_name(kAll[k]);
    EXPECT_TRUE(lddb::heuristic_admissible(lddb::default_heuristic(r), r)) << r.name();
  }
}

// Every search a rule has, one query, with the given options.
struct named_search {
  std::string name;
  search_result result;
};
std::vector<named_search> every_search(const rule& r, const grid_map& map, point s, point t, const search_options& o,
                                       search_context& ctx) {
  const lddb::database& db = lddb_test::db_for(r);
  std::vector<named_search> out;
  out.push_back({"block_astar", lddb::find_path(db, map, s, t, o, ctx)});
  search_result sliced = lddb::block_astar_begin(db, map, s, t, o, ctx);
  while (sliced.status == search_status::in_progress) sliced = lddb::block_astar_continue(ctx, 2);
  out.push_back({"block_astar_begin/continue", sliced});
  lddb::batch_solver solver(2);
  const lddb::query q[2] = {{s, t}, {t, s}};
  std::vector<search_result> batch(2);
  solver.solve(db, map, q, o, batch);
  out.push_back({"batch_solver::solve", batch[0]});
  if (r.on_vertices()) {
    out.push_back({"theta_star", lddb::theta_star(r, map, s, t, o, ctx)});
    out.push_back({"lazy_theta_star", lddb::lazy_theta_star(r, map, s, t, o, ctx)});
  } else {
    out.push_back({"astar", lddb::astar(r, map, s, t, o, ctx)});
  }
  return out;
}

TEST(Refusal, EveryInadmissibleHeuristicEverySearch) {
  search_context ctx;
  int refused = 0;
  for (const rule& r : lddb_test::search_rules()) {
    grid_map map(24, 20, lddb_test::db_for(r).info().block);
    const point s{1, 1}, t{20, 17};
    for (heuristic_kind h : kAll) {
      for (double w : {1.0, 2.0}) {
        search_options o(h);
        o.weight = w;
        for (const named_search& n : every_search(r, map, s, t, o, ctx)) {
          const std::string at = r.name() + " " + lddb::heuristic_name(h) + " weight " + std::to_string(w) + " " + n.name;
          if (lddb::heuristic_admissible(h, r)) {
            EXPECT_EQ(n.result.status, search_status::found) << at << ": " << n.result.message;
            continue;
          }
          ++refused;
          EXPECT_EQ(n.result.status, search_status::invalid_option) << at;
          EXPECT_TRUE(n.result.path.empty()) << at;
          const std::string& m = n.result.message;
          EXPECT_NE(m.find(std::string("heuristic ") + lddb::heuristic_name(h)), std::string::npos) << at << ": " << m;
          EXPECT_NE(m.find("rule " + r.name()), std::string::npos) << at << ": " << m;
          EXPECT_NE(m.find(std::string("unset for the rule's own (") + lddb::heuristic_name(lddb::default_heuristic(r))),
                    std::string::npos)
              << at << ": " << m;
        }
      }
    }
  }
  // tile: none; octile (4 variants, diagonal sqrt 2 or 1.5, both >= sqrt 2): manhattan;
  // any-angle (2): manhattan and octile. Five searches each (four for the cell rules), two
  // weights.
  EXPECT_EQ(refused, 2 * (4 * 4 + 2 * 2 * 5));
}

// Generated maps (random, rooms, maze), several queries each.
std::vector<grid_map> generated_maps(int block) {
  return {lddb::make_random_map(61, 47, 28, 11, block), lddb::make_rooms_map(70, 52, 7, 12, block),
          lddb::make_maze_map(53, 41, 2, 13, block)};
}

bool same_answer(const search_result& a, const search_result& b) {
  return a.status == b.status && a.path == b.path && a.cost == b.cost && a.length == b.length &&
         a.lower_bound == b.lower_bound && a.stats.expanded == b.stats.expanded &&
         a.stats.generated == b.stats.generated && a.stats.heap_ops == b.stats.heap_ops &&
         a.stats.los_checks == b.stats.los_checks;
}

TEST(Default, EqualsTheRulesOwnHeuristic) {
  search_context ctx;
  int compared = 0, found = 0;
  for (const rule& r : lddb_test::search_rules()) {
    for (grid_map& map : generated_maps(lddb_test::db_for(r).info().block)) {
      lddb_test::rng g{static_cast<std::uint64_t>(map.width()) * 977 + static_cast<std::uint64_t>(r.kind)};
      for (int q = 0; q < 6; ++q) {
        const point s = lddb_test::random_free_cell(g, map), t = lddb_test::random_free_cell(g, map);
        search_options unset;
        unset.max_expansions = q == 5 ? 9 : 0;  // one capped query: the partial paths agree too
        search_options given(lddb::default_heuristic(r));
        given.max_expansions = unset.max_expansions;
        const auto a = every_search(r, map, s, t, unset, ctx), b = every_search(r, map, s, t, given, ctx);
        ASSERT_EQ(a.size(), b.size());
        for (std::size_t k = 0; k < a.size(); ++k) {
          EXPECT_TRUE(same_answer(a[k].result, b[k].result)) << r.name() << " " << a[k].name << " " << q;
          ++compared;
          found += a[k].result.found();
        }
      }
    }
  }
  EXPECT_GT(compared, 500);
  EXPECT_GT(found, compared / 2);
}

// The rule's cost of an any-angle waypoint list, segment by segment.
lddb::cost_t segments_cost(const std::vector<point>& p) {
  lddb::cost_t c = 0;
  for (std::size_t k = 1; k < p.size(); ++k) c += lddb::euclid_cost(p[k].x - p[k - 1].x, p[k].y - p[k - 1].y);
  return c;
}

TEST(Smoothing, AnyAngleByDefault) {
  search_context ctx;
  int smoothed = 0, shorter = 0, fewer = 0;
  for (const rule& r : {rule::any_angle(), rule::any_angle(lddb::squeezing::allowed)}) {
    for (grid_map& map : generated_maps(lddb_test::db_for(r).info().block)) {
      lddb_test::rng g{static_cast<std::uint64_t>(map.height()) * 131 + static_cast<std::uint64_t>(r.squeeze)};
      for (int q = 0; q < 12; ++q) {
        const point s = lddb_test::random_free_cell(g, map), t = lddb_test::random_free_cell(g, map);
        search_options raw_options;
        raw_options.smooth = false;
        for (std::uint64_t budget : {std::uint64_t{0}, std::uint64_t{6}}) {
          search_options def;
          def.max_expansions = budget;
          raw_options.max_expansions = budget;
          const auto smooth = every_search(r, map, s, t, def, ctx), raw = every_search(r, map, s, t, raw_options, ctx);
          for (std::size_t k = 0; k < smooth.size(); ++k) {
            const search_result &a = smooth[k].result, &b = raw[k].result;
            const std::string at = r.name() + " " + smooth[k].name + " " + lddb::checker::point_text(s) + "->" +
                                   lddb::checker::point_text(t) + " budget " + std::to_string(budget);
            ASSERT_EQ(a.status, b.status) << at;
            if (a.status != search_status::found && a.status != search_status::budget_exhausted) continue;
            ++smoothed;
            const point end = b.path.back();  // the goal, or the partial path's end
            const lddb::check_result c = lddb::check_path(r, map, s, end, a.path);
            ASSERT_TRUE(c.valid) << at << ": " << c.error;
            EXPECT_LE(a.length, b.length + 1e-9) << at;
            // Pulled tight: every turn is at a corner of a blocked cell (one of the vertex's
            // four cells, the map's edge counting as blocked).
            for (std::size_t w = 1; w + 1 < a.path.size(); ++w) {
              const point v = a.path[w];
              EXPECT_TRUE(map.blocked(v.x - 1, v.y - 1) || map.blocked(v.x, v.y - 1) || map.blocked(v.x - 1, v.y) ||
                          map.blocked(v.x, v.y))
                  << at << ": turns in the open at " << lddb::checker::point_text(v);
            }
            EXPECT_NEAR(a.length, c.length, 1e-9 * (1 + c.length)) << at;
            EXPECT_EQ(a.cost, segments_cost(a.path)) << at;  // the cost is the returned path's own
            EXPECT_NEAR(lddb::cost_to_double(a.cost), a.length, 1e-8 * static_cast<double>(a.path.size())) << at;
            EXPECT_EQ(a.path, lddb::smooth_path(r, map, b.path)) << at;
            EXPECT_GE(a.stats.los_checks, b.stats.los_checks) << at;
            EXPECT_EQ(a.stats.expanded, b.stats.expanded) << at;
            shorter += a.length < b.length - 1e-9;
            fewer += a.path.size() < b.path.size();
          }
        }
      }
    }
  }
  EXPECT_GT(smoothed, 300);
  EXPECT_GT(fewer, smoothed / 4);  // the raw Block A* paths have needless waypoints
  EXPECT_GT(shorter, 0);
}

// Cell paths list every cell unless smoothing is asked for; smoothed, they keep their moves
// (straight or 45-degree runs) and so their cost.
TEST(Smoothing, CellsOnRequest) {
  search_context ctx;
  int checked = 0;
  for (const rule& r : lddb_test::search_rules()) {
    if (r.on_vertices()) continue;
    for (grid_map& map : generated_maps(lddb_test::db_for(r).info().block)) {
      lddb_test::rng g{static_cast<std::uint64_t>(map.width()) * 7 + static_cast<std::uint64_t>(r.corners)};
      for (int q = 0; q < 6; ++q) {
        const point s = lddb_test::random_free_cell(g, map), t = lddb_test::random_free_cell(g, map);
        search_options on, off;
        on.smooth = true;
        off.smooth = false;
        const auto def = every_search(r, map, s, t, search_options{}, ctx), raw = every_search(r, map, s, t, off, ctx),
                   turned = every_search(r, map, s, t, on, ctx);
        for (std::size_t k = 0; k < def.size(); ++k) {
          const std::string at = r.name() + " " + def[k].name;
          EXPECT_TRUE(same_answer(def[k].result, raw[k].result)) << at;
          const search_result& a = turned[k].result;
          if (!a.found()) continue;
          ++checked;
          const lddb::check_result c = lddb::check_path(r, map, s, t, a.path, lddb::cell_steps::runs);
          ASSERT_TRUE(c.valid) << at << ": " << c.error;
          EXPECT_EQ(a.cost, raw[k].result.cost) << at;
          EXPECT_NEAR(lddb::cost_to_double(a.cost), c.length, 1e-9 * (1 + c.length)) << at;
          EXPECT_NEAR(a.length, raw[k].result.length, 1e-9 * (1 + a.length)) << at;
          EXPECT_EQ(a.path, lddb::smooth_path(r, map, raw[k].result.path)) << at;
        }
      }
    }
  }
  EXPECT_GT(checked, 100);
}

}  // namespace
