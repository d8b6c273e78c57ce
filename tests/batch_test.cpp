// batch_solver (lddb/batch.hpp): a batch answers every query exactly as block_astar does on
// one thread, whatever the thread count, call after call on the same solver.
//
// Oracle: each query solved beforehand on the main thread with a fresh search_context and
// the plain block_astar call; every field of every result (status, message, cost, lower
// bound, length, the whole path, the statistics) must be identical. Found paths are also
// checked by the independent checker (lddb/checker.hpp). Databases: the shipped tile,
// octile and any-angle ones (lddb/*-4.lddb); maps: generated with fixed seeds (random,
// rooms, maze), with queries between random free cells, so some have no path.
//
// `lddb bench --threads N` (which runs its queries through a batch_solver) writes the same
// CSV rows (but the times), the same paths and the same summary (but the times) for 1, 2
// and 3 threads, over two scenario files on two maps and several batches.
//
// The rest: an empty batch, a batch mixing invalid queries (blocked start, off-map goal,
// a negative point, start == goal, a map of the wrong block size) with valid ones, a
// wrong result count, for_each's contract (each index once, a worker's own context), and
// exceptions thrown in a task, on the calling thread or on a worker thread, reaching the
// caller with the solver still usable afterwards.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <sstream>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cli_support.hpp"
#include "lddb/batch.hpp"
#include "lddb/checker.hpp"
#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "test_rng.hpp"

namespace {

using lddb::batch_solver;
using lddb::grid_map;
using lddb::point;
using lddb::query;
using lddb::search_result;
using lddb::search_status;

using lddb_test::random_free_cell;
using lddb_test::rng;

std::shared_ptr<const lddb::database> open_shipped(const std::string& rule_name) {
  const std::string file = std::string(LDDB_SOURCE_DIR) + "/lddb/" + rule_name + "-4.lddb";
  const auto r = lddb::database::open(file);
  if (!r) ADD_FAILURE() << "cannot open the shipped database " << file << ": " << r.message;
  return r.db;
}

const auto pt = lddb::checker::point_text;  // "(x,y)" in messages

std::vector<query> random_queries(const grid_map& map, int n, std::uint64_t seed) {
  rng g{seed};
  std::vector<query> qs;
  for (int k = 0; k < n; ++k) qs.push_back({random_free_cell(g, map), random_free_cell(g, map)});
  return qs;
}

struct named_map {
  std::string name;  // the generator call, so a failure can be rebuilt
  grid_map map;
};

std::vector<named_map> test_maps() {
  std::vector<named_map> maps;
  maps.push_back({"make_random_map(80, 72, 30, 11)", lddb::make_random_map(80, 72, 30, 11)});
  maps.push_back({"make_rooms_map(96, 96, 10, 5)", lddb::make_rooms_map(96, 96, 10, 5)});
  maps.push_back({"make_maze_map(61, 67, 2, 3)", lddb::make_maze_map(61, 67, 2, 3)});
  return maps;
}

// Every field of a result, or the first that differs.
std::string difference(const search_result& got, const search_result& want) {
  auto path_text = [](const std::vector<point>& p) {
    std::string s;
    for (std::size_t k = 0; k < p.size() && k < 12; ++k) s += pt(p[k]);
    return s + (p.size() > 12 ? "... (" + std::to_string(p.size()) + " points)" : "");
  };
  if (got.status != want.status)
    return std::string("status ") + lddb::search_status_name(got.status) + ", want " +
           lddb::search_status_name(want.status);
  if (got.message != want.message) return "message '" + got.message + "', want '" + want.message + "'";
  if (got.cost != want.cost) return "cost " + std::to_string(got.cost) + ", want " + std::to_string(want.cost);
  if (got.lower_bound != want.lower_bound) return "lower bound differs";
  if (got.length != want.length) return "length " + std::to_string(got.length) + ", want " + std::to_string(want.length);
  if (got.path != want.path) return "path " + path_text(got.path) + ", want " + path_text(want.path);
  if (got.stats.expanded != want.stats.expanded || got.stats.generated != want.stats.generated ||
      got.stats.heap_ops != want.stats.heap_ops || got.stats.los_checks != want.stats.los_checks)
    return "statistics differ (expanded " + std::to_string(got.stats.expanded) + ", want " +
           std::to_string(want.stats.expanded) + ")";
  if (got.expanded != want.expanded) return "recorded expansions differ";
  return {};
}

// The oracle: one fresh context, the plain call, in order.
std::vector<search_result> solve_alone(const lddb::database& db, const grid_map& map, const std::vector<query>& qs,
                                       const lddb::search_options& opt) {
  lddb::search_context ctx;
  std::vector<search_result> out;
  for (const query& q : qs) out.push_back(lddb::find_path(db, map, q.start, q.goal, opt, ctx));
  return out;
}

// Compares a batch's results with the oracle's; returns the number of differences.
int expect_same(const std::vector<search_result>& got, const std::vector<search_result>& want,
                const std::vector<query>& qs, const std::string& what) {
  EXPECT_EQ(got.size(), want.size()) << what;
  int bad = 0;
  for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
    const std::string d = difference(got[i], want[i]);
    if (d.empty()) continue;
    if (++bad <= 5)
      ADD_FAILURE() << what << ", query " << i << " " << pt(qs[i].start) << " -> " << pt(qs[i].goal) << ": " << d;
  }
  return bad;
}

