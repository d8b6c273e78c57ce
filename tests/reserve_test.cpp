// search_context::reserve (lddb/search.hpp): after it, no query on that map grows the
// context. On a fresh context reserved for a map, every query of a series (short to long,
// so that each would otherwise be the longest yet, with the open-square options and
// weights varied) must make no allocation at all (counting_new.hpp counts every `new`) and
// leave memory_bytes() as reserve left it: Block A* under tile, octile and any-angle, A*,
// Theta* and Lazy Theta*, and batch_solver after batch_solver::reserve. The answers must
// equal those of an unreserved context (the oracle: the search as it ran before reserve
// existed). The results are the caller's: their path and message get room beforehand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "counting_new.hpp"
#include "lddb/batch.hpp"
#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/lddb.h"
#include "lddb/map_file.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/prepare.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "test_rng.hpp"
#include "test_scenarios.hpp"

namespace {

using lddb::grid_map;
using lddb::point;
using lddb::query;
using lddb::search_options;
using lddb::search_result;

std::shared_ptr<const lddb::database> open_shipped(const std::string& rule_name) {
  const std::string file = std::string(LDDB_SOURCE_DIR) + "/lddb/" + rule_name + "-4.lddb";
  const auto r = lddb::database::open(file);
  if (!r) ADD_FAILURE() << "cannot open the shipped database " << file << ": " << r.message;
  return r.db;
}

// A result with room for any path on the map and any message: what a game holding its
// results does once.
search_result roomy_result(const grid_map& map) {
  search_result r;
  r.path.reserve(static_cast<std::size_t>(map.width() + 1) * static_cast<std::size_t>(map.height() + 1));
  r.message.reserve(512);
  return r;
}

// Valid endpoints for the rule: free cells, or for vertices a free cell's top-left corner
// that the query accepts (checked by the caller through the status).
point random_point(lddb_test::rng& g, const grid_map& map) {
  point p;
  do p = {g.below(map.width()), g.below(map.height())};
  while (map.blocked(p.x, p.y));
  return p;
}

// `n` queries from short to long (by octile distance), some between points the rule may
// not join (no_path answers count too).
std::vector<query> growing_queries(const grid_map& map, int n, std::uint64_t seed) {
  lddb_test::rng g{seed};
  std::vector<query> qs;
  for (int i = 0; i < n; ++i) qs.push_back({random_point(g, map), random_point(g, map)});
  const auto span = [](const query& q) { return std::max(std::abs(q.goal.x - q.start.x), std::abs(q.goal.y - q.start.y)); };
  std::sort(qs.begin(), qs.end(), [&](const query& a, const query& b) { return span(a) < span(b); });
  return qs;
}

// The maps: generated (open ground, rooms, random clutter, a maze) and, when the benchmark
// maps are there, real ones.
std::vector<std::pair<std::string, grid_map>> test_maps() {
  std::vector<std::pair<std::string, grid_map>> maps;
  maps.emplace_back("free 96x80", grid_map(96, 80));
  maps.emplace_back("rooms 160x128", lddb::make_rooms_map(160, 128, 16, 3));
  maps.emplace_back("random 128x128", lddb::make_random_map(128, 128, 20, 5));
  maps.emplace_back("maze 96x96", lddb::make_maze_map(96, 96, 3, 7));
  for (const char* name : {"rooms/64room_001.map", "dao/arena.map", "bg512/AR0012SR.map"}) {
    const std::string path = (lddb_test::benchmark_maps_dir() / name).string();
    std::string error;
    if (auto m = lddb::load_map(path, &error)) maps.emplace_back(name, std::move(*m));
  }
  return maps;
}

bool has_real_maps() { return std::filesystem::is_directory(lddb_test::benchmark_maps_dir()); }

// Runs `search` on every query with a fresh reserved context (reserve_fn) and a fresh
// unreserved one: none of the reserved queries allocates or grows the context, and every
// answer equals the unreserved one's.
void expect_no_growth(const std::string& what, const grid_map& map, const std::vector<query>& qs,
                      const std::function<void(lddb::search_context&)>& reserve_fn,
                      const std::function<void(const query&, lddb::search_context&, search_result&)>& search) {
  lddb::search_context plain;
  std::vector<search_result> want(qs.size());
  for (std::size_t i = 0; i < qs.size(); ++i) search(qs[i], plain, want[i]);

  lddb::search_context ctx;
  reserve_fn(ctx);
  const std::size_t bytes = ctx.memory_bytes();
  search_result out = roomy_result(map);
  int found = 0;
  for (std::size_t i = 0; i < qs.size(); ++i) {
    const std::uint64_t n = allocations_during([&] { search(qs[i], ctx, out); });
    EXPECT_EQ(n, 0u) << what << ", query " << i << " (" << qs[i].start.x << "," << qs[i].start.y << ") -> ("
                     << qs[i].goal.x << "," << qs[i].goal.y << "): " << lddb::search_status_name(out.status);
    EXPECT_EQ(ctx.memory_bytes(), bytes) << what << ", query " << i;
    EXPECT_EQ(out.status, want[i].status) << what << ", query " << i;
    EXPECT_EQ(out.cost, want[i].cost) << what << ", query " << i;
    EXPECT_EQ(out.path, want[i].path) << what << ", query " << i;
    found += out.found();
    if (::testing::Test::HasFailure()) return;  // one query's report is enough
  }
  EXPECT_GT(found, static_cast<int>(qs.size()) / 4) << what << ": too few paths found to show anything";
}

class reserve : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (const char* name : {"tile", "octile", "any-angle"}) dbs_.push_back(open_shipped(name));
  }
  static void TearDownTestSuite() { dbs_.clear(); }
  static std::vector<std::shared_ptr<const lddb::database>> dbs_;
};
std::vector<std::shared_ptr<const lddb::database>> reserve::dbs_;

