// Benchmarks for the database itself: generation per rule, open + verify. (Lookups are in
// bench_search.cpp, with the other parts of a query.)
// Run: build/bench/bench_lddb [--benchmark_repetitions=5]. Needs the shipped lddb/ files.
#include <benchmark/benchmark.h>

#include <string>

#include "lddb/format.hpp"
#include "lddb/generator.hpp"

namespace {

const char* const kRules[] = {"tile", "octile", "any-angle"};

std::string shipped(int rule_index) {
  return std::string(LDDB_DEFAULT_DATA_DIR) + "/" + kRules[rule_index] + "-4.lddb";
}

// Generation as `lddb gen` does it: solve, deduplicate, compress (default recipe).
void BM_Generate(benchmark::State& state) {
  lddb::recipe rc;
  rc.movement = *lddb::rule::parse(kRules[state.range(0)]);
  rc.block = static_cast<int>(state.range(1));
  lddb::generate_options o;
  o.threads = static_cast<int>(state.range(2));
  std::size_t bytes = 0;
  for (auto _ : state) {
    const auto file = lddb::encode_database(lddb::generate(rc, o));
    bytes = file.size();
    benchmark::DoNotOptimize(file.data());
  }
  state.SetLabel(std::string(kRules[state.range(0)]) + " b=" + std::to_string(rc.block) + " threads=" +
                 std::to_string(o.threads));
  state.counters["file_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_Generate)
    ->ArgsProduct({{0, 1, 2}, {4}, {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_OpenVerify(benchmark::State& state) {
  const std::string path = shipped(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto r = lddb::database::open(path);
    if (!r) {
      state.SkipWithError(r.message.c_str());
      return;
    }
    benchmark::DoNotOptimize(r.db.get());
  }
  state.SetLabel(kRules[state.range(0)]);
}
BENCHMARK(BM_OpenVerify)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
