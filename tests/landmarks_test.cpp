// landmarks_test: differential heuristics (lddb/landmarks.hpp) and the searches that use
// them (search_options::landmarks).
//
//   Bound.CellRulesAgainstOracle   every cell rule, generated maps: lower_bound(a, b) never
//                                  exceeds the oracle's least cost; for tile it equals it
//                                  from a landmark (the table is exact there)
//   Bound.ConsistentAlongMoves     |h(p) - h(q)| <= the cost of every legal move p -> q, for
//                                  32-bit and 16-bit tables (saturated ones too)
//   Bound.AnyAngleAgainstOracle    both any-angle rules, small maps: the bound never exceeds
//                                  the exact shortest any-angle path (the oracle's
//                                  visibility graph), which holds the cos(pi/8) argument
//   Search.SameCostsFewerNodes     A* and Block A* (fixed blocks and open squares) with landmarks:
//                                  tile and octile costs equal the oracle's optimum, Block
//                                  A*'s any-angle costs equal its own without landmarks,
//                                  every path passes the checker; mazes expand fewer nodes
//   Changes.BlockingKeepsOptimal   cells blocked after the build: the set stays current and
//                                  every search stays optimal
//   Changes.FreeingMakesStale      a cell freed: the set is stale, its raw bound would now
//                                  overestimate, the searches ignore it (still optimal),
//                                  and a rebuilt set is current and optimal again
//   Builder.SlicesEqualOneGo       slices of any size build the same tables as build(), in
//                                  32 and 16 bits
//   Builder.WorkerThread           a builder on another thread while the game's thread
//                                  searches its map (also under TSan, scripts/sanitize.sh)
//   Refused.BadInput               counts out of range, a fully blocked map, a set for
//                                  another rule (invalid_option with both rule names)
//   Cli.Landmarks                  solve, bench and render with --landmarks: the same
//                                  lengths with fewer expansions; bad values are usage errors
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cli_support.hpp"
#include "lddb/checker.hpp"
#include "lddb/format.hpp"
#include "lddb/generator.hpp"
#include "lddb/grid.hpp"
#include "lddb/landmarks.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/moves.hpp"
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
using lddb::point;
using lddb::rule;
using lddb::search_options;
using lddb::search_result;

double units(cost_t c) { return lddb::cost_to_double(c); }
constexpr double kEps = 1e-6;

// The cell rules of the search tests (tile and every octile variant).
std::vector<rule> cell_rules() {
  std::vector<rule> out;
  for (const rule& r : lddb_test::search_rules())
    if (!r.on_vertices()) out.push_back(r);
  return out;
}

using lddb_test::db_for;

grid_map generated_map(int i, int w, int h) {
  const std::uint64_t seed = static_cast<std::uint64_t>(i) * 7919 + 11;
  switch (i % 3) {
    case 0: return lddb::make_random_map(w, h, 10 + (i * 7) % 30, seed);
    case 1: return lddb::make_rooms_map(w, h, 3 + i % 6, seed);
    default: return lddb::make_maze_map(w, h, 1 + i % 2, seed);
  }
}

bool has_two_free(const grid_map& m) {
  return m.blocked_count() + 2 <= static_cast<std::uint64_t>(m.width()) * static_cast<std::uint64_t>(m.height());
}

