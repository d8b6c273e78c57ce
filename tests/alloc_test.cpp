// A warm search allocates nothing (lddb/search.hpp, lddb/batch.hpp).
//
// This program counts every allocation, on any thread (counting_new.hpp). A first pass
// over a set of queries warms the search_context and the search_results (one result per
// query, reused); a second pass over the same queries, in
// the same order, with the `search_result& out` overloads, must then make no allocation
// at all: Block A* with the shipped tile, octile and any-angle databases, A* (tile and
// octile), Theta* and Lazy Theta*, and batch_solver::solve with 1, 2 and 3 threads.
//
// Kinds of query, each measured on its own so that a failure says which kind allocates:
// found (the map's two halves each hold many), no path (across a wall two cells thick)
// and start == goal. The second pass's results must equal the value-returning calls'
// results, so that it did do the work it claims to have done without allocating.
//
// Invalid queries (a blocked start, an off-map goal) are held to it too: their message
// ("start cell (65,3) is blocked", naming the point and the map's size) is formatted into
// the result's own string. A rule mismatch still allocates its message; it is a
// programming error, not what a game asks every frame.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "lddb/batch.hpp"
#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "test_rng.hpp"

#include "counting_new.hpp"

namespace {

using lddb::grid_map;
using lddb::point;
using lddb::query;
using lddb::search_result;
using lddb::search_status;

// ----------------------------------------------------------------------------- the counter itself

struct alignas(64) wide {
  char bytes[64];
};

// Hides a pointer from the optimiser, which may otherwise drop a new/delete pair.
template <class T>
T* opaque(T* p) {
  asm volatile("" : "+r"(p) : : "memory");
  return p;
}

// The counter must see every form, or a zero below would prove nothing.
TEST(alloc_counter, SeesEveryFormOfNewOnEveryThread) {
  EXPECT_EQ(allocations_during([] { delete opaque(new int(3)); }), 1u);
  EXPECT_EQ(allocations_during([] { delete[] opaque(new int[9]); }), 1u);
  EXPECT_EQ(allocations_during([] { delete opaque(new (std::nothrow) int(4)); }), 1u);
  EXPECT_EQ(allocations_during([] { delete[] opaque(new (std::nothrow) int[9]); }), 1u);
  EXPECT_EQ(allocations_during([] { delete opaque(new wide()); }), 1u);
  EXPECT_EQ(allocations_during([] { delete[] opaque(new wide[3]); }), 1u);
  EXPECT_EQ(allocations_during([] { delete opaque(new (std::nothrow) wide()); }), 1u);
  EXPECT_EQ(allocations_during([] {
              std::vector<int> v(100);
              std::string s(100, 'x');
              opaque(v.data());
              opaque(s.data());
            }),
            2u);
  std::uint64_t on_thread = 0;
  std::thread t;
  const std::uint64_t all = allocations_during([&] {
    t = std::thread([&] { on_thread = allocations_during([] { delete opaque(new int(5)); }); });
    t.join();
  });
  EXPECT_EQ(on_thread, 1u);
  EXPECT_GE(all, 2u);  // the thread's own start-up state, and its int
  // Aligned new really aligns.
  std::unique_ptr<wide> w(opaque(new wide()));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(w.get()) % 64, 0u);
}

// ----------------------------------------------------------------------------- the searches

std::shared_ptr<const lddb::database> open_shipped(const std::string& rule_name) {
  const std::string file = std::string(LDDB_SOURCE_DIR) + "/lddb/" + rule_name + "-4.lddb";
  const auto r = lddb::database::open(file);
  if (!r) ADD_FAILURE() << "cannot open the shipped database " << file << ": " << r.message;
  return r.db;
}

using lddb_test::rng;

constexpr int kSide = 128;
constexpr int kWall = 64;  // columns kWall and kWall + 1 are blocked from top to bottom

// A rooms map cut in two by a wall two cells thick: no path crosses it, and neither
// vertex column inside it (kWall + 1) is usable.
grid_map split_map() {
  grid_map map = lddb::make_rooms_map(kSide, kSide, 12, 21);
  for (int y = 0; y < kSide; ++y) {
    map.set_blocked(kWall, y, true);
    map.set_blocked(kWall + 1, y, true);
  }
  return map;
}

point free_cell(rng& g, const grid_map& map, int x_lo, int x_hi) {
  point p;
  do p = {x_lo + g.below(x_hi - x_lo), g.below(map.height())};
  while (map.blocked(p.x, p.y));
  return p;
}

enum class kind { found, no_path, invalid, same_point };

const char* kind_name(kind k) {
  switch (k) {
    case kind::found:
      return "found";
    case kind::no_path:
      return "no path";
    case kind::invalid:
      return "invalid";
    case kind::same_point:
      return "start == goal";
  }
  return "?";
}

