// Microbenchmark of changing a rectangle of cells: grid_map::set_blocked_rect against the
// loop of set_blocked over the same cells, row by row, that it replaces.
//
// Workloads on a generated rooms map (rooms of 15 cells, b = 4) of 512 x 512 and
// 1024 x 1024 cells: an 8 x 8 patch (a door, a small building) and a 64 x 64 region at
// fixed-seed random places, each taking the cells of another level there (rooms of 20
// cells) and then its own back; a whole-map switch to that other level and back (17% of
// the cells change); and one to a map of 25% random obstacles and back (30% change). The
// maps keep no labels or views (no search has asked), as bench_search's BM_MapUpdate.
//
// Every benchmark reports `per_cell`, the CPU time per cell of the rectangle (changed or
// not; in seconds in JSON), and `changed`, the share of those cells that change.
// Run: build/bench/bench_rect [--benchmark_filter=...] [--benchmark_repetitions=5]
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "lddb/grid.hpp"
#include "lddb/mapgen.hpp"

namespace {

constexpr int kRoom = 15, kBlock = 4;
constexpr std::size_t kPlaces = 64;  // patch places cycled through

// Map `which` of a side: 0 the level, 1 another level, 2 random obstacles.
const lddb::grid_map& level(int side, int which) {
  static const auto make = [](int n) {
    return std::vector<lddb::grid_map>{lddb::make_rooms_map(n, n, kRoom, 1, kBlock), lddb::make_rooms_map(n, n, 20, 2, kBlock),
                                       lddb::make_random_map(n, n, 25, 3, kBlock)};
  };
  static const std::vector<lddb::grid_map> small = make(512), large = make(1024);
  return (side == 1024 ? large : small)[static_cast<std::size_t>(which)];
}

// One rectangle change: where, and the cells it writes (set_blocked_rect's packing).
struct patch {
  int x, y, w, h;
  std::vector<std::uint8_t> bits;
};

patch cells_of(const lddb::grid_map& m, int x, int y, int w, int h) {
  patch p{x, y, w, h, std::vector<std::uint8_t>((static_cast<std::size_t>(w) * static_cast<std::size_t>(h) + 7) / 8, 0)};
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i)
      if (m.blocked(x + i, y + j)) {
        const std::size_t k = static_cast<std::size_t>(j) * static_cast<std::size_t>(w) + static_cast<std::size_t>(i);
        p.bits[k >> 3] |= static_cast<std::uint8_t>(1u << (k & 7));
      }
  return p;
}

// The changes a workload cycles through: for each place the other map's cells, then the
// map's own again (so every pass starts from the same map).
std::vector<patch> workload(int side, int kind) {
  const lddb::grid_map &own = level(side, 0), &other = level(side, kind == 3 ? 2 : 1);
  std::vector<patch> out;
  if (kind >= 2) {
    out.push_back(cells_of(other, 0, 0, side, side));
    out.push_back(cells_of(own, 0, 0, side, side));
    return out;
  }
  const int n = kind == 0 ? 8 : 64;
  std::mt19937 rng(23);
  for (std::size_t i = 0; i < kPlaces; ++i) {
    const int x = static_cast<int>(rng() % static_cast<unsigned>(side - n + 1));
    const int y = static_cast<int>(rng() % static_cast<unsigned>(side - n + 1));
    out.push_back(cells_of(other, x, y, n, n));
    out.push_back(cells_of(own, x, y, n, n));
  }
  return out;
}

// What set_blocked_rect replaces: set_blocked on every cell, row by row, from the same bits.
void set_cells(lddb::grid_map& m, const patch& p) {
  for (int j = 0; j < p.h; ++j)
    for (int i = 0; i < p.w; ++i) {
      const std::size_t k = static_cast<std::size_t>(j) * static_cast<std::size_t>(p.w) + static_cast<std::size_t>(i);
      m.set_blocked(p.x + i, p.y + j, (p.bits[k >> 3] >> (k & 7)) & 1u);
    }
}

// Args: bulk (0: the loop of set_blocked, 1: set_blocked_rect; varied first, so that the
// two run one right after the other); side (512, 1024); workload (0: 8 x 8 patch,
// 1: 64 x 64 region, 2: whole map to another level, 3: whole map to random obstacles).
// Operation: one cell of a rectangle.
void BM_Rect(benchmark::State& state) {
  const bool bulk = state.range(0) != 0;
  const int side = static_cast<int>(state.range(1)), kind = static_cast<int>(state.range(2));
  lddb::grid_map map = level(side, 0);
  const std::vector<patch> changes = workload(side, kind);
  std::uint64_t changed = 0, cells = 0;
  {  // the share of cells that change, once through the cycle on a copy
    lddb::grid_map probe = map;
    for (const patch& p : changes) {
      const std::uint64_t before = probe.cells_freed() + probe.cells_blocked();
      probe.set_blocked_rect(p.x, p.y, p.w, p.h, p.bits);
      changed += probe.cells_freed() + probe.cells_blocked() - before;
      cells += static_cast<std::uint64_t>(p.w) * static_cast<std::uint64_t>(p.h);
    }
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const patch& p = changes[i];
    if (bulk) map.set_blocked_rect(p.x, p.y, p.w, p.h, p.bits);
    else set_cells(map, p);
    i = i + 1 == changes.size() ? 0 : i + 1;
  }
  benchmark::DoNotOptimize(map.double_corner_count());
  const double per_op = static_cast<double>(changes[0].w) * static_cast<double>(changes[0].h);
  state.SetItemsProcessed(static_cast<std::int64_t>(per_op * static_cast<double>(state.iterations())));
  state.counters["per_cell"] = benchmark::Counter(per_op * static_cast<double>(state.iterations()),
                                                  benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["changed"] = static_cast<double>(changed) / static_cast<double>(cells);
  const char* const names[] = {"8x8 patch", "64x64 region", "whole map", "whole map, random"};
  state.SetLabel(std::to_string(side) + "^2 " + names[kind] + (bulk ? " set_blocked_rect" : " set_blocked loop"));
}
BENCHMARK(BM_Rect)->ArgsProduct({{0, 1}, {512, 1024}, {0, 1, 2, 3}})->ArgNames({"bulk", "side", "workload"});

}  // namespace

BENCHMARK_MAIN();