class batch : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (const char* name : {"tile", "octile", "any-angle"}) dbs_.push_back(open_shipped(name));
  }
  static void TearDownTestSuite() { dbs_.clear(); }
  static std::vector<std::shared_ptr<const lddb::database>> dbs_;
};
std::vector<std::shared_ptr<const lddb::database>> batch::dbs_;

// ----------------------------------------------------------------------------- results

// For each rule and map: 1, 2 and 3 threads give the oracle's results, on the first call
// and on two more calls on the same solver reusing the same results (whose vectors then
// hold earlier answers and must be overwritten, not appended to).
TEST_F(batch, EveryThreadCountGivesTheSingleThreadResults) {
  const std::vector<named_map> maps = test_maps();
  std::uint64_t seed = 100;
  int found = 0, not_found = 0;
  for (const auto& db : dbs_) {
    ASSERT_TRUE(db);
    const lddb::rule r = db->movement();
    lddb::search_options opt(lddb::default_heuristic(r));
    opt.expected_rule = r;
    for (const named_map& nm : maps) {
      const std::vector<query> qs = random_queries(nm.map, 120, ++seed);
      const std::vector<search_result> want = solve_alone(*db, nm.map, qs, opt);
      for (std::size_t i = 0; i < want.size(); ++i) {
        if (!want[i].found()) {
          ++not_found;
          continue;
        }
        ++found;
        const lddb::check_result c = lddb::check_path(r, nm.map, qs[i].start, qs[i].goal, want[i].path);
        EXPECT_TRUE(c.valid) << r.name() << " on " << nm.name << ", query " << i << ": " << c.error;
      }
      for (unsigned threads : {1u, 2u, 3u}) {
        batch_solver solver(threads);
        ASSERT_EQ(solver.threads(), threads);
        std::vector<search_result> got(qs.size());
        for (int call = 1; call <= 3; ++call) {
          solver.solve(*db, nm.map, qs, opt, got);
          const std::string what = r.name() + " on " + nm.name + ", " + std::to_string(threads) +
                                   " thread(s), call " + std::to_string(call);
          ASSERT_EQ(expect_same(got, want, qs, what), 0) << what;
        }
      }
    }
  }
  // The maps must give both kinds of answer, or the test proves less than it says.
  EXPECT_GT(found, 500);
  EXPECT_GT(not_found, 10);
}

