// bench_prepare: what lddb::prepare costs per map (docs/benchmarks.md, "Preparation").
//
// For every map of MAPS_DIR (*.map below it, sorted) and each rule of the shipped
// databases (tile, octile, any-angle):
//  - plan: what the measured rule chose (landmarks, open squares), after prepare's check
//    of the first landmarks' gain (landmarks then 0: dropped, see lddb/prepare.hpp);
//  - first: the default prepare call (prepare_mode::slices: what the first query can use),
//    the thread's CPU time, median of --runs N fresh maps;
//  - whole: the rest by prepare_step in slices of kDefaultStepWork, summed, and the longest
//    slice;
//  - bytes: what the preparation holds when ready;
//  - set_blocked: ns a call, blocking and freeing random free cells in turn on the prepared
//    map (the changes undone at once, so the map stays as loaded), and the prepare_step
//    that then repairs the tables after each free, as a game would call it every frame.
//
// Usage: bench_prepare MAPS_DIR DATA_DIR [--runs N] [--rule RULE]
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "lddb/format.hpp"
#include "lddb/grid.hpp"
#include "lddb/map_file.hpp"
#include "lddb/prepare.hpp"
#include "lddb/splitmix.hpp"

namespace {

double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct figures {
  double first_ms = 0, rest_ms = 0, longest_slice_ms = 0, set_blocked_ns = 0, repair_us = 0;
  std::size_t bytes = 0;
  int first_landmarks = 0;
  lddb::preparation_plan plan;  // as prepare left it: the landmarks dropped where they do not pay
};

figures measure(const lddb::database& db, const lddb::grid_map& loaded, std::uint64_t seed) {
  figures f;
  lddb::grid_map map = loaded;
  double t0 = cpu_ms();
  const lddb::preparation_report first = lddb::prepare(db, map);
  f.first_ms = cpu_ms() - t0;
  f.first_landmarks = first.landmarks_built;
  f.plan = first.plan;
  for (;;) {
    t0 = cpu_ms();
    const bool done = lddb::prepare_step(map);
    const double slice = cpu_ms() - t0;
    f.rest_ms += slice;
    f.longest_slice_ms = std::max(f.longest_slice_ms, slice);
    if (done) break;
  }
  f.bytes = lddb::preparation_of(map, db.movement())->bytes;
  // set_blocked on the prepared map: a free cell blocked and freed again, 2 calls.
  std::vector<lddb::grid_map::cell> cells;
  std::uint64_t s = seed;
  while (cells.size() < 4096) {
    const int x = static_cast<int>(lddb::splitmix64(s) % static_cast<std::uint64_t>(map.width()));
    const int y = static_cast<int>(lddb::splitmix64(s) % static_cast<std::uint64_t>(map.height()));
    if (!map.blocked(x, y)) cells.push_back({x, y});
  }
  t0 = cpu_ms();
  for (int round = 0; round < 16; ++round)
    for (const auto& c : cells) {
      map.set_blocked(c.x, c.y, true);
      map.set_blocked(c.x, c.y, false);
    }
  f.set_blocked_ns = (cpu_ms() - t0) * 1e6 / (16.0 * 2.0 * static_cast<double>(cells.size()));
  while (!lddb::prepare_step(map, ~std::uint64_t{0} >> 1)) {
  }
  // One cell closed and reopened, then the repair a frame's prepare_step does.
  std::vector<double> repairs;
  for (int k = 0; k < 64; ++k) {
    const auto& c = cells[static_cast<std::size_t>(k)];
    map.set_blocked(c.x, c.y, true);
    map.set_blocked(c.x, c.y, false);
    t0 = cpu_ms();
    while (!lddb::prepare_step(map)) {
    }
    repairs.push_back((cpu_ms() - t0) * 1e3);
  }
  f.repair_us = median(repairs);
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_prepare MAPS_DIR DATA_DIR [--runs N] [--rule RULE]\n");
    return 2;
  }
  const std::string maps_dir = argv[1], data_dir = argv[2];
  int runs = 5;
  std::vector<std::string> rules = {"tile", "octile", "any-angle"};
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--runs") runs = std::max(1, std::atoi(argv[i + 1]));
    else if (a == "--rule") rules = {argv[i + 1]};
    else {
      std::fprintf(stderr, "bench_prepare: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  std::vector<std::string> maps;
  std::error_code ec;
  for (std::filesystem::recursive_directory_iterator it(maps_dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".map") maps.push_back(it->path().string());
  std::sort(maps.begin(), maps.end());
  if (maps.empty()) {
    std::fprintf(stderr, "bench_prepare: no .map file below %s\n", maps_dir.c_str());
    return 1;
  }
  std::printf("thread CPU time; first and whole: median of %d fresh copies of the map\n\n", runs);
  std::printf("| map | rule | plan | first (ms) | landmarks then | rest (ms, in slices) | longest slice (ms) | MiB | set_blocked (ns) | one-cell repair (µs) |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string& rule_name : rules) {
    const std::string path = data_dir + "/" + rule_name + "-4.lddb";
    const lddb::database::open_result opened = lddb::database::open(path);
    if (!opened) {
      std::fprintf(stderr, "bench_prepare: %s\n", opened.message.c_str());
      return 1;
    }
    for (const std::string& m : maps) {
      std::string error;
      const std::optional<lddb::grid_map> loaded = lddb::load_map(m, &error, 4);
      if (!loaded) {
        std::fprintf(stderr, "bench_prepare: %s\n", error.c_str());
        return 1;
      }
      std::vector<figures> all;
      for (int r = 0; r < runs; ++r) all.push_back(measure(*opened.db, *loaded, 1 + static_cast<std::uint64_t>(r)));
      auto med = [&](auto field) {
        std::vector<double> v;
        for (const figures& f : all) v.push_back(static_cast<double>(f.*field));
        return median(v);
      };
      const lddb::preparation_plan& plan = all[0].plan;
      std::printf("| %s | %s | %d landmarks, squares %s | %.1f | %d | %.1f | %.2f | %.1f | %.1f | %.1f |\n",
                  std::filesystem::path(m).stem().string().c_str(), rule_name.c_str(), plan.landmarks,
                  plan.open_squares ? "on" : "off", med(&figures::first_ms), all[0].first_landmarks,
                  med(&figures::rest_ms), med(&figures::longest_slice_ms),
                  static_cast<double>(all[0].bytes) / (1024.0 * 1024.0), med(&figures::set_blocked_ns),
                  med(&figures::repair_us));
      std::fflush(stdout);
    }
  }
  return 0;
}
