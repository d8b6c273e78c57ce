// weighted_test: bounded-suboptimal search, search_options::weight (g + weight * h), in
// every search: Block A* (open squares and fixed blocks), A*, jump point search (tile and
// octile with corners forbidden), Theta*, Lazy Theta*.
//
//   Bound.GeneratedMaps   120 generated maps (random, rooms, mazes), every rule, every
//                         search, weights 1, 1.2, 1.5, 2, 4: the same status as at weight 1,
//                         a path the independent checker accepts, its cost at most weight x
//                         the cost at weight 1 and, for tile and octile, at most weight x
//                         the oracle's optimum (tests/oracle.hpp)
//   Bound.OpenGround      an empty map: larger weights expand no more nodes there (a
//                         reported figure; only the bound is asserted)
//   Refused.BadWeights    below 1, above 16, NaN, infinite: invalid_option with a message
//                         naming the weight, from every search and from sliced Block A*
//   Sliced.SameAsOneShot  sliced Block A* with a weight answers as the one-shot call
//   Budget.NoLowerBound   a weighted search stopped by its budget claims no lower bound
//   Cli.Weight            lddb solve --weight, and a bad --weight as a usage error
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "lddb/checker.hpp"
#include "lddb/cost.hpp"
#include "lddb/format.hpp"
#include "lddb/generator.hpp"
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

using lddb::cost_t;
using lddb::grid_map;
using lddb::point;
using lddb::rule;
using lddb::search_context;
using lddb::search_options;
using lddb::search_result;
using lddb::search_status;

// A weight as a fraction, so that the bound is checked in exact integers.
struct weight {
  std::uint64_t num, den;
  double value() const { return static_cast<double>(num) / static_cast<double>(den); }
  std::string text() const { return std::to_string(value()).substr(0, 4); }
};
constexpr weight kWeights[] = {{1, 1}, {6, 5}, {3, 2}, {2, 1}, {4, 1}};

// cost <= w x base, exactly.
bool within(cost_t cost, weight w, cost_t base) {
  __extension__ using wide = unsigned __int128;
  return wide{cost} * w.den <= wide{base} * w.num;
}

constexpr int kShown = 10;
class failures {
 public:
  void add(const std::string& msg) {
    if (count_++ < kShown) ADD_FAILURE() << msg;
  }
  ~failures() {
    if (count_ > kShown) ADD_FAILURE() << count_ << " failures in total; the first " << kShown << " are shown";
  }

 private:
  int count_ = 0;
};

using lddb_test::db_for;

// One search of one query.
enum class algo { block_astar, block_fixed, astar, jump, theta, lazy_theta };
const char* algo_name(algo a) {
  switch (a) {
    case algo::block_astar: return "block-astar";
    case algo::block_fixed: return "block-astar fixed blocks";
    case algo::astar: return "astar";
    case algo::jump: return "jump-point-search";
    case algo::theta: return "theta";
    case algo::lazy_theta: return "lazy-theta";
  }
  return "?";
}
std::vector<algo> algos_for(const rule& r) {
  if (r.on_vertices()) return {algo::block_astar, algo::block_fixed, algo::theta, algo::lazy_theta};
  if (lddb::jump_point_search_supports(r)) return {algo::block_astar, algo::astar, algo::jump};
  return {algo::block_astar, algo::astar};
}

search_result run(algo a, const rule& r, const grid_map& map, point s, point g, search_options opt, search_context& ctx) {
  switch (a) {
    case algo::block_astar: return lddb::find_path(db_for(r), map, s, g, opt, ctx);
    case algo::block_fixed: opt.diagnostics.open_squares = false; return lddb::find_path(db_for(r), map, s, g, opt, ctx);
    case algo::astar: return lddb::astar(r, map, s, g, opt, ctx);
    case algo::jump: return lddb::jump_point_search(r, map, s, g, opt, ctx);
    case algo::theta: return lddb::theta_star(r, map, s, g, opt, ctx);
    case algo::lazy_theta: return lddb::lazy_theta_star(r, map, s, g, opt, ctx);
  }
  return {};
}