std::vector<query> queries_of(kind k, const grid_map& map) {
  rng g{static_cast<std::uint64_t>(k) * 1000 + 7};
  std::vector<query> qs;
  for (int n = 0; n < 40; ++n) {
    const bool left = n % 2 == 0;
    const int lo = left ? 0 : kWall + 2, hi = left ? kWall : kSide;
    switch (k) {
      case kind::found:
        qs.push_back({free_cell(g, map, lo, hi), free_cell(g, map, lo, hi)});
        break;
      case kind::no_path:
        qs.push_back({free_cell(g, map, 0, kWall), free_cell(g, map, kWall + 2, kSide)});
        if (!left) std::swap(qs.back().start, qs.back().goal);
        break;
      case kind::invalid:
        if (n % 3 == 0) qs.push_back({{kWall + 1, g.below(kSide)}, free_cell(g, map, lo, hi)});  // blocked start
        if (n % 3 == 1) qs.push_back({free_cell(g, map, lo, hi), {kSide + 3 + n, g.below(kSide)}});  // off the map
        if (n % 3 == 2) qs.push_back({{-1 - n, -2}, free_cell(g, map, lo, hi)});  // negative
        break;
      case kind::same_point: {
        const point p = free_cell(g, map, lo, hi);
        qs.push_back({p, p});
        break;
      }
    }
  }
  return qs;
}

bool has_kind(kind k, search_status s) {
  switch (k) {
    case kind::found:
    case kind::same_point:
      return s == search_status::found;
    case kind::no_path:
      return s == search_status::no_path;
    case kind::invalid:
      return s == search_status::invalid_start || s == search_status::invalid_goal;
  }
  return false;
}

// One search, in both forms.
struct search_kind {
  std::string name;
  std::function<search_result(const query&, lddb::search_context&)> by_value;
  std::function<void(const query&, lddb::search_context&, search_result&)> into;
};

class alloc : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    map_ = std::make_unique<grid_map>(split_map());
    for (const char* name : {"tile", "octile", "any-angle"}) dbs_.push_back(open_shipped(name));
  }
  static void TearDownTestSuite() {
    dbs_.clear();
    map_.reset();
  }

  static std::vector<search_kind> searches() {
    std::vector<search_kind> all;
    const grid_map& map = *map_;
    for (const auto& db : dbs_) {
      const lddb::rule r = db->movement();
      const lddb::search_options opt(lddb::default_heuristic(r));
      const lddb::database* d = db.get();
      all.push_back({"block_astar " + r.name(),
                     [=, &map](const query& q, lddb::search_context& ctx) {
                       return lddb::find_path(*d, map, q.start, q.goal, opt, ctx);
                     },
                     [=, &map](const query& q, lddb::search_context& ctx, search_result& out) {
                       lddb::find_path(*d, map, q.start, q.goal, opt, ctx, out);
                     }});
      if (r.on_vertices()) {
        all.push_back({"theta_star " + r.name(),
                       [=, &map](const query& q, lddb::search_context& ctx) {
                         return lddb::theta_star(r, map, q.start, q.goal, opt, ctx);
                       },
                       [=, &map](const query& q, lddb::search_context& ctx, search_result& out) {
                         lddb::theta_star(r, map, q.start, q.goal, opt, ctx, out);
                       }});
        all.push_back({"lazy_theta_star " + r.name(),
                       [=, &map](const query& q, lddb::search_context& ctx) {
                         return lddb::lazy_theta_star(r, map, q.start, q.goal, opt, ctx);
                       },
                       [=, &map](const query& q, lddb::search_context& ctx, search_result& out) {
                         lddb::lazy_theta_star(r, map, q.start, q.goal, opt, ctx, out);
                       }});
      } else {
        all.push_back({"astar " + r.name(),
                       [=, &map](const query& q, lddb::search_context& ctx) {
                         return lddb::astar(r, map, q.start, q.goal, opt, ctx);
                       },
                       [=, &map](const query& q, lddb::search_context& ctx, search_result& out) {
                         lddb::astar(r, map, q.start, q.goal, opt, ctx, out);
                       }});
      }
    }
    return all;
  }

  // Warm-up pass, then the measured pass; checks the results and returns the measured
  // pass's allocations.
  static std::uint64_t second_pass_allocations(const search_kind& s, kind k) {
    const std::vector<query> qs = queries_of(k, *map_);
    std::vector<search_result> want;
    {
      lddb::search_context fresh;
      for (const query& q : qs) want.push_back(s.by_value(q, fresh));
    }
    lddb::search_context ctx;
    std::vector<search_result> results(qs.size());
    for (std::size_t i = 0; i < qs.size(); ++i) s.into(qs[i], ctx, results[i]);
    const std::uint64_t n = allocations_during([&] {
      for (std::size_t i = 0; i < qs.size(); ++i) s.into(qs[i], ctx, results[i]);
    });
    for (std::size_t i = 0; i < qs.size(); ++i) {
      EXPECT_TRUE(has_kind(k, want[i].status))
          << s.name << ", " << kind_name(k) << " query " << i << ": " << lddb::search_status_name(want[i].status)
          << " " << want[i].message;
      EXPECT_EQ(results[i].status, want[i].status) << s.name << ", query " << i;
      EXPECT_EQ(results[i].message, want[i].message) << s.name << ", query " << i;
      EXPECT_EQ(results[i].cost, want[i].cost) << s.name << ", query " << i;
      EXPECT_EQ(results[i].path, want[i].path) << s.name << ", query " << i;
      EXPECT_EQ(results[i].stats.expanded, want[i].stats.expanded) << s.name << ", query " << i;
    }
    return n;
  }

  static void expect_no_allocation(kind k) {
    ASSERT_EQ(dbs_.size(), 3u);
    for (const auto& db : dbs_) ASSERT_TRUE(db);
    for (const search_kind& s : searches())
      EXPECT_EQ(second_pass_allocations(s, k), 0u) << s.name << ", " << kind_name(k) << " queries";
  }

  static std::unique_ptr<grid_map> map_;
  static std::vector<std::shared_ptr<const lddb::database>> dbs_;
};
std::unique_ptr<grid_map> alloc::map_;
std::vector<std::shared_ptr<const lddb::database>> alloc::dbs_;