// One solver serves every rule and map in turn (its contexts switch between them) and
// still gives the oracle's results, with the queries in another order each time.
TEST_F(batch, OneSolverServesEveryRuleAndMapInTurn) {
  const std::vector<named_map> maps = test_maps();
  batch_solver solver(2);
  for (int round = 0; round < 2; ++round)
    for (std::size_t m = 0; m < maps.size(); ++m)
      for (std::size_t d = 0; d < dbs_.size(); ++d) {
        const auto& db = dbs_[(d + m + static_cast<std::size_t>(round)) % dbs_.size()];
        ASSERT_TRUE(db);
        const grid_map& map = maps[m].map;
        lddb::search_options opt(lddb::default_heuristic(db->movement()));
        std::vector<query> qs = random_queries(map, 60, 1000 + m * 7 + d);
        if (round == 1) std::reverse(qs.begin(), qs.end());
        const std::vector<search_result> want = solve_alone(*db, map, qs, opt);
        std::vector<search_result> got(qs.size());
        solver.solve(*db, map, qs, opt, got);
        EXPECT_EQ(expect_same(got, want, qs, db->movement().name() + " on " + maps[m].name), 0);
      }
}

// record_expanded and a budget are passed through to every query.
TEST_F(batch, OptionsReachEveryQuery) {
  const named_map nm{"make_rooms_map(96, 96, 10, 5)", lddb::make_rooms_map(96, 96, 10, 5)};
  const auto& db = dbs_[2];
  ASSERT_TRUE(db);
  lddb::search_options opt(lddb::heuristic_kind::euclidean);
  opt.diagnostics.record_expanded = true;
  opt.max_expansions = 20;
  const std::vector<query> qs = random_queries(nm.map, 80, 77);
  const std::vector<search_result> want = solve_alone(*db, nm.map, qs, opt);
  int budget = 0;
  for (const search_result& w : want) budget += w.status == search_status::budget_exhausted;
  EXPECT_GT(budget, 10);  // the budget did cut queries short
  batch_solver solver(3);
  std::vector<search_result> got(qs.size());
  solver.solve(*db, nm.map, qs, opt, got);
  EXPECT_EQ(expect_same(got, want, qs, "any-angle, record_expanded, max_expansions 20"), 0);
  for (const search_result& g : got) EXPECT_FALSE(g.expanded.empty());
}

// Queries of units of several sizes and classes in one batch: each answers as
// block_astar with its unit, alone, and the workers build the units' views of one fresh
// map at once (under ThreadSanitizer, scripts/sanitize.sh, this is the race check of
// grid_map::view).
TEST_F(batch, EachQueryItsOwnUnit) {
  for (std::size_t r = 0; r < dbs_.size(); ++r) {
    const auto& db = dbs_[r];
    ASSERT_TRUE(db);
    grid_map map = lddb::make_rooms_map(96, 96, 10, 5);
    for (int y = 40; y < 56; ++y)
      for (int x = 40; x < 56; ++x)
        if (!map.blocked(x, y)) map.set_terrain(x, y, 'W');  // a pond
    std::vector<query> qs = random_queries(map, 120, 91 + r);
    const lddb::movement_class classes[] = {lddb::movement_class::ground(), lddb::movement_class::of(".GSW")};
    for (std::size_t i = 0; i < qs.size(); ++i)
      if (i % 4 != 0) qs[i].unit = lddb::unit{static_cast<int>(i % 3) + 1, classes[i % 2]};
    std::vector<search_result> want;
    {
      grid_map alone = map;  // a copy: its own views, built one at a time
      lddb::search_context ctx;
      for (const query& q : qs) {
        lddb::search_options o;
        if (q.unit) o.unit = *q.unit;
        want.push_back(lddb::find_path(*db, alone, q.start, q.goal, o, ctx));
      }
    }
    batch_solver solver(3);
    std::vector<search_result> got(qs.size());
    solver.solve(*db, map, qs, lddb::search_options{}, got);
    EXPECT_EQ(expect_same(got, want, qs, db->movement().name() + " with a unit per query"), 0);
    EXPECT_GE(map.view_count(), 4u);
  }
}

// ----------------------------------------------------------------------------- edge cases