// The searches' own paths: the bound is on them, not on the smoothed ones a game gets by
// default (smoothing can shorten the path at weight 1 more than at weight w).
search_options options_for(const rule& r, double w) {
  search_options o(lddb::default_heuristic(r));
  o.weight = w;
  o.smooth = false;
  return o;
}

using lddb_test::to_oracle;

constexpr int kSides[] = {37, 53, 101, 67, 25, 43, 59, 71, 79, 47, 31, 61, 85, 97, 19, 13, 113, 23, 29, 41};

// Generated map i: random (0..45% obstacles), rooms or maze, by i % 3.
grid_map generated_map(int i, std::string& name) {
  lddb_test::rng g{static_cast<std::uint64_t>(i) + 4242};
  const int n = static_cast<int>(std::size(kSides));
  const int w = kSides[g.below(n)], h = kSides[g.below(n)];
  const std::uint64_t seed = static_cast<std::uint64_t>(i) * 7919 + 5;
  const std::string dims = std::to_string(w) + "," + std::to_string(h) + ",";
  switch (i % 3) {
    case 0: {
      const int percent = g.below(46);
      name = "make_random_map(" + dims + std::to_string(percent) + "," + std::to_string(seed) + ")";
      return lddb::make_random_map(w, h, percent, seed);
    }
    case 1: {
      const int room = 3 + g.below(8);
      name = "make_rooms_map(" + dims + std::to_string(room) + "," + std::to_string(seed) + ")";
      return lddb::make_rooms_map(w, h, room, seed);
    }
    default: {
      const int corridor = 1 + g.below(3);
      name = "make_maze_map(" + dims + std::to_string(corridor) + "," + std::to_string(seed) + ")";
      return lddb::make_maze_map(w, h, corridor, seed);
    }
  }
}