// Block A* under each rule, with the rule's default options, fixed blocks, open squares of
// every level, and a weight: a first query on a reserved context allocates nothing.
TEST_F(reserve, BlockAStarQueriesAfterReserveNeverGrow) {
  if (!has_real_maps()) {
    if (lddb_test::under_ci()) FAIL() << "CI is set and no benchmark maps are in " << lddb_test::benchmark_maps_dir();
    std::fprintf(stderr, "reserve_test: no benchmark maps in %s: generated maps only\n",
                 lddb_test::benchmark_maps_dir().string().c_str());
  }
  for (const auto& [name, map] : test_maps()) {
    const std::vector<query> qs = growing_queries(map, 24, map.width() * 7u + map.height());
    for (const auto& db : dbs_) {
      ASSERT_TRUE(db);
      const lddb::rule r = db->movement();
      std::vector<std::pair<std::string, search_options>> variants;
      search_options o(lddb::default_heuristic(r));
      variants.emplace_back("default", o);
      o.diagnostics.open_squares = false;
      variants.emplace_back("fixed blocks", o);
      for (int level = 1; level <= lddb::search_diagnostics::kMaxSquareLevels; ++level) {
        o.diagnostics.open_squares = true;
        o.diagnostics.square_levels = level;
        variants.emplace_back("open squares to level " + std::to_string(level), o);
      }
      o = search_options(lddb::default_heuristic(r));
      o.weight = 1.5;
      variants.emplace_back("weight 1.5", o);
      for (const auto& [label, opt] : variants) {
        const search_options options = opt;
        expect_no_growth(
            "block_astar " + r.name() + " (" + label + ") on " + name, map, qs,
            [&](lddb::search_context& ctx) { ctx.reserve(*db, map); },
            [&](const query& q, lddb::search_context& ctx, search_result& out) {
              lddb::find_path(*db, map, q.start, q.goal, options, ctx, out);
            });
        if (HasFailure()) return;
      }
    }
  }
}