// Where a change split the map past what its component labels follow (they are coarse:
// lddb/grid.hpp, same_component), a query to the other side walks its own side; none of
// them makes the labels exact for the next. So every thread count, and the queries in
// reverse order, give each query the same result, its statistics included.
TEST_F(batch, CoarseLabelsLeaveNoQueryDependingOnAnother) {
  const auto& db = dbs_[1];  // octile
  ASSERT_TRUE(db);
  constexpr int n = 256;
  grid_map map(n, n, 4);
  const lddb::search_options opt(lddb::default_heuristic(db->movement()));
  lddb::search_context ctx;
  ASSERT_TRUE(lddb::find_path(*db, map, {0, 0}, {n - 1, n - 1}, opt, ctx).found());  // builds the labels
  for (int y = 0; y < n; ++y) map.set_blocked(n / 2, y, true);  // the last cell splits it: past the budget
  ASSERT_FALSE(map.components_current(lddb::connectivity::four));
  std::vector<query> qs;
  for (int i = 0; i < 24; ++i)
    qs.push_back({{3 + 5 * i, 7 * i + 1}, {i % 2 == 0 ? n - 4 - 3 * i : n / 2 - 3 - i, 9 * i + 2}});
  const std::vector<search_result> want = solve_alone(*db, map, qs, opt);
  int apart = 0;
  for (const search_result& r : want) apart += r.status == lddb::search_status::no_path && r.stats.expanded > 0;
  EXPECT_EQ(apart, 12) << "queries across the wall walk their side";
  std::vector<query> reversed(qs.rbegin(), qs.rend());
  std::vector<search_result> back = solve_alone(*db, map, reversed, opt);
  std::reverse(back.begin(), back.end());
  EXPECT_EQ(expect_same(back, want, qs, "the queries in reverse order"), 0);
  for (unsigned threads : {1u, 2u}) {
    batch_solver solver(threads);
    std::vector<search_result> got(qs.size());
    solver.solve(*db, map, qs, opt, got);
    EXPECT_EQ(expect_same(got, want, qs, std::to_string(threads) + " thread(s)"), 0);
  }
  EXPECT_FALSE(map.components_current(lddb::connectivity::four));
}

TEST_F(batch, AnEmptyBatchDoesNothing) {
  const grid_map map(16, 16);
  const auto& db = dbs_[1];
  ASSERT_TRUE(db);
  const lddb::search_options opt(lddb::heuristic_kind::octile);
  for (unsigned threads : {1u, 2u, 3u}) {
    batch_solver solver(threads);
    std::vector<query> none;
    std::vector<search_result> no_results;
    EXPECT_NO_THROW(solver.solve(*db, map, none, opt, no_results));
    int calls = 0;
    solver.for_each(0, [&](std::size_t, lddb::search_context&) { ++calls; });
    EXPECT_EQ(calls, 0);
    // And the solver still works after it.
    const std::vector<query> one{{{0, 0}, {15, 15}}};
    std::vector<search_result> r(1);
    solver.solve(*db, map, one, opt, r);
    EXPECT_EQ(r[0].status, search_status::found);
  }
}