TEST(Bound, GeneratedMaps) {
  failures fail;
  search_context ctx;
  int checked = 0, found = 0;
  for (int i = 0; i < 120; ++i) {
    std::string name;
    grid_map map = generated_map(i, name);
    if (map.blocked_count() + 2 > static_cast<std::uint64_t>(map.width()) * static_cast<std::uint64_t>(map.height()))
      continue;
    const oracle::grid og = to_oracle(map);
    lddb_test::rng g{static_cast<std::uint64_t>(i) * 31 + 7};
    std::vector<std::pair<point, point>> queries;
    for (int q = 0; q < 3; ++q) queries.push_back({lddb_test::random_free_cell(g, map), lddb_test::random_free_cell(g, map)});
    for (const rule& r : lddb_test::search_rules()) {
      map.set_block_size(db_for(r).info().block);
      for (const auto& [s, t] : queries) {
        // Tile and octile: the optimum by the oracle's own Dijkstra.
        const double optimum = r.on_vertices() ? 0 : oracle::least_cost(r, og, s, t);
        for (algo a : algos_for(r)) {
          const std::string where = name + " rule " + r.name() + " " + algo_name(a) + " " + lddb::checker::point_text(s) +
                                    "->" + lddb::checker::point_text(t);
          const search_result base = run(a, r, map, s, t, options_for(r, 1), ctx);
          if (!r.on_vertices() && base.found() != std::isfinite(optimum))
            fail.add(where + ": weight 1 says " + lddb::search_status_name(base.status) + " against the oracle");
          for (const weight w : kWeights) {
            const std::string at = where + " weight " + w.text();
            const search_result res = run(a, r, map, s, t, options_for(r, w.value()), ctx);
            ++checked;
            if (res.status != base.status) {
              fail.add(at + ": status " + lddb::search_status_name(res.status) + ", at weight 1 " +
                       lddb::search_status_name(base.status));
              continue;
            }
            if (!res.found()) continue;
            ++found;
            const lddb::check_result c = lddb::check_path(r, map, s, t, res.path);
            if (!c.valid) fail.add(at + ": invalid path: " + c.error);
            if (!within(res.cost, w, base.cost))
              fail.add(at + ": cost " + std::to_string(lddb::cost_to_double(res.cost)) + " > weight x " +
                       std::to_string(lddb::cost_to_double(base.cost)) + " (the cost at weight 1)");
            if (!r.on_vertices()) {
              const double cost = lddb::cost_to_double(res.cost);
              if (cost > w.value() * optimum + 1e-9 * std::max(1.0, optimum))
                fail.add(at + ": cost " + std::to_string(cost) + " > weight x the optimum " + std::to_string(optimum));
            }
            // The cost reported is the returned path's: the rule's exactly for cells and
            // Theta*; any-angle Block A* adds stored lengths, each within 2^-12 of the
            // segment's (of length 1 or more).
            const double cost = lddb::cost_to_double(res.cost);
            const double slack = r.on_vertices() && (a == algo::block_astar || a == algo::block_fixed) ? 2.5e-4 : 1e-9;
            if (c.valid && std::abs(c.length - cost) > slack * std::max(1.0, cost))
              fail.add(at + ": reported cost " + std::to_string(cost) + " but the path costs " + std::to_string(c.length));
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 20000);
  EXPECT_GT(found, checked / 2);
}

// On open ground the weight saves expansions; the figures are reported, not asserted (a
// weighted search may expand more on some maps), but the bound holds.
TEST(Bound, OpenGround) {
  failures fail;
  search_context ctx;
  for (const rule& r : lddb_test::search_rules()) {
    grid_map map(120, 90, db_for(r).info().block);
    for (int k = 0; k < 30; ++k) map.set_blocked(20 + 3 * k, 10 + 2 * k, true);  // a few scattered posts
    const point s{1, 88}, t{118, 2};
    for (algo a : algos_for(r)) {
      std::string line = r.name() + " " + algo_name(a) + ": expanded";
      const search_result base = run(a, r, map, s, t, options_for(r, 1), ctx);
      ASSERT_TRUE(base.found()) << line;
      for (const weight w : kWeights) {
        const search_result res = run(a, r, map, s, t, options_for(r, w.value()), ctx);
        ASSERT_TRUE(res.found()) << line;
        if (!within(res.cost, w, base.cost)) fail.add(line + " weight " + w.text() + ": over the bound");
        if (!lddb::check_path(r, map, s, t, res.path).valid) fail.add(line + " weight " + w.text() + ": invalid path");
        line += " " + std::to_string(res.stats.expanded) + " (w " + w.text() + ")";
      }
      std::printf("%s\n", line.c_str());
    }
  }
}

TEST(Refused, BadWeights) {
  search_context ctx;
  const double bad[] = {0.5, 0.999, 0, -1, 16.001, 1e9, std::numeric_limits<double>::quiet_NaN(),
                        std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (const rule& r : lddb_test::search_rules()) {
    grid_map map(20, 20, db_for(r).info().block);
    const point s{1, 1}, t{18, 17};
    for (algo a : algos_for(r)) {
      for (double w : bad) {
        const search_result res = run(a, r, map, s, t, options_for(r, w), ctx);
        EXPECT_EQ(res.status, search_status::invalid_option) << algo_name(a) << " weight " << w;
        EXPECT_NE(res.message.find("weight"), std::string::npos) << res.message;
        EXPECT_NE(res.message.find("from 1 to 16"), std::string::npos) << res.message;
        EXPECT_TRUE(res.path.empty());
      }
      // The same query with start == goal is refused too: the weight is checked first.
      EXPECT_EQ(run(a, r, map, s, s, options_for(r, 0.5), ctx).status, search_status::invalid_option);
      for (double w : {1.0, 1.0001, 16.0})
        EXPECT_TRUE(run(a, r, map, s, t, options_for(r, w), ctx).found()) << algo_name(a) << " weight " << w;
    }
    const search_result begun = lddb::block_astar_begin(db_for(r), map, s, t, options_for(r, 17), ctx);
    EXPECT_EQ(begun.status, search_status::invalid_option);
  }
  EXPECT_STREQ(lddb::search_status_name(search_status::invalid_option), "invalid_option");
}

TEST(Sliced, SameAsOneShot) {
  search_context ctx, sliced_ctx;
  for (const rule& r : lddb_test::search_rules()) {
    std::string name;
    grid_map map = generated_map(4, name);  // a rooms map
    map.set_block_size(db_for(r).info().block);
    lddb_test::rng g{99};
    for (int q = 0; q < 5; ++q) {
      const point s = lddb_test::random_free_cell(g, map), t = lddb_test::random_free_cell(g, map);
      const search_options opt = options_for(r, 1.5);
      const search_result one = lddb::find_path(db_for(r), map, s, t, opt, ctx);
      search_result part = lddb::block_astar_begin(db_for(r), map, s, t, opt, sliced_ctx);
      while (part.status == search_status::in_progress) part = lddb::block_astar_continue(sliced_ctx, 3);
      EXPECT_EQ(part.status, one.status) << r.name();
      EXPECT_EQ(part.cost, one.cost) << r.name();
      EXPECT_EQ(part.path, one.path) << r.name();
      EXPECT_EQ(part.stats.expanded, one.stats.expanded) << r.name();
    }
  }
}

TEST(Budget, NoLowerBound) {
  search_context ctx;
  for (const rule& r : lddb_test::search_rules()) {
    grid_map map(100, 100, db_for(r).info().block);
    for (algo a : algos_for(r)) {
      if (a == algo::jump) continue;  // it crosses an open map in fewer jump points than the budget
      search_options opt = options_for(r, 2);
      opt.max_expansions = 3;
      const search_result res = run(a, r, map, {1, 1}, {98, 97}, opt, ctx);
      ASSERT_EQ(res.status, search_status::budget_exhausted) << algo_name(a);
      EXPECT_EQ(res.lower_bound, 0u) << algo_name(a);
      EXPECT_FALSE(res.path.empty()) << algo_name(a);
      opt.weight = 1;
      EXPECT_GT(run(a, r, map, {1, 1}, {98, 97}, opt, ctx).lower_bound, 0u) << algo_name(a);
    }
  }
}

TEST(Cli, Weight) {
  const auto dir = cli_support::fresh_scratch_dir("weighted_test");
  std::string rows = "type octile\nheight 12\nwidth 20\nmap\n";
  for (int y = 0; y < 12; ++y) rows += std::string(20, y == 5 ? '@' : '.').replace(19, 1, ".") + "\n";
  cli_support::write_file(dir / "m.map", rows);
  const std::string map = "--map " + cli_support::quote(dir / "m.map");
  const std::string env = "LDDB_DATA_DIR=" + cli_support::quote(std::string(LDDB_SOURCE_DIR) + "/lddb");
  for (const char* algo : {"block-astar", "astar"}) {
    const auto r = cli_support::run_in(dir, "solve " + map + " --from 0,0 --to 0,11 --weight 2 --json --algo " + algo, env);
    ASSERT_EQ(r.status, 0) << r.all();
    EXPECT_NE(r.out.find("\"weight\": 2.0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"valid\": true"), std::string::npos) << r.out;
  }
  for (const char* w : {"0.5", "17", "nan", "inf", "x", "1.5x"}) {
    const auto r = cli_support::run_in(dir, "solve " + map + " --from 0,0 --to 0,11 --weight " + w, env);
    EXPECT_EQ(r.status, 2) << w << ": " << r.all();
    EXPECT_NE(r.err.find("--weight"), std::string::npos) << r.all();
  }
}

}  // namespace
