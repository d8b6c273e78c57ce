// Microbenchmarks of the pieces a query is made of: a database lookup, one Block A*
// expansion, one heap operation of the reference searches (A*, Theta*, Lazy Theta*), the
// any-angle line-of-sight test, a map update, and Block A*'s start/goal initialisation.
// Public headers only: what a game linking lddb_runtime can call.
//
// Every benchmark reports `per_op`, the CPU time of one operation (the operation is named
// in each comment; in seconds in JSON), so one table holds them all: scripts/bench_micro.sh.
// Inputs are fixed: a generated 512 x 512 rooms map and fixed-seed random choices, so two
// runs measure the same work. Needs the shipped lddb/*-4.lddb files.
// Run: build/bench/bench_search [--benchmark_filter=...] [--benchmark_repetitions=5]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "lddb/batch.hpp"
#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/mapgen.hpp"
#include "lddb/cost.hpp"
#include "lddb/rule.hpp"
#include "lddb/segments.hpp"
#include "lddb/point.hpp"
#include "lddb/search.hpp"
#include "lddb/find_path.hpp"

namespace {

const char* const kRules[] = {"tile", "octile", "any-angle"};
constexpr int kSide = 512, kRoom = 15, kBlock = 4;
constexpr std::uint64_t kMapSeed = 1;
constexpr std::size_t kInputs = 4096;  // random inputs cycled through (a power of two)

// `ops` operations were done in the timed loop: report CPU seconds per operation (an
// inverted rate: CPU time / ops) and operations per second.
void report_ops(benchmark::State& state, double ops) {
  state.SetItemsProcessed(static_cast<std::int64_t>(ops));
  state.counters["per_op"] = benchmark::Counter(ops, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

const lddb::grid_map& bench_map() {
  static const lddb::grid_map map = lddb::make_rooms_map(kSide, kSide, kRoom, kMapSeed, kBlock);
  return map;
}

// The shipped b = 4 database of rule `index`, opened once; null (and *error set) if missing.
std::shared_ptr<const lddb::database> shipped(int index, std::string* error) {
  static std::shared_ptr<const lddb::database> dbs[3];
  static std::string errors[3];
  if (!dbs[index] && errors[index].empty()) {
    auto r = lddb::database::open(std::string(LDDB_DEFAULT_DATA_DIR) + "/" + kRules[index] + "-4.lddb");
    if (r) dbs[index] = r.db;
    else errors[index] = r.message;
  }
  *error = errors[index];
  return dbs[index];
}

// The shipped database of rule state.range(0); null after marking the benchmark skipped.
std::shared_ptr<const lddb::database> database_for(benchmark::State& state) {
  std::string error;
  auto db = shipped(static_cast<int>(state.range(0)), &error);
  if (!db) state.SkipWithError(error.c_str());
  return db;
}

// A random start or goal on the bench map: a free cell, or for any-angle the top-left
// corner of a free cell (always usable).
lddb::point random_endpoint(std::mt19937& rng) {
  const lddb::grid_map& map = bench_map();
  for (;;) {
    const lddb::point p{static_cast<int>(rng() % kSide), static_cast<int>(rng() % kSide)};
    if (!map.blocked(p.x, p.y)) return p;
  }
}

using lddb::query;  // a start and a goal (lddb/batch.hpp)

// 32 random queries of the bench map that `search` (query -> found) answers, drawn from `seed`.
template <typename Search>
std::vector<query> found_queries(std::uint32_t seed, Search search) {
  std::mt19937 rng(seed);
  std::vector<query> queries;
  while (queries.size() < 32) {
    const query q{random_endpoint(rng), random_endpoint(rng)};
    if (search(q)) queries.push_back(q);
  }
  return queries;
}

// Database lookup: one database::cost for a random pattern and pair of boundary points.
// Operation: one lookup.
void BM_CostLookup(benchmark::State& state) {
  const auto db = database_for(state);
  if (!db) return;
  const int n = db->shape().boundary_count();
  std::mt19937 rng(7);
  std::vector<std::uint32_t> codes(kInputs);
  std::vector<int> as(kInputs), bs(kInputs);
  for (std::size_t i = 0; i < kInputs; ++i) {
    codes[i] = static_cast<std::uint32_t>(rng() & 0xFFFF);
    as[i] = static_cast<int>(rng() % static_cast<unsigned>(n));
    bs[i] = static_cast<int>(rng() % static_cast<unsigned>(n));
  }
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(db->cost(codes[i], as[i], bs[i]));
    i = (i + 1) & (kInputs - 1);
  }
  report_ops(state, static_cast<double>(state.iterations()));
  state.SetLabel(kRules[state.range(0)]);
}
BENCHMARK(BM_CostLookup)->DenseRange(0, 2);

// Block A* expansion: Block A* on 32 fixed random queries of the bench map (all found), warm
// context and reused result. Operation: one expanded node (search_stats::expanded: a block,
// or an open square for any-angle), so the figure includes each query's share of
// initialisation and path reconstruction.
void BM_BlockExpansion(benchmark::State& state) {
  const int index = static_cast<int>(state.range(0));
  const auto db = database_for(state);
  if (!db) return;
  const lddb::grid_map& map = bench_map();
  const lddb::search_options opt(lddb::default_heuristic(db->movement()));
  lddb::search_context ctx;
  lddb::search_result res;
  const std::vector<query> queries = found_queries(11, [&](const query& q) {
    lddb::find_path(*db, map, q.start, q.goal, opt, ctx, res);
    return res.found();
  });
  std::uint64_t expanded = 0;
  for (auto _ : state) {
    for (const query& q : queries) {
      lddb::find_path(*db, map, q.start, q.goal, opt, ctx, res);
      expanded += res.stats.expanded;
    }
    benchmark::DoNotOptimize(res.cost);
  }
  report_ops(state, static_cast<double>(expanded));
  const double per_pass = static_cast<double>(expanded) / static_cast<double>(queries.size());
  state.counters["nodes_per_query"] = benchmark::Counter(per_pass, benchmark::Counter::kAvgIterations);
  state.SetLabel(kRules[index]);
}
BENCHMARK(BM_BlockExpansion)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

// Reference searches: A* (octile), Theta* and Lazy Theta* (any-angle) on 32 fixed random
// queries of the bench map (all found), warm context and reused result. Operation: one heap
// operation (search_stats::heap_ops: a push, pop or decrease-key), so the figure is the
// search's whole time spread over its heap operations, not the heap's alone.
void BM_ReferenceSearch(benchmark::State& state) {
  static const char* const kNames[] = {"astar octile", "theta any-angle", "lazy-theta any-angle"};
  const int which = static_cast<int>(state.range(0));
  const lddb::rule r = which == 0 ? lddb::rule::octile() : lddb::rule::any_angle();
  const lddb::grid_map& map = bench_map();
  const lddb::search_options opt(lddb::default_heuristic(r));
  lddb::search_context ctx;
  lddb::search_result res;
  auto search = [&](const query& q) {
    if (which == 0)
      lddb::astar(r, map, q.start, q.goal, opt, ctx, res);
    else if (which == 1)
      lddb::theta_star(r, map, q.start, q.goal, opt, ctx, res);
    else
      lddb::lazy_theta_star(r, map, q.start, q.goal, opt, ctx, res);
  };
  const std::vector<query> queries = found_queries(13, [&](const query& q) {
    search(q);
    return res.found();
  });
  std::uint64_t heap_ops = 0;
  for (auto _ : state) {
    for (const query& q : queries) {
      search(q);
      heap_ops += res.stats.heap_ops;
    }
    benchmark::DoNotOptimize(res.cost);
  }
  report_ops(state, static_cast<double>(heap_ops));
  state.SetLabel(kNames[which]);
}
BENCHMARK(BM_ReferenceSearch)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

// Line of sight: segment_legal, the any-angle segment test of Theta*, Lazy Theta* and
// smoothing (lddb/segments.hpp), on random legal segments of the bench map whose coordinates
// differ by at most range(1): a legal segment is walked to its end, so this is the full
// price of a test of that length (a failing test stops at the first blocked cell).
// range(0) = 1 allows squeezing, which skips the double-corner check. Operation: one test.
void BM_LineOfSight(benchmark::State& state) {
  const lddb::rule r = lddb::rule::any_angle(state.range(0) ? lddb::squeezing::allowed : lddb::squeezing::forbidden);
  const int span = static_cast<int>(state.range(1));
  const lddb::grid_map& map = bench_map();
  std::mt19937 rng(17);
  std::vector<query> segments;
  double length = 0;
  while (segments.size() < kInputs) {
    query s;
    s.start = random_endpoint(rng);
    auto offset = [&] { return static_cast<int>(rng() % static_cast<unsigned>(2 * span + 1)) - span; };
    s.goal = {std::clamp(s.start.x + offset(), 0, kSide), std::clamp(s.start.y + offset(), 0, kSide)};
    if (!lddb::segment_legal(r, map, s.start.x, s.start.y, s.goal.x, s.goal.y)) continue;
    segments.push_back(s);
    length += lddb::path_length({s.start, s.goal});
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const query& s = segments[i];
    benchmark::DoNotOptimize(lddb::segment_legal(r, map, s.start.x, s.start.y, s.goal.x, s.goal.y));
    i = (i + 1) & (kInputs - 1);
  }
  report_ops(state, static_cast<double>(state.iterations()));
  state.counters["mean_length"] = length / static_cast<double>(kInputs);
  state.SetLabel(r.name() + " span " + std::to_string(span));
}
BENCHMARK(BM_LineOfSight)->ArgsProduct({{0, 1}, {8, 64}});

// Map update: grid_map::set_blocked on random cells of (a copy of) the bench map, half of
// them blocking and half freeing, so its density stays put. Operation: one set_blocked.
void BM_MapUpdate(benchmark::State& state) {
  lddb::grid_map map = bench_map();
  std::mt19937 rng(19);
  struct change {
    int x, y;
    bool blocked;
  };
  std::vector<change> changes(kInputs);
  for (auto& c : changes) c = {static_cast<int>(rng() % kSide), static_cast<int>(rng() % kSide), (rng() & 1) != 0};
  std::size_t i = 0;
  for (auto _ : state) {
    const change& c = changes[i];
    map.set_blocked(c.x, c.y, c.blocked);
    i = (i + 1) & (kInputs - 1);
  }
  benchmark::DoNotOptimize(map.block_code(0, 0));
  report_ops(state, static_cast<double>(state.iterations()));
  state.SetLabel("b=4");
}
BENCHMARK(BM_MapUpdate);

// Start/goal initialisation: block_astar_begin on random queries of the bench map (it
// checks both endpoints, searches the start's and goal's blocks locally and seeds OPEN,
// expanding nothing). Operation: one block_astar_begin.
void BM_BlockAstarBegin(benchmark::State& state) {
  const int index = static_cast<int>(state.range(0));
  const auto db = database_for(state);
  if (!db) return;
  const lddb::grid_map& map = bench_map();
  const lddb::search_options opt(lddb::default_heuristic(db->movement()));
  lddb::search_context ctx;
  std::mt19937 rng(23);
  std::vector<query> queries(kInputs);
  for (auto& q : queries) q = {random_endpoint(rng), random_endpoint(rng)};
  std::size_t i = 0;
  for (auto _ : state) {
    const query& q = queries[i];
    benchmark::DoNotOptimize(lddb::block_astar_begin(*db, map, q.start, q.goal, opt, ctx).status);
    i = (i + 1) & (kInputs - 1);
  }
  report_ops(state, static_cast<double>(state.iterations()));
  state.SetLabel(kRules[index]);
}
BENCHMARK(BM_BlockAstarBegin)->DenseRange(0, 2);

}  // namespace

BENCHMARK_MAIN();