// A* (tile, octile) and Theta* and Lazy Theta* (any-angle, both squeeze settings) after
// reserve(rule, map).
TEST_F(reserve, ReferenceSearchesAfterReserveNeverGrow) {
  using lddb::rule;
  for (const auto& [name, map] : test_maps()) {
    const std::vector<query> qs = growing_queries(map, 16, map.width() * 5u + map.height());
    for (const rule r : {rule::tile(), rule::octile(), rule::any_angle(), rule::any_angle(lddb::squeezing::allowed)}) {
      const search_options options(lddb::default_heuristic(r));
      const auto reserve_fn = [&](lddb::search_context& ctx) { ctx.reserve(r, map); };
      if (!r.on_vertices()) {
        expect_no_growth("astar " + r.name() + " on " + name, map, qs, reserve_fn,
                         [&](const query& q, lddb::search_context& ctx, search_result& out) {
                           lddb::astar(r, map, q.start, q.goal, options, ctx, out);
                         });
        continue;
      }
      expect_no_growth("theta_star " + r.name() + " on " + name, map, qs, reserve_fn,
                       [&](const query& q, lddb::search_context& ctx, search_result& out) {
                         lddb::theta_star(r, map, q.start, q.goal, options, ctx, out);
                       });
      expect_no_growth("lazy_theta_star " + r.name() + " on " + name, map, qs, reserve_fn,
                       [&](const query& q, lddb::search_context& ctx, search_result& out) {
                         lddb::lazy_theta_star(r, map, q.start, q.goal, options, ctx, out);
                       });
      if (HasFailure()) return;
    }
  }
}

// reserve builds the map's component labels, which the first query would otherwise build.
TEST_F(reserve, BuildsTheComponentLabels) {
  for (const auto& db : dbs_) {
    const grid_map map = lddb::make_rooms_map(64, 64, 8, 11);
    const lddb::connectivity c = lddb::connectivity_of(db->movement());
    EXPECT_FALSE(map.components_current(c));
    lddb::search_context ctx;
    ctx.reserve(*db, map);
    EXPECT_TRUE(map.components_current(c)) << db->movement().name();
    const grid_map other = lddb::make_rooms_map(64, 64, 8, 11);
    lddb::search_context node;
    node.reserve(db->movement(), other);
    EXPECT_TRUE(other.components_current(c)) << db->movement().name();
  }
}

// Freeing cells can open squares that were not open at reserve: reserving again makes room
// for them, and a sliced query in progress survives a reserve.
TEST_F(reserve, ReserveAgainAfterFreeingCellsAndMidQuery) {
  const auto& db = dbs_[2];  // any-angle: open squares by default
  ASSERT_TRUE(db);
  grid_map map = lddb::make_random_map(128, 128, 8, 13);
  lddb::search_context ctx;
  ctx.reserve(*db, map);
  for (int y = 16; y < 112; ++y)
    for (int x = 16; x < 112; ++x) map.set_blocked(x, y, false);
  ctx.reserve(*db, map);
  const std::size_t bytes = ctx.memory_bytes();
  const std::vector<query> qs = growing_queries(map, 12, 99);
  search_result out = roomy_result(map);
  const search_options options(lddb::default_heuristic(db->movement()));
  for (const query& q : qs) {
    EXPECT_EQ(allocations_during([&] { lddb::find_path(*db, map, q.start, q.goal, options, ctx, out); }), 0u);
    EXPECT_EQ(ctx.memory_bytes(), bytes);
  }
  // Sliced: begin and a few expansions, reserve for a larger map, then the rest.
  const query& q = qs.back();
  lddb::search_context fresh;
  const search_result want = lddb::find_path(*db, map, q.start, q.goal, options, fresh);
  lddb::search_context sliced;
  search_result r = lddb::block_astar_begin(*db, map, q.start, q.goal, options, sliced);
  ASSERT_EQ(r.status, lddb::search_status::in_progress);
  r = lddb::block_astar_continue(sliced, 3);
  sliced.reserve(*db, grid_map(512, 512));
  while (r.status == lddb::search_status::in_progress) r = lddb::block_astar_continue(sliced, 5);
  EXPECT_EQ(r.status, want.status);
  EXPECT_EQ(r.cost, want.cost);
  EXPECT_EQ(r.path, want.path);
}