TEST_F(alloc, WarmFoundQueriesAllocateNothing) { expect_no_allocation(kind::found); }
TEST_F(alloc, WarmNoPathQueriesAllocateNothing) { expect_no_allocation(kind::no_path); }
TEST_F(alloc, WarmStartEqualsGoalQueriesAllocateNothing) { expect_no_allocation(kind::same_point); }
TEST_F(alloc, WarmInvalidQueriesAllocateNothing) { expect_no_allocation(kind::invalid); }

// Invalid queries between warm found ones: answered as the value-returning calls answer
// them, and the found queries after them still allocate nothing.
TEST_F(alloc, InvalidQueriesLeaveTheContextWarm) {
  const std::vector<query> found = queries_of(kind::found, *map_), invalid = queries_of(kind::invalid, *map_);
  for (const search_kind& s : searches()) {
    lddb::search_context ctx;
    std::vector<search_result> results(found.size()), bad(invalid.size());
    for (std::size_t i = 0; i < found.size(); ++i) s.into(found[i], ctx, results[i]);
    lddb::search_context fresh;
    for (std::size_t i = 0; i < invalid.size(); ++i) {
      s.into(invalid[i], ctx, bad[i]);
      const search_result want = s.by_value(invalid[i], fresh);
      EXPECT_TRUE(has_kind(kind::invalid, want.status)) << s.name << ", query " << i;
      EXPECT_EQ(bad[i].status, want.status) << s.name << ", query " << i;
      EXPECT_EQ(bad[i].message, want.message) << s.name << ", query " << i;
      EXPECT_TRUE(bad[i].path.empty()) << s.name << ", query " << i;
    }
    const std::uint64_t n = allocations_during([&] {
      for (std::size_t i = 0; i < found.size(); ++i) s.into(found[i], ctx, results[i]);
    });
    EXPECT_EQ(n, 0u) << s.name << ": found queries after invalid ones";
  }
}

// ----------------------------------------------------------------------------- batch_solver

// A warm batch_solver::solve allocates nothing, whatever the thread count: found, no-path
// and start == goal queries mixed (invalid ones allocate their message). Which worker
// takes which query varies from call to call, so each worker's context is first warmed
// with every query of the batch (what lddb/batch.hpp says guarantees it); one call then
// warms the results.
TEST_F(alloc, AWarmBatchSolveAllocatesNothing) {
  const grid_map& map = *map_;
  for (const auto& db : dbs_) {
    ASSERT_TRUE(db);
    const lddb::search_options opt(lddb::default_heuristic(db->movement()));
    std::vector<query> qs;
    for (kind k : {kind::found, kind::no_path, kind::same_point})
      for (const query& q : queries_of(k, map)) qs.push_back(q);
    std::vector<search_result> want;
    {
      lddb::search_context fresh;
      for (const query& q : qs) want.push_back(lddb::find_path(*db, map, q.start, q.goal, opt, fresh));
    }
    for (unsigned threads : {1u, 2u, 3u}) {
      lddb::batch_solver solver(threads);
      search_result scratch;
      for (unsigned w = 0; w < threads; ++w)
        for (const query& q : qs) lddb::find_path(*db, map, q.start, q.goal, opt, solver.context(w), scratch);
      std::vector<search_result> results(qs.size());
      solver.solve(*db, map, qs, opt, results);
      for (int call = 0; call < 3; ++call) {
        const std::uint64_t n = allocations_during([&] { solver.solve(*db, map, qs, opt, results); });
        EXPECT_EQ(n, 0u) << db->movement().name() << ", " << threads << " thread(s), call " << call;
      }
      for (std::size_t i = 0; i < qs.size(); ++i) {
        EXPECT_EQ(results[i].status, want[i].status) << i;
        EXPECT_EQ(results[i].path, want[i].path) << i;
      }
    }
  }
}

}  // namespace