// Invalid queries among valid ones: each answered in its own slot, as block_astar answers
// it alone, and the valid ones around them unharmed.
TEST_F(batch, InvalidQueriesAmongValidOnes) {
  // An open map with nine 3x3 squares of blocked cells: connected, and the middle cell of
  // a square is blocked and has four unusable corners.
  grid_map map(64, 64);
  for (int y0 : {10, 30, 50})
    for (int x0 : {10, 30, 50})
      for (int y = y0; y < y0 + 3; ++y)
        for (int x = x0; x < x0 + 3; ++x) map.set_blocked(x, y, true);
  const point walled{31, 31};
  for (const auto& db : dbs_) {
    ASSERT_TRUE(db);
    const lddb::rule r = db->movement();
    const lddb::search_options opt(lddb::default_heuristic(r));
    rng g{42};
    std::vector<query> qs;
    std::vector<search_status> expected;
    for (int k = 0; k < 40; ++k) {
      const point a = random_free_cell(g, map), b = random_free_cell(g, map);
      switch (k % 8) {
        case 1:
          qs.push_back({walled, b});  // blocked start (an unusable vertex for any-angle)
          expected.push_back(search_status::invalid_start);
          break;
        case 3:
          qs.push_back({a, {map.width() + 5, 3}});  // off-map goal
          expected.push_back(search_status::invalid_goal);
          break;
        case 5:
          qs.push_back({{-1, -7}, b});  // off-map start
          expected.push_back(search_status::invalid_start);
          break;
        case 6:
          qs.push_back({a, a});  // start == goal
          expected.push_back(search_status::found);
          break;
        default:
          qs.push_back({a, b});
          expected.push_back(search_status::found);  // the map is connected
      }
    }
    const std::vector<search_result> want = solve_alone(*db, map, qs, opt);
    for (std::size_t i = 0; i < qs.size(); ++i)
      EXPECT_EQ(want[i].status, expected[i]) << r.name() << ", query " << i << ": " << want[i].message;
    for (unsigned threads : {1u, 2u, 3u}) {
      batch_solver solver(threads);
      std::vector<search_result> got(qs.size());
      solver.solve(*db, map, qs, opt, got);
      EXPECT_EQ(expect_same(got, want, qs, r.name() + ", " + std::to_string(threads) + " thread(s)"), 0);
      for (std::size_t i = 0; i < qs.size(); ++i) {
        if (expected[i] != search_status::found) {
          EXPECT_FALSE(got[i].message.empty()) << i;
        }
      }
    }
  }
}

// A map of another block size than the database's: every query is a rule mismatch.
TEST_F(batch, AMapOfTheWrongBlockSizeIsARuleMismatchForEveryQuery) {
  const grid_map map = lddb::make_random_map(40, 40, 10, 3, 3);
  const auto& db = dbs_[1];
  ASSERT_TRUE(db);
  const lddb::search_options opt(lddb::heuristic_kind::octile);
  const std::vector<query> qs = random_queries(map, 10, 5);
  const std::vector<search_result> want = solve_alone(*db, map, qs, opt);
  batch_solver solver(2);
  std::vector<search_result> got(qs.size());
  solver.solve(*db, map, qs, opt, got);
  EXPECT_EQ(expect_same(got, want, qs, "block size 3"), 0);
  for (const search_result& g : got) EXPECT_EQ(g.status, search_status::rule_mismatch);
}

TEST_F(batch, AWrongResultCountIsRefused) {
  const grid_map map(16, 16);
  const auto& db = dbs_[0];
  ASSERT_TRUE(db);
  const lddb::search_options opt(lddb::heuristic_kind::manhattan);
  batch_solver solver(2);
  const std::vector<query> qs(3, query{{0, 0}, {5, 5}});
  std::vector<search_result> results(2);
  EXPECT_THROW(solver.solve(*db, map, qs, opt, results), std::invalid_argument);
  results.resize(4);
  EXPECT_THROW(solver.solve(*db, map, qs, opt, results), std::invalid_argument);
}

TEST(batch_solver_threads, ZeroMeansEveryCore) {
  const batch_solver solver(0);
  EXPECT_EQ(solver.threads(), std::max(1u, std::thread::hardware_concurrency()));
}

// ----------------------------------------------------------------------------- for_each

// Every index runs exactly once, with the context of the worker running it; with several
// threads each worker uses only its own context.
TEST(batch_solver_for_each, EachIndexRunsOnceWithItsWorkersContext) {
  for (unsigned threads : {1u, 2u, 3u}) {
    batch_solver solver(threads);
    std::vector<const lddb::search_context*> contexts;
    for (unsigned w = 0; w < threads; ++w) contexts.push_back(&solver.context(w));
    constexpr std::size_t kCount = 5000;
    for (int call = 0; call < 3; ++call) {
      std::vector<std::atomic<int>> runs(kCount);
      std::vector<const lddb::search_context*> used(kCount);
      std::vector<std::thread::id> by(kCount);
      solver.for_each(kCount, [&](std::size_t i, lddb::search_context& ctx) {
        runs[i].fetch_add(1);
        used[i] = &ctx;
        by[i] = std::this_thread::get_id();
      });
      for (std::size_t i = 0; i < kCount; ++i) {
        ASSERT_EQ(runs[i].load(), 1) << i;
        ASSERT_NE(std::find(contexts.begin(), contexts.end(), used[i]), contexts.end()) << i;
      }
      // One thread, one context: every index run with a context ran on the same thread.
      for (const lddb::search_context* c : contexts) {
        std::thread::id owner;
        for (std::size_t i = 0; i < kCount; ++i) {
          if (used[i] != c) continue;
          if (owner == std::thread::id()) owner = by[i];
          ASSERT_EQ(by[i], owner) << "index " << i;
        }
      }
    }
  }
}