TEST(Bound, CellRulesAgainstOracle) {
  int checked = 0;
  for (int i = 0; i < 24; ++i) {
    const grid_map map = generated_map(i, 17 + i % 5, 13 + i % 7);
    if (!has_two_free(map)) continue;
    const oracle::grid og = lddb_test::to_oracle(map);
    for (const rule& r : cell_rules()) {
      const landmark_set set = landmark_set::build(r, map, 1 + i % 4, i % 2 ? lddb::landmark_placement::random
                                                                              : lddb::landmark_placement::farthest, 5 + i);
      ASSERT_TRUE(set.current_for(map));
      lddb_test::rng g{static_cast<std::uint64_t>(i) * 13 + 1};
      for (int q = 0; q < 12; ++q) {
        const point a = lddb_test::random_free_cell(g, map), b = lddb_test::random_free_cell(g, map);
        const double exact = oracle::least_cost(r, og, a, b);
        const double bound = units(set.lower_bound(a, b));
        if (std::isfinite(exact)) {
          EXPECT_LE(bound, exact + kEps) << r.name() << " map " << i << " " << a.x << "," << a.y;
        }
        ++checked;
      }
      if (r == rule::tile())  // exact from the landmark itself
        for (int q = 0; q < 6; ++q) {
          const point b = lddb_test::random_free_cell(g, map);
          const double exact = oracle::least_cost(r, og, set.points()[0], b);
          if (std::isfinite(exact)) {
            EXPECT_NEAR(units(set.lower_bound(set.points()[0], b)), exact, kEps);
          }
        }
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(Bound, ConsistentAlongMoves) {
  for (int i = 0; i < 9; ++i) {
    const grid_map map = generated_map(i, 40, 33);
    if (!has_two_free(map)) continue;
    lddb_test::rng g{static_cast<std::uint64_t>(i) + 99};
    for (const rule& r : cell_rules()) {
      std::vector<landmark_set> sets = lddb_test::narrow_sets(r, map, 4, 1);  // 16 bits, saturated too
      sets.push_back(landmark_set::build(r, map, 4));
      for (const landmark_set& set : sets) {
        const point goal = lddb_test::random_free_cell(g, map);
        for (int y = 0; y < map.height(); ++y)
          for (int x = 0; x < map.width(); ++x) {
            if (map.blocked(x, y)) continue;
            const cost_t hp = set.lower_bound({x, y}, goal);
            for (const auto& s : lddb::kSteps) {
              if (!lddb::step_legal(r, map, x, y, s[0], s[1])) continue;
              const cost_t hq = set.lower_bound({x + s[0], y + s[1]}, goal);
              ASSERT_LE(hp > hq ? hp - hq : hq - hp, lddb::step_cost(r, s[0], s[1]))
                  << r.name() << (set.width() == lddb::landmark_width::bits16 ? " 16-bit" : "") << " at " << x << "," << y;
            }
          }
      }
    }
  }
}

TEST(Bound, AnyAngleAgainstOracle) {
  int checked = 0;
  for (int i = 0; i < 30; ++i) {
    const grid_map map = generated_map(i, 9 + i % 4, 8 + i % 3);
    if (!has_two_free(map)) continue;
    const oracle::grid og = lddb_test::to_oracle(map);
    lddb_test::rng g{static_cast<std::uint64_t>(i) * 5 + 3};
    for (const rule& r : {rule::any_angle(), rule::any_angle(lddb::squeezing::allowed)}) {
      const landmark_set set = landmark_set::build(r, map, 2 + i % 3);
      for (int q = 0; q < 8; ++q) {
        const point a = lddb_test::random_free_cell(g, map), b = lddb_test::random_free_cell(g, map);
        const double exact = oracle::least_cost(r, og, a, b);
        if (!std::isfinite(exact)) continue;
        EXPECT_LE(units(set.lower_bound(a, b)), exact + kEps) << r.name() << " map " << i;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 200);
}

// Every search of a rule with and without the set: the same cost (the oracle's optimum for
// cell rules), a path the checker accepts. Returns the expansions with and without.
struct expansions {
  std::uint64_t with = 0, without = 0;
};
void compare_searches(const rule& r, const grid_map& map, const landmark_set* set, point s, point t, expansions& e,
                      const std::string& where) {
  lddb::search_context ctx;
  search_options plain(lddb::default_heuristic(r)), with = plain;
  with.landmarks = set;
  const oracle::grid og = lddb_test::to_oracle(map);
  const double optimum = r.on_vertices() ? 0 : oracle::least_cost(r, og, s, t);
  auto check = [&](const search_result& a, const search_result& b, const char* what) {
    ASSERT_EQ(a.status, b.status) << where << " " << what << ": " << b.message;
    if (!a.found()) return;
    EXPECT_EQ(a.cost, b.cost) << where << " " << what;
    if (!r.on_vertices()) {
      EXPECT_NEAR(units(b.cost), optimum, 1e-6) << where << " " << what;
    }
    const lddb::check_result rep = lddb::check_path(r, map, s, t, b.path);
    EXPECT_TRUE(rep.valid) << where << " " << what << ": " << rep.error;
    e.with += b.stats.expanded;
    e.without += a.stats.expanded;
  };
  const lddb::database& db = db_for(r);  // the caller gave the map its block size
  check(lddb::find_path(db, map, s, t, plain, ctx), lddb::find_path(db, map, s, t, with, ctx), "block-astar");
  // Every lever together: open squares (the default for any-angle) and landmarks.
  search_options squares = plain, both = with;
  squares.diagnostics.open_squares = both.diagnostics.open_squares = !r.on_vertices();
  check(lddb::find_path(db, map, s, t, squares, ctx), lddb::find_path(db, map, s, t, both, ctx),
        r.on_vertices() ? "block-astar fixed blocks" : "block-astar open squares");
  if (!r.on_vertices()) check(lddb::astar(r, map, s, t, plain, ctx), lddb::astar(r, map, s, t, with, ctx), "astar");
}

TEST(Search, SameCostsFewerNodes) {
  std::map<std::string, expansions> by_rule;
  for (int i = 0; i < 18; ++i) {
    for (const rule& r : {rule::tile(), rule::octile(), rule::octile(lddb::corner_cutting::allowed), rule::any_angle(),
                          rule::any_angle(lddb::squeezing::allowed)}) {
      grid_map map = generated_map(i, 48 + i, 40 + i % 5);
      if (!has_two_free(map)) continue;
      map.set_block_size(db_for(r).info().block);
      const landmark_set set = landmark_set::build(r, map, 6);
      lddb_test::rng g{static_cast<std::uint64_t>(i) * 17 + 5};
      for (int q = 0; q < 6; ++q) {
        const point s = lddb_test::random_free_cell(g, map), t = lddb_test::random_free_cell(g, map);
        compare_searches(r, map, &set, s, t, by_rule[r.name() + (i % 3 == 2 ? " maze" : "")],
                         r.name() + " map " + std::to_string(i));
      }
    }
  }
  for (const auto& [name, e] : by_rule)
    if (name.ends_with(" maze")) {
      EXPECT_LT(e.with, e.without) << name << ": landmarks should cut expansions on mazes";
    }
}

TEST(Changes, BlockingKeepsOptimal) {
  lddb_test::rng g{77};
  for (int i = 0; i < 12; ++i) {
    const rule r = i % 2 ? rule::octile() : rule::tile();
    grid_map map = generated_map(i, 44, 36);
    map.set_block_size(db_for(r).info().block);
    const landmark_set set = landmark_set::build(r, map, 4);
    expansions e;
    for (int round = 0; round < 5; ++round) {
      for (int k = 0; k < 30; ++k) {
        const point c{g.below(map.width()), g.below(map.height())};
        map.set_blocked(c.x, c.y, true);
      }
      ASSERT_TRUE(set.current_for(map)) << "blocking keeps the tables lower bounds";
      if (!has_two_free(map)) break;
      const point s = lddb_test::random_free_cell(g, map), t = lddb_test::random_free_cell(g, map);
      compare_searches(r, map, &set, s, t, e, r.name() + " changed map " + std::to_string(i));
    }
  }
}

TEST(Changes, FreeingMakesStale) {
  // A wall with one door: open a second door beside the landmark's far side.
  lddb_test::test_map t = lddb_test::from_rows({
      "..........@..........",
      "..........@..........",
      "..........@..........",
      "..........@..........",
      "..........@..........",
      "..........@..........",
      ".....................",
  });
  grid_map& map = t.map;
  for (const rule& r : {rule::tile(), rule::octile()}) {
    map.set_block_size(db_for(r).info().block);
    landmark_set set = landmark_set::build(r, map, 3);
    const point a{9, 0}, b{11, 0};
    const cost_t before = set.lower_bound(a, b);
    map.set_blocked(10, 0, false);  // the short way round
    EXPECT_FALSE(set.current_for(map));
    const double now = oracle::least_cost(r, lddb_test::to_oracle(map), a, b);
    EXPECT_GT(units(before), now + kEps) << r.name() << ": a stale table overestimates, so it must be set aside";
    expansions e;
    compare_searches(r, map, &set, a, b, e, r.name() + " stale");
    set = landmark_set::build(r, map, 3);  // the refresh
    EXPECT_TRUE(set.current_for(map));
    EXPECT_LE(units(set.lower_bound(a, b)), now + kEps);
    compare_searches(r, map, &set, a, b, e, r.name() + " refreshed");
    map.set_blocked(10, 0, true);
  }
}

TEST(Builder, SlicesEqualOneGo) {
  for (int i = 0; i < 6; ++i) {
    const grid_map map = generated_map(i, 70, 50);
    for (const rule& r : {rule::tile(), rule::octile(), rule::any_angle()}) {
      for (auto placement : {lddb::landmark_placement::farthest, lddb::landmark_placement::random}) {
        const auto width = (i + static_cast<int>(placement)) % 2 ? lddb::landmark_width::bits16 : lddb::landmark_width::bits32;
        const landmark_set whole = landmark_set::build(r, map, 5, placement, 9, width);
        lddb::landmark_builder b(r, map, 5, placement, 9, width);
        int slices = 0;
        while (!b.step(static_cast<std::uint64_t>(1 + i * 97))) ++slices;
        EXPECT_GT(slices, 5);
        const landmark_set sliced = b.take();
        ASSERT_EQ(sliced.points(), whole.points()) << r.name();
        ASSERT_EQ(sliced.unit_cost(), whole.unit_cost()) << r.name();
        lddb_test::rng g{static_cast<std::uint64_t>(i) + 1};
        for (int q = 0; q < 200; ++q) {
          const point p = lddb_test::random_free_cell(g, map), s = lddb_test::random_free_cell(g, map);
          ASSERT_EQ(sliced.lower_bound(p, s), whole.lower_bound(p, s));
        }
      }
    }
  }
}

TEST(Builder, WorkerThread) {
  const rule r = rule::octile();
  grid_map map = lddb::make_rooms_map(96, 72, 9, 3);  // small: this test also runs under TSan
  map.set_block_size(db_for(r).info().block);
  landmark_set current = landmark_set::build(r, map, 4);
  map.set_blocked(0, 0, !map.blocked(0, 0));
  map.set_blocked(0, 0, !map.blocked(0, 0));  // one of the two flips freed a cell
  ASSERT_FALSE(current.current_for(map));
  lddb::landmark_builder builder(r, map, 4);  // a snapshot of the map as it is now
  std::thread worker([&builder] { builder.step(~std::uint64_t{0}); });
  lddb_test::rng g{5};
  expansions e;
  for (int q = 0; q < 10; ++q) {  // the game goes on meanwhile: stale set, safe heuristic
    const point s = lddb_test::random_free_cell(g, map), t = lddb_test::random_free_cell(g, map);
    compare_searches(r, map, &current, s, t, e, "during the rebuild");
  }
  worker.join();
  ASSERT_TRUE(builder.done());
  current = builder.take();
  EXPECT_TRUE(current.current_for(map));
  for (int q = 0; q < 10; ++q) {
    const point s = lddb_test::random_free_cell(g, map), t = lddb_test::random_free_cell(g, map);
    compare_searches(r, map, &current, s, t, e, "after the rebuild");
  }
}

TEST(Refused, BadInput) {
  const grid_map map(20, 20, 4);
  EXPECT_THROW(landmark_set::build(rule::tile(), map, 0), std::invalid_argument);
  EXPECT_THROW(landmark_set::build(rule::tile(), map, landmark_set::kMaxLandmarks + 1), std::invalid_argument);
  grid_map full(3, 3, 2);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) full.set_blocked(x, y, true);
  EXPECT_THROW(landmark_set::build(rule::tile(), full, 2), std::invalid_argument);
  const landmark_set set = landmark_set::build(rule::tile(), map, 2);
  search_options o(lddb::heuristic_kind::octile);
  o.landmarks = &set;
  lddb::search_context ctx;
  const search_result a = lddb::astar(rule::octile(), map, {0, 0}, {5, 5}, o, ctx);
  EXPECT_EQ(a.status, lddb::search_status::invalid_option);
  EXPECT_NE(a.message.find("tile"), std::string::npos) << a.message;
  EXPECT_NE(a.message.find("octile"), std::string::npos) << a.message;
  const search_result b = lddb::find_path(db_for(rule::octile()), map, {0, 0}, {5, 5}, o, ctx);
  EXPECT_EQ(b.status, lddb::search_status::invalid_option) << b.message;
  EXPECT_THROW(lddb::landmark_builder(rule::tile(), map, 2).take(), std::logic_error);
  EXPECT_EQ(lddb::parse_landmark_placement("farthest"), lddb::landmark_placement::farthest);
  EXPECT_EQ(lddb::parse_landmark_placement("random"), lddb::landmark_placement::random);
  EXPECT_FALSE(lddb::parse_landmark_placement("middle"));
}

// A maze with a scenario of its own queries: the search commands with and without landmarks.
TEST(Cli, Landmarks) {
  const auto dir = cli_support::fresh_scratch_dir("landmarks_test");
  const grid_map maze = lddb::make_maze_map(48, 40, 1, 7);
  std::string rows = "type octile\nheight 40\nwidth 48\nmap\n";
  for (int y = 0; y < 40; ++y) {
    for (int x = 0; x < 48; ++x) rows += maze.blocked(x, y) ? '@' : '.';
    rows += "\n";
  }
  cli_support::write_file(dir / "m.map", rows);
  std::string scen = "version 1\n";
  lddb_test::rng g{3};
  lddb::search_context ctx;
  for (int q = 0; q < 20; ++q) {
    const point s = lddb_test::random_free_cell(g, maze), t = lddb_test::random_free_cell(g, maze);
    const search_result r = lddb::astar(rule::octile(), maze, s, t, search_options(lddb::heuristic_kind::octile), ctx);
    char line[160];
    std::snprintf(line, sizeof line, "0\tm.map\t48\t40\t%d\t%d\t%d\t%d\t%.8f\n", s.x, s.y, t.x, t.y, r.length);
    scen += line;
  }
  cli_support::write_file(dir / "m.map.scen", scen);
  const std::string env = "LDDB_DATA_DIR=" + cli_support::quote(std::string(LDDB_SOURCE_DIR) + "/lddb");
  // bench checks every length against the scenario's optima: exit 0 means all optimal.
  auto mean_expanded = [&](const std::string& extra) {
    const auto r = cli_support::run_in(dir, "bench --scen " + cli_support::quote(dir / "m.map.scen") + " " + extra, env);
    EXPECT_EQ(r.status, 0) << r.all();
    const std::size_t at = r.out.find("\nall ");
    EXPECT_NE(at, std::string::npos) << r.out;
    double fields[6] = {};
    std::sscanf(r.out.c_str() + at + 5, "%lf %lf %lf %lf %lf", &fields[0], &fields[1], &fields[2], &fields[3], &fields[4]);
    return std::pair<double, std::string>(fields[4], r.out);
  };
  for (const char* algo : {"block-astar", "astar"}) {
    const auto plain = mean_expanded(std::string("--algo ") + algo);
    const auto with = mean_expanded(std::string("--algo ") + algo + " --landmarks 4 --landmark-placement random");
    EXPECT_LT(with.first, plain.first) << with.second;
    EXPECT_NE(with.second.find("up to 4 landmarks (random)"), std::string::npos) << with.second;
  }
  const std::string map = "--map " + cli_support::quote(dir / "m.map");
  const point s = lddb_test::random_free_cell(g, maze), t = lddb_test::random_free_cell(g, maze);
  const std::string ends = " --from " + std::to_string(s.x) + "," + std::to_string(s.y) + " --to " + std::to_string(t.x) +
                           "," + std::to_string(t.y);
  auto r = cli_support::run_in(dir, "solve " + map + ends + " --landmarks 3 --json", env);
  ASSERT_EQ(r.status, 0) << r.all();
  EXPECT_NE(r.out.find("\"landmarks\": 3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"valid\": true"), std::string::npos) << r.out;
  r = cli_support::run_in(dir, "render " + map + ends + " --landmarks 2 --out " + cli_support::quote(dir / "m.svg"), env);
  ASSERT_EQ(r.status, 0) << r.all();
  EXPECT_NE(r.out.find("2 of 2 landmarks"), std::string::npos) << r.out;
  for (const char* bad : {"--landmarks 33", "--landmarks -1", "--landmarks x", "--landmark-placement middle"}) {
    r = cli_support::run_in(dir, "solve " + map + ends + " " + bad, env);
    EXPECT_EQ(r.status, 2) << bad << ": " << r.all();
    EXPECT_NE(r.err.find("--landmark"), std::string::npos) << r.all();
  }
}

}  // namespace