// A map whose preparation hands Block A*'s queries to jump point search: reserve sizes that
// search's records (paged_records), whichever pages reserve_options::prefault_bytes has it
// write, so that no query allocates; and jump_point_search itself after reserve(rule, map).
TEST_F(reserve, JumpsAfterReserveNeverGrowWhateverIsWritten) {
  grid_map map = lddb::make_rooms_map(160, 128, 16, 3);
  const std::vector<query> qs = growing_queries(map, 24, 31);
  for (const auto& db : dbs_) {
    const lddb::rule r = db->movement();
    lddb::prepare(*db, map);
    ASSERT_TRUE(lddb::preparation_of(map, r)->plan.jumps) << r.name();
    ASSERT_TRUE(lddb::find_path_search(*db, map, search_options{}) == lddb::search_kind::jump_point_search) << r.name();
    const search_options options(lddb::default_heuristic(r));
    for (const std::size_t budget : {std::size_t{0}, lddb::reserve_options::kDefaultPrefaultBytes, SIZE_MAX}) {
      lddb::reserve_options ro;
      ro.prefault_bytes = budget;
      const std::string what = r.name() + ", prefault_bytes " + std::to_string(budget);
      expect_no_growth(
          "block_astar by jumps " + what, map, qs, [&](lddb::search_context& ctx) { ctx.reserve(*db, map, ro); },
          [&](const query& q, lddb::search_context& ctx, search_result& out) {
            lddb::find_path(*db, map, q.start, q.goal, options, ctx, out);
          });
      expect_no_growth(
          "jump_point_search " + what, map, qs, [&](lddb::search_context& ctx) { ctx.reserve(r, map, ro); },
          [&](const query& q, lddb::search_context& ctx, search_result& out) {
            lddb::jump_point_search(r, map, q.start, q.goal, options, ctx, out);
          });
      if (HasFailure()) return;
    }
    lddb::unprepare(map);
  }
}

// Where the preparation chose jumps, reserve leaves out Block A*'s own state unless
// reserve_options::every_search asks for it: a query that goes without jumps then grows
// the context as on one not reserved, and with every_search it does not.
TEST_F(reserve, EverySearchSizesBlockAStarBesideTheJumps) {
  grid_map map = lddb::make_rooms_map(160, 128, 16, 3);
  const std::vector<query> qs = growing_queries(map, 12, 37);
  const auto& db = dbs_[1];  // octile
  lddb::prepare(*db, map);
  search_options own(lddb::default_heuristic(db->movement()));
  own.diagnostics.search = lddb::search_kind::block_astar;
  lddb::search_context lean;
  lean.reserve(*db, map);
  search_result out = roomy_result(map);
  EXPECT_GT(allocations_during([&] { lddb::find_path(*db, map, qs.back().start, qs.back().goal, own, lean, out); }),
            0u);
  lddb::reserve_options every;
  every.every_search = true;
  lddb::search_context full;
  full.reserve(*db, map, every);
  EXPECT_GT(full.memory_bytes(), lean.memory_bytes());
  expect_no_growth(
      "block_astar without jumps, every_search", map, qs,
      [&](lddb::search_context& ctx) { ctx.reserve(*db, map, every); },
      [&](const query& q, lddb::search_context& ctx, search_result& res) {
        lddb::find_path(*db, map, q.start, q.goal, own, ctx, res);
      });
}

// The guard on the tests above: without reserve the same first query does allocate and grow
// the context, so a count of zero after reserve is reserve's doing.
TEST_F(reserve, WithoutReserveAFirstQueryGrows) {
  const grid_map map = lddb::make_rooms_map(160, 128, 16, 3);
  const std::vector<query> qs = growing_queries(map, 8, 5);
  for (const auto& db : dbs_) {
    lddb::search_context ctx;
    search_result out = roomy_result(map);
    const search_options options(lddb::default_heuristic(db->movement()));
    const std::size_t before = ctx.memory_bytes();
    EXPECT_GT(allocations_during([&] { lddb::find_path(*db, map, qs.back().start, qs.back().goal, options, ctx, out); }), 0u);
    EXPECT_GT(ctx.memory_bytes(), before);
    lddb::search_context reserved;
    reserved.reserve(*db, map);
    EXPECT_GT(reserved.memory_bytes(), ctx.memory_bytes()) << "reserve sizes for the whole map, more than one query needs";
  }
}

