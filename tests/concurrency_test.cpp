// Concurrency: one database and one map shared by many threads, each with its own
// search_context, give exactly the answers a single thread gives (lddb/search.hpp and
// lddb/format.hpp promise: a database is immutable and safe from any number of threads; a
// search_context belongs to one thread; every search is deterministic).
//
// 8 threads x 10,000 Block A* queries, every rule (the shipped tile, octile and any-angle
// databases), on one shared rooms map. Each result is compared with the same query solved
// beforehand on the main thread: status, fixed-point cost, the whole path and the number
// of blocks expanded must be identical. Each thread walks the queries in its own order, so
// the threads' warm contexts hold different leftovers from earlier queries.
//
// The plain build runs this in a few seconds; under ThreadSanitizer (scripts/sanitize.sh)
// the map is smaller so that the same thread and query counts finish in a few minutes.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"
#include "test_rng.hpp"
#include "lddb/segments.hpp"

#if defined(__SANITIZE_THREAD__)
#define LDDB_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LDDB_UNDER_TSAN 1
#endif
#endif
#ifndef LDDB_UNDER_TSAN
#define LDDB_UNDER_TSAN 0
#endif

namespace {

using lddb::point;

constexpr int kThreads = 8;
constexpr int kQueriesPerThread = 10'000;
#if LDDB_UNDER_TSAN
constexpr int kSide = 48;       // TSan: short queries
constexpr int kDistinct = 300;  // distinct queries per rule
#else
constexpr int kSide = 96;
constexpr int kDistinct = 400;
#endif

using lddb_test::rng;

std::shared_ptr<const lddb::database> open_shipped(const std::string& name) {
  const auto r = lddb::database::open(std::string(LDDB_SOURCE_DIR) + "/lddb/" + name);
  if (!r) ADD_FAILURE() << "cannot open the shipped database: " << r.message;
  return r.db;
}

struct query {
  int db;  // 0 tile, 1 octile, 2 any-angle
  point start, goal;
};

struct answer {
  lddb::search_status status;
  lddb::cost_t cost;
  std::vector<point> path;
  std::uint64_t expanded;
  friend bool operator==(const answer&, const answer&) = default;
};

answer solve(const lddb::database& db, const lddb::grid_map& map, const query& q, lddb::search_context& ctx) {
  const lddb::search_result r =
      lddb::find_path(db, map, q.start, q.goal, lddb::search_options(lddb::default_heuristic(db.movement())), ctx);
  return {r.status, r.cost, r.path, r.stats.expanded};
}

std::string text(const query& q) {
  static const char* names[3] = {"tile", "octile", "any-angle"};
  return std::string(names[q.db]) + " (" + std::to_string(q.start.x) + "," + std::to_string(q.start.y) + ") -> (" +
         std::to_string(q.goal.x) + "," + std::to_string(q.goal.y) + ")";
}

TEST(Concurrency, SharedDatabasesAndMapGiveTheSingleThreadAnswers) {
  const std::array<std::shared_ptr<const lddb::database>, 3> dbs = {open_shipped("tile-4.lddb"), open_shipped("octile-4.lddb"),
                                                                     open_shipped("any-angle-4.lddb")};
  for (const auto& db : dbs) ASSERT_TRUE(db);
  const lddb::grid_map map = lddb::make_rooms_map(kSide, kSide, 7, 3, 4);

  // Queries: mostly free endpoints (cells; usable vertices), a few arbitrary ones so that
  // invalid starts and goals are shared too.
  rng r{42};
  std::vector<query> queries;
  for (int d = 0; d < 3; ++d)
    for (int i = 0; i < kDistinct; ++i) {
      query q{d, {}, {}};
      const int ex = d == 2 ? 1 : 0;
      for (point* p : {&q.start, &q.goal}) {
        do {
          *p = {r.below(kSide + ex), r.below(kSide + ex)};
        } while (i % 50 != 0 && (d == 2 ? !lddb::vertex_usable(map, p->x, p->y) : map.blocked(p->x, p->y)));
      }
      queries.push_back(q);
    }

  // The answers of one thread, first.
  std::vector<answer> expected;
  {
    lddb::search_context ctx;
    for (const query& q : queries) expected.push_back(solve(*dbs[static_cast<std::size_t>(q.db)], map, q, ctx));
  }
  int found = 0;
  for (const answer& a : expected) found += a.status == lddb::search_status::found;
  ASSERT_GT(found, static_cast<int>(queries.size()) / 2) << "too few queries have a path to make the test meaningful";

  // Then every thread, each walking the queries in its own order, on its own context.
  std::atomic<bool> go{false};
  std::array<int, kThreads> mismatches{};
  std::array<std::string, kThreads> first_mismatch;
  std::array<int, kThreads> done{};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      lddb::search_context ctx;
      const std::size_t n = queries.size();
      // A stride coprime with n (a prime above 5; n = 3 * kDistinct has the factors 2, 3, 5):
      // each thread cycles through every query, in its own order.
      static constexpr std::array<std::size_t, kThreads> kStrides = {7, 11, 13, 17, 19, 23, 29, 31};
      const std::size_t stride = kStrides[static_cast<std::size_t>(t)];
      std::size_t at = static_cast<std::size_t>(t) * 131 % n;
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      for (int i = 0; i < kQueriesPerThread; ++i) {
        at = (at + stride) % n;
        const query& q = queries[at];
        const answer a = solve(*dbs[static_cast<std::size_t>(q.db)], map, q, ctx);
        if (!(a == expected[at])) {
          if (mismatches[static_cast<std::size_t>(t)]++ == 0)
            first_mismatch[static_cast<std::size_t>(t)] =
                text(q) + ": status " + lddb::search_status_name(a.status) + " (expected " +
                lddb::search_status_name(expected[at].status) + "), cost " + std::to_string(a.cost) + " (expected " +
                std::to_string(expected[at].cost) + "), " + std::to_string(a.path.size()) + " points (expected " +
                std::to_string(expected[at].path.size()) + "), expanded " + std::to_string(a.expanded) +
                " (expected " + std::to_string(expected[at].expanded) + ")";
        }
        ++done[static_cast<std::size_t>(t)];
      }
    });
  go.store(true, std::memory_order_release);
  for (auto& th : threads) th.join();

  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(done[static_cast<std::size_t>(t)], kQueriesPerThread) << "thread " << t;
    EXPECT_EQ(mismatches[static_cast<std::size_t>(t)], 0)
        << "thread " << t << ": " << mismatches[static_cast<std::size_t>(t)] << " answers differ from the single-thread "
        << "answers; the first: " << first_mismatch[static_cast<std::size_t>(t)];
  }
}

