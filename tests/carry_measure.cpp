// carry_measure: ns per call of carry_ring against the side-by-side product
// carry_ring_brute, for each metric and ring size, on g-values from one lattice point (the
// usual shape: a front arriving from one place) and on random ones. A measurement for
// docs/benchmarks.md, not a test (carry_test checks the answers).
// Usage: carry_measure
#include <chrono>
#include <cstdio>
#include <vector>

#include "../runtime/src/search/block_astar/carry.hpp"
#include "lddb/cost.hpp"
#include "test_rng.hpp"

namespace ba = lddb::block_astar_impl;
using lddb::cost_t;
using lddb::kCostOne;

int main() {
  const struct {
    const char* name;
    ba::carry_metric m;
  } metrics[] = {{"manhattan", {ba::ring_metric::manhattan, kCostOne, 0, 0}},
                 {"octile", {ba::ring_metric::octile, kCostOne, lddb::kSqrt2Cost, 0}},
                 {"euclid", {ba::ring_metric::euclid, kCostOne, 0, 11}}};
  std::printf("| g | last | metric | carry_ring ns | product ns | product / carry_ring |\n|---|---|---|---|---|---|\n");
  for (const bool from_point : {true, false})
    for (const int last : {16, 32, 64, 128, 256})
      for (const auto& [name, m] : metrics) {
        lddb_test::rng r{42};
        const int n = 4 * last;
        std::vector<cost_t> g(static_cast<std::size_t>(n));
        const int px = -last / 2, py = last / 3;  // a point outside the square
        for (int s = 0; s < n; ++s) {
          int x = 0, y = 0;
          ba::ring_point(last, s, x, y);
          g[static_cast<std::size_t>(s)] =
              1000 * kCostOne + (from_point ? m.cost(x - px, y - py) : r.next() % (cost_t(8 * last) * kCostOne));
        }
        std::vector<cost_t> out(static_cast<std::size_t>(n));
        std::vector<std::int32_t> from(static_cast<std::size_t>(n));
        ba::carry_scratch scratch;
        const auto time = [&](auto&& call) {
          const int reps = 4000000 / (last * last) + 20;
          call();
          const auto t0 = std::chrono::steady_clock::now();
          for (int i = 0; i < reps; ++i) call();
          return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / reps;
        };
        const double fast = time([&] { ba::carry_ring(m, last, g.data(), out.data(), from.data(), scratch); });
        const double brute = time([&] { ba::carry_ring_brute(m, last, g.data(), out.data(), from.data()); });
        std::printf("| %s | %d | %s | %.0f | %.0f | %.1f |\n", from_point ? "from a point" : "random", last, name, fast,
                    brute, brute / fast);
      }
}