// An exception thrown by a task on the calling thread reaches the caller, and the solver
// works afterwards.
TEST(batch_solver_for_each, AnExceptionReachesTheCaller) {
  for (unsigned threads : {1u, 2u, 3u}) {
    batch_solver solver(threads);
    for (int call = 0; call < 3; ++call) {
      std::atomic<int> ran{0};
      try {
        solver.for_each(1000, [&](std::size_t i, lddb::search_context&) {
          ran.fetch_add(1);
          if (i == 17) throw std::runtime_error("task 17 failed");
        });
        ADD_FAILURE() << threads << " thread(s): no exception";
      } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "task 17 failed");
      }
      EXPECT_GE(ran.load(), 1);
      // Usable afterwards: every index runs again.
      std::atomic<int> after{0};
      solver.for_each(100, [&](std::size_t, lddb::search_context&) { after.fetch_add(1); });
      EXPECT_EQ(after.load(), 100);
    }
  }
}

// An exception thrown on a worker thread (not the caller's) reaches the caller too. The
// caller's own task waits until a worker has thrown, so the throw cannot happen on it.
TEST(batch_solver_for_each, AnExceptionOnAWorkerThreadReachesTheCaller) {
  for (unsigned threads : {2u, 3u}) {
    batch_solver solver(threads);
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<bool> thrown{false};
    try {
      solver.for_each(64, [&](std::size_t i, lddb::search_context&) {
        if (std::this_thread::get_id() == caller) {
          while (!thrown.load()) std::this_thread::yield();
          return;
        }
        thrown.store(true);
        throw std::out_of_range("worker task " + std::to_string(i));
      });
      ADD_FAILURE() << threads << " threads: no exception";
    } catch (const std::out_of_range& e) {
      EXPECT_EQ(std::string(e.what()).rfind("worker task ", 0), 0u) << e.what();
    }
    EXPECT_TRUE(thrown.load());
    std::atomic<int> after{0};
    solver.for_each(10, [&](std::size_t, lddb::search_context&) { after.fetch_add(1); });
    EXPECT_EQ(after.load(), 10);
  }
}

// ----------------------------------------------------------------------------- lddb bench --threads

std::string map_text(const grid_map& map) {
  std::string t = "type octile\nheight " + std::to_string(map.height()) + "\nwidth " + std::to_string(map.width()) +
                  "\nmap\n";
  for (int y = 0; y < map.height(); ++y) {
    for (int x = 0; x < map.width(); ++x) t += map.blocked(x, y) ? '@' : '.';
    t += '\n';
  }
  return t;
}