// Opening databases is safe in parallel too: every thread opens the same file and the same
// bytes and reads the same header and the same costs.
TEST(Concurrency, OpeningInParallelReadsTheSameDatabase) {
  const std::string path = std::string(LDDB_SOURCE_DIR) + "/lddb/octile-4.lddb";
  const auto reference = lddb::database::open(path);
  ASSERT_TRUE(reference) << reference.message;
  const lddb::database& ref = *reference.db;
  std::vector<std::uint8_t> bytes;
  {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    ASSERT_NE(f, nullptr);
    std::uint8_t buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) bytes.insert(bytes.end(), buf, buf + n);
    std::fclose(f);
  }
  std::array<int, kThreads> bad{};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int k = 0; k < 4; ++k) {
        const auto r = (k + t) % 2 ? lddb::database::open(path) : lddb::database::open_bytes(bytes, "octile-4 bytes");
        if (!r) {
          ++bad[static_cast<std::size_t>(t)];
          continue;
        }
        const lddb::database& db = *r.db;
        if (db.info().canonical_patterns != ref.info().canonical_patterns || db.info().cost_tables != ref.info().cost_tables ||
            !(db.movement() == ref.movement()))
          ++bad[static_cast<std::size_t>(t)];
        const int n = db.shape().boundary_count();
        for (std::uint32_t code = static_cast<std::uint32_t>(t); code < 65536; code += 997)
          for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
              if (db.stored_cost(code, a, b) != ref.stored_cost(code, a, b)) ++bad[static_cast<std::size_t>(t)];
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(bad[static_cast<std::size_t>(t)], 0) << "thread " << t;
}

}  // namespace