TEST_F(reserve, RefusesAMapOfAnotherBlockSize) {
  lddb::search_context ctx;
  const grid_map map(40, 40, 5);
  try {
    ctx.reserve(*dbs_[1], map);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("5x5 blocks"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("4x4 blocks"), std::string::npos) << e.what();
  }
}

// batch_solver::reserve: the first solve grows no worker's context (the results have room).
TEST_F(reserve, ABatchAfterReserveAllocatesNothing) {
  const grid_map map = lddb::make_rooms_map(192, 160, 16, 17);
  const std::vector<query> qs = growing_queries(map, 60, 23);
  for (const auto& db : dbs_) {
    const search_options options(lddb::default_heuristic(db->movement()));
    std::vector<search_result> want;
    lddb::search_context plain;
    for (const query& q : qs) want.push_back(lddb::find_path(*db, map, q.start, q.goal, options, plain));
    for (unsigned threads : {1u, 3u}) {
      lddb::batch_solver solver(threads);
      solver.reserve(*db, map);
      std::vector<std::size_t> bytes;
      for (unsigned w = 0; w < threads; ++w) bytes.push_back(solver.context(w).memory_bytes());
      std::vector<search_result> results;
      for (std::size_t i = 0; i < qs.size(); ++i) results.push_back(roomy_result(map));
      EXPECT_EQ(allocations_during([&] { solver.solve(*db, map, qs, options, results); }), 0u)
          << db->movement().name() << ", " << threads << " thread(s)";
      for (unsigned w = 0; w < threads; ++w) EXPECT_EQ(solver.context(w).memory_bytes(), bytes[w]) << w;
      for (std::size_t i = 0; i < qs.size(); ++i) {
        EXPECT_EQ(results[i].status, want[i].status) << i;
        EXPECT_EQ(results[i].path, want[i].path) << i;
      }
    }
  }
}

}  // namespace

// The C API's reserve, told of a unit (options->unit_size), builds the unit's view of the
// map and sizes the context for it, as unit_view and reserve do in C++: the unit's first
// query then allocates only the context's copy of its path, where without it the view and
// its labels are built in that query.
TEST(reserve_c, AUnitsFirstQueryAfterReserveBuildsNothing) {
  lddb_database db = 0;
  ASSERT_EQ(lddb_database_open(LDDB_SOURCE_DIR "/lddb/octile-4.lddb", &db), LDDB_OK) << lddb_last_error();
  lddb_options o;
  lddb_options_init(&o);
  o.unit_size = 2;
  std::uint64_t first[2] = {0, 0};
  for (const bool reserved : {false, true}) {
    lddb_map map = 0;
    lddb_context ctx = 0;
    ASSERT_EQ(lddb_map_create(128, 96, 4, &map), LDDB_OK);
    ASSERT_EQ(lddb_context_create(&ctx), LDDB_OK);
    for (int y = 0; y < 80; ++y) lddb_map_set_blocked(map, 64, y, 1);  // a wall to go round
    if (reserved) {
      ASSERT_EQ(lddb_context_reserve(ctx, db, map, &o), LDDB_OK) << lddb_last_error();
    }
    lddb_result r{};
    lddb_point path[1024];
    first[reserved ? 1 : 0] = allocations_during([&] {
      ASSERT_EQ(lddb_find_path(ctx, db, map, {2, 2}, {120, 2}, &o, &r, path, 1024), LDDB_OK) << lddb_last_error();
    });
    EXPECT_EQ(r.status, LDDB_OK);
    lddb_context_free(ctx);
    lddb_map_free(map);
  }
  EXPECT_GT(first[0], 10u) << "without reserve the first query builds the view";
  EXPECT_LE(first[1], 2u) << "after reserve: only the context's copy of the path";
  lddb_database_close(db);
}