// A scenario of `n` queries between random free cells (optimum 0: not checked for the
// tile and any-angle rules used here).
std::string scenario_text(const grid_map& map, const std::string& map_name, int n, std::uint64_t seed) {
  rng g{seed};
  std::string t = "version 1\n";
  for (int k = 0; k < n; ++k) {
    const point a = random_free_cell(g, map), b = random_free_cell(g, map);
    t += std::to_string(k % 10) + "\t" + map_name + "\t" + std::to_string(map.width()) + "\t" +
         std::to_string(map.height()) + "\t" + std::to_string(a.x) + "\t" + std::to_string(a.y) + "\t" +
         std::to_string(b.x) + "\t" + std::to_string(b.y) + "\t0\n";
  }
  return t;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> fields_of(const std::string& line, char sep) {
  std::vector<std::string> f;
  if (sep == ' ') {
    std::istringstream in(line);
    for (std::string w; in >> w;) f.push_back(w);
  } else {
    std::string cur;
    for (char c : line) {
      if (c == sep) {
        f.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    f.push_back(cur);
  }
  return f;
}

// The CSV without its nanoseconds column (the 15th).
std::string csv_without_times(const std::string& csv) {
  std::string out;
  for (const std::string& line : lines_of(csv)) {
    std::vector<std::string> f = fields_of(line, ',');
    if (f.size() > 14) f.erase(f.begin() + 14);
    for (std::size_t k = 0; k < f.size(); ++k) out += (k ? "," : "") + f[k];
    out += "\n";
  }
  return out;
}

// The summary's table rows without their mean microseconds column, and nothing after the
// tables (times and memory).
std::string tables_without_times(const std::string& out) {
  std::string kept;
  for (const std::string& line : lines_of(out)) {
    if (line.rfind("searches:", 0) == 0) break;
    std::vector<std::string> f = fields_of(line, ' ');
    if (f.size() == 10 && f[0] != "map" && f[0] != "folder") f.erase(f.begin() + 6);  // name, queries, ..., skipped
    for (const std::string& w : f) kept += w + " ";
    kept += "\n";
  }
  return kept;
}

TEST(batch_bench, EveryThreadCountWritesTheSameOutputs) {
  using cli_support::quote;
  const cli_support::fs::path dir = cli_support::fresh_scratch_dir("batch_test");
  const grid_map rooms = lddb::make_rooms_map(120, 100, 9, 4);
  const grid_map random = lddb::make_random_map(90, 110, 25, 8);
  cli_support::write_file(dir / "scen" / "a" / "rooms.map", map_text(rooms));
  cli_support::write_file(dir / "scen" / "a" / "rooms.map.scen", scenario_text(rooms, "rooms.map", 700, 1));
  cli_support::write_file(dir / "scen" / "b" / "random.map", map_text(random));
  cli_support::write_file(dir / "scen" / "b" / "random.map.scen", scenario_text(random, "random.map", 650, 2));
  for (const char* rule : {"tile", "any-angle"}) {
    std::string first_csv, first_paths, first_tables;
    for (const char* threads : {"1", "2", "3"}) {
      const std::string what = std::string(rule) + ", --threads " + threads;
      const cli_support::fs::path csv = dir / "out.csv", paths = dir / "paths.txt";
      const cli_support::run_result r =
          cli_support::run_in(dir, "bench --scen " + quote(dir / "scen") + " --rule " + rule + " --threads " + threads +
                                       " --csv " + quote(csv) + " --paths " + quote(paths));
      // Both rules leave some goals of the random map unreachable (tile: no diagonal
      // moves; any-angle: no passing between the sides of a double corner): exit status
      // 1, every output still written.
      EXPECT_EQ(r.status, 1) << what << "\n" << r.all();
      EXPECT_NE(r.err.find("without a path"), std::string::npos) << what << "\n" << r.err;
      const std::string searches = std::string("searches: ") + threads + " thread";
      EXPECT_NE(r.out.find(searches), std::string::npos) << what << "\n" << r.out;
      EXPECT_NE(r.out.find("queries/s"), std::string::npos) << what << "\n" << r.out;
      EXPECT_NE(r.out.find("search state: "), std::string::npos) << what << "\n" << r.out;
      EXPECT_NE(r.out.find("peak resident memory: "), std::string::npos) << what << "\n" << r.out;
      EXPECT_NE(r.out.find("1350 queries"), std::string::npos) << what << "\n" << r.out;
      const std::string c = csv_without_times(cli_support::read_file(csv));
      const std::string p = cli_support::read_file(paths);
      const std::string t = tables_without_times(r.out);
      EXPECT_EQ(lines_of(c).size(), 1351u) << what;
      if (first_csv.empty()) {
        first_csv = c;
        first_paths = p;
        first_tables = t;
        continue;
      }
      EXPECT_TRUE(c == first_csv) << what << ": the CSV differs from --threads 1's";
      EXPECT_TRUE(p == first_paths) << what << ": the paths differ from --threads 1's";
      EXPECT_EQ(t, first_tables) << what;
    }
  }
}

}  // namespace
